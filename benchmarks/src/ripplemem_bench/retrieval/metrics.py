"""Retrieval metrics, as pure functions over ranked ids (reference §3).

LoCoMo (turn-level evidence): the top-K returned *units* are mapped to their source turns;
``evidence_recall`` is the share of a question's gold dia_ids among them, ``evidence_all`` is 1
when all are, ``context_tokens`` the tokens of the K restatements (see :mod:`.tokens`).

LongMemEval (official ``src/retrieval/eval_utils.py`` of xiaowu0162/LongMemEval, reproduced
exactly): ``recall_any``, ``recall_all`` and ``ndcg`` at k over a ranking of corpus ids, where the
DCG weighs ranks 1 and 2 equally (``rel[0] + sum(rel[1:] / log2(arange(2, n + 1)))``) and the ideal
DCG is that of the whole corpus's relevances sorted; ``session_scores`` maps turn ids to sessions
and widens k until the top ``k'`` turns cover k distinct sessions. With no gold, ``recall_any`` is
0 and ``recall_all`` is 1 (Python's ``any`` / ``all`` of nothing), as in the official code.

A system whose units are not turns flattens its units into ranked turn ids with
:func:`ranked_turns` (rank order, first occurrence kept).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass

LOCOMO_KS: tuple[int, ...] = (5, 10, 20, 30, 50)
LONGMEMEVAL_KS: tuple[int, ...] = (1, 3, 5, 10, 30, 50)


@dataclass(frozen=True, slots=True)
class RetrievalScores:
    recall_any: float
    recall_all: float
    ndcg: float


def ranked_turns(
    units_turn_ids: Iterable[Sequence[str]],
    *,
    mapping: Callable[[str], str | None] | None = None,
) -> list[str]:
    """Flatten units' source turns in rank order, keeping each id's first occurrence.

    ``mapping`` renames each turn id (e.g. to an official corpus id); ids it maps to None are
    dropped (turns outside the corpus, such as LongMemEval assistant turns).
    """
    seen: dict[str, None] = {}
    for turn_ids in units_turn_ids:
        for turn_id in turn_ids:
            target = mapping(turn_id) if mapping else turn_id
            if target is not None and target not in seen:
                seen[target] = None
    return list(seen)


# --- LoCoMo -----------------------------------------------------------------------------------


def covered_turns(units_turn_ids: Sequence[Sequence[str]], k: int) -> set[str]:
    return {turn_id for turn_ids in units_turn_ids[:k] for turn_id in turn_ids}


def evidence_recall(units_turn_ids: Sequence[Sequence[str]], gold: Collection[str], k: int) -> float:
    """Share of the gold turn ids found in the source turns of the top-k units."""
    gold_set = set(gold)
    if not gold_set:
        raise ValueError("evidence_recall needs at least one gold turn id")
    return len(gold_set & covered_turns(units_turn_ids, k)) / len(gold_set)


def evidence_all(units_turn_ids: Sequence[Sequence[str]], gold: Collection[str], k: int) -> float:
    """1.0 when every gold turn id is among the source turns of the top-k units, else 0.0."""
    gold_set = set(gold)
    if not gold_set:
        raise ValueError("evidence_all needs at least one gold turn id")
    return float(gold_set <= covered_turns(units_turn_ids, k))


def context_tokens(token_counts: Sequence[int], k: int) -> int:
    """Tokens of the top-k restatements, given each unit's count in rank order."""
    return int(sum(token_counts[:k]))


# --- LongMemEval (official) -------------------------------------------------------------------


def dcg(relevances: Sequence[float], k: int) -> float:
    """Official DCG: ranks 1 and 2 both get weight 1 (log2(2) = 1), rank i>1 gets 1/log2(i)."""
    top = list(relevances)[:k]
    if not top:
        return 0.0
    return float(top[0]) + sum(rel / math.log2(rank) for rank, rel in enumerate(top[1:], start=2))


def ndcg(ranked: Sequence[str], gold: Collection[str], corpus: Sequence[str], k: int) -> float:
    """Official NDCG@k; ``corpus`` lists every corpus id (repeats allowed), for the ideal DCG."""
    gold_set = set(gold)
    ideal = dcg(sorted((1 if doc in gold_set else 0 for doc in corpus), reverse=True), k)
    if ideal == 0:
        return 0.0
    return dcg([1 if doc in gold_set else 0 for doc in ranked[:k]], k) / ideal


def recall_any(ranked: Sequence[str], gold: Collection[str], k: int) -> float:
    top = set(ranked[:k])
    return float(any(doc in top for doc in gold))


def recall_all(ranked: Sequence[str], gold: Collection[str], k: int) -> float:
    top = set(ranked[:k])
    return float(all(doc in top for doc in gold))


def turn_scores(
    ranked: Sequence[str], gold: Collection[str], corpus: Sequence[str], k: int
) -> RetrievalScores:
    """Official ``evaluate_retrieval`` at k."""
    return RetrievalScores(
        recall_any(ranked, gold, k), recall_all(ranked, gold, k), ndcg(ranked, gold, corpus, k)
    )


def strip_turn_id(turn_id: str) -> str:
    """Official ``strip_turn_id``: ``"<session_id>_<n>"`` -> ``"<session_id>"``."""
    return "_".join(turn_id.split("_")[:-1])


def widened_k(ranked_sessions: Sequence[str], k: int, corpus_size: int) -> int:
    """Official widening: grow k until the top k' entries hold k distinct sessions."""
    effective = k
    while effective <= corpus_size and len(set(ranked_sessions[:effective])) < k:
        effective += 1
    return effective


def session_scores(
    ranked: Sequence[str], gold: Collection[str], corpus: Sequence[str], k: int
) -> RetrievalScores:
    """Official ``evaluate_retrieval_turn2session``: turn ids -> sessions, k widened."""
    gold_sessions = {strip_turn_id(doc) for doc in gold}
    corpus_sessions = [strip_turn_id(doc) for doc in corpus]
    ranked_sessions = [strip_turn_id(doc) for doc in ranked]
    effective = widened_k(ranked_sessions, k, len(corpus_sessions))
    return turn_scores(ranked_sessions, gold_sessions, corpus_sessions, effective)
