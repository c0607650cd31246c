"""A question for a person ("Who is ...?") is answered only by a statement that names someone."""

from __future__ import annotations

from datetime import datetime

from ripplemem.read.latest_first import Holder, readings
from ripplemem.records import MemoryUnit
from ripplemem.statements import StatementReader
from ripplemem.write.entities import EntityRecognizer


def _unit(unit_id: str, text: str) -> MemoryUnit:
    return MemoryUnit(unit_id, "ns", text, None, ("Grace", "Ivan"), (), None, "s1", ("s1:1",), None, datetime(2024, 1, 1))


def test_a_question_for_a_person_is_answered_only_by_a_statement_that_names_someone() -> None:
    """"Who is Grace's partner?": Grace's small talk ("Grace is sorry, that's hard") states
    nothing of the kind asked, the memory that names Sofia does."""
    units = [
        _unit("u0", "Grace's girlfriend Sofia and Grace adopted a routine of Sunday hikes."),
        _unit("u1", "Grace is sorry, that's hard."),
    ]
    read = StatementReader(EntityRecognizer().parse).clauses(units)
    holder = Holder("grace", frozenset({"partner"}))

    def fit(texts):  # every clause fits alike: the kind asked decides
        return [0.2] * len(texts)

    assert {i: r.role for i, r in readings(units, read, holder, fit).items()} == {"u0": "stated", "u1": "stated"}
    assert {i: r.role for i, r in readings(units, read, holder, fit, person=True).items()} == {"u0": "stated"}
