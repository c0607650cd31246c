"""Round 29's kept-apart part (see test_round29_cases.py): each third case as written, reported
once at the end of the round, never iterated on."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons
from .test_round29_cases import ALL

CASES: list[Case] = [c for i, c in enumerate(ALL) if i % 3 == 2]

#: cases the read path does not pass, and why (read once, at the end of the round)
NOT_YET: dict[str, str] = {
    "son-kobo": "the son's purchase reads as his, but the memory of the true value ('I read on a Kindle "
                "Paperwhite') is more than 0.25 less relevant than it and does not answer, so nothing goes below it",
}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round29_apart(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)
