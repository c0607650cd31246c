"""Phrasings of a question's own time kept apart while read/when.py's ``time_first`` was
written (tests/read/test_when_range.py has the others), run once it was done: the first failed
then on one memory ("painted the spare bedroom", said on 15 May, naming no time), which that
version of the stage left in its place as one that may report the week; the stage now reads it
as of the day it was said, as these tests always did."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .test_when_range import ASKED, _day, memory  # noqa: F401  (the module's memory fixture)


@pytest.mark.parametrize(
    ("question", "first", "last"),
    [
        ("What did I get up to in the second week of May?", "2024-05-06", "2024-05-12"),
        ("What was I doing during the week of 6 May 2024?", "2024-05-06", "2024-05-12"),
    ],
)
def test_the_memories_of_the_week_asked_about_come_first(memory: Memory, question: str, first: str, last: str) -> None:  # noqa: F811
    ranked = list(memory.search(question, user_id="maya", question_time=ASKED).evidence)
    inside = [i for i, e in enumerate(ranked) if first <= _day(e).date().isoformat() <= last]
    outside = [i for i, e in enumerate(ranked) if not first <= _day(e).date().isoformat() <= last]
    assert inside and outside
    assert max(inside) < min(outside), [(e.unit.restatement[:40], _day(e).date()) for e in ranked]
