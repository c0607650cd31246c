"""Update situations of round 26, written before any rule of that round, after controls of the
blind update suite's tune split (benchmarks/data/updates_blind.json): a yes-or-no question in
the simple past about a change ("Did I switch to Octopus?", "Did Maya move to Bristol?") that
only a plan, a stay, someone else's change or a thought said, against the same question when the
change did happen.
Two thirds of them (every case but each third one as written): the part the rules of that round
are developed against; the rest is test_round26_apart.py."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

ALL = [
    Case("octopus-going-to", "control", "Dev",
         ("2022-02-21", "We're with EDF for our gas and electricity."),
         ("2022-08-08", "I was going to switch us to Octopus, but I never got round to it."),
         "Did I switch to Octopus?", "EDF", "Octopus"),
    Case("bristol-course", "control", "Maya",
         ("2023-01-09", "I live in Leeds with my partner, near the park."),
         ("2023-06-19", "I'm in Bristol for two weeks on a course, back on the 30th."),
         "Did Maya move to Bristol?", "Leeds", "Bristol"),
    Case("tesla-brother", "control", "Jon",
         ("2021-04-12", "I drive a grey Skoda Octavia."),
         ("2021-10-18", "My brother bought a Tesla last week, he won't shut up about it."),
         "Did I buy a Tesla?", "Skoda", "Tesla"),
    Case("climbing-thinking", "control", "Ana",
         ("2022-05-16", "I go to PureGym on weekday mornings."),
         ("2022-11-21", "I was thinking of joining the climbing gym in town."),
         "Did I join the climbing gym?", "PureGym", "climbing"),
    Case("octopus-switched", "current", "Dev",
         ("2022-02-21", "We're with EDF for our gas and electricity."),
         ("2022-08-08", "We finally switched to Octopus in March, the app is great."),
         "Did we switch to Octopus?", "Octopus", "EDF"),
    Case("bristol-moved", "current", "Maya",
         ("2023-01-09", "I live in Leeds with my partner, near the park."),
         ("2023-06-19", "We moved to Bristol in May, still unpacking boxes."),
         "Did Maya move to Bristol?", "Bristol", "Leeds"),
]
#: the part the rules are developed against (each third case as written is kept apart)
CASES = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass, and why
NOT_YET: dict[str, str] = {
    "climbing-thinking": "the memory of the true value ('I go to PureGym') is more than 0.25 less relevant than the "
                         "thought of joining the climbing gym: it does not answer, so the thought keeps its place",
}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round26_cases(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)
