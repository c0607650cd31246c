"""A guess ("Perhaps I'm living in Paris by 2030", "In ten years I probably live in Paris") and
what happened in a dream ("I had a bacon sandwich in a dream last night") are not told as so: the
clause is not asserted, and the true value stays first (QA round 7, Q7-04, English rows; the
sentences here are our own)."""

from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem import Memory
from ripplemem.statements.clauses import clauses_of
from ripplemem.write.entities import EntityRecognizer


@pytest.fixture(scope="module")
def recognizer() -> EntityRecognizer:
    return EntityRecognizer()


@pytest.mark.parametrize(("text", "predicate", "asserted"), [
    ("Maybe I'll be working in Berlin by next spring, who knows.", "work", False),
    ("In five years I probably work from home full time.", "work", False),
    ("Possibly we move to the coast one day.", "move", False),
    ("I drove a Porsche in my dream last night.", "drive", False),
    ("I drove my Fiesta to the coast last night.", "drive", True),
    ("I work from home full time.", "work", True),
])
def test_a_guess_or_a_dream_is_not_asserted(recognizer: EntityRecognizer, text: str, predicate: str, asserted: bool) -> None:
    (doc,) = recognizer.parse([text])
    found = [c for c in clauses_of(doc, "Ivy") if c.predicate == predicate]
    assert found and found[0].asserted is asserted, [(c.predicate, c.asserted) for c in clauses_of(doc, "Ivy")]


@pytest.mark.parametrize("guess", [
    "Perhaps I'm working for Google by 2030, who knows.",
    "In ten years I probably work for Google.",
])
def test_the_true_value_stays_first_beside_a_guess(memory: Memory, guess: str) -> None:
    for day, text in (
        ("2024-01-05", "I work at the council as a planner."),
        ("2024-02-10", "The garden is full of snowdrops this year."),
        ("2024-06-02", guess),
    ):
        memory.add([{"speaker": "Ivy", "text": text}], user_id="ivy", session_time=day)
    found = memory.search("Where does Ivy work?", user_id="ivy", question_time=datetime(2024, 9, 1)).evidence
    assert "council" in found[0].unit.restatement, [e.unit.restatement for e in found[:3]]


def test_a_past_clause_with_the_i_left_out_before_the_sentence_is_the_speakers(memory: Memory) -> None:
    """"Finally ditched Vodafone, I'm on Giffgaff these days" (QA round 7, Q7-07): the parse hangs
    the subjectless first clause from the second, as if subordinate; it is a sentence of the
    speaker's own, and the change leads."""
    for day, text in (
        ("2024-01-05", "My phone plan is with Vodafone."),
        ("2024-02-10", "We watched the new Dune film on Saturday."),
        ("2024-02-11", "The garden is full of tomatoes this year."),
        ("2024-06-02", "Finally ditched Vodafone, I'm on Giffgaff these days."),
    ):
        memory.add([{"speaker": "Eve", "text": text}], user_id="eve", session_time=day)
    found = memory.search("Which phone provider is Eve with?", user_id="eve").evidence
    assert "Giffgaff" in found[0].unit.restatement, [e.unit.restatement for e in found[:3]]


@pytest.mark.parametrize(("text", "asserted"), [
    ("Finally ditched Vodafone, I'm on Giffgaff these days.", True),
    ("When I moved to Leeds, I joined a gym.", False),
])
def test_only_an_unmarked_subjectless_past_clause_stands_alone(recognizer: EntityRecognizer, text: str, asserted: bool) -> None:
    (doc,) = recognizer.parse([text])
    first = [c for c in clauses_of(doc, "Eve") if c.predicate in ("ditch", "move")]
    assert first and first[0].asserted is asserted and first[0].kind == "speaker"
