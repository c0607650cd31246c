"""The time a question's own clause names (read/when.py ``asked_time``) is read from the
question's parse only when the ranking depends on it: a search whose units of the question's
time already come first leaves the question unparsed (the parse is its dearest step) and ranks
as a search without ``time_first`` does; one whose order the time changes parses it once.
Through :func:`recall` with the shipped embedder and parser."""

from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem.read.pipeline import recall
from ripplemem.read.when import AskedTime, asked_time, possible_asked_times
from ripplemem.recipes import get_recipe
from ripplemem.records import TimeSpan
from ripplemem.statements import StatementReader
from ripplemem.write.entities import EntityRecognizer

from . import NS, build_store, embedder
from .test_question_parsed_once import CountingParse

#: when the questions are asked
ASKED = datetime(2023, 5, 1)
MARCH = TimeSpan(datetime(2024, 3, 1), datetime(2024, 3, 31, 23, 59, 59))
MAY_6_12 = TimeSpan(datetime(2024, 5, 6), datetime(2024, 5, 12, 23, 59, 59))
MAY_7 = TimeSpan(datetime(2024, 5, 7), datetime(2024, 5, 7, 23, 59, 59))


@pytest.fixture(scope="module")
def store():
    return build_store()


@pytest.fixture(scope="module")
def recognizer() -> EntityRecognizer:
    return EntityRecognizer()


def _search(store, recognizer, question: str, *, time_first: bool = True) -> tuple[list[tuple[str, float]], list[str]]:
    parse = CountingParse(recognizer)
    found = recall(
        question, store=store, namespace=NS, embedder=embedder(),
        recipe=get_recipe("ripple").with_(rank={"time_first": time_first}),
        statements=StatementReader(parse), reference_time=ASKED,
    )
    return [(e.unit.id, e.score) for e in found.evidence], parse.texts


@pytest.mark.parametrize(
    "question", ["Where did Sam and Maya go hiking in March 2023?", "What did Sam and Maya watch in April 2023?"]
)
def test_a_time_question_whose_time_orders_nothing_is_not_parsed(store, recognizer, question: str) -> None:
    evidence, parsed = _search(store, recognizer, question)
    assert question not in parsed
    assert evidence == _search(store, recognizer, question, time_first=False)[0]


def test_a_time_question_whose_time_orders_the_units_is_parsed_once(store, recognizer) -> None:
    question = "What did Sam and Maya do on 16 April 2023?"
    evidence, parsed = _search(store, recognizer, question)
    assert parsed.count(question) == 1
    assert evidence != _search(store, recognizer, question, time_first=False)[0]


@pytest.mark.parametrize(
    ("question", "times"),
    [
        ("What did I do between May 6 and May 12?", [("between May 6 and May 12", MAY_6_12)]),
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
    assert AskedTime(MAY_7, True) in possible
