"""Round 23's kept-apart part (see test_round23_cases.py): each third case as written, reported
once at the end of the round, never iterated on."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons
from .test_round23_cases import ALL

CASES: list[Case] = [c for i, c in enumerate(ALL) if i % 3 == 2]

#: cases the read path does not pass, and why (read once, at the end of the round)
NOT_YET: dict[str, str] = {
}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round23_apart(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)
