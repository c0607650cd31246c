"""Controls for clauses taken as given: a relative or adverbial clause that tells someone else's
change, a plan, a declined offer or a future step must not lead over the holder's current value.
Written after the rule of test_presupposed.py and before any further rule, on topics of their
own; each conversation has small talk around it like the other update tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ripplemem import Memory, Settings

from .ranking import rank_of

SMALL_TALK = [
    ("Sam", "Did you catch the game last night?"),
    ("Sam", "I'm repainting the fence this weekend."),
    ("Sam", "The new bakery on the corner is very good."),
]

#: user -> (earlier session, later session, question, true value words, false update words)
CONTROLS = {
    "friend": (
        ("2023-01-10", "Iris", "I live in a flat in York near the river."),
        ("2023-06-10", "Iris", "I had dinner with my friend Tom, who moved to Berlin last year."),
        "Where does Iris live?", "York", "Berlin",
    ),
    "declined": (
        ("2023-02-01", "Ravi", "I work as an accountant at a small firm in town."),
        ("2023-07-01", "Ravi", "I turned down the job at the bank, which would have paid more."),
        "Where does Ravi work?", "small firm", "bank",
    ),
    "sister": (
        ("2022-03-03", "Lena", "I live in Hamburg in a house with a small garden."),
        ("2022-09-09", "Lena", "I'm flying to Lisbon next week, where my sister lives."),
        "Where does Lena live?", "Hamburg", "Lisbon",
    ),
    "future": (
        ("2022-04-04", "Otto", "I drive an old blue Volvo estate."),
        ("2022-10-10", "Otto", "I'll buy an electric car when the Volvo finally dies."),
        "What car does Otto drive?", "Volvo estate", "electric",
    ),
    "looked": (
        ("2023-03-05", "Mia", "I rent a small flat in York above a bookshop."),
        ("2023-08-05", "Mia", "I looked at a house that has a garden in Leeds, but I'm staying in York."),
        "Where does Mia live?", "York above", "Leeds",
    ),
}


@pytest.fixture(scope="module")
def memory(embedder) -> Iterator[Memory]:
    with Memory(Settings(store="memory://"), embedder=embedder) as opened:
        for user, (first, second, *_rest) in CONTROLS.items():
            for day, who, text in (first, second):
                said = [{"speaker": who, "text": text}]
                said[1:1] = [{"speaker": s, "text": t} for s, t in SMALL_TALK]
                opened.add(said, user_id=user, session_time=day)
        yield opened


@pytest.mark.parametrize("user", list(CONTROLS))
def test_what_is_taken_as_given_about_others_or_plans_does_not_lead(memory: Memory, user: str) -> None:
    _, _, question, true, false = CONTROLS[user]
    assert rank_of(memory, question, user, true) < rank_of(memory, question, user, false)
