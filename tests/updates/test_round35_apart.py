"""Round 35's kept-apart part (see test_round35_cases.py): each third case as written, reported
once at the end of the round, never iterated on."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ripplemem import Memory

from .exchanges import Exchange, build, holds
from .round4 import with_reasons
from .test_round35_cases import ALL

CASES: list[Exchange] = [c for i, c in enumerate(ALL) if i % 3 == 2]

#: cases the read path does not pass, and why (read once, at the end of the round)
NOT_YET: dict[str, str] = {
    "out-of-hackney": "the move ('Getting out of Hackney was the best decision, Walthamstow is so much calmer') "
                      "shares no word with 'Where does Tom live?' and ranks below the small talk, outside the "
                      "memories read, so nothing ties it to 'Tom lives in Hackney'",
}


@pytest.fixture(scope="module")
def asked(embedder) -> Iterator[Memory]:
    with build(CASES, embedder) as opened:
        yield opened


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round35_apart(asked: Memory, case: Exchange) -> None:
    assert holds(asked, case)
