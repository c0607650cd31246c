"""Scoring one recall of an update question.

* ``current`` / ``control``: passed when a unit of an evidence turn is in the top 3 and ranks
  above every unit of a stale turn (an outdated value, or a false update).
* ``history``: passed when every evidence turn has a unit in the top 10.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ripplemem.records import Evidence
from ripplemem_bench.updates.cases import QuestionModel

CURRENT_DEPTH = 3
HISTORY_DEPTH = 10


@dataclass(frozen=True, slots=True)
class QuestionScore:
    id: str
    kind: str
    passed: bool
    evidence_rank: int | None  # 0-based rank of the best evidence unit
    stale_rank: int | None  # 0-based rank of the best stale unit

    def to_json(self) -> dict:
        return {
            "id": self.id, "kind": self.kind, "passed": self.passed,
            "evidence_rank": self.evidence_rank, "stale_rank": self.stale_rank,
        }


def _first_rank(evidence: Sequence[Evidence], turns: set[str]) -> int | None:
    for rank, item in enumerate(evidence):
        if turns.intersection(item.unit.turn_ids):
            return rank
    return None


def score_question(question: QuestionModel, evidence: Sequence[Evidence]) -> QuestionScore:
    best = _first_rank(evidence, set(question.evidence))
    stale = _first_rank(evidence, set(question.stale)) if question.stale else None
    if question.kind == "history":
        top = evidence[:HISTORY_DEPTH]
        passed = all(_first_rank(top, {turn}) is not None for turn in question.evidence)
    else:
        passed = best is not None and best < CURRENT_DEPTH and (stale is None or best < stale)
    return QuestionScore(question.id, question.kind, passed, best, stale)


def summarise(scores: Sequence[QuestionScore]) -> dict[str, dict[str, float | int]]:
    """Per kind: questions, passed, share (in %)."""
    out: dict[str, dict[str, float | int]] = {}
    for kind in ("current", "history", "control"):
        rows = [s for s in scores if s.kind == kind]
        passed = sum(s.passed for s in rows)
        out[kind] = {
            "questions": len(rows),
            "passed": passed,
            "share": round(100.0 * passed / len(rows), 1) if rows else 0.0,
        }
    return out
