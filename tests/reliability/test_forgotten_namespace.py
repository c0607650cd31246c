"""``delete_all`` leaves no trace of the namespace's name: no row of any table (bookkeeping
included) and no index names it, on SQLite and PostgreSQL; the namespace can be filled again,
and another connection that had loaded its vectors before serves the new data, not the old."""

from __future__ import annotations

from pathlib import Path

import pytest

from ripplemem import Memory
from ripplemem.settings import Settings
from ripplemem.stores.registry import open_store

NAME = "tenant-Zorblax"
OLD = [{"speaker": "Maya", "text": "I keep my spare key under the blue flowerpot."},
       {"speaker": "Sam", "text": "Good to know, the blue flowerpot by the door."}]
NEW = [{"speaker": "Maya", "text": "We planted tomatoes in the garden this spring."}]


def _sqlite_rows(path: Path) -> list[str]:
    import sqlite3

    db = sqlite3.connect(path)
    found = []
    for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
        columns = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
        for column in columns:
            hits = db.execute(f"SELECT count(*) FROM {table} WHERE CAST({column} AS TEXT) LIKE ?", (f"%{NAME}%",))
            if hits.fetchone()[0]:
                found.append(f"{table}.{column}")
    db.close()
    return found


def _postgres_rows(url: str, schema: str) -> list[str]:
    import psycopg

    found = []
    with psycopg.connect(url) as db:
        columns = db.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = %s AND data_type IN ('text', 'ARRAY')", (schema,)
        ).fetchall()
        for table, column in columns:
            hits = db.execute(
                f'SELECT count(*) FROM "{schema}"."{table}" WHERE "{column}"::text LIKE %s', (f"%{NAME}%",)
            ).fetchone()[0]
            if hits:
                found.append(f"{table}.{column}")
        indexes = db.execute(
            "SELECT indexname FROM pg_indexes WHERE schemaname = %s AND indexdef LIKE %s", (schema, f"%{NAME}%")
        ).fetchall()
        found += [f"index {name}" for (name,) in indexes]
    return found


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_delete_all_forgets_the_namespace_name(backend, request, tmp_path: Path, embedder) -> None:
    if backend == "sqlite":
        url = str(tmp_path / "memory.db")
        leftovers = lambda: _sqlite_rows(tmp_path / "memory.db")
    else:
        url = request.getfixturevalue("postgres_store_url")("forget")
        base, schema = request.getfixturevalue("postgres_url"), url.rsplit("schema=", 1)[1]
        leftovers = lambda: _postgres_rows(base, schema)
    def opened() -> Memory:  # an approximate index from 2 vectors: PostgreSQL builds its HNSW index
        return Memory(Settings(store=url), store=open_store(url, ann_threshold=2), embedder=embedder)

    with opened() as memory, opened() as other:
        memory.add(OLD, namespace=NAME, session_time="2024-03-01T10:00")
        memory.add(OLD, namespace="neighbour", session_time="2024-03-01T10:00")
        assert other.search("Where is the spare key?", namespace=NAME).evidence  # loads its vectors
        assert leftovers()  # the test can fail: the name is stored while the namespace is
        assert memory.delete_all(namespace=NAME) == 2
        assert memory.flush_erasure(timeout=30)
        assert leftovers() == []
        assert NAME not in memory.namespaces()
        memory.add(NEW, namespace=NAME, session_time="2024-04-01T10:00")  # filled again
        found = other.search("What did we plant?", namespace=NAME)
        assert [e.unit.restatement for e in found.evidence] == [memory.list(namespace=NAME)[0].restatement]
        assert other.search("spare key flowerpot", namespace="neighbour").evidence  # untouched
