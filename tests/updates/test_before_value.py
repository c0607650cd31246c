"""A question for the value before one it names ("Where did Sam work before Gamma?") asks for the
value held until the named one: the "before" phrase says when, not what is asked for, so it is
not read for relevance, and of three values in a row the one just before the named one leads,
not the first."""

from __future__ import annotations

import pytest

from ripplemem import Memory
from ripplemem.read.supersession import asked_text, later_value, read_question
from ripplemem.write.entities import EntityRecognizer

from .ranking import rank_of

JOBS = [
    ("2020-02-03", "I work at Acme Logistics as a planner."),
    ("2021-06-14", "The weather has been awful all week."),
    ("2022-03-07", "I work at Beta Foods now, in the planning team."),
    ("2022-08-22", "I finally finished that jigsaw of the harbour."),
    ("2023-09-11", "I started at Gamma Freight this month as head of planning."),
]


@pytest.fixture(scope="module")
def jobs(embedder) -> Memory:
    from ripplemem import Settings

    opened = Memory(Settings(store="memory://"), embedder=embedder)
    for day, text in JOBS:
        opened.add([{"speaker": "Sam", "text": text}], user_id="sam", session_time=day)
    return opened


@pytest.mark.parametrize(
    ("question", "first", "below"),
    [
        ("Where did Sam work before Gamma Freight?", "Beta Foods", "Gamma Freight"),
        ("Where did Sam work before he started at Gamma?", "Beta Foods", "Acme"),
        ("Where did Sam work before Beta?", "Acme", "Beta Foods"),
        ("Where did Sam work before he joined Beta Foods?", "Acme", "Gamma"),
    ],
)
def test_the_value_before_the_named_one_leads(jobs: Memory, question: str, first: str, below: str) -> None:
    assert rank_of(jobs, question, "sam", first) < rank_of(jobs, question, "sam", below)


@pytest.fixture(scope="module")
def parse():
    return EntityRecognizer().parse


@pytest.mark.parametrize(
    ("question", "asked", "named"),
    [
        ("Where did I work before Beta?", "Where did I work ?", {"beta"}),
        ("Where did Lu teach before she joined Greenfield?", "Where did Lu teach ?", {"greenfield"}),
        ("Where did I live before I moved?", "Where did I live ?", set()),
        ("What was my previous status before I got the current one?", "What was my status ?", set()),
    ],
)
def test_the_before_phrase_is_when(parse, question: str, asked: str, named: set[str]) -> None:
    reading = read_question(question, None, None, None)
    assert reading[1] == "earlier"
    found = later_value(question, parse)
    assert found is not None and found[1] == frozenset(named)
    assert asked_text(question, (parse, "earlier")) == asked


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("What was my first job?", "What was my job?"),
        ("Where did I live originally?", "Where did I live ?"),
    ],
)
def test_the_earlier_value_word_is_when(parse, question: str, asked: str) -> None:
    # "first", "originally" say which value by time, as "before Beta" does, not what is asked for
    assert asked_text(question, (parse, "earlier")) == asked


def test_a_before_that_describes_someone_else_is_not_read(parse) -> None:
    # "before" in a relative clause is not the question's time: no phrase, the question as asked
    question = "Where does Rachel, who worked with me before Beta, work now?"
    assert asked_text(question, (parse, "present")) == question
