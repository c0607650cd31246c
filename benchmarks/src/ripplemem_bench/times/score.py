"""Whether the grounded times of a message match the spans its suite case expects.

An expected span is *found* when one grounded time's days start and end within the tolerance of
its grain (:data:`TOLERANCE`: none for a day, one for a week or a month): a week read Sunday
to Saturday, a season read astronomically (21 June to 22 September for a summer the
case counts 1 June to 31 August) or a range whose end is read as exclusive are the same answer
told another way. A case passes when every expected span is found and, for a message that names
no definite time, when nothing is grounded to a span.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from ripplemem.grounding.time_rules import GroundedTime
from ripplemem_bench.times.cases import Expected, TimeCase

__all__ = ["TOLERANCE", "CaseScore", "day_span", "score_case"]

#: days by which a grounded span's first and last day may differ from the expected ones
TOLERANCE: dict[str, int] = {
    "day": 0, "weekend": 1, "week": 1, "range": 1, "month": 1, "quarter": 1, "season": 31, "year": 1,
}


def day_span(start: datetime, end: datetime) -> tuple[date, date]:
    """A grounded span as inclusive days (an end at midnight after its start closes the day before)."""
    last = end - timedelta(microseconds=1) if end > start and end.time() == datetime.min.time() else end
    return start.date(), last.date()


@dataclass(frozen=True, slots=True)
class CaseScore:
    id: str
    lang: str
    category: str
    passed: bool
    expected: int
    found: int  # expected spans found
    grounded: list[tuple[str, str, str]]  # (phrase, first day, last day) of each grounded span
    missed: list[str]  # the phrases of the expected spans not found

    def to_json(self) -> dict:
        return {
            "id": self.id, "lang": self.lang, "category": self.category, "passed": self.passed,
            "expected": self.expected, "found": self.found,
            "grounded": [list(g) for g in self.grounded], "missed": self.missed,
        }


def _matches(expected: Expected, span: tuple[date, date]) -> bool:
    slack = timedelta(days=TOLERANCE[expected.grain])
    return abs(span[0] - expected.start) <= slack and abs(span[1] - expected.end) <= slack


def score_case(case: TimeCase, times: Sequence[GroundedTime]) -> CaseScore:
    spans = [(t.phrase, day_span(t.span.start, t.span.end)) for t in times if t.span is not None]
    missed = [e.phrase for e in case.expect if not any(_matches(e, span) for _, span in spans)]
    found = len(case.expect) - len(missed)
    passed = not missed and (bool(case.expect) or not spans)
    return CaseScore(
        id=case.id, lang=case.lang, category=case.category, passed=passed,
        expected=len(case.expect), found=found,
        grounded=[(phrase, first.isoformat(), last.isoformat()) for phrase, (first, last) in spans],
        missed=missed,
    )
