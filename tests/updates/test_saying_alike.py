"""A change told in words of its own (read/supersession.py ``saying_alike``): a later memory of
the holder that speaks of the same thing as a memory that answers (each among the other's
nearest of the first ranks) and names a value it does not is read with it, so the latest
stated value leads; one that names no new value (or only a person) moves nothing.
(For a yes-or-no question, one said before the answering memory is read too: round 26's
octopus-going-to.)"""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds

CASES = [
    Case("allotment-club", "current", "Ravi",
         ("2022-03-07", "On Saturdays I help out at the Greenway allotment society."),
         ("2023-04-17", "These days my Saturdays go to the Riverside repair cafe, fixing toasters."),
         "Where does Ravi volunteer on Saturdays?", "Riverside", "Greenway"),
    Case("choir-part", "current", "Ines",
         ("2022-09-12", "In the Hallam choir I sing second alto, the bottom line."),
         ("2023-10-02", "The director moved me up, I'm first soprano for the Christmas concert."),
         "What part does Ines sing in the choir?", "soprano", "second alto"),
    Case("focus-stick", "control", "Carl",
         ("2023-02-12", "I commute in my Ford Focus, forty minutes each way."),
         ("2023-04-12", "I'm tempted by a motorbike, but Anna would kill me, so I'll stick to the Focus."),
         "What vehicle does Carl commute in?", "Ford Focus", "motorbike"),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_a_change_said_alike_leads(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)
