"""A habit said through a verb of liking or tending ("I like to wake up at 7:30 on Saturdays", "I
tend to cycle in") is what the speaker does, as with an implicative verb; a wish ("I'd like to")
or a negated liking is not. And what a given clause takes as true ("considering I like to wake
up at 7:30", "since I tend to cycle in") stays given down into the infinitive that carries its
value, also inside a question. Cases written before the rule."""

from __future__ import annotations

import pytest

from ripplemem import Memory
from ripplemem.statements.clauses import Clause, clauses_of
from ripplemem.write.entities import EntityRecognizer

from .dialogues import add_sessions, first_rank


@pytest.fixture(scope="module")
def recognizer() -> EntityRecognizer:
    return EntityRecognizer()


def _clause(recognizer: EntityRecognizer, text: str, predicate: str) -> Clause:
    (doc,) = recognizer.parse([text])
    (clause,) = [c for c in clauses_of(doc, "maya", []) if c.predicate == predicate]
    return clause


@pytest.mark.parametrize(
    ("text", "predicate", "asserted"),
    [
        ("I like to wake up at 7:30 on Saturdays.", "wake", True),
        ("I tend to cycle to the office on Mondays.", "cycle", True),
        ("She loves to swim at the lido on Sundays.", "swim", True),
        ("I'd like to wake up at 7:30 on Saturdays.", "wake", False),  # a wish
        ("I would love to live in Lisbon.", "live", False),
        ("I want to wake up at 7:30 on Saturdays.", "wake", False),  # not a verb of habit
        ("I don't like to drive to work.", "drive", False),  # negated
        ("I hope to cycle to the office on Mondays.", "cycle", False),
    ],
)
def test_a_verb_of_habit_asserts_its_infinitive(recognizer, text: str, predicate: str, asserted: bool) -> None:
    assert _clause(recognizer, text, predicate).asserted is asserted


@pytest.mark.parametrize(
    ("text", "predicate", "given"),
    [
        ("What time should I start my jog, considering I like to wake up at 7:30 am on Saturdays?", "wake", True),
        ("Which lock should I buy, since I tend to cycle to the office?", "cycle", True),
        ("Should I wake up at 7:30 on Saturdays?", "wake", False),  # asked, not given
        ("What time should I start my jog if I like to wake up at 7:30?", "wake", False),  # a condition
        ("Considering I'd like to move to Leeds, which bank should I use?", "move", False),  # a wish
    ],
)
def test_a_given_clause_gives_its_infinitive(recognizer, text: str, predicate: str, given: bool) -> None:
    assert _clause(recognizer, text, predicate).presupposed is given


def test_a_habit_given_in_a_question_is_the_latest_value(memory: Memory) -> None:
    add_sessions(memory, ("Maya", "Assistant"), [
        ("2023-03-04", [
            ("Maya", "I've been getting up around 8:30 on Sundays, which leaves time for a long walk."),
            ("Assistant", "That sounds like a relaxed start."),
        ]),
        ("2023-06-10", [
            ("Maya", "Which bakery opens early enough, considering I like to get up at 6:45 on Sundays now?"),
            ("Assistant", "Most open at seven."),
        ]),
    ])
    question = "What time do I get up on Sundays?"
    assert first_rank(memory, question, "6:45") < first_rank(memory, question, "8:30")
