"""A short answer says what it says with the question it answers: "Where is Maya working these
days?" / "At the Guardian now." is Maya's statement that she works at the Guardian; a "yes"
grants a yes-or-no question; a "no", a "not yet" or an answer with a verb of its own adds
nothing to what the answer's own clauses say."""

from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem.records import MemoryUnit
from ripplemem.statements import StatementReader
from ripplemem.statements.answers import asks_for_a_thing, declarative, fragment
from ripplemem.write.entities import EntityRecognizer


@pytest.fixture(scope="module")
def recognizer() -> EntityRecognizer:
    return EntityRecognizer()


@pytest.mark.parametrize(
    ("question", "answer", "statement"),
    [
        ("Where is Maya working these days?", "At the Guardian now.", "Maya is working these days At the Guardian now."),
        ("What car does Rae drive?", "A Ford Fiesta.", "Rae does drive A Ford Fiesta."),
        ("Did Ben buy the Mazda?", "", "Ben did buy the Mazda"),
        ("Who lives in Leeds?", "Tom.", None),  # the question word is the subject
        ("Is Zoe still seeing Tom?", "Engaged, actually!", None),  # no place for a thing
        ("Maya works at the BBC.", "At the Guardian now.", None),  # not a question
        ("How's the new flat?", "Love it, so much quieter.", None),  # asks for no thing
    ],
)
def test_the_statement_a_question_asks_about(recognizer, question, answer, statement) -> None:
    (doc,) = recognizer.parse([question])
    assert declarative(doc, answer) == statement


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("Where are you working these days?", True),
        ("How many days are you doing now?", True),
        ("How old is Biscuit?", True),
        ("Which team do you coach?", True),
        ("How's the new flat?", False),
        ("Did you buy the Mazda?", False),
        ("You work at the BBC.", False),
    ],
)
def test_a_question_for_a_thing(recognizer, question: str, asks: bool) -> None:
    (doc,) = recognizer.parse([question])
    assert asks_for_a_thing(doc) is asks


def test_a_fragment_has_no_verb_of_its_own(recognizer) -> None:
    short, full = recognizer.parse(["At the Guardian now, on the politics team.", "I'm at the Guardian now."])
    assert fragment(short) and not fragment(full)


def _unit(text: str) -> MemoryUnit:
    return MemoryUnit("u", "ns", text, None, ("Maya", "Sam"), (), None, "s1", ("s1:1", "s1:2"), None,
                      datetime(2024, 1, 1))


@pytest.mark.parametrize(
    ("question", "reply", "named"),
    [
        ("Where is Maya working these days?", "At the Guardian now, on the politics team.", True),
        ("Is Maya working at the Guardian now?", "Yes, since May.", True),
        # a "no" or a "not yet" grants nothing the question names
        ("Is Maya working at the Guardian now?", "No, still at the BBC.", False),
        ("Has Maya moved to the Guardian yet?", "Not yet, maybe next year.", False),
        # a question for a manner has no place for a thing
        ("How is Maya finding the Guardian?", "Exhausting, honestly.", False),
    ],
)
def test_the_reader_gives_the_answerers_statement(recognizer, question: str, reply: str, named: bool) -> None:
    reader = StatementReader(recognizer.parse)
    (clauses,) = reader.clauses([_unit(f"Sam asked: {question} Maya answered: {reply}")])
    stated = [c for c in clauses if c.speaker == "maya" and c.asserted and "guardian" in c.named]
    assert bool(stated) is named
