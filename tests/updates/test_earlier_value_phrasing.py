"""A question for an earlier value that names no later one (QA6 Q6-2): a sentence-final "before"
with no object is an adverb meaning "earlier" ("How did Maya get to work before?"), and "used
to" + verb is the habitual past ("How did Maya use to get to work?"). Such a question asks for a
value something later replaced: the earliest memory that a later one says alike leads, not the
earliest small talk of the conversation, nor the later value the question's words fit best;
"use to" says when, as "before" does, and the question's own "did" stays in what is read for
relevance. Real components throughout (``Memory.open("memory://")``)."""

from __future__ import annotations

import pytest

from ripplemem import Memory
from ripplemem.read.supersession import asked_text, read_question
from ripplemem.write.entities import EntityRecognizer

MAYA = [
    ("2024-01-05", "I've got a sister called Priya who lives in Glasgow."),
    ("2024-01-05", "I'm training for a half marathon in the spring."),
    ("2024-01-20", "My favourite food is Thai green curry."),
    ("2024-01-20", "I work as a nurse at St Mary's hospital."),
    ("2024-02-01", "I drive to work in my old Ford Fiesta."),
    ("2024-02-01", "I go to PureGym on Oxford Road."),
    ("2024-05-01", "Ever since the move I take the tram to work."),
    ("2024-05-01", "We ended up joining the Anytime Fitness near the new flat."),
]

OWEN = [
    ("2023-03-02", "My brother Tom is a plumber in Cardiff."),
    ("2023-03-02", "I've been learning the ukulele on YouTube."),
    ("2023-03-20", "I shop at the Lidl on Mill Street every Saturday."),
    ("2023-03-20", "I play five-a-side football on Tuesday nights."),
    ("2023-08-14", "We do the weekly shop at the big Tesco by the ring road since the baby came."),
    ("2023-08-14", "My knee gave up on football, so I switched to badminton at the leisure centre."),
]


def _memory(said: list[tuple[str, str]], speaker: str, user: str) -> Memory:
    opened = Memory.open("memory://")
    for day, text in said:
        opened.add([{"speaker": speaker, "text": text}], user_id=user, session_time=day)
    return opened


@pytest.fixture(scope="module")
def maya() -> Memory:
    return _memory(MAYA, "Maya", "maya")


@pytest.fixture(scope="module")
def owen() -> Memory:
    return _memory(OWEN, "Owen", "owen")


def _first(memory: Memory, question: str, user: str) -> str:
    return memory.search(question, user_id=user, limit=3).evidence[0].unit.restatement


@pytest.mark.parametrize(
    ("question", "first"),
    [
        ("How did Maya get to work before?", "Fiesta"),
        ("How did Maya use to get to work?", "Fiesta"),
        ("Which gym did Maya go to before?", "PureGym"),
        pytest.param(
            "Which gym did Maya use to go to?", "PureGym",
            # read as asked, but the ranking before this stage embeds "use to" too: the tram
            # memory comes 2nd and PureGym 4th, out of the first 3
            marks=pytest.mark.xfail(strict=True, reason="the first ranking reads 'use to'"),
        ),
        # the present: the later value
        ("How does Maya get to work?", "tram"),
        ("Which gym does Maya go to?", "Anytime"),
    ],
)
def test_maya_earlier_value_without_a_named_later_one(maya: Memory, question: str, first: str) -> None:
    assert first in _first(maya, question, "maya")


@pytest.mark.parametrize(
    ("question", "first"),
    [
        ("Where did Owen use to do his shopping?", "Lidl"),
        ("Where did Owen shop before?", "Lidl"),
        ("Which sport did Owen play before?", "football"),
        ("What sport did Owen use to play?", "football"),
        # the present
        ("Where does Owen do his shopping?", "Tesco"),
        ("Which sport does Owen play?", "badminton"),
    ],
)
def test_owen_earlier_value_without_a_named_later_one(owen: Memory, question: str, first: str) -> None:
    assert first in _first(owen, question, "owen")


@pytest.fixture(scope="module")
def parse():
    return EntityRecognizer().parse


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        # "use to" is the habitual past's marker: it says when; "did" is the question's own auxiliary
        ("How did Maya use to get to work?", "How did Maya get to work?"),
        ("Where did Sam use to live?", "Where did Sam live?"),
        ("What did you use to drink in the mornings?", "What did you drink in the mornings?"),
        # a sentence-final "before" with no object: an adverb, "earlier"
        ("Which gym did Maya go to before?", "Which gym did Maya go to ?"),
    ],
)
def test_the_habitual_past_is_when(parse, question: str, asked: str) -> None:
    assert read_question(question, None, None, None)[1] == "earlier"
    assert asked_text(question, (parse, "earlier")) == asked
