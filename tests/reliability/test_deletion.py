"""Deletes leave no trace: no clue text, search hit or trace quotes a deleted unit, and its text
and vector are not in the store's files (database, WAL, shared memory) once the call returns."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from ripplemem import Memory
from ripplemem.settings import Settings

CANARY = "Zorblaxian"  # a word no other message holds
SECRET = [
    {"speaker": "Maya", "text": "I went to Lisbon with Priya two weekends ago, we loved the trams."},
    {"speaker": "Sam", "text": "Nice! Did you try the pastel de nata?"},
    {"speaker": "Maya", "text": f"My {CANARY} passport number is hidden in the Zorblaxian vault."},
    {"speaker": "Sam", "text": "Good to know, I will not tell anyone."},
]


def _files(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in path.parent.iterdir() if p.name.startswith(path.name)}


def _holding(path: Path, needle: bytes) -> list[str]:
    return [name for name, data in _files(path).items() if needle.lower() in data.lower()]


@pytest.fixture()
def memory(tmp_path, embedder):
    path = tmp_path / "memory.db"
    with Memory(Settings(store=str(path)), embedder=embedder) as memory:
        memory.add(SECRET, session_time="2023-05-08T13:56")
        memory.add(SECRET, session_time="2023-05-08T13:56", namespace="other")
        yield memory, path


def _secret_units(memory: Memory, namespace: str = "default"):
    return [u for u in memory.list(namespace=namespace) if CANARY.lower() in u.restatement.lower()]


def test_a_deleted_unit_leaves_no_text_in_clues_searches_or_files(memory):
    memory, path = memory
    secret = _secret_units(memory)
    assert secret and _holding(path, CANARY.encode())  # the test can fail: the text is there
    before = memory.search("hidden passport number in the vault", recipe="asso")
    assert CANARY.lower() in repr(before).lower()  # searches quote it while it is stored
    clue_ids = {m.clue_id for m in memory.store.clues.clues_of_units("default", [u.id for u in secret]).values()}
    assert any(CANARY.lower() in c.text.lower() for c in memory.store.clues.get_clues("default", list(clue_ids)))
    memory.delete_all(namespace="other")
    vectors = [u.vector.tobytes() for u in secret]
    for unit in secret:
        memory.delete(unit.id)
    # the session's clue was written again from the units left
    remaining = memory.store.clues.get_clues("default", list(clue_ids))
    assert remaining and all(CANARY.lower() not in c.text.lower() for c in remaining)
    for recipe in ("ripple", "asso", "bm25"):
        found = memory.search("hidden passport number in the vault", recipe=recipe)
        assert CANARY.lower() not in repr(found).lower()
    # nothing in the files: not the text, not the vector (checked while the store is open)
    assert _holding(path, CANARY.encode()) == []
    assert all(v not in data for v in vectors for data in _files(path).values())


def test_delete_all_leaves_no_text_in_the_files(memory):
    memory, path = memory
    assert memory.delete_all() > 0 and memory.delete_all(namespace="other") > 0
    assert memory.namespaces() == []
    assert _holding(path, CANARY.encode()) == [] and _holding(path, b"Lisbon") == []


def test_a_reader_holding_a_transaction_delays_no_delete_search_or_writer(memory, embedder):
    """Another connection's open read transaction: the delete returns at once, searches and
    another writer go on; the deleted text leaves the files once the reader ends, and
    ``flush_erasure`` waits for that."""
    memory, path = memory
    secret = _secret_units(memory)
    vectors = [u.vector.tobytes() for u in secret]
    reader = sqlite3.connect(path, isolation_level=None)
    reader.execute("BEGIN")
    assert reader.execute("SELECT count(*) FROM unit").fetchone()[0] > 0  # holds a snapshot
    try:
        started = time.monotonic()
        for unit in secret:
            memory.delete(unit.id)
        memory.delete_all(namespace="other")  # the other copy of the canary
        deleted_in = time.monotonic() - started
        assert deleted_in < 10, deleted_in  # the checkpoint waited write_wait_s (600 s) here
        started = time.monotonic()
        found = memory.search("hidden passport number in the vault")
        assert CANARY.lower() not in repr(found).lower()
        with Memory(Settings(store=str(path)), embedder=embedder) as writer:  # another writer
            writer.add([{"speaker": "Sam", "text": "Maya took up rowing in May."}], namespace="third")
        assert time.monotonic() - started < 30
        # the reader can still read the deleted rows of its snapshot: their bytes cannot go yet
        assert reader.execute(
            "SELECT count(*) FROM unit WHERE namespace = 'default' AND restatement LIKE ?", (f"%{CANARY}%",)
        ).fetchone()[0] == len(secret)
        assert memory.flush_erasure(timeout=0.3) is False
    finally:
        reader.execute("COMMIT")
        reader.close()
    assert memory.flush_erasure(timeout=30) is True
    assert _holding(path, CANARY.encode()) == []
    assert all(v not in data for v in vectors for data in _files(path).values())
