"""The question's nouns count by their lemma too: an irregular plural ("children", "wives")
names the same thing as the memory's subject ("my children"), which the regular "-s" rule of
the question's words cannot give. Written before the change."""

from __future__ import annotations

import pytest

from ripplemem.read.latest_first import Holder, states
from ripplemem.read.supersession import lemmas, question_words
from ripplemem.statements.clauses import clauses_of
from ripplemem.write.entities import EntityRecognizer


@pytest.fixture(scope="module")
def recognizer() -> EntityRecognizer:
    return EntityRecognizer()


def test_an_irregular_plural_gives_its_singular(recognizer) -> None:
    assert {"child", "wife"} <= lemmas("Which schools do the children and their wives like?", recognizer.parse, None)


def test_an_irregular_plural_names_the_holders_thing(recognizer) -> None:
    question = "Which school do my children go to?"
    (doc,) = recognizer.parse(["Rosa's children moved to Hillside Academy in September."])
    (clause,) = [c for c in clauses_of(doc, "Rosa") if c.predicate == "move"]
    plain = question_words(question, None)
    assert not states(clause, Holder("rosa", plain))  # "children" alone names no "child"
    assert states(clause, Holder("rosa", plain | lemmas(question, recognizer.parse, None)))
