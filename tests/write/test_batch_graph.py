"""BatchGraph: the edges of one link batch, read once, changed in memory, written once."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import numpy as np
import pytest

from ripplemem.records import Edge, MemoryUnit
from ripplemem.stores.base import add_edges
from ripplemem.stores.sqlite import SQLiteStore
from ripplemem.write.batch_graph import BatchGraph


def make_unit(unit_id: str) -> MemoryUnit:
    vector = np.ones(4, dtype=np.float32) / 2
    return MemoryUnit(
        id=unit_id, namespace="ns", restatement=f"unit {unit_id}", vector=vector,
        participants=(), locations=(), time_span=None, episode_id="s1", turn_ids=(unit_id,),
        session_time=None, created_at=datetime(2024, 5, 1),
    )  # fmt: skip


@pytest.fixture
def store(tmp_path: Path):
    s = SQLiteStore(tmp_path / "graph.db")
    s.add_units([make_unit(u) for u in "abcde"])
    add_edges(s, [Edge("ns", "a", "b", "semantic", 0.9), Edge("ns", "a", "c", "semantic", 0.8)])
    yield s
    s.close()


def test_changes_show_at_once_and_reach_the_store_on_write(store: SQLiteStore) -> None:
    graph = BatchGraph(store)
    graph.load("ns", "semantic", ["a", "d"])
    graph.remove(Edge("ns", "c", "a", "semantic", 0.8))
    graph.add(Edge("ns", "d", "a", "semantic", 0.7))
    assert graph.of("ns", "semantic", "a") == {"b": 0.9, "d": 0.7}
    assert graph.of("ns", "semantic", "d") == {"a": 0.7}
    assert store.neighbours("ns", ["a"], "semantic")["a"] == [("b", 0.9), ("c", 0.8)]  # not yet
    graph.write()
    assert store.neighbours("ns", ["a"], "semantic")["a"] == [("b", 0.9), ("d", 0.7)]
    assert store.neighbours("ns", ["c"], "semantic")["c"] == []


def test_the_last_change_of_a_pair_wins(store: SQLiteStore) -> None:
    graph = BatchGraph(store)
    graph.add(Edge("ns", "d", "e", "semantic", 0.6))
    graph.remove(Edge("ns", "e", "d", "semantic", 0.6))  # added, then evicted in the same batch
    graph.remove(Edge("ns", "a", "b", "semantic", 0.9))
    graph.add(Edge("ns", "b", "a", "semantic", 0.95))  # evicted, then made again
    graph.write()
    assert store.neighbours("ns", ["d", "a"], "semantic") == {
        "d": [],
        "a": [("b", 0.95), ("c", 0.8)],
    }


def test_an_id_read_late_sees_the_pending_changes(store: SQLiteStore) -> None:
    graph = BatchGraph(store)  # nothing loaded: every id is read when first asked
    graph.remove(Edge("ns", "a", "b", "semantic", 0.9))
    graph.add(Edge("ns", "c", "e", "semantic", 0.75))
    assert graph.of("ns", "semantic", "b") == {}
    assert graph.of("ns", "semantic", "c") == {"a": 0.8, "e": 0.75}
    assert graph.of("ns", "structural", "c") == {}
