"""The store contract: what every :class:`~ripplemem.stores.base.MemoryStore` must do.

Run it against a backend by subclassing :class:`StoreContract` in a test module and giving it the
one fixture it needs, ``make_store(name="main", **options)``: open the store called ``name`` (each
name a separate, initially empty store; opening a name again opens the same data when the
backend is ``persistent``), passing ``options`` (``lexical_budget``, ``lexical_rerank_depth``,
``ann_threshold``) to the backend::

    class TestMyStore(StoreContract):
        @pytest.fixture
        def make_store(self, tmp_path):
            return lambda name="main", **options: MyStore(tmp_path / f"{name}.db", **options)

The suite closes the stores it opens. Tests that need a store to be reopened, or opened by a
second connection at once, run only when the backend declares it (``capabilities``).
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import datetime, timedelta

import numpy as np
import pytest

from ripplemem.errors import (
    EmbedderMismatchError,
    InvalidInputError,
    StoreError,
    UnknownUnitError,
)
from ripplemem.records import ApiKey, Clue, Cues, Edge, Membership, TimeSpan
from ripplemem.stores.base import MemoryStore, StoreCapabilities, add_edges, search_dense
from ripplemem.stores.checks import EDGE_KINDS
from ripplemem.stores.clues_base import ClueStore
from ripplemem.stores.keys_base import KeyStore
from ripplemem.testing.builders import DIM, T0, day_span, make_unit, unit_vectors

__all__ = ["StoreContract", "StoreFactory"]

#: ``make_store(name="main", **options)``: see the module docstring.
StoreFactory = Callable[..., MemoryStore]
StoreOpener = Callable[..., MemoryStore]


def ids(pairs: list[tuple[str, float]]) -> list[str]:
    return [unit_id for unit_id, _ in pairs]


# --- units ---------------------------------------------------------------------------------


def assert_absent(store: MemoryStore, unit) -> None:
    assert store.get_units(unit.namespace, [unit.id]) == []
    assert unit.id not in ids(search_dense(store, unit.namespace, unit.vector, 50))
    assert unit.id not in ids(store.search_lexical(unit.namespace, unit.restatement, 50))
    cues = Cues(participants=unit.participants)
    assert unit.id not in store.cue_candidates(unit.namespace, cues, near=None, per_value=50)
    assert all(p.casefold() not in store.cue_values(unit.namespace, "P") for p in unit.participants)


# --- dense ---------------------------------------------------------------------------------


# --- lexical -------------------------------------------------------------------------------


DOCS = {
    "book": "Caroline recommended a book about adoption to Melanie.",
    "paint": "Melanie painted a sunset over the lake with her kids.",
    "hike": "Caroline went hiking in the mountains with friends.",
    "pottery": "Melanie signed up for a class with friends.",
    "adopt": "Caroline is researching adoption agencies; adoption means a lot to her.",
}


def add_docs(store: MemoryStore, namespace: str = "ns") -> None:
    store.add_units(
        [
            make_unit(
                key,
                namespace=namespace,
                restatement=text,
                keywords=("pottery",) if key == "pottery" else (),
            )
            for key, text in DOCS.items()
        ]
    )


# --- the lexical bound (ripplemem/stores/lexical.py) ---------------------------------------


LAKE = {  # "zither" is rare (2 units), "lake" frequent (5); "a" and "b" have the same length
    "a": "Omar tuned a zither today.",
    "b": "Maya tuned a zither by the lake.",
    "c": "Lena swam in the lake.",
    "d": "Ravi fished in the lake.",
    "e": "Aiko rowed on the lake.",
    "f": "Noah ran around the lake.",
}


def add_lake(store: MemoryStore, namespace: str = "ns") -> None:
    for key, text in LAKE.items():  # one by one: the insertion order is part of the test
        store.add_units([make_unit(key, namespace=namespace, restatement=text)])


# --- cues ----------------------------------------------------------------------------------


# --- graph ---------------------------------------------------------------------------------


# --- deletes -------------------------------------------------------------------------------


# --- embedder ------------------------------------------------------------------------------


# --- concurrency & lifecycle ---------------------------------------------------------------


VECTORS = unit_vectors(4, seed=11)


def clue(clue_id: str, row: int, namespace: str = "ns") -> Clue:
    return Clue(clue_id, namespace, f"topic {clue_id}", VECTORS[row] * 3.0, "keyphrases")


def filled(store: MemoryStore, clues: ClueStore) -> None:
    store.add_units([make_unit(i) for i in ("a", "b", "c")])
    clues.add_clue(clue("c1", 0), "s1")
    clues.add_clue(clue("c2", 1), "s2")
    clues.attach("ns", [Membership("a", "c1", 0.9), Membership("b", "c1", 0.5), Membership("c", "c2", 0.7)])
    clues.add_links("ns", [("a", "b", 0.8), ("a", "c", 0.76), ("b", "b", 1.0)])

class StoreContract:
    """Subclass it (``class TestMyStore(StoreContract)``) and provide ``make_store``."""

    @pytest.fixture
    def make_store(self) -> StoreFactory:
        raise NotImplementedError("a StoreContract subclass provides the make_store fixture")

    @pytest.fixture
    def opened(self, make_store: StoreFactory) -> Iterator[StoreFactory]:
        """``make_store``, closing every store it opened when the test ends."""
        stores: list[MemoryStore] = []

        def open_store(name: str = "main", **options: object) -> MemoryStore:
            store = make_store(name, **options)
            stores.append(store)
            return store

        yield open_store
        for store in reversed(stores):
            store.close()

    @pytest.fixture
    def store(self, opened: StoreFactory) -> MemoryStore:
        return opened()

    @pytest.fixture
    def open_bounded(self, opened: StoreFactory) -> StoreOpener:
        """Opens separate stores with a given lexical bound (budget, re-rank depth)."""
        names = itertools.count()
        return lambda **bound: opened(f"bounded{next(names)}", **bound)

    @pytest.fixture
    def clues(self, store: MemoryStore) -> ClueStore:
        return store.clues

    def test_implements_the_protocol(self, store: MemoryStore) -> None:
        assert isinstance(store, MemoryStore)
        assert isinstance(store.clues, ClueStore) and isinstance(store.keys, KeyStore)
        assert isinstance(store.capabilities, StoreCapabilities)
        assert isinstance(store.url, str) and store.url

    def test_an_empty_store_answers_every_view_with_nothing(self, store: MemoryStore) -> None:
        cues = Cues(participants=("Ann",), locations=("Oslo",), time_span=day_span(0))
        assert store.namespaces() == [] and store.count("ns") == 0
        assert store.embedder_info() is None
        assert store.get_units("ns", ["a"]) == [] and store.list_units("ns") == []
        assert search_dense(store, "ns", unit_vectors(1)[0], 5) == []
        assert store.search_lexical("ns", "anything at all", 5) == []
        assert store.cue_candidates("ns", cues, near=T0, per_value=5) == []
        assert store.cue_values("ns", "P") == []
        assert store.neighbours("ns", ["a"], "semantic") == {"a": []}
        assert store.edges_of("ns", "a") == []
        assert store.delete_unit("ns", "a") is False and store.delete_namespace("ns") == 0

    def test_units_round_trip_with_every_field(self, store: MemoryStore) -> None:
        unit = make_unit(
            "u1",
            restatement="Caroline went to the LGBTQ support group on 7 May 2023.",
            participants=("Caroline", "Melanie"),
            locations=("Boston",),
            time_span=day_span(6),
            session_time=T0 + timedelta(days=7),
            keywords=("support group", "LGBTQ"),
        )
        unit = replace(unit, time_phrases=("yesterday",), extra={"source": "test", "n": [1, 2]})
        store.add_units([unit, make_unit("u2", namespace="other")])
        (got,) = store.get_units("ns", ["u1"])
        assert got.to_json(with_vector=False) == unit.to_json(with_vector=False)
        assert got.extra == {"source": "test", "n": [1, 2]}
        assert got.vector is not None and got.vector.dtype == np.float32
        np.testing.assert_allclose(got.vector, unit.vector, atol=1e-6)

    def test_units_can_be_read_without_their_vectors(self, store: MemoryStore) -> None:
        units = [
            make_unit("u1", participants=("Ann",), time_span=day_span(1), keywords=("kayak",)),
            make_unit("u2", locations=("Oslo",), session_time=T0),
        ]
        store.add_units(units)
        got = store.get_units("ns", ["u2", "missing", "u1", "u2"], with_vectors=False)
        assert [u.id for u in got] == ["u2", "u1", "u2"]
        assert all(u.vector is None for u in got)
        by_id = {u.id: u for u in units}
        assert [u.to_json(with_vector=False) for u in got] == [
            by_id[u.id].to_json(with_vector=False) for u in got
        ]
        # the stored units keep their vectors
        assert all(u.vector is not None for u in store.get_units("ns", ["u1", "u2"]))

    def test_add_get_list_count_and_namespaces(self, store: MemoryStore) -> None:
        store.add_units([make_unit(f"a{i}") for i in range(5)])
        store.add_units([make_unit("b0", namespace="beta"), make_unit("b1", namespace="beta")])
        assert store.namespaces() == ["beta", "ns"]
        assert store.count("ns") == 5 and store.count("beta") == 2 and store.count("none") == 0
        got = store.get_units("ns", ["a3", "missing", "a1", "b0"])
        assert [u.id for u in got] == ["a3", "a1"]  # asked order, unknown ids skipped
        assert [u.id for u in store.list_units("ns")] == ["a0", "a1", "a2", "a3", "a4"]
        assert [u.id for u in store.list_units("ns", limit=2, offset=1)] == ["a1", "a2"]
        assert [u.id for u in store.list_units("ns", offset=4)] == ["a4"]
        assert store.list_units("ns", limit=0) == []

    def test_count_includes_units_without_any_lexical_term(self, store: MemoryStore) -> None:
        store.add_units([make_unit("words"), make_unit("none", restatement="Yeah, and the...")])
        assert store.count("ns") == 2
        assert store.delete_unit("ns", "none") and store.count("ns") == 1
        assert store.delete_unit("ns", "words") and store.count("ns") == 0

    def test_a_duplicate_id_fails_the_whole_batch(self, store: MemoryStore) -> None:
        store.add_units([make_unit("a", participants=("Ann",))])
        fresh = make_unit("fresh", restatement="Zebra crossing", participants=("Zed",))
        with pytest.raises(InvalidInputError, match="already exists"):
            store.add_units([fresh, make_unit("a")])
        with pytest.raises(InvalidInputError, match="twice"):
            store.add_units([fresh, make_unit("fresh")])
        assert_absent(store, fresh)
        assert store.count("ns") == 1

    def test_a_wrong_vector_fails_the_whole_batch(self, store: MemoryStore) -> None:
        store.add_units([make_unit("a")])
        good = make_unit("good", restatement="Zebra crossing", participants=("Zed",))
        bad = make_unit("bad", vector=unit_vectors(1, dim=DIM // 2)[0])
        with pytest.raises(InvalidInputError, match="192-d vector"):
            store.add_units([good, bad])
        with pytest.raises(InvalidInputError, match="no vector"):
            store.add_units([good, make_unit("none").with_vector(None)])
        with pytest.raises(InvalidInputError, match="NaN"):
            store.add_units([good, make_unit("nan", vector=np.full(DIM, np.nan, dtype=np.float32))])
        assert_absent(store, good)

    def test_vectors_are_stored_l2_normalised(self, store: MemoryStore) -> None:
        raw = unit_vectors(1, seed=3)[0] * 3.0
        store.add_units([make_unit("a", vector=raw)])
        (got,) = store.get_units("ns", ["a"])
        assert np.linalg.norm(got.vector) == pytest.approx(1.0, abs=1e-5)
        ((hit, score),) = search_dense(store, "ns", raw / 3.0, 1)
        assert hit == "a" and score == pytest.approx(1.0, abs=1e-5)

    def test_dense_search_is_exact_cosine_knn_best_first(self, store: MemoryStore) -> None:
        vectors = unit_vectors(60, seed=11)
        store.add_units([make_unit(f"u{i}", vector=v) for i, v in enumerate(vectors)])
        store.add_units([make_unit("elsewhere", namespace="other", vector=vectors[0])])
        query = unit_vectors(1, seed=99)[0]
        expected = np.argsort(-(vectors @ query))[:10]
        result = search_dense(store, "ns", query, 10)
        assert ids(result) == [f"u{i}" for i in expected]
        np.testing.assert_allclose([s for _, s in result], (vectors @ query)[expected], atol=1e-5)
        assert ids(search_dense(store, "ns", vectors[7], 1)) == ["u7"]
        assert len(search_dense(store, "ns", query, 500)) == 60
        assert search_dense(store, "ns", query, 0) == []

    def test_dense_search_many_answers_each_query_like_search_dense(self, store: MemoryStore) -> None:
        vectors = unit_vectors(60, seed=12)
        store.add_units([make_unit(f"u{i}", vector=v) for i, v in enumerate(vectors)])
        store.delete_unit("ns", "u5")
        queries = unit_vectors(4, seed=13)
        batched = store.search_dense_many("ns", queries * 2.0, 8)
        assert len(batched) == 4
        for query, hits in zip(queries, batched, strict=True):
            single = search_dense(store, "ns", query, 8)
            assert ids(hits) == ids(single) and "u5" not in ids(hits)
            np.testing.assert_allclose([s for _, s in hits], [s for _, s in single], atol=1e-5)
        assert store.search_dense_many("missing", queries, 8) == [[], [], [], []]
        assert store.search_dense_many("ns", queries, 0) == [[], [], [], []]
        with pytest.raises(InvalidInputError, match="dimensions"):
            store.search_dense_many("ns", unit_vectors(2, dim=8), 3)

    def test_dense_search_many_with_min_score_keeps_only_hits_that_close(self, store: MemoryStore) -> None:
        vectors = unit_vectors(60, seed=21)
        store.add_units([make_unit(f"u{i}", vector=v) for i, v in enumerate(vectors)])
        queries = vectors[:3] + 0.05 * unit_vectors(3, seed=22)
        plain = store.search_dense_many("ns", queries, 8)
        near = store.search_dense_many("ns", queries, 8, min_score=0.3)
        for hits, kept in zip(plain, near, strict=True):
            assert kept == [(i, s) for i, s in hits if s >= 0.3]
            assert kept and len(kept) < len(hits)  # the own vector passes, random ones do not
        assert store.search_dense_many("ns", queries, 8, min_score=1.5) == [[], [], []]

    def test_dense_query_of_the_wrong_dimension_is_refused(self, store: MemoryStore) -> None:
        store.add_units([make_unit("a")])
        with pytest.raises(InvalidInputError, match="dimensions"):
            search_dense(store, "ns", unit_vectors(1, dim=8)[0], 3)
        with pytest.raises(InvalidInputError, match="zero"):
            search_dense(store, "ns", np.zeros(DIM, dtype=np.float32), 3)

    def test_dense_scores_are_cosines_even_for_an_unnormalised_query(self, store: MemoryStore) -> None:
        vector = unit_vectors(1, seed=4)[0]
        store.add_units([make_unit("a", vector=vector)])
        ((hit, score),) = search_dense(store, "ns", vector * 7.0, 1)
        assert hit == "a" and score == pytest.approx(1.0, abs=1e-5)

    def test_lexical_search_ranks_by_bm25_best_first(self, store: MemoryStore) -> None:
        add_docs(store)
        result = store.search_lexical("ns", "adoption book", 10)
        assert ids(result) == ["book", "adopt"]  # both terms beat one term, even repeated
        scores = [s for _, s in result]
        assert scores == sorted(scores, reverse=True) and scores[-1] > 0
        assert set(ids(result)) == {"book", "adopt"}  # terms are ORed, non-matching units absent
        # a rarer term outweighs a frequent one; tf counts ("adoption" twice in "adopt")
        assert ids(store.search_lexical("ns", "adoption", 10)) == ["adopt", "book"]
        assert ids(store.search_lexical("ns", "sunset caroline", 1)) == ["paint"]

    def test_lexical_search_stems_drops_stopwords_and_indexes_keywords(self, store: MemoryStore) -> None:
        add_docs(store)
        assert ids(store.search_lexical("ns", "recommend", 5)) == ["book"]
        assert ids(store.search_lexical("ns", "recommends", 5)) == ["book"]
        assert ids(store.search_lexical("ns", "Painting", 5)) == ["paint"]
        assert ids(store.search_lexical("ns", "pottery", 5)) == ["pottery"]  # keyword only
        assert ids(store.search_lexical("ns", "Caroline's hike", 1)) == ["hike"]
        assert store.search_lexical("ns", "yeah, just with the a", 5) == []  # stopwords only
        assert store.search_lexical("ns", "xylophone", 5) == []
        assert len(store.search_lexical("ns", "caroline", 2)) == 2
        store.add_units([make_unit("cafe", restatement="Melanie's café in São Paulo")])
        assert ids(store.search_lexical("ns", "SÃO café", 5)) == ["cafe"]

    def test_lexical_search_is_per_namespace(self, store: MemoryStore) -> None:
        add_docs(store, "ns")
        add_docs(store, "other")
        store.add_units([make_unit("only-other", namespace="other", restatement="adoption papers")])
        result = ids(store.search_lexical("ns", "adoption", 10))
        assert result == ["adopt", "book"]
        assert "only-other" in ids(store.search_lexical("other", "adoption", 10))

    def test_lexical_search_within_the_budget_is_exact_bm25(self, open_bounded: StoreOpener) -> None:
        exact, bounded = open_bounded(), open_bounded(lexical_budget=7)  # df zither 2 + lake 5
        add_lake(exact)
        add_lake(bounded)
        expected = exact.search_lexical("ns", "zither lake", 10)
        assert ids(expected) == ["b", "a", "c", "d", "e", "f"]
        assert bounded.search_lexical("ns", "zither lake", 10) == expected

    def test_frequent_terms_beyond_the_budget_only_rerank(self, open_bounded: StoreOpener) -> None:
        exact, bounded = open_bounded(), open_bounded(lexical_budget=6)
        add_lake(exact)
        add_lake(bounded)
        full = dict(exact.search_lexical("ns", "zither lake", 10))
        found = bounded.search_lexical("ns", "zither lake", 10)
        # "zither" retrieves; "lake" (5 postings, over the budget with zither's 2) only re-ranks:
        # the lake-only units are not candidates, and "b" beats "a" (tied on zither) by its lake
        assert ids(found) == ["b", "a"]
        assert [score for _, score in found] == pytest.approx([full["b"], full["a"]], rel=1e-12)
        # re-ranking reaches only the best candidates by partial score: at depth 1, "a" (first added)
        shallow = open_bounded(lexical_budget=6, lexical_rerank_depth=1)
        add_lake(shallow)
        assert ids(shallow.search_lexical("ns", "zither lake", 1)) == ["a"]

    def test_a_term_over_the_budget_alone_retrieves_its_latest_units(
            self,
        open_bounded: StoreOpener,
    ) -> None:
        store = open_bounded(lexical_budget=2)
        add_lake(store)
        assert sorted(ids(store.search_lexical("ns", "lake", 10))) == ["e", "f"]
        assert sorted(ids(store.search_lexical("ns", "lake swam", 10))) == ["c"]  # swam fits

    def test_lexical_statistics_and_budget_are_per_namespace(self, open_bounded: StoreOpener) -> None:
        alone, shared = open_bounded(lexical_budget=5), open_bounded(lexical_budget=5)
        add_lake(alone)
        add_lake(shared)
        for i in range(8):  # another namespace full of lakes changes neither weights nor budget
            shared.add_units(
                [make_unit(f"o{i}", namespace="other", restatement=f"Lake {i} by the lake.")]
            )
        for query in ("lake", "zither lake", "tuned lake"):
            assert shared.search_lexical("ns", query, 10) == alone.search_lexical("ns", query, 10)
        assert len(shared.search_lexical("ns", "lake", 10)) == 5

    def test_cue_candidates_are_the_nearest_in_time_per_value(self, store: MemoryStore) -> None:
        order = [3, 8, 0, 5, 9, 1, 6, 2, 7, 4]  # insertion order differs from time order
        store.add_units(
            [make_unit(f"d{d}", participants=("Caroline",), time_span=day_span(d)) for d in order]
        )
        near = T0.replace(hour=0) + timedelta(days=5, hours=5)
        got = store.cue_candidates("ns", Cues(participants=("  CAROLINE ",)), near=near, per_value=3)
        assert sorted(got) == ["d4", "d5", "d6"]
        early = store.cue_candidates("ns", Cues(participants=("caroline",)), near=T0, per_value=2)
        assert sorted(early) == ["d0", "d1"]
        late = T0 + timedelta(days=40)
        assert sorted(
            store.cue_candidates("ns", Cues(participants=("Caroline",)), near=late, per_value=2)
        ) == ["d8", "d9"]
        recent = store.cue_candidates("ns", Cues(participants=("Caroline",)), near=None, per_value=3)
        assert sorted(recent) == ["d2", "d4", "d7"]  # the most recently added

    def test_cue_candidates_fall_back_to_session_time_then_untimed(self, store: MemoryStore) -> None:
        store.add_units(
            [
                make_unit("span", locations=("Paris",), time_span=day_span(0)),
                make_unit("session", locations=("Paris",), session_time=T0 + timedelta(days=20)),
                make_unit("untimed", locations=("paris",)),
            ]
        )
        cues = Cues(locations=("Paris",))
        near = T0 + timedelta(days=19)
        assert store.cue_candidates("ns", cues, near=near, per_value=1) == ["session"]
        assert sorted(store.cue_candidates("ns", cues, near=near, per_value=2)) == ["session", "span"]
        assert len(store.cue_candidates("ns", cues, near=near, per_value=3)) == 3

    def test_cue_candidates_are_bounded_per_value_and_unioned(self, store: MemoryStore) -> None:
        store.add_units(
            [make_unit(f"a{i}", participants=("Ann",), time_span=day_span(i)) for i in range(20)]
            + [make_unit(f"b{i}", locations=("Oslo",), time_span=day_span(i)) for i in range(20)]
            + [make_unit("both", participants=("Ann",), locations=("Oslo",), time_span=day_span(10))]
        )
        cues = Cues(participants=("Ann", "Nobody"), locations=("Oslo",))
        got = store.cue_candidates("ns", cues, near=T0 + timedelta(days=10), per_value=4)
        assert len(got) == len(set(got)) and "both" in got
        assert sum(g.startswith("a") for g in got) <= 4 and sum(g.startswith("b") for g in got) <= 4
        assert len(got) <= 8

    def test_cue_candidates_by_time_overlap(self, store: MemoryStore) -> None:
        store.add_units(
            [make_unit(f"d{d}", time_span=day_span(d)) for d in range(10)]
            + [
                make_unit("month", time_span=day_span(0, days=30)),
                make_unit("year-before", time_span=day_span(-400, days=365)),
                make_unit("no-span", session_time=T0 + timedelta(days=3)),
            ]
        )
        query = Cues(time_span=TimeSpan(day_span(3).start, day_span(4).end))
        assert sorted(store.cue_candidates("ns", query, near=None, per_value=2)) == ["d3", "d4"]
        assert sorted(store.cue_candidates("ns", query, near=None, per_value=10)) == [
            "d3",
            "d4",
            "month",
        ]
        far = Cues(time_span=day_span(200))
        assert store.cue_candidates("ns", far, near=None, per_value=10) == []
        inside_month = Cues(time_span=day_span(25))
        assert store.cue_candidates("ns", inside_month, near=None, per_value=10) == ["month"]

    def test_cue_lookups_are_per_namespace(self, store: MemoryStore) -> None:
        store.add_units([make_unit("here", participants=("Ann",), time_span=day_span(1))])
        store.add_units(
            [make_unit("there", namespace="other", participants=("Ann",), time_span=day_span(1))]
        )
        cues = Cues(participants=("Ann",), time_span=day_span(1))
        assert store.cue_candidates("ns", cues, near=T0, per_value=5) == ["here"]
        assert store.cue_candidates("other", cues, near=None, per_value=5) == ["there"]

    def test_cue_values_lists_distinct_normalised_values(self, store: MemoryStore) -> None:
        store.add_units(
            [
                make_unit("a", participants=("Caroline", "Melanie"), locations=("New  York",)),
                make_unit("b", participants=("caroline",), locations=("Boston",)),
                make_unit("c", namespace="other", participants=("Zed",)),
            ]
        )
        assert store.cue_values("ns", "P") == ["caroline", "melanie"]
        assert store.cue_values("ns", "L") == ["boston", "new york"]
        assert store.cue_values("other", "P") == ["zed"]
        with pytest.raises(InvalidInputError, match="cue kind"):
            store.cue_values("ns", "participants")
        store.delete_unit("ns", "a")
        assert store.cue_values("ns", "P") == ["caroline"]
        assert store.cue_values("ns", "L") == ["boston"]

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
        assert store.edges_of("ns", "a") == []

    def test_centroid_is_the_mean_unit_vector_of_the_namespace(self, store: MemoryStore) -> None:
        assert store.centroid("ns") is None
        units = [make_unit(f"u{i}") for i in range(6)]
        store.add_units([*units, make_unit("x", namespace="other")])
        vectors = np.stack([u.vector for u in units])
        np.testing.assert_allclose(store.centroid("ns"), vectors.mean(axis=0), atol=1e-6)
        store.delete_unit("ns", "u0")
        np.testing.assert_allclose(store.centroid("ns"), vectors[1:].mean(axis=0), atol=1e-6)
        np.testing.assert_allclose(store.centroid("other"), make_unit("x").vector, atol=1e-6)
        assert store.centroid("none") is None

    def test_a_reading_block_answers_like_plain_reads(self, store: MemoryStore) -> None:
        """Inside ``reading`` every view answers as outside it; a write inside the block (or a
        block around a write) is seen by the reads after it; blocks nest."""
        with store.reading("ns"):
            assert store.count("ns") == 0 and store.centroid("ns") is None
        add_docs(store)
        outside = (
            store.count("ns"), store.centroid("ns"), store.cue_values("ns", "P"),
            ids(search_dense(store, "ns", make_unit("book").vector, 3)),
            store.search_lexical("ns", "adoption", 5),
        )
        with store.reading("ns"), store.reading("ns"):
            inside = (
                store.count("ns"), store.centroid("ns"), store.cue_values("ns", "P"),
                ids(search_dense(store, "ns", make_unit("book").vector, 3)),
                store.search_lexical("ns", "adoption", 5),
            )
            assert store.count("other") == 0
            store.add_units([make_unit("late", participants=["Zoe"])])
            assert store.count("ns") == outside[0] + 1
            assert "zoe" in store.cue_values("ns", "P")
            assert "late" in ids(search_dense(store, "ns", make_unit("late").vector, 1))
        assert inside[0] == outside[0] and inside[2:] == outside[2:]
        np.testing.assert_allclose(inside[1], outside[1], atol=1e-6)
        with store.write(["ns"]), store.reading("ns"):
            store.add_units([make_unit("later")])
            assert store.count("ns") == outside[0] + 2

    def test_delete_unit_removes_it_from_every_view(self, store: MemoryStore) -> None:
        target = make_unit(
            "t",
            restatement="Melanie bought a zither in Lisbon.",
            participants=("Melanie",),
            locations=("Lisbon",),
            time_span=day_span(2),
            keywords=("instrument",),
        )
        others = [
            make_unit(f"o{i}", participants=("Melanie",), time_span=day_span(i)) for i in range(3)
        ]
        store.add_units([target, *others])
        add_edges(store, 
            [Edge("ns", "t", "o0", "semantic", 0.9), Edge("ns", "o1", "t", "structural", 0.8)]
        )
        add_edges(store, [Edge("ns", "o0", "o1", "semantic", 0.88)])
        cues = Cues(participants=("Melanie",), locations=("Lisbon",), time_span=day_span(2))
        assert "t" in store.cue_candidates("ns", cues, near=T0, per_value=10)

        assert store.delete_unit("ns", "t") is True
        assert store.get_units("ns", ["t"]) == [] and store.count("ns") == 3
        assert "t" not in ids(search_dense(store, "ns", target.vector, 10))
        assert store.search_lexical("ns", "zither instrument lisbon", 10) == []
        assert "t" not in store.cue_candidates("ns", cues, near=T0, per_value=10)
        assert store.cue_values("ns", "L") == []
        assert store.neighbours("ns", ["o0", "o1"], "semantic") == {
            "o0": [("o1", 0.88)],
            "o1": [("o0", 0.88)],
        }
        assert store.neighbours("ns", ["o1"], "structural") == {"o1": []}
        assert store.edges_of("ns", "t") == []
        assert store.delete_unit("ns", "t") is False
        store.add_units([target.with_vector(unit_vectors(1, seed=5)[0])])  # the id is free again
        assert ids(search_dense(store, "ns", unit_vectors(1, seed=5)[0], 1)) == ["t"]

    def test_delete_namespace_removes_everything_in_it_only(self, store: MemoryStore) -> None:
        add_docs(store, "ns")
        add_docs(store, "other")
        store.add_units([make_unit("p", namespace="ns", participants=("Ann",), time_span=day_span(1))])
        add_edges(store, [Edge("ns", "book", "adopt", "semantic", 0.9)])
        add_edges(store, [Edge("other", "book", "adopt", "semantic", 0.9)])
        assert store.delete_namespace("ns") == 6
        assert store.namespaces() == ["other"] and store.count("ns") == 0
        assert search_dense(store, "ns", unit_vectors(1)[0], 5) == []
        assert store.search_lexical("ns", "adoption", 5) == []
        cues = Cues(participants=("Ann",), time_span=day_span(1))
        assert store.cue_candidates("ns", cues, near=None, per_value=5) == []
        assert store.cue_values("ns", "P") == []
        assert store.neighbours("ns", ["book"], "semantic") == {"book": []}
        assert ids(store.search_lexical("other", "adoption", 5)) == ["adopt", "book"]
        assert store.neighbours("other", ["book"], "semantic") == {"book": [("adopt", 0.9)]}
        add_docs(store, "ns")  # the namespace can be filled again
        assert store.count("ns") == 5

    def test_flush_erasure_returns_once_deletes_are_erased(self, store: MemoryStore) -> None:
        add_docs(store, "ns")
        assert store.delete_unit("ns", "book") is True
        assert store.flush_erasure(timeout=10) is True  # no other connection reads: at once

    def test_check_embedder_records_the_first_pair_and_refuses_others(self, store: MemoryStore) -> None:
        store.check_embedder("minilm-int8", DIM)
        store.check_embedder("minilm-int8", DIM)
        assert store.embedder_info() == ("minilm-int8", DIM)
        with pytest.raises(EmbedderMismatchError) as caught:
            store.check_embedder("qwen3-embedding", DIM)
        message = str(caught.value)
        assert "minilm-int8" in message and "qwen3-embedding" in message and "new store" in message
        assert "RIPPLEMEM_EMBEDDER=minilm-int8" in message  # says how to keep the old embedder
        with pytest.raises(EmbedderMismatchError):
            store.check_embedder("minilm-int8", 768)
        with pytest.raises(InvalidInputError, match="192-d"):
            store.add_units([make_unit("small", vector=unit_vectors(1, dim=DIM // 2)[0])])
        assert store.embedder_info() == ("minilm-int8", DIM)

    def test_check_embedder_refuses_a_dimension_other_than_the_stored_vectors(
            self,
        store: MemoryStore,
    ) -> None:
        store.add_units([make_unit("a")])
        with pytest.raises(EmbedderMismatchError, match="384-d"):
            store.check_embedder("tiny", 128)
        assert store.embedder_info() is None
        store.check_embedder("minilm-int8", DIM)
        assert store.embedder_info() == ("minilm-int8", DIM)

    def test_concurrent_writers_and_readers(self, store: MemoryStore) -> None:
        errors: list[BaseException] = []
        query = unit_vectors(1, seed=1)[0]

        def work(worker: int) -> None:
            try:
                for batch in range(5):
                    units = [
                        make_unit(f"w{worker}-{batch}-{i}", seed=worker * 100 + batch * 10 + i)
                        for i in range(4)
                    ]
                    store.add_units(units)
                    search_dense(store, "ns", query, 5)
                    store.search_lexical("ns", "memory", 5)
            except BaseException as error:  # noqa: BLE001 - reported below
                errors.append(error)

        threads = [threading.Thread(target=work, args=(w,)) for w in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        assert store.count("ns") == 80
        assert len(search_dense(store, "ns", query, 100)) == 80

    def test_a_closed_store_refuses_work(self, store: MemoryStore) -> None:
        store.close()
        with pytest.raises(StoreError, match="closed"):
            store.add_units([make_unit("a")])
        with pytest.raises(StoreError, match="closed"):
            store.search_lexical("ns", "anything", 3)
        store.close()  # closing twice is harmless

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

    # --- one atomic write -------------------------------------------------------------------

    def test_a_write_block_commits_units_edges_and_clues_together(
        self, store: MemoryStore
    ) -> None:
        store.add_units([make_unit("old")])
        with store.write(["ns"]):
            store.add_units([make_unit("a", participants=("Ann",)), make_unit("b")])
            assert store.count("ns") == 3  # reads inside the block see its writes
            assert ids(search_dense(store, "ns", make_unit("a").vector, 1)) == ["a"]
            add_edges(store, [Edge("ns", "a", "b", "semantic", 0.9)])
            store.clues.add_clue(clue("c1", 0), "session-1")
            store.clues.attach("ns", [Membership("a", "c1", 0.5)])
            store.clues.add_links("ns", [("a", "b", 0.8)])
        assert store.count("ns") == 3
        assert store.neighbours("ns", ["a"], "semantic") == {"a": [("b", 0.9)]}
        assert store.clues.members("ns", ["c1"]) == {"c1": [("a", 0.5)]}

    def test_a_failed_write_block_leaves_nothing_behind(self, store: MemoryStore) -> None:
        store.add_units([make_unit("old", participants=("Ann",)), make_unit("old2")])
        add_edges(store, [Edge("ns", "old", "old2", "structural", 0.7)])
        store.clues.add_clue(clue("c0", 3), "s0")
        store.clues.attach("ns", [Membership("old", "c0", 0.4)])
        store.clues.add_links("ns", [("old", "old2", 0.9)])
        before = self._state(store)
        new = make_unit("new", restatement="Zebra crossing", participants=("Zed",))
        with pytest.raises(RuntimeError, match="boom"), store.write(["ns"]):
            store.add_units([new])
            store.change_edges(
                remove=[Edge("ns", "old", "old2", "structural", 0.7)],
                add=[Edge("ns", "new", "old", "semantic", 0.95)],
            )
            store.clues.add_clue(clue("c1", 0), "s1")
            store.clues.merge_session("ns", "c0", "s2")
            store.clues.attach("ns", [Membership("new", "c1", 0.5), Membership("old", "c1", 0.6)])
            store.clues.add_links("ns", [("new", "old", 0.8), ("old", "old2", 0.1)])
            raise RuntimeError("boom")
        assert self._state(store) == before
        assert_absent(store, new)
        # the store works on, and the ids are free
        store.add_units([new])
        add_edges(store, [Edge("ns", "new", "old", "semantic", 0.95)])
        assert store.count("ns") == 3

    def test_write_blocks_nest_and_the_outermost_decides(self, store: MemoryStore) -> None:
        with pytest.raises(RuntimeError), store.write(["ns"]):
            with store.write(["ns"]):
                store.add_units([make_unit("inner")])
            store.add_units([make_unit("outer")])
            raise RuntimeError("the outer block fails")
        assert store.count("ns") == 0
        with store.write(["ns"]), store.write(["ns"]):
            store.add_units([make_unit("inner")])
        assert store.count("ns") == 1

    def test_a_refused_batch_inside_a_block_fails_the_block(self, store: MemoryStore) -> None:
        with pytest.raises(InvalidInputError), store.write(["ns"]):
            store.add_units([make_unit("a")])
            store.add_units([make_unit("a")])  # a duplicate: the whole block goes
        assert store.count("ns") == 0

    def test_write_blocks_of_threads_take_turns(self, store: MemoryStore) -> None:
        """Each block reads what the blocks before it wrote: no interleaving inside a block."""
        errors: list[BaseException] = []

        def writer(worker: int) -> None:
            try:
                for step in range(5):
                    with store.write(["ns"]):
                        before = store.count("ns")
                        store.add_units([make_unit(f"w{worker}-{step}")])
                        assert store.count("ns") == before + 1
                        if before:
                            (last,) = store.list_units("ns", limit=1, offset=before - 1)
                            add_edges(
                                store, [Edge("ns", f"w{worker}-{step}", last.id, "semantic", 0.8)]
                            )
            except BaseException as error:  # noqa: BLE001 - reported below
                errors.append(error)

        threads = [threading.Thread(target=writer, args=(w,)) for w in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        assert store.count("ns") == 20
        degrees = [len(v) for v in store.neighbours("ns", [u.id for u in store.list_units("ns")],
                                                    "semantic").values()]
        assert sum(degrees) == 2 * 19  # a chain: each unit after the first linked to the one before

    @staticmethod
    def _state(store: MemoryStore) -> dict[str, object]:
        units = store.list_units("ns")
        unit_ids = [u.id for u in units]
        clues = store.clues
        clue_ids = [cid for cid, _ in clues.search_clues("ns", unit_vectors(1)[0], 50)]
        return {
            "units": [u.to_json() for u in units],
            "edges": {k: store.neighbours("ns", unit_ids, k) for k in EDGE_KINDS},
            "clues": sorted((c.id, c.sessions, c.text) for c in clues.get_clues("ns", clue_ids)),
            "sessions": {s: clues.clue_for_session("ns", s) for s in ("s0", "s1", "s2")},
            "members": clues.members("ns", clue_ids),
            "links": clues.links("ns", unit_ids),
            "lexical": store.search_lexical("ns", "memory zebra crossing old", 10),
            "cues": store.cue_values("ns", "P"),
        }

    # --- API keys ---------------------------------------------------------------------------

    def test_keys_are_found_by_the_hash_of_their_secret(self, store: MemoryStore) -> None:
        keys = store.keys
        made = datetime(2026, 1, 2, 3, 4, 5)
        alex = ApiKey("k1", "hash-1", ("alex",), made, label="alex's app")
        admin = ApiKey("k2", "hash-2", (), made + timedelta(seconds=1), admin=True)
        reader = ApiKey("k3", "hash-3", ("alex", "sam"), made + timedelta(2), read_only=True)
        for key in (alex, admin, reader):
            keys.add_key(key)
        assert keys.key_by_hash("hash-1") == alex and keys.key_by_hash("nope") is None
        assert keys.list_keys() == [alex, admin, reader]
        assert alex.allows("alex") and not alex.allows("sam") and admin.allows("anyone")
        with pytest.raises(InvalidInputError):
            keys.add_key(replace(alex, secret_hash="other"))  # the same id
        with pytest.raises(InvalidInputError):
            keys.add_key(replace(alex, id="k9"))  # the same secret
        with pytest.raises(InvalidInputError, match="namespace"):
            keys.add_key(ApiKey("k4", "hash-4", (), made))

    def test_a_revoked_key_stays_known_but_inactive(self, store: MemoryStore) -> None:
        keys = store.keys
        keys.add_key(ApiKey("k1", "hash-1", ("alex",), datetime(2026, 1, 1)))
        at = datetime(2026, 2, 1)
        assert keys.revoke_key("k1", at) is True
        assert keys.revoke_key("k1", datetime(2026, 3, 1)) is False  # the first time stays
        assert keys.revoke_key("ghost", at) is False
        revoked = keys.key_by_hash("hash-1")
        assert revoked is not None and revoked.revoked_at == at
        assert not revoked.active and not revoked.allows("alex")

    # --- persistence and sharing (as the backend declares) ----------------------------------

    def test_everything_is_there_after_reopening(self, opened: StoreFactory) -> None:
        first = opened("kept")
        if not first.capabilities.persistent:
            pytest.skip("the backend declares persistent=False")
        first.check_embedder("model", DIM)
        add_docs(first)
        add_edges(first, [Edge("ns", "book", "adopt", "semantic", 0.9)])
        first.clues.add_clue(clue("c1", 0), "s1")
        first.clues.attach("ns", [Membership("book", "c1", 0.5)])
        first.keys.add_key(ApiKey("k1", "hash-1", ("ns",), datetime(2026, 1, 1)))
        expected = (
            [u.to_json() for u in first.list_units("ns")],
            first.search_lexical("ns", "adoption", 5),
            first.neighbours("ns", ["book"], "semantic"),
        )
        first.close()
        again = opened("kept")
        assert again.embedder_info() == ("model", DIM)
        assert [u.to_json() for u in again.list_units("ns")] == expected[0]
        assert again.search_lexical("ns", "adoption", 5) == expected[1]
        assert again.neighbours("ns", ["book"], "semantic") == expected[2]
        assert again.clues.members("ns", ["c1"]) == {"c1": [("book", 0.5)]}
        assert [k.id for k in again.keys.list_keys()] == ["k1"]

    def test_a_second_connection_sees_every_write_of_the_first(
        self, opened: StoreFactory
    ) -> None:
        first = opened("shared")
        if not first.capabilities.shared:
            pytest.skip("the backend declares shared=False")
        second = opened("shared")
        add_docs(first)
        assert second.count("ns") == 5
        assert ids(search_dense(second, "ns", make_unit("book").vector, 1)) == ["book"]
        add_edges(first, [Edge("ns", "book", "adopt", "semantic", 0.9)])
        assert second.neighbours("ns", ["adopt"], "semantic") == {"adopt": [("book", 0.9)]}
        first.clues.add_clue(clue("c1", 0), "s1")
        assert second.clues.search_clues("ns", VECTORS[0], 1)[0][0] == "c1"
        first.delete_unit("ns", "book")
        assert second.get_units("ns", ["book"]) == [] and second.count("ns") == 4
        with pytest.raises(RuntimeError), first.write(["ns"]):
            first.add_units([make_unit("never")])
            raise RuntimeError("rolled back")
        assert second.get_units("ns", ["never"]) == []
