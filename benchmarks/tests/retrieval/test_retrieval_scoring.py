"""Scorers on hand-built evidence (real records, no memory needed)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from ripplemem import get_recipe
from ripplemem.datasets import load_locomo, load_longmemeval
from ripplemem.records import Evidence, MemoryUnit
from ripplemem_bench.retrieval.scoring import LocomoScorer, LongMemEvalScorer
from ripplemem_bench.tokens import count_tokens


def _evidence(*units: tuple[str, tuple[str, ...]]) -> list[Evidence]:
    return [
        Evidence(
            unit=MemoryUnit(
                id=f"u{i}", namespace="ns", restatement=text, vector=None, participants=(),
                locations=(), time_span=None, episode_id="e", turn_ids=turns, session_time=None,
                created_at=datetime(2024, 1, 1),
            ),
            score=1.0 - i / 100,
            hits=(),
        )
        for i, (text, turns) in enumerate(units)
    ]


def test_locomo_scorer(locomo_file: Path) -> None:
    [sample] = load_locomo(locomo_file)
    recipes = {"dense": get_recipe("dense"), "short": get_recipe("dense", budget=10)}
    scorer = LocomoScorer(recipes, details=True)
    admitted = [q for q in sample.questions if scorer.admit(q)]
    assert [q.id for q in admitted] == ["conv-x:q0", "conv-x:q1", "conv-x:q2", "conv-x:q4"]
    assert scorer.scored == 3
    assert dict(scorer.excluded) == {"no_evidence": 1, "adversarial": 1}
    found = _evidence(("Ana adopted Pixel in Porto.", ("D1:1", "D1:3")), ("Ben runs.", ("D2:1",)))
    for name in recipes:
        for question in admitted:
            scorer.score(name, question, found)
    summary = scorer.summary("dense").to_json()
    assert summary["budget"] == 30
    metrics = summary["metrics"]
    assert "recall@50" not in metrics  # above the budget
    # q0 gold {D1:3}: 1; q1 gold {D1:1}: 1; q2 gold {D1:1, D2:3}: 1/2
    assert metrics["recall@5"] == pytest.approx((1 + 1 + 0.5) / 3)
    assert metrics["all@30"] == pytest.approx(2 / 3)
    tokens = count_tokens("Ana adopted Pixel in Porto.") + count_tokens("Ben runs.")
    assert metrics["context_tokens@30"] == pytest.approx(tokens)
    assert summary["per_category"]["open-domain"]["questions"] == 1
    assert summary["per_category"]["open-domain"]["recall@10"] == 0.5
    assert summary["per_category"]["single-hop"]["questions"] == 1
    assert summary["adversarial"]["questions"] == 1 and summary["adversarial"]["recall@5"] == 1.0  # D2:1
    assert len(summary["per_question"]) == 4
    assert "recall@20" not in scorer.summary("short").to_json()["metrics"]


def test_longmemeval_scorer(lme_json: Path) -> None:
    scorer = LongMemEvalScorer({"dense": get_recipe("dense")})
    samples = list(load_longmemeval(lme_json))
    admitted = [s.question for s in samples if scorer.admit(s.question)]
    assert [q.id for q in admitted] == ["q1"]
    assert dict(scorer.excluded) == {"abstention": 1, "no_gold": 1}
    question = admitted[0]
    # unit 1 covers an assistant turn (dropped) and a noise user turn; unit 2 the gold turn
    found = _evidence(("x", ("noise_1_2", "noise_1_1")), ("y", ("answer_s2_1", "answer_s2_3")))
    row = scorer.score("dense", question, found)
    # ranked corpus ids: noise_1_1, answer_s2_1, noans_s2_3
    assert row["turn_recall_any@1"] == 0.0 and row["turn_recall_all@3"] == 1.0
    assert row["turn_ndcg@3"] == 1.0  # gold at rank 2 weighs like rank 1
    # sessions: noise_1, answer_s2, noans_s2 -> k=1 covers noise_1 only
    assert row["session_recall_any@1"] == 0.0 and row["session_recall_all@3"] == 1.0
    assert row["turns_returned"] == 3.0 and row["units_returned"] == 2.0
    summary = scorer.summary("dense").to_json()
    assert summary["per_question_type"]["single-session-user"]["questions"] == 1
    assert summary["metrics"]["session_recall_all@3"] == 1.0
