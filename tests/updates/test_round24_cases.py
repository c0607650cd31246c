"""Update situations of round 24, written before any rule of that round, after round 21's
kept-apart case that failed ("Sometimes I dream that I work at a bookshop by the sea"): what one
dreams, pretends, imagines or hopes in a "that" clause is not taken as given, whatever the parse
makes of the clause; what one knows or says beside a new value keeps it.
Two thirds of them (every case but each third one as written): the part the rules of that round
are developed against; the rest is test_round24_apart.py."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

ALL = [
    Case("cottage-dream", "control", "Pia",
         ("2022-03-07", "I live in a small flat in Croydon."),
         ("2022-09-12", "Sometimes I dream that I live in a cottage in Cornwall."),
         "Where do I live?", "Croydon", "Cornwall"),
    Case("mi5-pretend", "control", "Raj",
         ("2021-05-03", "I work in accounts at the paper mill."),
         ("2021-11-15", "At parties I pretend that I work for MI5, it's a laugh."),
         "Where do I work?", "paper mill", "MI5"),
    Case("tesla-imagine", "control", "Ola",
         ("2023-01-23", "I drive an old Ford Fiesta to work."),
         ("2023-07-31", "On the motorway I imagine that I drive a red Tesla."),
         "What car do I drive?", "Fiesta", "Tesla"),
    Case("choir-hope", "control", "Ada",
         ("2022-02-14", "I sing alto in the church choir."),
         ("2022-08-29", "I hope that I get into the chamber choir next term."),
         "Which choir do I sing in?", "church choir", "chamber choir"),
    Case("know-tesla", "current", "Ola",
         ("2023-01-23", "I drive an old Ford Fiesta to work."),
         ("2023-07-31", "I know that I sound smug, but I drive a red Tesla now."),
         "What car do I drive?", "Tesla", "Fiesta"),
    Case("dream-came-true", "current", "Pia",
         ("2022-03-07", "I live in a small flat in Croydon."),
         ("2022-09-12", "I always dreamed of the sea, and now I live in a cottage in Cornwall."),
         "Where do I live?", "Cornwall", "Croydon"),
]
#: the part the rules are developed against (each third case as written is kept apart)
CASES = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass, and why
NOT_YET: dict[str, str] = {}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round24_cases(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)
