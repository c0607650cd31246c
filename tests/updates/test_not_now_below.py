"""With no statement of the holder's that answers, the holder's own words of what is not so now go
below a memory of theirs that answers without being read ("Lyon in winter is grey but the food
makes up for it"): what did not happen or happens only on a condition ("If I moved to Spain I'd
finally learn to surf", "I nearly took the job in Berlin"), or a stay of bounded length in the
past ("I was in Rome for a week in May"). The one may say how things are, the other says they
are not so. A wish with a modal alone ("I'd like a bigger flat") is no such thing: it may well
come. Conversations of their own, written before the rule."""

from __future__ import annotations

import pytest

from ripplemem import Memory
from ripplemem.statements.clauses import clauses_of
from ripplemem.write.entities import EntityRecognizer

from .dialogues import Sessions, add_sessions, first_rank


def _add(memory: Memory, sessions: Sessions) -> None:
    add_sessions(memory, ("Leo", "Lu"), sessions)


def _first(memory: Memory, question: str, word: str) -> int:
    return first_rank(memory, question, word)


@pytest.mark.parametrize(
    "later",
    [
        "If I moved to Spain I'd finally learn to surf.",
        "I very nearly moved to Spain last spring, the flat fell through.",
        "I was in Spain for a week in May, the food!",
    ],
)
def test_what_did_not_happen_goes_below_an_unread_memory(memory: Memory, later: str) -> None:
    _add(memory, [
        ("2022-01-10", [("Leo", "Lyon in winter is grey but the food makes up for it."), ("Lu", "Sounds good.")]),
        ("2023-02-02", [("Leo", later), ("Lu", "Do it.")]),
    ])
    question = "Where does Leo live?"
    assert _first(memory, question, "lyon") < _first(memory, question, "spain")


@pytest.mark.parametrize(
    ("text", "irrealis"),
    [
        ("If I moved to Spain I would finally learn to surf.", [True, True, True]),
        ("I nearly took the job in Berlin.", [True]),
        ("They offered me the job but I turned it down.", [False, True]),
        ("I would like a four-week strength block.", [False]),  # a wish: it may well come
        ("I live in Lyon.", [False]),
    ],
)
def test_irrealis_is_read_from_the_parse(text: str, irrealis: list[bool]) -> None:
    (doc,) = EntityRecognizer().parse([text])
    assert [c.irrealis for c in clauses_of(doc, "leo")] == irrealis
