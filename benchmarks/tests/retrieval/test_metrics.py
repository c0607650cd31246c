"""Every metric against values computed by hand (see the comments)."""

from __future__ import annotations

import math

import pytest

from ripplemem_bench.retrieval.metrics import (
    context_tokens,
    dcg,
    evidence_all,
    evidence_recall,
    ndcg,
    ranked_turns,
    recall_all,
    recall_any,
    session_scores,
    strip_turn_id,
    turn_scores,
    widened_k,
)

UNITS = [("D1:1", "D1:2"), ("D2:3",), ("D1:3", "D1:1")]


def test_locomo_evidence_recall() -> None:
    gold = {"D1:3", "D2:3", "D5:5"}
    assert evidence_recall(UNITS, gold, 1) == 0.0
    assert evidence_recall(UNITS, gold, 2) == pytest.approx(1 / 3)
    assert evidence_recall(UNITS, gold, 3) == pytest.approx(2 / 3)
    assert evidence_recall(UNITS, gold, 30) == pytest.approx(2 / 3)  # K beyond the list


def test_locomo_evidence_all() -> None:
    gold = ["D1:3", "D2:3"]
    assert evidence_all(UNITS, gold, 2) == 0.0
    assert evidence_all(UNITS, gold, 3) == 1.0
    assert evidence_all(UNITS, ["D1:2"], 1) == 1.0


def test_locomo_metrics_need_gold() -> None:
    with pytest.raises(ValueError):
        evidence_recall(UNITS, [], 5)
    with pytest.raises(ValueError):
        evidence_all(UNITS, [], 5)


def test_context_tokens() -> None:
    assert context_tokens([5, 7, 11], 2) == 12
    assert context_tokens([5, 7, 11], 30) == 23
    assert context_tokens([], 30) == 0


def test_ranked_turns_keeps_first_occurrence_and_maps() -> None:
    assert ranked_turns([("a", "b"), ("b", "c"), ("d",)]) == ["a", "b", "c", "d"]
    mapping = {"a": "A", "b": "B", "d": "A"}.get  # c leaves the corpus; d maps onto A
    assert ranked_turns([("a", "b"), ("b", "c"), ("d",)], mapping=mapping) == ["A", "B"]


def test_dcg_weighs_ranks_one_and_two_equally() -> None:
    # official: rel[0] + sum(rel[1:] / log2(arange(2, n + 1)))
    assert dcg([1, 0], 2) == dcg([0, 1], 2) == 1.0
    assert dcg([1, 1, 1], 3) == pytest.approx(2 + 1 / math.log2(3))  # 2.6309...
    assert dcg([1, 1, 1], 2) == 2.0
    assert dcg([], 5) == 0.0
    assert dcg([0, 0, 0, 1], 4) == pytest.approx(0.5)  # rank 4 -> 1/log2(4)


def test_ndcg_official() -> None:
    corpus = ["a", "b", "c", "d", "e"]
    ranked = ["a", "b", "c", "d"]
    gold = {"b", "d"}
    # k=3: actual [0,1,0] -> 1; ideal [1,1,0] -> 2
    assert ndcg(ranked, gold, corpus, 3) == pytest.approx(0.5)
    # k=4: actual [0,1,0,1] -> 1 + 1/2; ideal [1,1,0,0] -> 2 (standard DCG would give 0.651)
    assert ndcg(ranked, gold, corpus, 4) == pytest.approx(0.75)
    assert ndcg(ranked, set(), corpus, 4) == 0.0


def test_recall_any_and_all() -> None:
    ranked, gold = ["a", "b", "c", "d"], {"b", "d"}
    assert (recall_any(ranked, gold, 1), recall_all(ranked, gold, 1)) == (0.0, 0.0)
    assert (recall_any(ranked, gold, 2), recall_all(ranked, gold, 2)) == (1.0, 0.0)
    assert (recall_any(ranked, gold, 4), recall_all(ranked, gold, 4)) == (1.0, 1.0)
    # no gold: any() of nothing is False, all() of nothing is True (as in the official code)
    assert (recall_any(ranked, [], 3), recall_all(ranked, [], 3)) == (0.0, 1.0)


def test_turn_scores_bundle() -> None:
    scores = turn_scores(["a", "b", "c", "d"], {"b", "d"}, ["a", "b", "c", "d", "e"], 4)
    assert (scores.recall_any, scores.recall_all, scores.ndcg) == (1.0, 1.0, pytest.approx(0.75))


def test_strip_turn_id() -> None:
    assert strip_turn_id("answer_4be1b6b4_2_3") == "answer_4be1b6b4_2"
    assert strip_turn_id("sharegpt_x_0_11") == "sharegpt_x_0"


RANKED = ["s1_1", "s1_3", "s2_1", "s1_5", "s3_1", "s2_3"]
CORPUS = RANKED + ["s4_1"]


def test_session_widening() -> None:
    sessions = [strip_turn_id(t) for t in RANKED]  # s1 s1 s2 s1 s3 s2
    assert widened_k(sessions, 1, len(CORPUS)) == 1
    assert widened_k(sessions, 2, len(CORPUS)) == 3  # top 2 hold only s1
    assert widened_k(sessions, 3, len(CORPUS)) == 5  # s3 first appears at rank 5
    # a ranking that never covers k sessions widens past the corpus size and stops
    assert widened_k(["s1"], 3, 2) == 3


def test_session_scores_with_widening() -> None:
    gold = ["s3_1"]
    at2 = session_scores(RANKED, gold, CORPUS, 2)  # effective k = 3: s1, s1, s2
    assert (at2.recall_any, at2.recall_all, at2.ndcg) == (0.0, 0.0, 0.0)
    at3 = session_scores(RANKED, gold, CORPUS, 3)  # effective k = 5: s3 at rank 5
    assert (at3.recall_any, at3.recall_all) == (1.0, 1.0)
    # actual [0,0,0,0,1] -> 1/log2(5); ideal [1,0,0,0,0] -> 1
    assert at3.ndcg == pytest.approx(1 / math.log2(5))
    # at turn level the same ranking misses s3_1 in the top 3
    assert turn_scores(RANKED, gold, CORPUS, 3).recall_any == 0.0


def test_session_ndcg_counts_every_turn_of_a_gold_session() -> None:
    gold = ["s1_1", "s1_5"]  # -> gold session s1, which has three corpus turns
    at1 = session_scores(RANKED, gold, CORPUS, 1)
    assert at1.ndcg == 1.0
    at2 = session_scores(RANKED, gold, CORPUS, 2)  # effective k = 3: s1 s1 s2
    # actual [1,1,0] -> 2; ideal [1,1,1] -> 2 + 1/log2(3)
    assert at2.ndcg == pytest.approx(2 / (2 + 1 / math.log2(3)))
    assert (at2.recall_any, at2.recall_all) == (1.0, 1.0)


def test_noans_turns_form_a_different_session() -> None:
    corpus = ["answer_x_1", "noans_x_3", "other_1"]
    ranked = ["noans_x_3", "answer_x_1", "other_1"]
    at1 = session_scores(ranked, ["answer_x_1"], corpus, 1)
    assert (at1.recall_any, at1.ndcg) == (0.0, 0.0)  # noans_x is not the gold session
    at2 = session_scores(ranked, ["answer_x_1"], corpus, 2)  # two distinct sessions already
    # rank 2 weighs as much as rank 1: ndcg 1.0
    assert (at2.recall_any, at2.recall_all, at2.ndcg) == (1.0, 1.0, 1.0)
