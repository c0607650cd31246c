"""Update situations of round 23: a change announced with its onset ("we're moving the newsletter
to Thursdays from next month", "I'm switching to nights starting in March"), asked about once
that time has come. A rule was drafted on one case of the fresh update suite's tune split
(benchmarks/data/updates_fresh.json, fresh-27-q3: the progressive of a memory whose time lies
ahead stays present when its time phrase is an onset that has come by the question's time),
these cases were written before it was run on them, and it was dropped: visits are announced
with an onset too ("I'm staying in Rome from Friday"), and no structure tells a change of state
from a stay. They stay as a record of what is not detected. Controls: an arrangement at a point
in time (a trip, an event), an onset under a modal, someone else's onset.
Two thirds of them (every case but each third one as written): the part the rules of that round
are developed against; the rest is test_round23_apart.py."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

ALL = [
    Case("newsletter-thursday", "current", "Kenji",
         ("2022-02-07", "Our newsletter goes out every Monday morning."),
         ("2022-08-15", "We're moving the newsletter to Thursdays from next month."),
         "Which day does our newsletter go out?", "Thursday", "Monday"),
    Case("days-three", "current", "Ines",
         ("2021-03-01", "I work four days a week at the practice."),
         ("2021-09-06", "I'm going down to three days a week starting in November."),
         "How many days a week do I work?", "three days", "four days"),
    Case("shift-nights", "current", "Omar",
         ("2023-01-16", "I'm on the early shift at the depot."),
         ("2023-02-13", "I'm switching to nights from the first of March, better pay."),
         "Which shift do I work?", "nights", "early shift"),
    Case("rent-950", "current", "Bea",
         ("2022-01-10", "My rent is 900 a month for the studio."),
         ("2022-08-22", "The landlord wrote, so I'm paying 950 a month from October."),
         "How much rent do I pay?", "950", "900"),
    Case("bmw-saturday", "control", "Ivo",
         ("2023-04-03", "I drive a little Fiat Panda."),
         ("2023-09-04", "I'm driving my dad's BMW to the wedding on Saturday."),
         "What car do I drive?", "Panda", "BMW"),
    Case("nights-might", "control", "Omar",
         ("2023-01-16", "I'm on the early shift at the depot."),
         ("2023-02-13", "I might be switching to nights from March if they ask again."),
         "Which shift do I work?", "early shift", "nights"),
    Case("sister-nights", "control", "Ines",
         ("2021-03-01", "I'm on the early shift at the hospital."),
         ("2021-09-06", "My sister is switching to nights from October."),
         "Which shift do I work?", "early shift", "nights"),
    Case("rome-friday", "control", "Bea",
         ("2022-01-10", "I live in a studio flat in Bristol."),
         ("2022-08-22", "I'm staying in Rome from Friday, back on the twelfth."),
         "Where do I live?", "Bristol", "Rome"),
]
#: the part the rules are developed against (each third case as written is kept apart)
CASES = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass, and why
NOT_YET: dict[str, str] = {
    "rent-950": "'The landlord wrote, so I'm paying 950': the parse hangs the payment from 'wrote', so it reads as "
                "the landlord's words about the speaker",
}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round23_cases(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)
