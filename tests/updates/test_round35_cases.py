"""Update situations of round 35: a change told by naming the old value ("Left Velvet Static in
March", "Sold the Micra last week!") beside the new value in words of its own, which share
little with the question; and, as controls, a later memory that names the old value without
changing it. Written after the rule they test was measured on the tune splits (a later statement
that names a value an earlier one gives speaks of the same thing), before any run of them.
Two thirds of them (every case but each third one as written) are this file; the rest is
test_round35_apart.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ripplemem import Memory

from .exchanges import Exchange, build, holds
from .round4 import with_reasons

ALL = [
    Exchange("left-the-band", "current", "Ola",
             ("2022-09-05", (("a", "I play keys in Velvet Static, we gig most Fridays."),)),
             ("2023-04-17", (("a", "Left Velvet Static in March. The Low Tides needed a keyboardist, so that's me now."),)),
             "Which band does Ola play in?", "The Low Tides", "keys in Velvet Static"),
    Exchange("sold-the-micra", "current", "Femi",
             ("2021-11-08", (("a", "I drive a Nissan Micra, old but reliable."),)),
             ("2022-06-20", (("a", "Sold the Micra last week! Got myself a second-hand Yaris hybrid."),)),
             "What car does Femi drive?", "Yaris hybrid", "Nissan Micra, old"),
    Exchange("out-of-hackney", "current", "Tom",
             ("2023-02-13", (("a", "I live in Hackney, ten minutes from the canal."),)),
             ("2023-10-30", (("a", "Getting out of Hackney was the best decision, Walthamstow is so much calmer."),)),
             "Where does Tom live?", "Walthamstow", "ten minutes from the canal"),
    Exchange("marshside-lido", "current", "Dana",
             ("2022-05-09", (("a", "I swim at the Marshside Lido every morning before work."),)),
             ("2022-11-14", (("a", "Gave up on Marshside, far too cold. Doing my lengths at the Quayside centre now."),)),
             "Where does Dana swim?", "Quayside centre", "Marshside Lido every"),
    Exchange("still-at-arlo", "control", "Kit",
             ("2023-01-09", (("a", "I'm a barista at Arlo's on the high street."),)),
             ("2023-07-03", (("Sol", "My brother just got a job at Beanfield, the new roastery."),
                             ("a", "Nice. Arlo's is mad busy these days, I barely sit down."))),
             "Where does Kit work?", "barista at Arlo", "job at Beanfield"),
    Exchange("back-to-velo", "current", "Ines",
             ("2022-03-21", (("a", "I ride with the Velo Club on Sunday mornings."),)),
             ("2022-09-26", (("a", "Quit the Velo Club, too competitive. I do the gravel rides with the Dustmen crew now."),)),
             "Which cycling group does Ines ride with?", "Dustmen crew", "Velo Club on Sunday"),
]

CASES: list[Exchange] = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass yet, and why
NOT_YET: dict[str, str] = {}


@pytest.fixture(scope="module")
def asked(embedder) -> Iterator[Memory]:
    with build(CASES, embedder) as opened:
        yield opened


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round35_cases(asked: Memory, case: Exchange) -> None:
    assert holds(asked, case)
