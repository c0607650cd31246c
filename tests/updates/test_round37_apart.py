"""Round 37's kept-apart part (see test_round37_cases.py): each third case as written, reported
once at the end of the round, never iterated on."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ripplemem import Memory

from .exchanges import Exchange, build, holds
from .round4 import with_reasons
from .test_round37_cases import ALL

CASES: list[Exchange] = [c for i, c in enumerate(ALL) if i % 3 == 2]

#: cases the read path does not pass, and why (read once, at the end of the round)
NOT_YET: dict[str, str] = {
    "salary-not-service": "'Paid 300 for the car service this week' says alike 'I earn 42,000 a year at the council' "
                          "(two sums of money) and is said later, so it reads as the same thing told anew; "
                          "requiring a shared word or a near relevance of what says alike fixed it but lost four "
                          "changes told in words of their own (rounds 14, 17 and 27: 'Treated myself to an iPhone "
                          "15 Pro' after 'My phone is a Samsung Galaxy S10')",
}


@pytest.fixture(scope="module")
def asked(embedder) -> Iterator[Memory]:
    with build(CASES, embedder) as opened:
        yield opened


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round37_apart(asked: Memory, case: Exchange) -> None:
    assert holds(asked, case)
