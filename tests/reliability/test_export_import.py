"""Export / import is a full round trip: units with bit-exact vectors, edges, the clue graph,
and the same ``ripple``, ``asso`` and ``bm25`` results before and after."""

from __future__ import annotations

import json

import pytest

from ripplemem import Memory
from ripplemem.demo import load_demo
from ripplemem.errors import InvalidInputError
from ripplemem.records import Edge
from ripplemem.settings import Settings
from ripplemem.write.supersede import SUPERSEDES_WEIGHT

from .conftest import DINNER, TRIP
from .scenario import snapshot


def _searches(memory: Memory, namespace: str) -> list:
    queries = ["Where did Maya travel?", "What is Maya allergic to?", "birthday dinner plans",
               "When did they go to Lisbon?", "What did Alex book?"]
    return [
        [(e.unit.id, e.score) for e in memory.search(q, namespace=namespace, recipe=r).evidence]
        for q in queries for r in ("ripple", "asso", "bm25")
    ]


@pytest.fixture(scope="module")
def source(tmp_path_factory, embedder):
    folder = tmp_path_factory.mktemp("export")
    with Memory(Settings(store=str(folder / "source.db")), embedder=embedder) as memory:
        conversation, _ = load_demo()
        memory.add(conversation, namespace="demo")
        memory.add(TRIP, session_time="2023-05-08T13:56", namespace="small")
        memory.add(DINNER, session_time="2023-05-20T19:00", namespace="small")
        yield memory, folder


def test_export_then_import_gives_the_same_store_and_the_same_results(source, embedder):
    memory, folder = source
    dump = folder / "dump.jsonl"
    written = memory.export_jsonl(dump)
    kinds = {json.loads(line)["type"] for line in dump.read_text().splitlines()}
    assert kinds == {"meta", "unit", "edge", "clue", "member", "link"}
    with Memory(Settings(store=str(folder / "copy.db")), embedder=embedder) as copy:
        assert copy.import_jsonl(dump) == written == sum(memory.store.count(n) for n in memory.namespaces())
        before, after = snapshot(memory), snapshot(copy)
        assert before["demo"]["clues"] and before["demo"]["links"]  # the graph is not empty
        assert after == before
        for ns in ("demo", "small"):
            assert _searches(copy, ns) == _searches(memory, ns)
        assert copy.import_jsonl(dump) == 0  # importing again adds nothing
        assert snapshot(copy) == before


def test_a_bad_line_imports_nothing(source, embedder, tmp_path):
    memory, _ = source
    dump = tmp_path / "dump.jsonl"
    memory.export_jsonl(dump, namespace="small")
    lines = dump.read_text().splitlines()
    dump.write_text("\n".join([*lines, '{"type": "clue", "namespace": "small"}']) + "\n")
    with Memory(Settings(store=str(tmp_path / "copy.db")), embedder=embedder) as copy:
        with pytest.raises(InvalidInputError, match=r"line \d+: this clue line lacks id, text, vector, source and sessions, .*nothing was imported"):
            copy.import_jsonl(dump)
        assert copy.namespaces() == []



POTTERY = (
    [{"speaker": "Maya", "text": "I started pottery classes, I am making a clay bowl on the wheel."},
     {"speaker": "Sam", "text": "Pottery sounds fun, is the clay wheel hard?"}],
    [{"speaker": "Maya", "text": "My pottery class fired my clay bowl in the kiln today."},
     {"speaker": "Sam", "text": "Nice, send a photo of the pottery bowl!"}],
)


def test_an_import_into_a_store_holding_part_of_it_completes_multi_session_clues(embedder, tmp_path):
    dump = tmp_path / "dump.jsonl"
    with Memory(Settings(store=str(tmp_path / "source.db")), embedder=embedder) as memory:
        for day, session in zip(("2023-05-01T10:00", "2023-05-08T10:00"), POTTERY):
            memory.add(session, namespace="demo", session_time=day)
        memory.export_jsonl(dump, namespace="demo")
        expected = snapshot(memory)["demo"]
    rows = [json.loads(line) for line in dump.read_text().splitlines()]
    shared = next(r for r in rows if r["type"] == "clue" and len(r["sessions"]) >= 2)
    first = shared["sessions"][0]
    units = {r["id"] for r in rows if r["type"] == "unit" and r["episode_id"] == first}
    part = [r for r in rows if r["type"] == "meta"
            or (r["type"] == "unit" and r["id"] in units)
            or (r["type"] in ("edge", "link") and {r["src"], r["dst"]} <= units)
            or (r["type"] == "member" and r["unit"] in units)]
    part.append({**shared, "sessions": [first]})  # the store knows the clue by its first session
    partial = tmp_path / "part.jsonl"
    partial.write_text("".join(json.dumps(r) + "\n" for r in part))
    with Memory(Settings(store=str(tmp_path / "copy.db")), embedder=embedder) as copy:
        assert copy.import_jsonl(partial) == len(units)
        copy.import_jsonl(dump)
        assert snapshot(copy)["demo"] == expected  # both sessions map to the shared clue


def test_supersedes_edges_keep_their_direction_through_export_and_import(embedder, tmp_path):
    """Format 4 writes a supersedes edge once, new -> old, even for a successor said before the
    memory it replaced (an edge an older version, or a hand, wrote: ``update`` refuses such a
    time); a file of format 3 says no direction, and the unit said later supersedes, as it was
    read then."""
    dump = tmp_path / "dump.jsonl"
    with Memory(Settings(store=str(tmp_path / "source.db")), embedder=embedder) as memory:
        old = memory.add("I work at Acme.", user_id="b", session_time="2024-03-01").units[0]
        new = memory.add("I work at Beta.", user_id="b", session_time="2020-01-01").units[0]
        memory.store.change_edges(add=[Edge("b", new.id, old.id, "supersedes", SUPERSEDES_WEIGHT)])
        memory.export_jsonl(dump)
    rows = [json.loads(line) for line in dump.read_text().splitlines()]
    assert rows[0]["format"] == "ripplemem.jsonl/4"
    assert [(r["src"], r["dst"]) for r in rows if r["type"] == "edge" and r["kind"] == "supersedes"] == [
        (new.id, old.id)
    ]
    three = tmp_path / "three.jsonl"
    rows[0]["format"] = "ripplemem.jsonl/3"  # the same edge line, new -> old, read without direction
    three.write_text("".join(json.dumps(row) + "\n" for row in rows))
    for file, expected in ((dump, (new.id, old.id)), (three, (old.id, new.id))):  # format 3: by time
        with Memory(Settings(store=str(tmp_path / f"{file.stem}.db")), embedder=embedder) as copy:
            copy.import_jsonl(file)
            for end in (old.id, new.id):
                found = [(e.src, e.dst) for e in copy.edges(end, user_id="b") if e.kind == "supersedes"]
                assert found == [expected]
