"""A question whose own words give a definite time (read/when.py): the memories of that time
that answer come before every memory of another time, however well the other one's words match;
a time said only in another clause of the question, or no time, changes nothing of the kind.
On SQLite through :class:`Memory`, with the shipped embedder and parser."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

from ripplemem import Memory
from ripplemem.read.when import asked_time, time_first
from ripplemem.recipes import get_recipe
from ripplemem.records import Evidence, ScoreTerms, TimeSpan
from ripplemem.testing.builders import make_unit
from ripplemem.write.entities import EntityRecognizer

#: when the questions are asked: Monday 20 May 2024, noon
ASKED = "2024-05-20T12:00"

#: Maya's memories, each told on the day it was said (a session a message)
SAID = [
    ("2024-03-09T18:00", ("I went hiking in the Peak District with Tom today, we did a long walk up Kinder "
                          "Scout and it was a brilliant day.")),
    ("2024-03-12T19:00", "I cooked a curry for Tom tonight."),
    ("2024-03-20T10:00", "We moved to Bristol this week, the flat is full of boxes."),
    ("2024-04-10T10:00", "I bought a new sofa for the flat, a green velvet one."),
    ("2024-04-14T19:00", "I cooked lasagne tonight, the best thing I have cooked in ages."),
    ("2024-05-02T19:00", "I was in Cardiff for a conference all day."),
    ("2024-03-08T19:00", "I was in Edinburgh visiting my brother, where I spent the whole day walking."),
    ("2024-05-07T19:00", "I took my bike to the repair shop and picked up new tyres."),
    ("2024-05-09T20:00", "I had dinner with Priya at the new Thai place on Mill Road."),
    ("2024-05-11T10:00", "I spent the morning at the farmers market buying strawberries."),
    ("2024-05-15T10:00", "I painted the spare bedroom a pale blue."),
    ("2024-04-20T10:00", "I started reading a novel about a lighthouse keeper."),
]


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with Memory.open(tmp_path_factory.mktemp("range") / "memory.db") as opened:
        opened.set_person("Maya", user_id="maya")
        for when, text in SAID:
            opened.add([{"role": "user", "content": text}], user_id="maya", session_time=when)
        yield opened


def _day(item: Evidence) -> datetime:
    """The first day of a memory's time: its span, else the day it was said."""
    unit = item.unit
    span = unit.time_span
    said = unit.session_time
    assert span is not None or said is not None
    return span.start if span is not None else said  # type: ignore[return-value,union-attr]


def _another(item: Evidence, first: str, last: str) -> bool:
    """Whether a memory is of another time than the days ``first`` to ``last``: its own time,
    else the day it was said, lies outside them."""
    return not first <= _day(item).date().isoformat() <= last


def _ranked(memory: Memory, question: str, recipe: str = "ripple") -> list[Evidence]:
    return list(memory.search(question, user_id="maya", question_time=ASKED, recipe=recipe).evidence)


@pytest.mark.parametrize(
    ("question", "first", "last"),
    [
        ("What did I do between May 6 and May 12?", "2024-05-06", "2024-05-12"),
        ("What happened on 7 May 2024?", "2024-05-07", "2024-05-07"),
        ("Where was I in the first week of May?", "2024-04-29", "2024-05-05"),  # the week of 1 May
        ("What did I do last week?", "2024-05-13", "2024-05-19"),
    ],
)
def test_the_memories_of_the_time_asked_about_come_first(memory: Memory, question: str, first: str, last: str) -> None:
    ranked = _ranked(memory, question)
    inside = [i for i, e in enumerate(ranked) if first <= _day(e).date().isoformat() <= last]
    outside = [i for i, e in enumerate(ranked) if _another(e, first, last)]
    assert inside and outside
    assert max(inside) < min(outside), [(e.unit.restatement[:40], _day(e).date()) for e in ranked]
    assert [e.score for e in ranked] == sorted((e.score for e in ranked), reverse=True)
    assert all(e.terms is not None and e.terms.extra.get("time", 0.0) < 0 for e in (ranked[i] for i in outside))


def test_a_memory_said_later_that_names_no_time_is_of_the_day_it_was_said(memory: Memory) -> None:
    """Said on 15 May, naming no time: of 15 May, not of the second week of May."""
    ranked = _ranked(memory, "What did I do between May 6 and May 12?")
    painted = next(i for i, e in enumerate(ranked) if "painted" in e.unit.restatement)
    bike = next(i for i, e in enumerate(ranked) if "bike" in e.unit.restatement)
    assert bike < painted


def test_a_memory_of_another_time_stays_first_when_none_of_the_time_answers(memory: Memory) -> None:
    """Nothing of May is about cooking: the lasagne of April and the curry of March, which
    answer the rest of the question, stay above what May holds."""
    ranked = _ranked(memory, "What did I cook in May?")
    assert {"lasagne", "curry"} <= {w for e in ranked[:2] for w in ("lasagne", "curry") if w in e.unit.restatement}


def test_a_question_without_a_time_keeps_the_ranking(memory: Memory) -> None:
    question = "What did I cook for Tom?"
    assert [e.unit.id for e in _ranked(memory, question)] == [e.unit.id for e in _ranked(memory, question, "ripple-no-time")]


def test_a_time_said_in_another_clause_is_not_the_question_s(memory: Memory) -> None:
    """March is when the move was, not when the buying was: the sofa of April is not put below
    the memories of March."""
    ranked = _ranked(memory, "What did I buy after we moved in March?")
    sofa = next(i for i, e in enumerate(ranked) if "sofa" in e.unit.restatement)
    march = [i for i, e in enumerate(ranked) if _day(e).month == 3 and "moved" not in e.unit.restatement]
    assert sofa < min(march)


@pytest.fixture(scope="module")
def parse():
    return EntityRecognizer().parse


MAY_6_12 = TimeSpan(datetime(2024, 5, 6), datetime(2024, 5, 12, 23, 59, 59))
MARCH = TimeSpan(datetime(2024, 3, 1), datetime(2024, 3, 31, 23, 59, 59))


@pytest.mark.parametrize(
    ("question", "times", "span", "said"),
    [
        ("What did I do between May 6 and May 12?", [("between May 6 and May 12", MAY_6_12)], MAY_6_12, False),
        ("Tell me what I did from 6 to 12 May.", [("from 6 to 12 May", MAY_6_12)], MAY_6_12, False),
        ("Where did I go hiking in March?", [("in March", MARCH)], MARCH, False),
        ("What did Tim say about his injury in March?", [("in March", MARCH)], MARCH, True),
        # another clause's time: a relative clause, an adverbial one, a preposition's clause
        ("What did I tell you about the trip I took in March?", [("in March", MARCH)], None, False),
        ("What did I buy after we moved in March?", [("in March", MARCH)], None, False),
        ("What did I buy after moving in March?", [("in March", MARCH)], None, False),
        ("What was Tim's favourite show, as mentioned in March?", [("in March", MARCH)], None, False),
        ("What is the recipe that she shares with Andrew in March?", [("in March", MARCH)], None, False),
        # a distance from now in round numbers, two times of one event that do not meet
        ("What activity did Evan start one year ago?", [("one year ago", MARCH)], None, False),
        ("What hobby did I take up a few years back?", [("a few years back", MARCH)], None, False),
        ("What did I do three days ago?", [("three days ago", MAY_6_12)], MAY_6_12, False),
        ("What did Joanna finish last Friday on 23 January?", [("last Friday", MARCH), ("on 23 January", MAY_6_12)],
         None, False),
        # a bound of the time asked about, not that time
        ("How many pets does Andrew have, as of March?", [("of March", MARCH)], None, False),
        ("What had I finished by March?", [("by March", MARCH)], None, False),
    ],
)
def test_the_question_s_own_time_is_the_time_of_the_clause_it_asks_in(
    parse, question: str, times: list[tuple[str, TimeSpan]], span: TimeSpan | None, said: bool
) -> None:
    asked = asked_time(question, times, parse)
    if span is None:
        assert asked is None
    else:
        assert asked is not None and (asked.span, asked.said) == (span, said)


def _item(unit_id: str, score: float, alignment: float, said: datetime | None) -> Evidence:
    unit = make_unit(unit_id, session_time=said)
    return Evidence(unit, score, (), ScoreTerms(alignment, 0.5, 0.0, {}, score))


def test_a_memory_without_a_time_is_neither_of_the_time_nor_of_another() -> None:
    march = _item("march", 2.0, 0.9, datetime(2024, 3, 9, 18))
    timeless = _item("timeless", 1.5, 0.8, None)
    may = _item("may", 1.0, 0.6, datetime(2024, 5, 8, 18))
    asked = asked_time("What did I do between May 6 and May 12?", [("between May 6 and May 12", MAY_6_12)], None)
    assert asked is not None  # without a parse: every time of the question is its own
    ordered, moved = time_first([march, timeless, may], asked, answers=0.5, content=True)
    assert [e.unit.id for e in ordered] == ["timeless", "may", "march"] and moved == 1
    assert ordered[1].score == 1.0 and ordered[0].score == 1.5  # the others keep their scores
    # an in-range memory far less aligned than the best answers nothing: the order stays
    weak = _item("may", 1.0, 0.1, datetime(2024, 5, 8, 18))
    assert time_first([march, timeless, weak], asked, answers=0.5, content=True)[1] == 0
    # ... unless the question asks for nothing but its time
    assert [e.unit.id for e in time_first([march, timeless, weak], asked, answers=0.5, content=False)[0]][-1] == "march"


def test_the_recipe_without_the_time_term_keeps_the_order(memory: Memory) -> None:
    on, off = _ranked(memory, "What happened on 7 May 2024?"), _ranked(memory, "What happened on 7 May 2024?", "ripple-no-time")
    assert "bike" in on[0].unit.restatement
    assert all(e.terms is None or "time" not in e.terms.extra for e in off)
    assert get_recipe("ripple-no-time").rank.time_penalty == 0


#: Noor's memories, told in May; one is of June
AHEAD = [
    ("2024-05-06T19:00", "I went climbing with Tom at the Castle."),
    ("2024-05-08T10:00", "I went to the dentist for a filling."),
    ("2024-05-09T18:00", "I bought a second-hand road bike."),
    ("2024-05-12T11:00", "My cousin's wedding is on the 8th of June in Porto."),
    ("2024-05-21T20:00", "We adopted a cat from the shelter."),
]


@pytest.mark.parametrize(
    "question", ["What is coming up next month?", "What have I got on in June?", "What's happening next month?"]
)
def test_a_time_ahead_of_its_own_is_no_question_about_the_present(tmp_path, question: str) -> None:
    """A question about a time ahead of it asks what that time holds, not the latest of the
    holder's values: the supersession stage keeps the ranking the time stage made."""
    with Memory.open(tmp_path / "ahead.db") as memory:
        memory.set_person("Noor", user_id="noor")
        for when, text in AHEAD:
            memory.add([{"role": "user", "content": text}], user_id="noor", session_time=when)
        found = memory.search(question, user_id="noor", question_time="2024-05-25T12:00").evidence
    assert "wedding" in found[0].unit.restatement, [e.unit.restatement for e in found]
