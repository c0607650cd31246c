"""``ripplemem migrate``: SQLite -> PostgreSQL -> SQLite keeps every unit (with its speakers,
metadata and kept parse), vector, edge, clue, key and person, the filter index answers the same, and the
searches of the copies equal the original's."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from ripplemem import Memory, Settings
from ripplemem.cli.main import app
from ripplemem.core.copy import copy_store, verify_copy
from ripplemem.records import ApiKey, Edge
from ripplemem.records.filters import parse_filters
from ripplemem.stores.registry import open_store
from ripplemem.write.supersede import SUPERSEDES_WEIGHT

CHATS = [
    [
        {"speaker": "Maya", "text": "I went to Lisbon with Priya two weekends ago, we loved the trams."},
        {"speaker": "Sam", "text": "Nice! Did you try the pastel de nata in Lisbon?"},
        {"speaker": "Maya", "text": "Yes, every day. I am allergic to shellfish, so I skipped seafood."},
    ],
    [
        {"speaker": "Sam", "text": "You should take Maya to Harbor Grill for her birthday dinner."},
        {"speaker": "Alex", "text": "Good idea, I will book a table for next Friday at Harbor Grill."},
        {"speaker": "Maya", "text": "My sister Lena is moving to Berlin in June for a design job."},
    ],
]


def _fill(path: Path, embedder: Any) -> None:
    settings = Settings(store=str(path), extractor="deterministic", planner="deterministic")
    with Memory(settings, embedder=embedder) as memory:
        memory.set_person("Maya", namespace="maya")
        for namespace in ("maya", "sam"):
            for day, chat in enumerate(CHATS):
                memory.add(chat, namespace=namespace, session_time=f"2024-05-2{day}T10:00",
                           metadata={"day": day, "tags": ["chat", namespace]})
        # successors said before what they replaced, as an import's edges may say (``update``
        # refuses such times): only the edges say which is newer
        for namespace in ("maya", "sam"):
            latest = next(u for u in memory.list(namespace=namespace) if "Berlin" in u.restatement).id
            for month, city in enumerate(("Munich", "Vienna", "Hamburg", "Zurich"), 1):
                new = memory.add(f"Lena is moving to {city} now.", namespace=namespace,
                                 session_time=f"2024-0{5 - month}-01").units[0].id
                memory.store.change_edges(add=[Edge(namespace, new, latest, "supersedes", SUPERSEDES_WEIGHT)])
                latest = new
        memory.store.keys.add_key(ApiKey("k1", "hash-1", ("maya",), datetime(2026, 1, 1)))


def _everything(location: str) -> dict[str, Any]:
    with open_store(location) as store:
        out: dict[str, Any] = {"embedder": store.embedder_info(), "keys": store.keys.list_keys()}
        for namespace in store.namespaces():
            units = store.list_units(namespace)
            ids = [u.id for u in units]
            clue_ids = sorted({m.clue_id for m in store.clues.clues_of_units(namespace, ids).values()})
            out[namespace] = {
                "units": [u.to_json() for u in units],
                "edges": {k: store.neighbours(namespace, ids, k) for k in ("semantic", "structural")},
                "supersedes": sorted(
                    (e.src, e.dst, e.weight) for i in ids for e in store.edges_of(namespace, i)
                    if e.kind == "supersedes"
                ),
                "clues": [(c.id, c.text, c.sessions, c.vector.tolist()) for c in store.clues.get_clues(namespace, clue_ids)],
                "members": store.clues.members(namespace, clue_ids),
                "links": store.clues.links(namespace, ids),
                "lexical": store.search_lexical(namespace, "Maya Lisbon dinner Berlin", 10),
                "person": store.person(namespace),
                "parses": store.get_parses(namespace, ids),
                "day 1": sorted(store.select_units(namespace, parse_filters({"day": 1}))),
                "said by Sam after": sorted(store.select_units(
                    namespace, parse_filters({"speaker": "Sam", "after": "2024-05-21"})
                )),
            }
    return out


def test_sqlite_to_postgres_and_back_keeps_everything(
    tmp_path: Path, postgres_store_url: Callable[[str], str], embedder: Any
) -> None:
    original = tmp_path / "original.db"
    _fill(original, embedder)
    middle, back = postgres_store_url("copy"), str(tmp_path / "back.db")
    runner = CliRunner()
    there = runner.invoke(app, ["migrate", str(original), middle])
    assert there.exit_code == 0, there.output
    assert "searches identical: " in there.output and "counts equal: True" in there.output
    again = runner.invoke(app, ["migrate", middle, back])
    assert again.exit_code == 0, again.output
    expected = _everything(str(original))
    edges = expected["maya"]["edges"]
    assert expected["maya"]["units"] and any(v for kind in edges.values() for v in kind.values())
    assert expected["maya"]["clues"] and expected["keys"]
    assert expected["maya"]["person"] == "Maya" and expected["sam"]["person"] is None
    assert expected["maya"]["day 1"] and expected["maya"]["said by Sam after"]
    assert len(expected["maya"]["supersedes"]) == 8  # the updates' edges, read from both ends
    assert expected["maya"]["units"][0]["metadata"]["tags"] == ["chat", "maya"]
    assert sorted(expected["maya"]["parses"]) == sorted(u["id"] for u in expected["maya"]["units"])
    assert _everything(middle) == expected
    assert _everything(back) == expected
    with open_store(str(original)) as source, open_store(middle) as copy:
        checked = verify_copy(source, copy, sample=50)
        assert checked.ok and checked.searches > 0 and checked.identical == checked.searches


def test_migrate_refuses_a_target_that_holds_memories(
    tmp_path: Path, postgres_store_url: Callable[[str], str], embedder: Any
) -> None:
    original = tmp_path / "original.db"
    _fill(original, embedder)
    with open_store(str(original)) as source, open_store(postgres_store_url("full")) as target:
        copy_store(source, target)
    result = CliRunner().invoke(app, ["migrate", str(original), postgres_store_url("full")])
    assert result.exit_code == 2 and "already holds memories" in result.output
