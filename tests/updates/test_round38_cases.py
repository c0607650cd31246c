"""Update situations of round 38: a reply with no verb to a question about how something is
("How's the knee?" / "Healed, finally. Back to running with the club on Sundays."), which says
what it says of that thing only with the question; and, as a control, such a reply about
someone else's thing. Written before any rule for them, before any run of them. Two thirds of
them (every case but each third one as written) are this file; the rest is
test_round38_apart.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ripplemem import Memory

from .exchanges import Exchange, build, holds
from .round4 import with_reasons

ALL = [
    Exchange("knee-healed", "current", "Bea",
             ("2023-03-06", (("a", "My knee is injured, the physio says no running for a month."),)),
             ("2023-05-15", (("Kim", "How's the knee?"),
                             ("a", "Healed, finally. Back to running with the club on Sundays and it feels great."))),
             "Is Bea's knee still injured?", "Healed, finally", "knee is injured"),
    Exchange("flat-above-bakery", "current", "Rui",
             ("2022-09-05", (("a", "I live in a shared house on Carter Street with four others."),)),
             ("2023-02-20", (("Ana", "How's the new flat?"),
                             ("a", ("Tiny but lovely, right above the bakery on Mill Lane. I wake up to the smell "
                                   "of bread every morning.")))),
             "Where does Rui live?", "above the bakery", "shared house on Carter"),
    Exchange("brothers-job", "control", "Tess",
             ("2022-11-07", (("a", "I work at the library on Elm Road, in the archive mostly."),)),
             ("2023-04-03", (("Sol", "How's your brother's new job at the bank?"),
                             ("a", "Stressful, long hours in the mortgage team. He's already looking around."))),
             "Where does Tess work?", "library on Elm Road", "job at the bank"),
]

CASES: list[Exchange] = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass yet, and why
NOT_YET: dict[str, str] = {
    "knee-healed": "'Healed, finally.' after 'How's the knee?' is read alone: the parse takes 'Healed' for a verb, "
                   "so the reply is no fragment to read with the question, and a question of how something is "
                   "has no place for a value ('the knee is healed' is not derived)",
}


@pytest.fixture(scope="module")
def asked(embedder) -> Iterator[Memory]:
    with build(CASES, embedder) as opened:
        yield opened


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round38_cases(asked: Memory, case: Exchange) -> None:
    assert holds(asked, case)
