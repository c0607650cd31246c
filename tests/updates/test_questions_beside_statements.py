"""A question asserts nothing: beside the holder's statement in the same memory it is not what the
memory answers, however well its words fit ("Any tips for a first-time cat owner? We adopted
Miso last week" states a pet; "Should we move to Leeds? We love our flat in York" states York).
A memory with only a question stays an aside. Conversations of their own, written before the
rule."""

from __future__ import annotations

from ripplemem import Memory

from .dialogues import Sessions, add_sessions, first_rank


def _add(memory: Memory, sessions: Sessions) -> None:
    add_sessions(memory, ("Kit", "Lu"), sessions)


def _first(memory: Memory, question: str, word: str) -> int:
    return first_rank(memory, question, word)


def test_a_statement_beside_a_question_answers(memory: Memory) -> None:
    _add(memory, [
        ("2022-01-10", [("Kit", "No pets for us, the landlord won't allow it."), ("Lu", "Shame.")]),
        ("2023-02-02", [("Kit", "Any tips for a first-time cat owner? We adopted Miso last week."),
                        ("Lu", "Get a scratching post!")]),
    ])
    question = "Does Kit have a pet?"
    assert _first(memory, question, "miso") < _first(memory, question, "no pets")


def test_a_question_alone_stays_below_the_statement(memory: Memory) -> None:
    _add(memory, [
        ("2022-01-10", [("Kit", "Our flat in York has a lovely view of the minster."), ("Lu", "Lucky.")]),
        ("2023-02-02", [("Kit", "Should we move to Leeds for the new job?"), ("Lu", "Big decision.")]),
    ])
    question = "Where does Kit live?"
    assert _first(memory, question, "york") < _first(memory, question, "leeds")
