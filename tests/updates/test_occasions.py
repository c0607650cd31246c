"""One occasion of a habit is no new habit (read/latest_first.py ``_occasions``): after "I take the
number 12 bus to work every day", "I took the train to Bristol on Saturday" tells what happened on
one past day with the habit's own verb, not how the holder gets to work now; a change says so ("I
take the train to work now", "I've switched to the train"). Each text of one past day is said
with its own time ("on Saturday", "last Sunday"), the habit in the present."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .exchanges import Exchange, holds
from .round4 import with_reasons

CASES = [
    Exchange("bus-not-one-train", "control", "Hugh",
             ("2024-05-06", (("a", "I take the number 12 bus to work every day."),)),
             ("2024-05-27", (("a", "I took the train to Bristol for my aunt's birthday on Saturday."),)),
             "How does Hugh get to work?", "number 12 bus", "train to Bristol"),
    Exchange("riverside-not-one-visit", "control", "Noor",
             ("2024-03-04", (("a", "I play tennis at the Riverside club on Sundays."),)),
             ("2024-04-15", (("a", "Played tennis at the Northside courts last Sunday with my cousin."),)),
             "Where does Noor play tennis?", "Riverside club", "Northside courts"),
    Exchange("train-now", "current", "Hugh",
             ("2024-05-06", (("a", "I take the number 12 bus to work every day."),)),
             ("2024-05-27", (("a", "I take the train to work now, the bus got too slow."),)),
             "How does Hugh get to work?", "train to work now", "number 12 bus"),
    Exchange("switched-to-train", "current", "Ada",
             ("2024-05-06", (("a", "I take the number 12 bus to work every day."),)),
             ("2024-06-10", (("a", "I've switched to the train for my commute, it's much faster."),)),
             "How does Ada get to work?", "switched to the train", "number 12 bus"),
]

#: cases the read path does not pass yet, and why
NOT_YET: dict[str, str] = {}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_one_occasion_of_a_habit(exchange_memory: Memory, case: Exchange) -> None:
    assert holds(exchange_memory, case)
