"""A search reads a unit's clauses from the parse the write path kept in the store
(:mod:`ripplemem.statements.kept`), and reads exactly what parsing the unit again reads: a kept
parse of other words, or of another parser, is not read, and a store without kept parses (one
written before them) parses as before."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from ripplemem import Memory
from ripplemem.records import Conversation
from ripplemem.statements import StatementReader
from ripplemem.statements.kept import KeptParses, TokenRows
from ripplemem.testing.builders import dialogue
from ripplemem.write.entities import EntityRecognizer

NS = "maya"
QUESTION = "Where does Maya live now?"


def _conversation() -> Conversation:
    return dialogue("maya", ("Maya", "Tom"), [
        ("S1", "2023-02-10T18:00:00", [
            ("Tom", "Where do you live these days?"),
            ("Maya", "I've been renting a tiny flat in Leeds for three years, close to the station."),
            ("Tom", "Do you still work at the library?"),
            ("Maya", "Yes, since May."),
        ]),
        ("S2", "2023-06-03T18:00:00", [
            ("Tom", "Any news from your side?"),
            ("Maya", "Big one: I moved to Bristol last month, and the boxes are finally unpacked."),
            ("Maya", "I live in Clifton now, right by the suspension bridge."),
        ]),
    ])


class Counting:
    """The recogniser's parse, counting the texts it parses."""

    def __init__(self, recognizer: EntityRecognizer) -> None:
        self.recognizer, self.texts = recognizer, 0

    def __call__(self, texts: Sequence[str]) -> list[Any]:
        self.texts += len(texts)
        return self.recognizer.parse(texts)


class OtherParser:
    """The recogniser under another identity: what a parse from another spaCy or model is."""

    def __init__(self, recognizer: EntityRecognizer) -> None:
        self.recognizer = recognizer

    def parse_identity(self) -> str:
        return "another parser"

    def rebuild(self, rows: Sequence[TokenRows]) -> list[Any]:
        return self.recognizer.rebuild(rows)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    path = tmp_path_factory.mktemp("kept") / "m.db"
    memory = Memory.open(path)
    added = memory.add(_conversation(), namespace=NS)
    yield memory, added
    memory.close()


def _reader(memory: Memory, recognizer: EntityRecognizer) -> tuple[StatementReader, Counting]:
    counting = Counting(recognizer)
    return StatementReader(counting, kept=KeptParses(memory.store.get_parses, recognizer)), counting


def test_every_new_unit_keeps_its_parse(written) -> None:
    memory, added = written
    assert "parse" in added.timings_ms
    ids = [u.id for u in added.units]
    assert len(ids) >= 4 and sorted(memory.store.get_parses(NS, ids)) == sorted(ids)


def test_the_clauses_are_read_from_the_kept_parse_as_parsing_reads_them(written) -> None:
    memory, added = written
    recognizer = EntityRecognizer()
    kept, counting = _reader(memory, recognizer)
    fresh = StatementReader(recognizer.parse)
    read = kept.clauses(added.units)
    assert counting.texts == 0  # nothing parsed: every text's doc was kept
    assert read == fresh.clauses(added.units) and any(read)
    assert any(len(c) > 1 for c in read)


def test_a_kept_parse_of_other_words_is_parsed_again(written) -> None:
    memory, added = written
    recognizer = EntityRecognizer()
    kept, counting = _reader(memory, recognizer)
    unit = next(u for u in added.units if "Bristol" in u.restatement)
    changed = replace(unit, restatement=unit.restatement.replace("Bristol", "Cardiff"))
    (read,) = kept.clauses([changed])
    assert counting.texts >= 1
    assert read == StatementReader(recognizer.parse).clauses([changed])[0]
    assert any("cardiff" in c.named for c in read)


def test_a_parse_of_another_parser_is_not_read(written) -> None:
    memory, added = written
    recognizer = EntityRecognizer()
    other = KeptParses(memory.store.get_parses, OtherParser(recognizer))
    assert other.docs(NS, [u.id for u in added.units]) == {}
    counting = Counting(recognizer)
    read = StatementReader(counting, kept=other).clauses(added.units)
    assert counting.texts >= len(added.units)
    assert read == StatementReader(recognizer.parse).clauses(added.units)


def test_a_store_without_kept_parses_searches_as_one_with_them(tmp_path) -> None:
    path = tmp_path / "m.db"
    with Memory.open(path) as memory:
        memory.add(_conversation(), namespace=NS)
    with Memory.open(path) as memory:  # a new process's reader: nothing read before
        reader = memory._core.parts.statements
        with_parses = memory.search(QUESTION, namespace=NS).to_json()
        assert reader.parsed == 0  # the answering units' clauses were read from their parses
    raw = sqlite3.connect(path)
    raw.execute("DELETE FROM unit_parse")  # a store written before the parses were kept
    raw.commit()
    raw.close()
    with Memory.open(path) as memory:
        reader = memory._core.parts.statements
        without = memory.search(QUESTION, namespace=NS).to_json()
        assert reader.parsed > 0  # the answering units' clauses were parsed
    for recall in (with_parses, without):  # what took how long differs from run to run
        recall["trace"].pop("timings_ms", None)
        recall["trace"]["notes"] = [n for n in recall["trace"]["notes"] if "models were loaded" not in n]
    assert without == with_parses
