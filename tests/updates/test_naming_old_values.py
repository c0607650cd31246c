"""A change told by naming the old value ("The cetirizine stopped working, so the GP put me on
fexofenadine") shares no word with the question ("What does Pia take for her hay fever?"), so
its relevance leaves it out of the units that answer; it is read because it names a value an
answering unit of its speaker gives, and is said after it. Not what was said before, nor a unit
that shares only a question word or a unit of time."""

from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem.read.supersession import naming_old_values
from ripplemem.records import Evidence, MemoryUnit
from ripplemem.statements import StatementReader
from ripplemem.write.entities import EntityRecognizer


@pytest.fixture(scope="module")
def reader() -> StatementReader:
    return StatementReader(EntityRecognizer().parse)


def _item(unit_id: str, text: str, month: int) -> Evidence:
    said = datetime(2023, month, 1)
    unit = MemoryUnit(unit_id, "ns", text, None, ("Pia",), (), None, f"s{month}", (f"s{month}:1",), said, said)
    return Evidence(unit, 1.0, ())


ANSWER = _item("answer", "For Pia's hay fever Pia takes cetirizine every day.", 4)
LEAD = [
    ANSWER,
    _item("later", "Pia said: The cetirizine stopped working, so the GP put Pia on fexofenadine instead.", 6),
    _item("earlier", "Pia said: Pia bought cetirizine in bulk at the pharmacy.", 1),
    _item("time-only", "Pia said: It has rained every single day this week.", 7),
    _item("question-word", "Pia said: Pia had a fever last week.", 8),
]


def test_a_later_unit_naming_an_answers_value_is_read(reader) -> None:
    asked = frozenset({"what", "does", "take", "for", "her", "hay", "fever", "pia"})
    assert naming_old_values(LEAD, ["answer"], reader, asked) == ["later"]


def test_nothing_answers_nothing_is_named(reader) -> None:
    assert naming_old_values(LEAD, [], reader, frozenset()) == []
