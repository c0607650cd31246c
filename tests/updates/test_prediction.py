"""The holder's future told by someone else is a prediction, not a value held now: "Sam will be
living in London within a year, you watch" does not pass "I live in a small flat in Leith" for
"Where does Sam live?", as the holder's own "I'll move to London" does not. Written before the
rule, on topics of their own, each with an exchange around it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ripplemem import Memory, Settings

from .ranking import rank_of

#: user -> (the holder's first session, the later session with the other's prediction, question,
#: the true value's words, the predicted value's words)
CASES = {
    "cats": (
        [("Mo", "I have one cat, a tabby called Miso."), ("Kai", "Cute.")],
        [("Mo", "I keep looking at the rescue centre website."),
         ("Kai", "Ha, Mo will have three cats by Christmas at this rate.")],
        "How many cats does Mo have?", "one cat", "three cats",
    ),
    "rent": (
        [("Dana", "My rent is 800 a month for the studio."), ("Kai", "Cheap!")],
        [("Dana", "They're renovating the building next spring."),
         ("Kai", "Then Dana will be paying 1,000 a month, I bet.")],
        "How much rent does Dana pay?", "800", "1,000",
    ),
    "home": (
        [("Sam", "I live in a small flat in Leith, near the shore."), ("Kai", "Nice spot.")],
        [("Sam", "The London job posting looks great."),
         ("Kai", "Sam will be living in London within a year, you watch.")],
        "Where does Sam live?", "Leith", "living in London",
    ),
}


@pytest.fixture(scope="module")
def memory(embedder) -> Iterator[Memory]:
    with Memory(Settings(store="memory://"), embedder=embedder) as opened:
        for user, (first, later, *_rest) in CASES.items():
            for day, turns in (("2024-02-03", first), ("2024-06-09", later)):
                opened.add([{"speaker": who, "text": text} for who, text in turns], user_id=user, session_time=day)
        yield opened


@pytest.mark.parametrize("user", list(CASES))
def test_someone_elses_prediction_of_the_holder_is_no_value_now(memory: Memory, user: str) -> None:
    *_, question, true, false = CASES[user]
    assert rank_of(memory, question, user, true) < rank_of(memory, question, user, false)
