"""The store contract, part: the AssoMem clue graph (``store.clues``). It uses the fixtures of
:class:`~ripplemem.testing.contracts.store.StoreContract`."""

from __future__ import annotations

import numpy as np
import pytest

from ripplemem.errors import InvalidInputError
from ripplemem.records import Membership
from ripplemem.stores.base import MemoryStore
from ripplemem.stores.clues_base import ClueStore
from ripplemem.testing.builders import make_unit
from ripplemem.testing.contracts.store.shared import (
    VECTORS,
    clue,
    filled,
)

__all__ = ["ClueContract"]


class ClueContract:
    # --- the clue graph ------------------------------------------------------------------

    def test_an_empty_graph_answers_with_nothing(self, clues: ClueStore) -> None:
        assert clues.clue_count("ns") == 0 and clues.clue_for_session("ns", "s1") is None
        assert clues.search_clues("ns", VECTORS[0], 3) == []
        assert clues.members("ns", ["c1"]) == {"c1": []}
        assert clues.links("ns", ["a"]) == {"a": []} and clues.clues_of_units("ns", ["a"]) == {}

    def test_clues_sessions_members_and_links_round_trip(self, store: MemoryStore, clues: ClueStore) -> None:
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

    def test_search_ranks_clues_by_cosine(self, store: MemoryStore, clues: ClueStore) -> None:
        filled(store, clues)
        found = clues.search_clues("ns", VECTORS[1], 2)
        assert [cid for cid, _ in found] == ["c2", "c1"] and found[0][1] == pytest.approx(1.0, abs=1e-5)
        clues.add_clue(clue("c3", 2), "s3")  # a clue added after a search is found too
        assert clues.search_clues("ns", VECTORS[2], 1)[0][0] == "c3"

    def test_merging_a_session_maps_it_and_counts_it(self, store: MemoryStore, clues: ClueStore) -> None:
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

    def test_rewriting_a_clue_changes_its_text_and_vector_only(self, store: MemoryStore, clues: ClueStore) -> None:
        filled(store, clues)
        assert clues.search_clues("ns", VECTORS[3], 1)[0][0] != "c1"
        clues.rewrite_clue("ns", "c1", "a new topic", VECTORS[3] * 2.0)
        (got,) = clues.get_clues("ns", ["c1"])
        assert got.text == "a new topic" and np.allclose(got.vector, VECTORS[3], atol=1e-6)
        assert got.sessions == 1 and clues.clue_for_session("ns", "s1") == "c1"
        assert clues.members("ns", ["c1"]) == {"c1": [("a", 0.9), ("b", 0.5)]}
        found = clues.search_clues("ns", VECTORS[3], 1)
        assert found[0][0] == "c1" and found[0][1] == pytest.approx(1.0, abs=1e-5)
        with pytest.raises(InvalidInputError):
            clues.rewrite_clue("ns", "nope", "text", VECTORS[0])

    def test_reattaching_moves_a_unit(self, store: MemoryStore, clues: ClueStore) -> None:
        filled(store, clues)
        clues.attach("ns", [Membership("b", "c2", 0.6)])
        assert [u for u, _ in clues.members("ns", ["c1"])["c1"]] == ["a"]
        assert clues.clues_of_units("ns", ["b"])["b"].clue_id == "c2"

    def test_deleting_a_unit_removes_its_membership_and_links(self, store: MemoryStore, clues: ClueStore) -> None:
        filled(store, clues)
        assert store.delete_unit("ns", "a")
        assert clues.members("ns", ["c1"]) == {"c1": [("b", 0.5)]}
        assert clues.links("ns", ["a", "b", "c"]) == {"a": [], "b": [], "c": []}

    def test_a_clue_without_members_goes_with_its_sessions(self, store: MemoryStore, clues: ClueStore) -> None:
        filled(store, clues)
        store.delete_unit("ns", "c")
        assert clues.clue_count("ns") == 1 and clues.clue_for_session("ns", "s2") is None
        assert [cid for cid, _ in clues.search_clues("ns", VECTORS[1], 5)] == ["c1"]

    def test_deleting_a_namespace_drops_its_graph_only(self, store: MemoryStore, clues: ClueStore) -> None:
        filled(store, clues)
        store.add_units([make_unit("x", namespace="keep")])
        clues.add_clue(clue("k1", 3, namespace="keep"), "s1")
        clues.attach("keep", [Membership("x", "k1", 1.0)])
        store.delete_namespace("ns")
        assert clues.clue_count("ns") == 0 and clues.search_clues("ns", VECTORS[0], 3) == []
        assert clues.links("ns", ["a"]) == {"a": []}
        assert clues.members("keep", ["k1"]) == {"k1": [("x", 1.0)]}
