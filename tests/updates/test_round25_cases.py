"""Update situations of round 25, written before any rule of that round, after the kept-apart
cases of rounds 21 and 24 that failed ("Sometimes I dream that I work at a bookshop by the sea",
"On the motorway I imagine that I drive a red Tesla"): a sentence that opens with a phrase of
time or place, and a "that" clause under a verb of dreaming, pretending, imagining or wishing,
which the parse may hang as a clause of another kind. Currents: the new value beside such a verb
in a clause of its own, or under a verb of knowing.
Two thirds of them (every case but each third one as written): the part the rules of that round
are developed against; the rest is test_round25_apart.py."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

ALL = [
    Case("bakery-dream", "control", "Noa",
         ("2022-04-04", "I work as a nurse at St Thomas' hospital."),
         ("2022-10-17", "At night I dream that I run a bakery in Paris."),
         "Where do I work?", "St Thomas", "bakery"),
    Case("penthouse-pretend", "control", "Eli",
         ("2021-06-07", "I live in a bedsit in Salford."),
         ("2021-12-13", "Some days I pretend that I live in a penthouse in Manchester."),
         "Where do I live?", "Salford", "penthouse"),
    Case("ducati-imagine", "control", "Teo",
         ("2023-03-20", "I ride a little Honda scooter to college."),
         ("2023-09-25", "In traffic I imagine that I ride a Ducati."),
         "What do I ride?", "Honda", "Ducati"),
    Case("devon-wish", "control", "Mae",
         ("2022-01-31", "I work at the office in Reading, five days a week."),
         ("2022-07-11", "Most mornings I wish that I worked from a cabin in Devon."),
         "Where do I work?", "Reading", "Devon"),
    Case("lyon-but", "current", "Noa",
         ("2022-04-04", "I work as a nurse at St Thomas' hospital."),
         ("2022-10-17", "At night I dream of Paris, but I work at a bakery in Lyon now."),
         "Where do I work?", "Lyon", "St Thomas"),
    Case("penthouse-realise", "current", "Eli",
         ("2021-06-07", "I live in a bedsit in Salford."),
         ("2021-12-13", "Some days I realise that I live in a penthouse now, it's surreal."),
         "Where do I live?", "penthouse", "Salford"),
]
#: the part the rules are developed against (each third case as written is kept apart)
CASES = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass, and why
NOT_YET: dict[str, str] = {}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round25_cases(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)
