"""A short answer says what it says with the question it answers: "Where is Maya working these
days?" / "At the Guardian now." is Maya's statement that she works at the Guardian; a "yes"
grants a yes-or-no question; a "no", a "not yet" or an answer with a verb of its own adds
nothing to what the answer's own clauses say."""

from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem.records import MemoryUnit
from ripplemem.statements import StatementReader
from ripplemem.statements.answers import declarative, fragment
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
    ],
)
def test_the_statement_a_question_asks_about(recognizer, question, answer, statement) -> None:
    (doc,) = recognizer.parse([question])
    assert declarative(doc, answer) == statement


def test_a_fragment_has_no_verb_of_its_own(recognizer) -> None:
    short, full = recognizer.parse(["At the Guardian now, on the politics team.", "I'm at the Guardian now."])
    assert fragment(short) and not fragment(full)


def _unit(text: str) -> MemoryUnit:
    return MemoryUnit("u", "ns", text, None, ("Maya", "Sam"), (), None, "s1", ("s1:1", "s1:2"), None,
                      datetime(2024, 1, 1))


@pytest.mark.parametrize(
    ("reply", "named"),
    [
        ("At the Guardian now, on the politics team.", True),
        ("No, I'm still at the BBC.", False),
        ("Not yet, maybe next year.", False),
    ],
)
def test_the_reader_gives_the_answerers_statement(recognizer, reply: str, named: bool) -> None:
    reader = StatementReader(recognizer.parse)
    (clauses,) = reader.clauses([_unit(f"Sam asked: Where is Maya working these days? Maya answered: {reply}")])
    stated = [c for c in clauses if c.speaker == "maya" and c.asserted and "guardian" in c.named]
    assert bool(stated) is named
