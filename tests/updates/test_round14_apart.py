"""Round 14's kept-apart part (see test_round14_cases.py): each third case as written, reported
once at the end of the round, never iterated on."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons
from .test_round14_cases import ALL

CASES: list[Case] = [c for i, c in enumerate(ALL) if i % 3 == 2]

#: cases the read path does not pass, and why (read once, at the end of the round)
NOT_YET: dict[str, str] = {
    "drove-york": "kept apart: fails at the split and at the end of round 14 (not investigated)",
    "nike": "kept apart: passes at the split, fails at the end of round 14: 'my new trainers from Nike' is taken "
            "as had, a statement of the holder, and leads 'Which gym does Cat go to?' (not investigated further)",
}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round14_apart(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)
