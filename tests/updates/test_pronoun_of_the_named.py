"""A "he" or "she" in a memory that names the person asked about, and no other person than its
speakers, is that person: the change a speaker tells about someone they named a sentence before
("Vikram's left Dubai. The bank moved him to Singapore and he's been living there since
September") is that person's, even when the name is one the recogniser does not know. With another
person named in the memory the pronoun stays unread. Conversations of their own."""

from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem import Memory
from ripplemem.read.latest_first import Holder, named_before
from ripplemem.records import MemoryUnit
from ripplemem.statements import StatementReader
from ripplemem.write.entities import EntityRecognizer

from .dialogues import Sessions, add_sessions, first_rank


def _add(memory: Memory, sessions: Sessions) -> None:
    add_sessions(memory, ("Arjun", "Chloe"), sessions, namespace="arjun")


def _first(memory: Memory, question: str, *words: str) -> int:
    return first_rank(memory, question, *words, when=datetime(2024, 3, 1), namespace="arjun")


def test_a_change_told_with_he_after_the_name_leads(memory: Memory) -> None:
    _add(memory, [
        ("2023-04-20", [
            ("Chloe", "How's your family?"),
            ("Arjun", "All good. Vikram called from Dubai last night, he's been living out there for years with the bank."),
            ("Chloe", "Dubai must be hot."),
        ]),
        ("2023-10-25", [
            ("Chloe", "Any news from home?"),
            ("Arjun", "Big news: Vikram's left Dubai. The bank moved him to their Singapore office and he's been living there since September."),
            ("Chloe", "Oh wow, good for him."),
        ]),
    ])
    question = "Where does Arjun's brother Vikram live now?"
    assert _first(memory, question, "Singapore") < _first(memory, question, "Dubai last night")


@pytest.fixture(scope="module")
def reader() -> StatementReader:
    return StatementReader(EntityRecognizer().parse)


def _unit(unit_id: str, text: str, participants: tuple[str, ...]) -> MemoryUnit:
    return MemoryUnit(
        id=unit_id, namespace="arjun", restatement=text, vector=None, participants=participants,
        locations=(), time_span=None, episode_id="S2", turn_ids=("S2:2",),
        session_time=datetime(2023, 10, 25), created_at=datetime(2023, 10, 25), speakers=("Arjun",),
    )


def test_he_stands_for_the_named_person_only_when_no_other_person_is_named(reader: StatementReader) -> None:
    text = "Arjun said: I saw Vikram at the wedding last week. He has been living in Singapore since September."
    holder = Holder("vikram", frozenset({"live", "vikram"}))
    alone = _unit("u1", text, ("Arjun",))
    with_emma = _unit("u2", text.replace("the wedding", "Emma's wedding"), ("Arjun", "Emma"))
    for unit, resolved in ((alone, True), (with_emma, False)):
        (clauses,) = reader.clauses([unit])
        read = named_before(unit, clauses, holder)
        living = [c for c in read if c.subject == "he"]
        assert living, [c.text for c in clauses]
        assert all(("vikram" in c.subject_words) is resolved for c in living), unit.restatement
