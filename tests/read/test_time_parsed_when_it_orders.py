"""The time a question's own clause names (read/when.py ``asked_time``) is read from the
question's parse only when the ranking depends on it (``time_first_when_read``): when no value
the parse could read moves a unit, the question need not be parsed for it (the parse is the
dearest step of a search), and the ranking is the one the parse would have given. With the
shipped parser; the searches through :func:`recall` with the shipped embedder."""

from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem.read.pipeline import recall
from ripplemem.read.when import (
    AskedTime,
    asked_time,
    possible_asked_times,
    time_first,
    time_first_when_read,
)
from ripplemem.recipes import get_recipe
from ripplemem.records import Evidence, ScoreTerms, TimeSpan
from ripplemem.statements import StatementReader
from ripplemem.testing.builders import make_unit
from ripplemem.write.entities import EntityRecognizer

from . import NS, build_store, embedder
from .test_question_parsed_once import CountingParse

MARCH = TimeSpan(datetime(2024, 3, 1), datetime(2024, 3, 31, 23, 59, 59))
MAY_6_12 = TimeSpan(datetime(2024, 5, 6), datetime(2024, 5, 12, 23, 59, 59))
MAY_7 = TimeSpan(datetime(2024, 5, 7), datetime(2024, 5, 7, 23, 59, 59))
QUESTION = "What did I do between May 6 and May 12?"
TIMES = [("between May 6 and May 12", MAY_6_12)]


@pytest.fixture(scope="module")
def recognizer() -> EntityRecognizer:
    return EntityRecognizer()


class CountingAsked:
    """``asked_time`` of :data:`QUESTION` from its real parse, each reading counted."""

    def __init__(self, recognizer: EntityRecognizer) -> None:
        self.parse = CountingParse(recognizer)

    def __call__(self) -> AskedTime | None:
        return asked_time(QUESTION, TIMES, self.parse)


def _item(unit_id: str, score: float, alignment: float, said: datetime | None) -> Evidence:
    unit = make_unit(unit_id, session_time=said)
    return Evidence(unit, score, (), ScoreTerms(alignment, 0.5, 0.0, {}, score))


def test_a_ranking_whose_units_of_the_time_come_first_is_not_parsed_for_it(recognizer) -> None:
    may = _item("may", 2.0, 0.9, datetime(2024, 5, 8, 18))
    march = _item("march", 1.0, 0.8, datetime(2024, 3, 9, 18))
    asked = CountingAsked(recognizer)
    ranked, moved = time_first_when_read(
        [may, march], asked, possible_asked_times(QUESTION, TIMES), answers=0.5, content=True
    )
    assert asked.parse.texts == []
    assert (ranked, moved) == ([may, march], 0)


def test_a_ranking_the_time_can_reorder_is_parsed_and_ordered_as_the_parse_says(recognizer) -> None:
    march = _item("march", 2.0, 0.9, datetime(2024, 3, 9, 18))
    timeless = _item("timeless", 1.5, 0.8, None)
    may = _item("may", 1.0, 0.6, datetime(2024, 5, 8, 18))
    asked = CountingAsked(recognizer)
    ranked, moved = time_first_when_read(
        [march, timeless, may], asked, possible_asked_times(QUESTION, TIMES), answers=0.5, content=True
    )
    assert asked.parse.texts == [QUESTION]
    expected = time_first([march, timeless, may], asked_time(QUESTION, TIMES, recognizer.parse), answers=0.5, content=True)
    assert (ranked, moved) == expected and moved == 1


@pytest.mark.parametrize(
    ("question", "times"),
    [
        (QUESTION, TIMES),
        ("What did Tim say about his injury in March?", [("in March", MARCH)]),
        ("What did I tell you about the trip I took in March?", [("in March", MARCH)]),
        ("What did I buy after moving in March?", [("in March", MARCH)]),
        ("What did Joanna finish in March on 7 May?", [("in March", MARCH), ("on 7 May", MAY_7)]),
        ("What did I do on 7 May, between May 6 and May 12?", [("on 7 May", MAY_7), ("between May 6 and May 12", MAY_6_12)]),
    ],
)
def test_the_parse_reads_one_of_the_possible_times(recognizer, question: str, times) -> None:
    """Whatever the parse says, the time it reads is None or one of those tried without it."""
    asked = asked_time(question, times, recognizer.parse)
    possible = possible_asked_times(question, times)
    assert possible is not None
    assert asked is None or asked in possible


def test_the_possible_times_are_each_set_of_times_that_meet_said_or_not() -> None:
    question = "What did I do on 7 May, between May 6 and May 12, and in March?"
    times = [("on 7 May", MAY_7), ("between May 6 and May 12", MAY_6_12), ("in March", MARCH)]
    possible = possible_asked_times(question, times)
    assert possible is not None
    spans = {a.span for a in possible}
    # March meets neither May time: no set holding it and one of them
    assert spans == {MAY_7, MAY_6_12, MARCH}
    assert {(a.span, a.said) for a in possible} == {(s, said) for s in spans for said in (False, True)}
    assert possible_asked_times("What had I finished by March?", [("by March", MARCH)]) == []
    assert possible_asked_times(question, times, most=2) is None


def _search(recognizer, question: str, *, time_first: bool = True) -> tuple[list[tuple[str, float]], list[str]]:
    parse = CountingParse(recognizer)
    found = recall(
        question, store=build_store(), namespace=NS, embedder=embedder(),
        recipe=get_recipe("ripple").with_(rank={"time_first": time_first}),
        statements=StatementReader(parse), reference_time=datetime(2023, 5, 1),
    )
    return [(e.unit.id, e.score) for e in found.evidence], parse.texts


@pytest.mark.parametrize(
    "question", ["Where did Sam and Maya go hiking in March 2023?", "What did Sam and Maya watch in April 2023?"]
)
def test_a_search_whose_time_orders_nothing_ranks_as_without_time_first(recognizer, question: str) -> None:
    evidence, parsed = _search(recognizer, question)
    assert parsed.count(question) <= 1  # read while the query's vector is computed, or not at all
    assert evidence == _search(recognizer, question, time_first=False)[0]


def test_a_search_whose_time_orders_the_units_parses_the_question_once(recognizer) -> None:
    question = "What did Sam and Maya do on 16 April 2023?"
    evidence, parsed = _search(recognizer, question)
    assert parsed.count(question) == 1
    assert evidence != _search(recognizer, question, time_first=False)[0]
