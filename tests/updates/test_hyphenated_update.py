"""Q5-4: a thing named by a word joined by hyphens ("five-a-side") moved months later: the later
memory answers what holds now. Split, "five" was read as a number value and the organiser's
"five-a-side" as an adverbial, so the move did not read as a new value of the same thing."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .ranking import rank_of

NS = "kim"


@pytest.fixture(scope="module")
def memory():
    with Memory.open("memory://") as opened:
        opened.add([
            {"speaker": "Kim", "text": "Work was long today, I'm shattered."},
            {"speaker": "Sam", "text": "Anything fun this week?"},
            {"speaker": "Kim", "text": "I play five-a-side on Tuesdays."},
        ], user_id=NS, session_time="2023-03-06")
        opened.add([
            {"speaker": "Sam", "text": "How is the team doing?"},
            {"speaker": "Kim", "text": "The organiser moved five-a-side to Thursdays."},
            {"speaker": "Kim", "text": "The pitch by the school is being resurfaced."},
        ], user_id=NS, session_time="2023-09-11")
        yield opened


@pytest.mark.parametrize("question", ["When is five-a-side?", "What day is five-a-side now?"])
def test_the_later_move_ranks_first(memory, question) -> None:
    later = rank_of(memory, question, NS, "Thursdays")
    earlier = rank_of(memory, question, NS, "Tuesdays")
    assert later == 0 and later < earlier
