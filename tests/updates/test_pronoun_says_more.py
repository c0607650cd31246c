"""Beside the holder's statement in one memory, a clause whose subject is "he", "she", "it" or
"they" says more of what the statement names ("Now I ride Monty - he's a big grey cob who came
from a farm in Wales"); it is not someone else's value that outweighs the statement. Someone
else's change told by a noun ("my sister moved to Lisbon") stays an aside. Conversations of
their own."""

from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem import Memory
from ripplemem.read.latest_first import Holder, readings
from ripplemem.records import MemoryUnit
from ripplemem.statements import StatementReader
from ripplemem.write.entities import EntityRecognizer

from .dialogues import Sessions, add_sessions, first_rank


def _first(memory: Memory, question: str, *words: str) -> int:
    return first_rank(memory, question, *words, when=datetime(2024, 5, 1), namespace="ola")


def _add(memory: Memory, sessions: Sessions) -> None:
    add_sessions(memory, ("Ola", "Ben"), sessions, namespace="ola")


@pytest.mark.parametrize("pronoun", ["she", "he"])
def test_the_new_value_described_with_a_pronoun_leads(memory: Memory, pronoun: str) -> None:
    _add(memory, [
        ("2023-05-06", [
            ("Ben", "Is that a cat in the background?"),
            ("Ola", "Yes, this is Mittens, I'm fostering her for the Cats Protection until they find her a home."),
            ("Ben", "Cute."),
        ]),
        ("2023-11-18", [
            ("Ben", "How's the fostering going?"),
            ("Ola", f"Mittens got adopted in June. Now I've got Pickle - {pronoun}'s a grumpy old Persian, came in from a hoarding case."),
            ("Ben", "Poor thing."),
        ]),
    ])
    question = "Which cat is Ola fostering?"
    assert _first(memory, question, "Pickle") < _first(memory, question, "this is Mittens")


def test_someone_elses_move_told_by_a_noun_stays_below(memory: Memory) -> None:
    _add(memory, [
        ("2023-03-04", [
            ("Ben", "Where are you living these days?"),
            ("Ola", "I live in Leeds, in a flat near Hyde Park."),
        ]),
        ("2023-09-09", [
            ("Ben", "Any family news?"),
            ("Ola", "My sister moved to Lisbon in August. She loves it there, she says the light is amazing."),
        ]),
    ])
    question = "Where does Ola live?"
    assert _first(memory, question, "Leeds") < _first(memory, question, "Lisbon")


@pytest.fixture(scope="module")
def reader() -> StatementReader:
    return StatementReader(EntityRecognizer().parse)


def _unit(unit_id: str, text: str) -> MemoryUnit:
    return MemoryUnit(
        id=unit_id, namespace="ola", restatement=text, vector=None, participants=("Ola",),
        locations=(), time_span=None, episode_id="S2", turn_ids=("S2:2",),
        session_time=datetime(2023, 11, 18), created_at=datetime(2023, 11, 18), speakers=("Ola",),
    )


def _fit(texts: list[str]) -> list[float]:
    """The pronoun's clauses fit best: the statement must win on its own."""
    return [0.9 if t.split()[0].casefold() in ("he", "she", "came") else 0.2 for t in texts]


def test_a_pronouns_clause_is_no_rival_of_the_holders_statement(reader: StatementReader) -> None:
    holder = Holder("ola", frozenset({"ride", "horse", "ola"}))
    unit = _unit("u1", "Ola said: Now Ola rides Monty. He's a huge grey cob and came from a farm in Wales.")
    (clauses,) = reader.clauses([unit])
    assert any(c.subject == "he" for c in clauses), [c.text for c in clauses]
    assert readings([unit], [clauses], holder, _fit)["u1"].role == "stated"


def test_a_pronouns_clause_alone_is_still_read(reader: StatementReader) -> None:
    """Without a statement of the holder's in the memory, the pronoun's clause keeps its reading."""
    holder = Holder("ola", frozenset({"ride", "horse", "ola"}))
    unit = _unit("u2", "Ola said: My sister rides Monty now. She says he's a huge grey cob.")
    (clauses,) = reader.clauses([unit])
    found = readings([unit], [clauses], holder, _fit)
    assert found.get("u2") is None or found["u2"].role == "aside"
