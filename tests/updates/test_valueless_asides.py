"""In the holder's own words, what someone else does without a value is no aside: "Reid retired,
so I've been passed on to Dr Okafor" states the holder's new dentist, and the retirement, which
gives no value, does not read the memory as someone else's. Someone else's clause that gives a
value stays an aside ("my brother has moved to Leeds" for where the holder lives). Conversations
of their own, written before the rule."""

from __future__ import annotations

from ripplemem import Memory

from .dialogues import Sessions, add_sessions, first_rank


def _add(memory: Memory, sessions: Sessions) -> None:
    add_sessions(memory, ("Sam", "Ana"), sessions)


def _first(memory: Memory, question: str, word: str) -> int:
    return first_rank(memory, question, word)


def test_someone_elses_doing_without_a_value_leaves_the_holders_statement(memory: Memory) -> None:
    _add(memory, [
        ("2022-02-02", [("Sam", "Dr Reid did my filling, very gentle."), ("Ana", "Good to know.")]),
        ("2023-04-04", [("Sam", "Reid retired, so I've been passed on to Dr Okafor at the same practice."),
                        ("Ana", "Hope she's as nice.")]),
    ])
    assert _first(memory, "Who is Sam's dentist?", "okafor") == 0


def test_someone_elses_value_stays_below_the_holders_own(memory: Memory) -> None:
    _add(memory, [
        ("2022-02-02", [("Sam", "I live in York, in a terrace near the minster."), ("Ana", "Lovely.")]),
        ("2023-04-04", [("Sam", "My brother has moved to Leeds for his new job."), ("Ana", "Big change for him.")]),
    ])
    question = "Where does Sam live?"
    assert _first(memory, question, "york") < _first(memory, question, "leeds")
