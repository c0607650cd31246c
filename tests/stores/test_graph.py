"""GraphIndex (stores/graph.py): the in-memory edges of a namespace, against a dict model; a
``supersedes`` edge keeps its direction (the older end's row holds the negative weight)."""

from __future__ import annotations

import random

import pytest

from ripplemem.records import Edge
from ripplemem.stores.graph import GraphIndex, stored_edge

KINDS = ("semantic", "structural", "supersedes")


class Model:
    """The plain reference: kind -> node -> {neighbour: weight}."""

    def __init__(self) -> None:
        self.rows: dict[str, dict[str, dict[str, float]]] = {kind: {} for kind in KINDS}

    def apply(self, changes: list) -> None:
        for kind, a, b, weight in changes:
            for this, other, sign in ((a, b, 1), (b, a, -1 if kind == "supersedes" else 1)):
                row = self.rows[kind].setdefault(this, {})
                if weight is None:
                    row.pop(other, None)
                else:
                    row[other] = sign * weight

    def neighbours(self, ids: list[str], kind: str) -> dict[str, list[tuple[str, float]]]:
        return {
            i: sorted(((o, abs(w)) for o, w in self.rows[kind].get(i, {}).items()), key=lambda e: (-e[1], e[0]))
            for i in dict.fromkeys(ids)
        }

    def supersedes(self, unit_id: str) -> list[tuple[str, str]]:
        """(newer, older) of each supersedes edge of ``unit_id``."""
        return sorted((unit_id, o) if w > 0 else (o, unit_id) for o, w in self.rows["supersedes"].get(unit_id, {}).items())

    def entries(self) -> int:
        return sum(len(row) for rows in self.rows.values() for row in rows.values())


def random_changes(rng: random.Random, nodes: int, count: int) -> list:
    changes = []
    for _ in range(count):
        a, b = rng.sample(range(nodes), 2)
        weight = None if rng.random() < 0.3 else round(rng.uniform(0.5, 1.0), 6)
        changes.append((rng.choice(KINDS), f"u{a}", f"u{b}", weight))
    return changes


def same(graph: GraphIndex, model: Model, nodes: int) -> None:
    ids = [f"u{i}" for i in range(nodes)] + ["ghost"]
    for kind in KINDS:
        assert graph.neighbours(ids, kind) == model.neighbours(ids, kind)
    assert graph.entries == model.entries()
    for unit_id in ids[::7]:
        read = [stored_edge("ns", unit_id, *entry) for entry in graph.edges_of(unit_id)]
        assert all(known for _, known in read)
        assert sorted((e.src, e.dst) for e, _ in read if e.kind == "supersedes") == model.supersedes(unit_id)


def test_changes_read_back_in_both_directions_strongest_first() -> None:
    graph = GraphIndex()
    graph.apply([("semantic", "a", "b", 0.9), ("semantic", "a", "c", 0.95)])
    graph.apply([("structural", "a", "d", 0.7), ("semantic", "b", "a", 0.5)])  # b-a: new weight
    assert graph.neighbours(["a", "b", "d", "x"], "semantic") == {
        "a": [("c", 0.95), ("b", 0.5)],
        "b": [("a", 0.5)],
        "d": [],
        "x": [],
    }
    assert graph.edges_of("a") == [
        ("semantic", "b", 0.5, 0.5),
        ("semantic", "c", 0.95, 0.95),
        ("structural", "d", 0.7, 0.7),
    ]
    graph.apply([("semantic", "c", "a", None), ("semantic", "x", "y", None)])  # x-y: not there
    assert graph.neighbours(["a", "c"], "semantic") == {"a": [("b", 0.5)], "c": []}
    assert not graph.has_edges("c") and graph.has_edges("d") and not graph.has_edges("x")
    assert graph.entries == 4
    assert graph.removals("a") == [("semantic", "a", "b", None), ("structural", "a", "d", None)]


def test_a_supersedes_edge_is_read_new_to_old_from_either_end() -> None:
    graph = GraphIndex()
    graph.apply([("supersedes", "new", "old", 1.0), ("semantic", "old", "new", 0.8)])
    assert graph.neighbours(["new", "old"], "supersedes") == {"new": [("old", 1.0)], "old": [("new", 1.0)]}
    for unit_id in ("new", "old"):
        read = [stored_edge("ns", unit_id, *entry) for entry in graph.edges_of(unit_id)]
        assert (Edge("ns", "new", "old", "supersedes", 1.0), True) in read
    restored = GraphIndex.from_snapshot(graph.snapshot())  # kept on disk
    assert restored.edges_of("old") == graph.edges_of("old")
    assert GraphIndex.from_edges([("supersedes", "new", "old", 1.0)]).edges_of("old") == [
        ("supersedes", "new", -1.0, 1.0)
    ]
    graph.apply([("supersedes", "old", "new", 1.0)])  # the same edge the other way round
    assert stored_edge("ns", "new", *graph.edges_of("new")[1]) == (Edge("ns", "old", "new", "supersedes", 1.0), True)


def test_a_supersedes_edge_stored_without_its_direction_is_read_as_such() -> None:
    """Rows both positive: an edge stored before the direction was kept."""
    entry = ("supersedes", "b", 1.0, 1.0)
    assert stored_edge("ns", "a", *entry) == (Edge("ns", "a", "b", "supersedes", 1.0), False)


def test_many_changes_fold_into_arrays_and_still_read_like_the_model() -> None:
    """Enough nodes change for the overlay to fold several times (it folds past 4,096)."""
    rng = random.Random(3)
    graph, model = GraphIndex(), Model()
    for _ in range(12):
        changes = random_changes(rng, 9_000, 3_000)
        graph.apply(changes)
        model.apply(changes)
    assert graph._base["semantic"].nodes > 4_096  # folded: most rows now live in the arrays
    same(graph, model, 9_000)


def test_a_snapshot_round_trips_and_leaves_out_units_without_edges() -> None:
    rng = random.Random(5)
    graph, model = GraphIndex(), Model()
    changes = random_changes(rng, 300, 2_000)
    graph.apply(changes)
    model.apply(changes)
    graph.apply([("semantic", "lonely", "u1", 0.8), ("semantic", "lonely", "u1", None)])
    model.apply([("semantic", "lonely", "u1", 0.8), ("semantic", "lonely", "u1", None)])
    restored = GraphIndex.from_snapshot(graph.snapshot())
    same(restored, model, 300)
    assert "lonely" not in restored._node
    more = random_changes(rng, 300, 500)  # a restored graph takes changes like any other
    restored.apply(more)
    model.apply(more)
    same(restored, model, 300)
    assert GraphIndex.from_snapshot(GraphIndex().snapshot()).entries == 0


def test_from_edges_builds_what_applying_them_one_by_one_does() -> None:
    rng = random.Random(8)
    adds = [c for c in random_changes(rng, 200, 1_500) if c[3] is not None]
    adds.append(("semantic", adds[0][2], adds[0][1], 0.123))  # the same edge again: last wins
    built = GraphIndex.from_edges(adds)
    model = Model()
    model.apply(adds)
    same(built, model, 200)


def test_a_damaged_snapshot_is_refused() -> None:
    blob = GraphIndex.from_edges([("semantic", "a", "b", 0.9)]).snapshot()
    for bad in (b"", b"not a snapshot", blob[: len(blob) // 2]):
        with pytest.raises(ValueError, match="snapshot"):
            GraphIndex.from_snapshot(bad)
