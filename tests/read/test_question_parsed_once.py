"""The supersession stage parses the question at most once per search, and not at all when its
words already say that it asks about the past ("When did ...?") or when nothing could move (no
``supersedes`` chain among the evidence, and the units that answer all said in one session)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from ripplemem.read.pipeline import recall
from ripplemem.read.supersession import apply_supersession, asks_for
from ripplemem.recipes import get_recipe
from ripplemem.records import Evidence, Hit
from ripplemem.statements import StatementReader
from ripplemem.write.entities import EntityRecognizer

from . import NS, QUERY, build_store, embedder


class CountingParse:
    """The recogniser's parse, with every text it is given recorded."""

    def __init__(self, recognizer: EntityRecognizer) -> None:
        self.inner = recognizer.parse
        self.texts: list[str] = []

    def __call__(self, texts: Sequence[str]) -> list[Any]:
        self.texts.extend(texts)
        return self.inner(texts)


@pytest.fixture(scope="module")
def store():
    return build_store()


@pytest.fixture(scope="module")
def recognizer() -> EntityRecognizer:
    return EntityRecognizer()


def _evidence(store, ids: list[str]) -> list[Evidence]:
    units = {u.id: u for u in store.get_units(NS, ids)}
    return [Evidence(units[i], 1.0 - rank / 10, (Hit("dense", rank, 1.0),)) for rank, i in enumerate(ids)]


def _supersede(store, ids: list[str], parse: CountingParse) -> list[Evidence]:
    evidence = _evidence(store, ids)
    return apply_supersession(
        evidence, store=store, namespace=NS, query="Where does Alex like to eat these days?",
        cues=None, reference_time=None, notes=[], relevance=lambda units: [1.0] * len(units),
        statements=StatementReader(parse), fit=lambda texts: [0.0] * len(texts),
    )


def test_answers_said_in_one_session_leave_the_question_unparsed(store, recognizer) -> None:
    parse = CountingParse(recognizer)
    ids = ["e1", "d3", "d7", "d26"]  # all said on 2023-04-23, no supersedes chain
    found = _supersede(store, ids, parse)
    assert parse.texts == []
    assert [(e.unit.id, e.score) for e in found] == [(e.unit.id, e.score) for e in _evidence(store, ids)]


def test_answers_from_several_sessions_parse_the_question_once(store, recognizer) -> None:
    parse = CountingParse(recognizer)
    _supersede(store, ["e1", "e2", "e3", "d1"], parse)  # said on three days
    assert parse.texts.count("Where does Alex like to eat these days?") == 1


@pytest.mark.parametrize(
    "question",
    ["When did Sam and Maya go hiking?", "Did Alex ever take Maya to Harbor Grill?", "What was the movie?"],
)
def test_a_question_opening_with_its_past_auxiliary_is_not_parsed(recognizer, question) -> None:
    parse = CountingParse(recognizer)
    assert asks_for(question, None, None, parse=parse) == "past"
    assert parse.texts == []


def test_a_past_question_in_other_words_is_still_parsed(recognizer) -> None:
    parse = CountingParse(recognizer)
    assert asks_for("Who went to the Rialto with Sam?", None, None, parse=parse) == "past"
    assert parse.texts == ["Who went to the Rialto with Sam?"]


@pytest.mark.parametrize("query", [QUERY, "When did Sam and Maya go hiking?"])
def test_a_search_parses_its_question_at_most_once(store, recognizer, query) -> None:
    parse = CountingParse(recognizer)
    found = recall(
        query, store=store, namespace=NS, embedder=embedder(), recipe=get_recipe("ripple"),
        statements=StatementReader(parse),
    )
    assert found.evidence
    assert parse.texts.count(query) == (0 if query.startswith("When did") else 1)
