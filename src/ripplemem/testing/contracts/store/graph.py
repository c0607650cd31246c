"""The store contract, part: the unit graph: edges in both directions, by kind, changed all or
nothing; a ``supersedes`` edge keeps its direction (new -> old). It uses the fixtures of :class:`~ripplemem.testing.contracts.store.StoreContract`."""

from __future__ import annotations

import pytest

from ripplemem.errors import InvalidInputError, UnknownUnitError
from ripplemem.records import Edge
from ripplemem.stores.base import MemoryStore, add_edges
from ripplemem.testing.builders import make_unit

__all__ = ["GraphContract"]


class GraphContract:
    def test_edges_are_stored_in_both_directions(self, store: MemoryStore) -> None:
        store.add_units([make_unit(u) for u in "abcd"])
        add_edges(store, 
            [
                Edge("ns", "a", "b", "semantic", 0.9),
                Edge("ns", "a", "c", "semantic", 0.95),
                Edge("ns", "a", "d", "structural", 0.7),
            ]
        )
        sem = store.neighbours("ns", ["a", "b", "d"], "semantic")
        assert sem == {"a": [("c", 0.95), ("b", 0.9)], "b": [("a", 0.9)], "d": []}
        assert store.neighbours("ns", ["d"], "structural") == {"d": [("a", 0.7)]}
        add_edges(store, [Edge("ns", "b", "a", "semantic", 0.5)])  # same edge, new weight
        assert store.neighbours("ns", ["a"], "semantic")["a"] == [("c", 0.95), ("b", 0.5)]
        assert store.edges_of("ns", "a") == [
            Edge("ns", "a", "b", "semantic", 0.5),
            Edge("ns", "a", "c", "semantic", 0.95),
            Edge("ns", "a", "d", "structural", 0.7),
        ]
        store.change_edges(remove=[Edge("ns", "c", "a", "semantic", 0.0)])  # either direction removes both
        assert store.neighbours("ns", ["a", "c"], "semantic") == {"a": [("b", 0.5)], "c": []}

    def test_supersedes_edges_are_a_kind_of_their_own(self, store: MemoryStore) -> None:
        """A ``supersedes`` edge is kept apart from the linker's kinds and leaves with its unit."""
        store.add_units([make_unit(u) for u in "abc"])
        add_edges(store, [Edge("ns", "b", "a", "supersedes", 1.0), Edge("ns", "c", "b", "supersedes", 1.0)])
        add_edges(store, [Edge("ns", "a", "b", "semantic", 0.8)])
        found = store.neighbours("ns", ["a", "b", "c"], "supersedes")
        assert found == {"a": [("b", 1.0)], "b": [("a", 1.0), ("c", 1.0)], "c": [("b", 1.0)]}
        assert store.neighbours("ns", ["c"], "semantic") == {"c": []}
        assert [e.kind for e in store.edges_of("ns", "b")] == ["semantic", "supersedes", "supersedes"]
        store.delete_unit("ns", "b")
        assert store.neighbours("ns", ["a", "c"], "supersedes") == {"a": [], "c": []}

    def test_a_supersedes_edge_keeps_its_direction(self, store: MemoryStore) -> None:
        """``edges_of`` reports a ``supersedes`` edge new -> old from either end (the other kinds
        from the unit asked about); adding it the other way round turns it; ``neighbours``
        answers both ends alike."""
        store.add_units([make_unit(u) for u in "abc"])
        add_edges(store, [Edge("ns", "b", "a", "supersedes", 1.0), Edge("ns", "b", "c", "supersedes", 1.0)])
        add_edges(store, [Edge("ns", "a", "b", "semantic", 0.8)])
        assert store.edges_of("ns", "a") == [
            Edge("ns", "a", "b", "semantic", 0.8), Edge("ns", "b", "a", "supersedes", 1.0),
        ]
        assert store.edges_of("ns", "b") == [
            Edge("ns", "b", "a", "semantic", 0.8),
            Edge("ns", "b", "a", "supersedes", 1.0),
            Edge("ns", "b", "c", "supersedes", 1.0),
        ]
        assert store.edges_of("ns", "c") == [Edge("ns", "b", "c", "supersedes", 1.0)]
        assert store.neighbours("ns", ["a", "b"], "supersedes") == {
            "a": [("b", 1.0)], "b": [("a", 1.0), ("c", 1.0)],
        }
        add_edges(store, [Edge("ns", "c", "b", "supersedes", 0.5)])  # the same edge, turned
        assert store.edges_of("ns", "c") == [Edge("ns", "c", "b", "supersedes", 0.5)]
        assert [e for e in store.edges_of("ns", "b") if e.dst == "b"] == [Edge("ns", "c", "b", "supersedes", 0.5)]
        store.change_edges(remove=[Edge("ns", "a", "b", "supersedes", 1.0)])  # either way removes it
        assert [e.kind for e in store.edges_of("ns", "a")] == ["semantic"]

    def test_neighbours_of_many_ids_at_once(self, store: MemoryStore) -> None:
        """More ids than one SQL IN list holds; unknown and repeated ids; ties ordered by id."""
        store.add_units([make_unit("hub"), *(make_unit(f"n{i:03d}") for i in range(600))])
        add_edges(store, 
            [Edge("ns", "hub", f"n{i:03d}", "semantic", 0.5 + (i % 3) / 10) for i in range(600)]
        )
        asked = [f"n{i:03d}" for i in range(600)] + ["hub", "ghost", "n001"]
        found = store.neighbours("ns", asked, "semantic")
        assert list(found) == list(dict.fromkeys(asked))
        assert found["ghost"] == [] and found["n004"] == [("hub", 0.6)]
        hub = found["hub"]
        assert len(hub) == 600 and hub[0] == ("n002", 0.7) and hub[-1] == ("n597", 0.5)
        assert hub == sorted(hub, key=lambda edge: (-edge[1], edge[0]))
        assert store.neighbours("ns", asked, "structural")["hub"] == []

    def test_change_edges_removes_then_adds_all_or_nothing(self, store: MemoryStore) -> None:
        store.add_units([make_unit(u) for u in "abcd"])
        add_edges(store, [Edge("ns", "a", "b", "semantic", 0.9), Edge("ns", "a", "c", "semantic", 0.8)])
        with pytest.raises(UnknownUnitError, match="'ghost'"):
            store.change_edges(
                remove=[Edge("ns", "b", "a", "semantic", 0.9)],
                add=[Edge("ns", "a", "d", "semantic", 0.7), Edge("ns", "a", "ghost", "semantic", 0.7)],
            )
        assert store.neighbours("ns", ["a"], "semantic")["a"] == [("b", 0.9), ("c", 0.8)]  # untouched
        store.change_edges(
            remove=[Edge("ns", "b", "a", "semantic", 0.9), Edge("ns", "c", "d", "semantic", 0.1)],
            add=[Edge("ns", "d", "a", "semantic", 0.7), Edge("ns", "c", "a", "semantic", 0.85)],
        )
        assert store.neighbours("ns", ["a", "b", "d"], "semantic") == {
            "a": [("c", 0.85), ("d", 0.7)],
            "b": [],
            "d": [("a", 0.7)],
        }
        store.change_edges()  # nothing to do

    def test_edges_are_checked(self, store: MemoryStore) -> None:
        store.add_units([make_unit("a"), make_unit("b"), make_unit("x", namespace="other")])
        with pytest.raises(UnknownUnitError, match="'x'"):
            add_edges(store, [Edge("ns", "a", "x", "semantic", 0.9)])
        with pytest.raises(InvalidInputError, match="kind"):
            add_edges(store, [Edge("ns", "a", "b", "lexical", 0.9)])
        with pytest.raises(InvalidInputError, match="kind"):
            store.neighbours("ns", ["a"], "lexical")
        with pytest.raises(InvalidInputError, match="itself"):
            add_edges(store, [Edge("ns", "a", "a", "semantic", 0.9)])
        with pytest.raises(InvalidInputError, match="positive weight"):
            add_edges(store, [Edge("ns", "a", "b", "supersedes", 0.0)])
        assert store.edges_of("ns", "a") == []
