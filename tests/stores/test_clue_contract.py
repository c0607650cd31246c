"""The ClueStore contract (ripplemem/stores/clues_base.py), run against both backends."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from ripplemem.errors import ConfigurationError, InvalidInputError
from ripplemem.records import Clue, Membership
from ripplemem.stores.base import MemoryStore
from ripplemem.stores.clues_base import ClueStore, clues_of
from ripplemem.stores.memory import InMemoryStore
from ripplemem.stores.sqlite import SQLiteStore

from . import make_unit, unit_vectors


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MemoryStore]:
    backend: MemoryStore
    backend = InMemoryStore() if request.param == "memory" else SQLiteStore(tmp_path / "s.db")
    yield backend
    backend.close()


@pytest.fixture
def clues(store: MemoryStore) -> ClueStore:
    return clues_of(store)


VECTORS = unit_vectors(4, seed=11)


def clue(clue_id: str, row: int, namespace: str = "ns") -> Clue:
    return Clue(clue_id, namespace, f"topic {clue_id}", VECTORS[row] * 3.0, "keyphrases")


def filled(store: MemoryStore, clues: ClueStore) -> None:
    store.add_units([make_unit(i) for i in ("a", "b", "c")])
    clues.add_clue(clue("c1", 0), "s1")
    clues.add_clue(clue("c2", 1), "s2")
    clues.attach("ns", [Membership("a", "c1", 0.9), Membership("b", "c1", 0.5), Membership("c", "c2", 0.7)])
    clues.add_links("ns", [("a", "b", 0.8), ("a", "c", 0.76), ("b", "b", 1.0)])


def test_implements_the_protocol(clues: ClueStore) -> None:
    assert isinstance(clues, ClueStore)


def test_an_empty_graph_answers_with_nothing(clues: ClueStore) -> None:
    assert clues.clue_count("ns") == 0 and clues.clue_for_session("ns", "s1") is None
    assert clues.search_clues("ns", VECTORS[0], 3) == []
    assert clues.members("ns", ["c1"]) == {"c1": []}
    assert clues.links("ns", ["a"]) == {"a": []} and clues.clues_of_units("ns", ["a"]) == {}


def test_clues_sessions_members_and_links_round_trip(store: MemoryStore, clues: ClueStore) -> None:
    filled(store, clues)
    assert clues.clue_count("ns") == 2 and clues.clue_count("other") == 0
    assert clues.clue_for_session("ns", "s2") == "c2"
    (got,) = clues.get_clues("ns", ["c1"])
    assert got.text == "topic c1" and got.sessions == 1 and got.source == "keyphrases"
    assert np.isclose(np.linalg.norm(got.vector), 1.0)  # stored normalised
    assert clues.members("ns", ["c1"]) == {"c1": [("a", 0.9), ("b", 0.5)]}
    assert clues.clues_of_units("ns", ["c", "zz"]) == {"c": Membership("c", "c2", 0.7)}
    links = clues.links("ns", ["a", "b", "c"])
    assert links["a"] == [("b", 0.8), ("c", 0.76)]  # best first, self link ignored
    assert links["b"] == [("a", 0.8)] and links["c"] == [("a", 0.76)]


def test_search_ranks_clues_by_cosine(store: MemoryStore, clues: ClueStore) -> None:
    filled(store, clues)
    found = clues.search_clues("ns", VECTORS[1], 2)
    assert [cid for cid, _ in found] == ["c2", "c1"] and found[0][1] == pytest.approx(1.0, abs=1e-5)
    clues.add_clue(clue("c3", 2), "s3")  # a clue added after a search is found too
    assert clues.search_clues("ns", VECTORS[2], 1)[0][0] == "c3"


def test_merging_a_session_maps_it_and_counts_it(store: MemoryStore, clues: ClueStore) -> None:
    filled(store, clues)
    clues.merge_session("ns", "c1", "s9")
    clues.merge_session("ns", "c1", "s9")  # idempotent
    assert clues.clue_for_session("ns", "s9") == "c1"
    assert clues.get_clues("ns", ["c1"])[0].sessions == 2
    with pytest.raises(InvalidInputError):
        clues.merge_session("ns", "nope", "s10")
    with pytest.raises(InvalidInputError):
        clues.attach("ns", [Membership("a", "nope", 1.0)])
    with pytest.raises(InvalidInputError):
        clues.add_clue(clue("c1", 3), "s11")


def test_reattaching_moves_a_unit(store: MemoryStore, clues: ClueStore) -> None:
    filled(store, clues)
    clues.attach("ns", [Membership("b", "c2", 0.6)])
    assert [u for u, _ in clues.members("ns", ["c1"])["c1"]] == ["a"]
    assert clues.clues_of_units("ns", ["b"])["b"].clue_id == "c2"


def test_deleting_a_unit_removes_its_membership_and_links(store: MemoryStore, clues: ClueStore) -> None:
    filled(store, clues)
    assert store.delete_unit("ns", "a")
    assert clues.members("ns", ["c1"]) == {"c1": [("b", 0.5)]}
    assert clues.links("ns", ["a", "b", "c"]) == {"a": [], "b": [], "c": []}


def test_a_clue_without_members_goes_with_its_sessions(store: MemoryStore, clues: ClueStore) -> None:
    filled(store, clues)
    store.delete_unit("ns", "c")
    assert clues.clue_count("ns") == 1 and clues.clue_for_session("ns", "s2") is None
    assert [cid for cid, _ in clues.search_clues("ns", VECTORS[1], 5)] == ["c1"]


def test_deleting_a_namespace_drops_its_graph_only(store: MemoryStore, clues: ClueStore) -> None:
    filled(store, clues)
    store.add_units([make_unit("x", namespace="keep")])
    clues.add_clue(clue("k1", 3, namespace="keep"), "s1")
    clues.attach("keep", [Membership("x", "k1", 1.0)])
    store.delete_namespace("ns")
    assert clues.clue_count("ns") == 0 and clues.search_clues("ns", VECTORS[0], 3) == []
    assert clues.links("ns", ["a"]) == {"a": []}
    assert clues.members("keep", ["k1"]) == {"k1": [("x", 1.0)]}


def test_a_store_without_a_graph_is_refused() -> None:
    with pytest.raises(ConfigurationError):
        clues_of(object())


def test_sqlite_graph_survives_reopening(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "g.db") as store:
        filled(store, clues_of(store))
    with SQLiteStore(tmp_path / "g.db") as store:
        graph = clues_of(store)
        assert graph.search_clues("ns", VECTORS[0], 1)[0][0] == "c1"
        assert graph.links("ns", ["a"])["a"] == [("b", 0.8), ("c", 0.76)]


def test_sqlite_sees_clues_added_by_another_connection(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "g.db") as first, SQLiteStore(tmp_path / "g.db") as second:
        filled(first, clues_of(first))
        assert clues_of(second).search_clues("ns", VECTORS[0], 1)[0][0] == "c1"
        clues_of(first).add_clue(clue("c3", 2), "s3")
        assert clues_of(second).search_clues("ns", VECTORS[2], 1)[0][0] == "c3"
