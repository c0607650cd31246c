"""A value holds from the time a statement puts it at, not the time it was said: "Back in 2015 I
worked at a call centre", said after "I work as a paralegal", is the older value. Only a clause
in the past tense whose own words give a time that ended before the day it was said counts;
the present and the perfect hold when said ("Since April I've been on 100mg")."""

from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem.read.latest_first import Reading, held_order, order, spoken_of
from ripplemem.records import MemoryUnit, TimeSpan
from ripplemem.statements import Clause, clauses_of
from ripplemem.write.entities import EntityRecognizer


@pytest.fixture(scope="module")
def recognizer() -> EntityRecognizer:
    return EntityRecognizer()


def _unit(unit_id: str, text: str, said: datetime, span: tuple[datetime, datetime] | None = None,
          phrases: tuple[str, ...] = ()) -> MemoryUnit:
    return MemoryUnit(
        unit_id, "ns", text, None, ("Fay",), (), TimeSpan(*span) if span else None, unit_id,
        (f"{unit_id}:1",), said, said, time_phrases=phrases,
    )


def _clause(recognizer: EntityRecognizer, unit: MemoryUnit) -> Clause:
    (doc,) = recognizer.parse([unit.restatement])
    found = [c for c in clauses_of(doc, "fay") if c.value or c.named]
    assert found, unit.restatement
    return found[0]


YEAR_2015 = (datetime(2015, 1, 1), datetime(2015, 12, 31, 23, 59, 59))


def test_a_past_clause_with_a_time_of_its_own_speaks_of_that_time(recognizer) -> None:
    unit = _unit("u", "Back in 2015 Fay worked at a call centre in Leeds.", datetime(2022, 6, 6),
                 YEAR_2015, ("in 2015",))
    assert spoken_of(unit, _clause(recognizer, unit)) == YEAR_2015[1]


@pytest.mark.parametrize(
    ("text", "span", "phrases"),
    [
        # the perfect holds when said, whatever time it starts from
        ("Since April Fay has been working at the bakery.", (datetime(2022, 4, 1), datetime(2022, 4, 30)), ("Since April",)),
        # no time of its own
        ("Fay worked at a call centre in Leeds.", None, ()),
        # the unit's time comes from someone else's words, not this clause's
        ("Fay worked at a call centre in Leeds.", YEAR_2015, ("in 2015",)),
        # a time that has not ended before the day it was said
        ("This week Fay started at the bakery.", (datetime(2022, 6, 6), datetime(2022, 6, 12)), ("This week",)),
    ],
)
def test_otherwise_it_speaks_of_the_time_it_was_said(recognizer, text, span, phrases) -> None:
    unit = _unit("u", text, datetime(2022, 6, 6), span, phrases)
    assert spoken_of(unit, _clause(recognizer, unit)) is None


MARCH = (datetime(2022, 3, 1), datetime(2022, 3, 31, 23, 59, 59))
JUNE = (datetime(2021, 6, 1), datetime(2021, 6, 30, 23, 59, 59))


def test_a_time_something_is_moved_to_is_its_new_value_not_when_it_was_said(recognizer) -> None:
    """"moved the christening to June" says where the christening goes, not when the moving
    happened: a time resolved to a June before the day it was said makes no older value."""
    unit = _unit("u", "Fay's mother moved the christening to June, at the chapel in Bray.",
                 datetime(2022, 3, 22), JUNE, ("June",))
    assert spoken_of(unit, _clause(recognizer, unit)) is None
    then = _unit("t", "In June Fay's mother moved the christening to the chapel in Bray.",
                 datetime(2022, 3, 22), JUNE, ("In June",))
    assert spoken_of(then, _clause(recognizer, then)) == JUNE[1]  # when it happened


@pytest.mark.parametrize(
    ("text", "phrases", "predicate"),
    [
        # a clause the sentence takes as given: the start of a period that lasts up to now
        ("Fay has lost 10 pounds since Fay started at the gym in March.", ("in March",), "start"),
        # no value but the time itself
        ("Fay was thinking about the choir Fay joined in March.", ("in March",), "join"),
    ],
)
def test_a_given_clause_or_one_with_no_value_but_its_time_holds_when_said(recognizer, text, phrases, predicate) -> None:
    unit = _unit("u", text, datetime(2022, 6, 6), MARCH, phrases)
    (doc,) = recognizer.parse([text])
    (clause,) = [c for c in clauses_of(doc, "fay") if c.predicate == predicate]
    assert clause.tense == "past"
    assert spoken_of(unit, clause) is None


def test_the_latest_value_is_the_latest_by_the_time_it_holds_from(recognizer) -> None:
    now = _unit("now", "Fay works as a paralegal at a firm in Manchester.", datetime(2022, 1, 1))
    then = _unit("then", "Back in 2015 Fay worked at a call centre in Leeds.", datetime(2022, 6, 6),
                 YEAR_2015, ("in 2015",))
    units = {u.id: u for u in (now, then)}
    answering = {u.id: Reading("stated", 0.6, spoken_of(u, _clause(recognizer, u))) for u in (now, then)}
    assert held_order(then, answering["then"]) < held_order(now, answering["now"])
    relevance = {"now": 0.5, "then": 0.5}
    ranked, _ = order(["then", "now"], units, answering, relevance, lambda a, b: True)
    assert ranked == ["now", "then"]
    # the earliest said leads a question about an earlier value, whatever time it speaks of
    ranked, _ = order(["then", "now"], units, answering, relevance, lambda a, b: True, latest=False)
    assert ranked == ["now", "then"]
