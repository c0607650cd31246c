"""Round 32's kept-apart part (see test_round32_cases.py): each third case as written, reported
once at the end of the round, never iterated on (an early run of the whole updates suite, before
the heading fix, listed two of them failing: 'correction-to-what-i-said', which passes since, and
'on-holiday-this-week'; no rule was changed for them)."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons
from .test_round32_cases import ALL

CASES: list[Case] = [c for i, c in enumerate(ALL) if i % 3 == 2]

#: cases the read path does not pass, and why (read once, at the end of the round)
NOT_YET: dict[str, str] = {
    "on-holiday-this-week": "being somewhere now with a trip's purpose ('on holiday') or a length around now "
    "('this week') is not read as a stay: passes with the stays patch, which lost one held-out control",
}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round32_apart(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)
