"""The bounded neighbourhood and the timeline, on the in-memory store, a SQLite file and a real
PostgreSQL: they read only what the store Protocol offers."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from ripplemem.core.neighbourhood import MAX_NODES, neighbourhood
from ripplemem.core.timeline import timeline
from ripplemem.records import Edge
from ripplemem.stores.base import MemoryStore
from ripplemem.stores.memory import InMemoryStore
from ripplemem.stores.registry import open_store
from ripplemem.stores.sqlite import SQLiteStore
from ripplemem.testing.builders import day_span, make_unit


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def store(request, tmp_path: Path) -> Iterator[MemoryStore]:
    opened: MemoryStore
    if request.param == "memory":
        opened = InMemoryStore()
    elif request.param == "sqlite":
        opened = SQLiteStore(tmp_path / "s.db")
    else:
        opened = open_store(request.getfixturevalue("postgres_store_url")("viewer"))
    yield opened
    opened.close()


def star(store: MemoryStore, namespace: str, leaves: int) -> None:
    """Unit ``c`` joined to ``l0..l{leaves-1}`` with weights falling with the index; ``l0`` to ``x``."""
    units = [make_unit("c", namespace=namespace), make_unit("x", namespace=namespace)]
    units += [make_unit(f"l{i}", namespace=namespace) for i in range(leaves)]
    with store.write([namespace]):
        store.add_units(units)
        store.change_edges(add=[
            *(Edge(namespace, "c", f"l{i}", "structural", 1.0 - i / (2 * leaves)) for i in range(leaves)),
            Edge(namespace, "l0", "x", "semantic", 0.9),
        ])


def test_hops_reach_further_and_every_edge_inside_is_returned_once(store) -> None:
    star(store, "ns", 5)
    seeds_only = neighbourhood(store, "ns", ["c"], hops=0)
    assert [u.id for u in seeds_only.units] == ["c"] and seeds_only.edges == []
    one = neighbourhood(store, "ns", ["c"], hops=1)
    assert [u.id for u in one.units] == ["c", "l0", "l1", "l2", "l3", "l4"]  # strongest first
    assert one.hops == {"c": 0, **{f"l{i}": 1 for i in range(5)}}
    assert sorted((e.src, e.dst) for e in one.edges) == [("c", f"l{i}") for i in range(5)]
    two = neighbourhood(store, "ns", ["c"], hops=2)
    assert two.hops["x"] == 2
    pairs = [tuple(sorted((e.src, e.dst))) + (e.kind,) for e in two.edges]
    assert len(pairs) == len(set(pairs)) == 6
    assert all(u.vector is None for u in two.units)  # the viewer never ships vectors
    assert not two.truncated


def test_a_supersedes_edge_runs_new_to_old_whichever_end_is_the_seed(store) -> None:
    with store.write(["ns"]):
        store.add_units([make_unit("old"), make_unit("new"), make_unit("near")])
        store.change_edges(add=[
            Edge("ns", "new", "old", "supersedes", 1.0), Edge("ns", "near", "old", "semantic", 0.8),
        ])
    for seed in ("old", "new"):
        found = neighbourhood(store, "ns", [seed], hops=2)
        assert {u.id for u in found.units} == {"old", "new", "near"}
        assert [(e.src, e.dst) for e in found.edges if e.kind == "supersedes"] == [("new", "old")]
        assert [{e.src, e.dst} for e in found.edges if e.kind == "semantic"] == [{"old", "near"}]


def test_the_cap_keeps_the_strongest_and_says_it_cut(store) -> None:
    star(store, "ns", 8)
    capped = neighbourhood(store, "ns", ["c"], hops=1, max_nodes=4)
    assert [u.id for u in capped.units] == ["c", "l0", "l1", "l2"]
    assert capped.truncated
    assert {(e.src, e.dst) for e in capped.edges} == {("c", "l0"), ("c", "l1"), ("c", "l2")}
    # no caller gets more than MAX_NODES, whatever it asks
    big = neighbourhood(store, "ns", [f"l{i}" for i in range(8)], hops=1, max_nodes=10 * MAX_NODES)
    assert len(big.units) <= MAX_NODES


def test_ids_of_another_namespace_or_unknown_are_left_out(store) -> None:
    star(store, "alex", 3)
    star(store, "bo", 3)
    found = neighbourhood(store, "bo", ["c", "nope"], hops=1)
    assert {u.namespace for u in found.units} == {"bo"}
    assert neighbourhood(store, "carol", ["c"], hops=2).units == []


def test_timeline_places_units_by_span_then_by_the_day_said(store) -> None:
    said = datetime(2023, 6, 1, 15, 30)
    units = [
        make_unit("a", namespace="ns", time_span=day_span(0)),
        make_unit("b", namespace="ns", time_span=day_span(10, 3)),
        make_unit("c", namespace="ns", session_time=said),
        make_unit("d", namespace="ns"),
    ]
    with store.write(["ns"]):
        store.add_units(units)
    whole = timeline(store, "ns", bins=4)
    assert (whole.total, whole.undated, whole.in_window) == (4, 1, 3)
    assert [(u.unit.id, u.basis) for u in whole.units] == [("a", "span"), ("b", "span"), ("c", "said")]
    assert all(u.unit.vector is None for u in whole.units)
    assert whole.units[2].start == datetime(2023, 6, 1)
    assert sum(b.count for b in whole.bins) == 3 and len(whole.bins) == 4
    assert whole.bins[0].start == whole.first and whole.bins[-1].end == whole.last
    assert whole.bins[0].count == 1 and whole.bins[-1].count == 1
    window = timeline(store, "ns", start=whole.first + timedelta(days=5), end=whole.first + timedelta(days=20))
    assert [u.unit.id for u in window.units] == ["b"] and window.in_window == 1
    page = timeline(store, "ns", limit=1, offset=1)
    assert [u.unit.id for u in page.units] == ["b"]
    assert timeline(store, "empty").bins == []
