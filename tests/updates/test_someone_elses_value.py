"""A person the holder names by a noun ("my brother", "my dad", "my sister") is someone else: what
they do or have is their value, not the holder's, whether or not it acts on something ("my
brother has switched to Everton", "my dad has taken up cycling"). In the holder's own words
such a clause is what is not so for the holder, so it goes below a memory of theirs that answers
without being read ("Swimming training on Mondays is exhausting"); beside a statement of the
holder's own in the same memory it is no rival to it ("I took up rowing in April, but my dad
still plays tennis" states rowing). Conversations of their own, written before the rule."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .dialogues import Sessions, add_sessions, first_rank


def _add(memory: Memory, sessions: Sessions) -> None:
    add_sessions(memory, ("Leo", "Lu"), sessions)


@pytest.mark.parametrize(
    ("earlier", "later", "question", "true", "false"),
    [
        (
            "Lyon in winter is grey but the food makes up for it.",
            "My sister has just moved to Madrid.",
            "Where does Leo live?", "lyon", "madrid",
        ),
        (
            "Swimming training on Mondays is exhausting.",
            "My dad has taken up cycling, he's obsessed.",
            "What sport does Leo do?", "swimming", "cycling",
        ),
        (
            "Leeds were rubbish again on Saturday.",
            "My brother has switched to Everton, can you believe it.",
            "Which team does Leo support?", "leeds", "everton",
        ),
    ],
)
def test_a_relatives_value_goes_below_an_unread_memory_of_the_holder(
    memory: Memory, earlier: str, later: str, question: str, true: str, false: str
) -> None:
    _add(memory, [
        ("2022-01-10", [("Leo", earlier), ("Lu", "Ha.")]),
        ("2023-02-02", [("Leo", later), ("Lu", "Wow.")]),
    ])
    assert first_rank(memory, question, true) < first_rank(memory, question, false)


def test_a_relatives_value_is_no_rival_to_the_holders_statement(memory: Memory) -> None:
    _add(memory, [
        ("2021-03-03", [("Leo", "I play tennis at the club every Saturday morning."), ("Lu", "Nice.")]),
        ("2021-09-09", [("Leo", "I took up rowing in April, but my dad still plays tennis."), ("Lu", "Good for you.")]),
    ])
    question = "What sport does Leo do?"
    assert first_rank(memory, question, "rowing") < first_rank(memory, question, "saturday morning")


def test_what_a_relative_does_to_the_holders_thing_stays_the_holders_value(memory: Memory) -> None:
    _add(memory, [
        ("2022-01-10", [("Leo", "My rent is 900 a month for a one-bedroom."), ("Lu", "Not bad.")]),
        ("2023-02-02", [("Leo", "My landlord has put my rent up to 975 from March."), ("Lu", "Ouch.")]),
    ])
    question = "How much rent does Leo pay?"
    assert first_rank(memory, question, "975") < first_rank(memory, question, "900")
