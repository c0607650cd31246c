"""The MemoryStore contract (ripplemem/stores/base.py), run against every backend."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest

from ripplemem.errors import (
    EmbedderMismatchError,
    InvalidInputError,
    StoreError,
    UnknownUnitError,
)
from ripplemem.records import Cues, Edge, TimeSpan
from ripplemem.stores.base import MemoryStore
from ripplemem.stores.memory import InMemoryStore
from ripplemem.stores.sqlite import SQLiteStore

from . import DIM, T0, day_span, make_unit, unit_vectors


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MemoryStore]:
    backend: MemoryStore
    if request.param == "memory":
        backend = InMemoryStore()
    else:
        backend = SQLiteStore(tmp_path / "store.db")
    yield backend
    backend.close()


def ids(pairs: list[tuple[str, float]]) -> list[str]:
    return [unit_id for unit_id, _ in pairs]


def test_implements_the_protocol(store: MemoryStore) -> None:
    assert isinstance(store, MemoryStore)


def test_an_empty_store_answers_every_view_with_nothing(store: MemoryStore) -> None:
    cues = Cues(participants=("Ann",), locations=("Oslo",), time_span=day_span(0))
    assert store.namespaces() == [] and store.count("ns") == 0
    assert store.embedder_info() is None
    assert store.get_units("ns", ["a"]) == [] and store.list_units("ns") == []
    assert store.search_dense("ns", unit_vectors(1)[0], 5) == []
    assert store.search_lexical("ns", "anything at all", 5) == []
    assert store.cue_candidates("ns", cues, near=T0, per_value=5) == []
    assert store.cue_values("ns", "P") == []
    assert store.neighbours("ns", ["a"], "semantic") == {"a": []}
    assert store.edges_of("ns", "a") == []
    assert store.delete_unit("ns", "a") is False and store.delete_namespace("ns") == 0


# --- units ---------------------------------------------------------------------------------


def test_units_round_trip_with_every_field(store: MemoryStore) -> None:
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


def test_units_can_be_read_without_their_vectors(store: MemoryStore) -> None:
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


def test_add_get_list_count_and_namespaces(store: MemoryStore) -> None:
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


def test_count_includes_units_without_any_lexical_term(store: MemoryStore) -> None:
    store.add_units([make_unit("words"), make_unit("none", restatement="Yeah, and the...")])
    assert store.count("ns") == 2
    assert store.delete_unit("ns", "none") and store.count("ns") == 1
    assert store.delete_unit("ns", "words") and store.count("ns") == 0


def test_a_duplicate_id_fails_the_whole_batch(store: MemoryStore) -> None:
    store.add_units([make_unit("a", participants=("Ann",))])
    fresh = make_unit("fresh", restatement="Zebra crossing", participants=("Zed",))
    with pytest.raises(InvalidInputError, match="already exists"):
        store.add_units([fresh, make_unit("a")])
    with pytest.raises(InvalidInputError, match="twice"):
        store.add_units([fresh, make_unit("fresh")])
    assert_absent(store, fresh)
    assert store.count("ns") == 1


def test_a_wrong_vector_fails_the_whole_batch(store: MemoryStore) -> None:
    store.add_units([make_unit("a")])
    good = make_unit("good", restatement="Zebra crossing", participants=("Zed",))
    bad = make_unit("bad", vector=unit_vectors(1, dim=DIM // 2)[0])
    with pytest.raises(InvalidInputError, match="192-d vector"):
        store.add_units([good, bad])
    with pytest.raises(InvalidInputError, match="no vector"):
        store.add_units([good, make_unit("none").with_vector(None)])  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="NaN"):
        store.add_units([good, make_unit("nan", vector=np.full(DIM, np.nan, dtype=np.float32))])
    assert_absent(store, good)


def assert_absent(store: MemoryStore, unit) -> None:
    assert store.get_units(unit.namespace, [unit.id]) == []
    assert unit.id not in ids(store.search_dense(unit.namespace, unit.vector, 50))
    assert unit.id not in ids(store.search_lexical(unit.namespace, unit.restatement, 50))
    cues = Cues(participants=unit.participants)
    assert unit.id not in store.cue_candidates(unit.namespace, cues, near=None, per_value=50)
    assert all(p.casefold() not in store.cue_values(unit.namespace, "P") for p in unit.participants)


def test_vectors_are_stored_l2_normalised(store: MemoryStore) -> None:
    raw = unit_vectors(1, seed=3)[0] * 3.0
    store.add_units([make_unit("a", vector=raw)])
    (got,) = store.get_units("ns", ["a"])
    assert np.linalg.norm(got.vector) == pytest.approx(1.0, abs=1e-5)
    ((hit, score),) = store.search_dense("ns", raw / 3.0, 1)
    assert hit == "a" and score == pytest.approx(1.0, abs=1e-5)


# --- dense ---------------------------------------------------------------------------------


def test_dense_search_is_exact_cosine_knn_best_first(store: MemoryStore) -> None:
    vectors = unit_vectors(60, seed=11)
    store.add_units([make_unit(f"u{i}", vector=v) for i, v in enumerate(vectors)])
    store.add_units([make_unit("elsewhere", namespace="other", vector=vectors[0])])
    query = unit_vectors(1, seed=99)[0]
    expected = np.argsort(-(vectors @ query))[:10]
    result = store.search_dense("ns", query, 10)
    assert ids(result) == [f"u{i}" for i in expected]
    np.testing.assert_allclose([s for _, s in result], (vectors @ query)[expected], atol=1e-5)
    assert ids(store.search_dense("ns", vectors[7], 1)) == ["u7"]
    assert len(store.search_dense("ns", query, 500)) == 60
    assert store.search_dense("ns", query, 0) == []


def test_dense_search_many_answers_each_query_like_search_dense(store: MemoryStore) -> None:
    vectors = unit_vectors(60, seed=12)
    store.add_units([make_unit(f"u{i}", vector=v) for i, v in enumerate(vectors)])
    store.delete_unit("ns", "u5")
    queries = unit_vectors(4, seed=13)
    batched = store.search_dense_many("ns", queries * 2.0, 8)
    assert len(batched) == 4
    for query, hits in zip(queries, batched, strict=True):
        single = store.search_dense("ns", query, 8)
        assert ids(hits) == ids(single) and "u5" not in ids(hits)
        np.testing.assert_allclose([s for _, s in hits], [s for _, s in single], atol=1e-5)
    assert store.search_dense_many("missing", queries, 8) == [[], [], [], []]
    assert store.search_dense_many("ns", queries, 0) == [[], [], [], []]
    with pytest.raises(InvalidInputError, match="dimensions"):
        store.search_dense_many("ns", unit_vectors(2, dim=8), 3)


def test_dense_search_many_with_min_score_keeps_only_hits_that_close(store: MemoryStore) -> None:
    vectors = unit_vectors(60, seed=21)
    store.add_units([make_unit(f"u{i}", vector=v) for i, v in enumerate(vectors)])
    queries = vectors[:3] + 0.05 * unit_vectors(3, seed=22)
    plain = store.search_dense_many("ns", queries, 8)
    near = store.search_dense_many("ns", queries, 8, min_score=0.3)
    for hits, kept in zip(plain, near, strict=True):
        assert kept == [(i, s) for i, s in hits if s >= 0.3]
        assert kept and len(kept) < len(hits)  # the own vector passes, random ones do not
    assert store.search_dense_many("ns", queries, 8, min_score=1.5) == [[], [], []]


def test_dense_query_of_the_wrong_dimension_is_refused(store: MemoryStore) -> None:
    store.add_units([make_unit("a")])
    with pytest.raises(InvalidInputError, match="dimensions"):
        store.search_dense("ns", unit_vectors(1, dim=8)[0], 3)
    with pytest.raises(InvalidInputError, match="zero"):
        store.search_dense("ns", np.zeros(DIM, dtype=np.float32), 3)


def test_dense_scores_are_cosines_even_for_an_unnormalised_query(store: MemoryStore) -> None:
    vector = unit_vectors(1, seed=4)[0]
    store.add_units([make_unit("a", vector=vector)])
    ((hit, score),) = store.search_dense("ns", vector * 7.0, 1)
    assert hit == "a" and score == pytest.approx(1.0, abs=1e-5)


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


def test_lexical_search_ranks_by_bm25_best_first(store: MemoryStore) -> None:
    add_docs(store)
    result = store.search_lexical("ns", "adoption book", 10)
    assert ids(result) == ["book", "adopt"]  # both terms beat one term, even repeated
    scores = [s for _, s in result]
    assert scores == sorted(scores, reverse=True) and scores[-1] > 0
    assert set(ids(result)) == {"book", "adopt"}  # terms are ORed, non-matching units absent
    # a rarer term outweighs a frequent one; tf counts ("adoption" twice in "adopt")
    assert ids(store.search_lexical("ns", "adoption", 10)) == ["adopt", "book"]
    assert ids(store.search_lexical("ns", "sunset caroline", 1)) == ["paint"]


def test_lexical_search_stems_drops_stopwords_and_indexes_keywords(store: MemoryStore) -> None:
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


def test_lexical_search_is_per_namespace(store: MemoryStore) -> None:
    add_docs(store, "ns")
    add_docs(store, "other")
    store.add_units([make_unit("only-other", namespace="other", restatement="adoption papers")])
    result = ids(store.search_lexical("ns", "adoption", 10))
    assert result == ["adopt", "book"]
    assert "only-other" in ids(store.search_lexical("other", "adoption", 10))


# --- the lexical bound (ripplemem/stores/lexical.py) ---------------------------------------

LAKE = {  # "zither" is rare (2 units), "lake" frequent (5); "a" and "b" have the same length
    "a": "Omar tuned a zither today.",
    "b": "Maya tuned a zither by the lake.",
    "c": "Lena swam in the lake.",
    "d": "Ravi fished in the lake.",
    "e": "Aiko rowed on the lake.",
    "f": "Noah ran around the lake.",
}
StoreOpener = Callable[..., MemoryStore]


@pytest.fixture(params=["memory", "sqlite"])
def open_bounded(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StoreOpener]:
    """Opens stores of one backend with a given lexical bound (budget, re-rank depth)."""
    opened: list[MemoryStore] = []

    def open_store(**bound: int) -> MemoryStore:
        store: MemoryStore
        if request.param == "memory":
            store = InMemoryStore(**bound)
        else:
            store = SQLiteStore(tmp_path / f"store{len(opened)}.db", **bound)
        opened.append(store)
        return store

    yield open_store
    for store in opened:
        store.close()


def add_lake(store: MemoryStore, namespace: str = "ns") -> None:
    for key, text in LAKE.items():  # one by one: the insertion order is part of the test
        store.add_units([make_unit(key, namespace=namespace, restatement=text)])


def test_lexical_search_within_the_budget_is_exact_bm25(open_bounded: StoreOpener) -> None:
    exact, bounded = open_bounded(), open_bounded(lexical_budget=7)  # df zither 2 + lake 5
    add_lake(exact)
    add_lake(bounded)
    expected = exact.search_lexical("ns", "zither lake", 10)
    assert ids(expected) == ["b", "a", "c", "d", "e", "f"]
    assert bounded.search_lexical("ns", "zither lake", 10) == expected


def test_frequent_terms_beyond_the_budget_only_rerank(open_bounded: StoreOpener) -> None:
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
    open_bounded: StoreOpener,
) -> None:
    store = open_bounded(lexical_budget=2)
    add_lake(store)
    assert sorted(ids(store.search_lexical("ns", "lake", 10))) == ["e", "f"]
    assert sorted(ids(store.search_lexical("ns", "lake swam", 10))) == ["c"]  # swam fits


def test_lexical_statistics_and_budget_are_per_namespace(open_bounded: StoreOpener) -> None:
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


# --- cues ----------------------------------------------------------------------------------


def test_cue_candidates_are_the_nearest_in_time_per_value(store: MemoryStore) -> None:
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


def test_cue_candidates_fall_back_to_session_time_then_untimed(store: MemoryStore) -> None:
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


def test_cue_candidates_are_bounded_per_value_and_unioned(store: MemoryStore) -> None:
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


def test_cue_candidates_by_time_overlap(store: MemoryStore) -> None:
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


def test_cue_lookups_are_per_namespace(store: MemoryStore) -> None:
    store.add_units([make_unit("here", participants=("Ann",), time_span=day_span(1))])
    store.add_units(
        [make_unit("there", namespace="other", participants=("Ann",), time_span=day_span(1))]
    )
    cues = Cues(participants=("Ann",), time_span=day_span(1))
    assert store.cue_candidates("ns", cues, near=T0, per_value=5) == ["here"]
    assert store.cue_candidates("other", cues, near=None, per_value=5) == ["there"]


def test_cue_values_lists_distinct_normalised_values(store: MemoryStore) -> None:
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


# --- graph ---------------------------------------------------------------------------------


def test_edges_are_stored_in_both_directions(store: MemoryStore) -> None:
    store.add_units([make_unit(u) for u in "abcd"])
    store.add_edges(
        [
            Edge("ns", "a", "b", "semantic", 0.9),
            Edge("ns", "a", "c", "semantic", 0.95),
            Edge("ns", "a", "d", "structural", 0.7),
        ]
    )
    sem = store.neighbours("ns", ["a", "b", "d"], "semantic")
    assert sem == {"a": [("c", 0.95), ("b", 0.9)], "b": [("a", 0.9)], "d": []}
    assert store.neighbours("ns", ["d"], "structural") == {"d": [("a", 0.7)]}
    store.add_edges([Edge("ns", "b", "a", "semantic", 0.5)])  # same edge, new weight
    assert store.neighbours("ns", ["a"], "semantic")["a"] == [("c", 0.95), ("b", 0.5)]
    assert store.edges_of("ns", "a") == [
        Edge("ns", "a", "b", "semantic", 0.5),
        Edge("ns", "a", "c", "semantic", 0.95),
        Edge("ns", "a", "d", "structural", 0.7),
    ]
    store.remove_edges([Edge("ns", "c", "a", "semantic", 0.0)])  # either direction removes both
    assert store.neighbours("ns", ["a", "c"], "semantic") == {"a": [("b", 0.5)], "c": []}


def test_neighbours_of_many_ids_at_once(store: MemoryStore) -> None:
    """More ids than one SQL IN list holds; unknown and repeated ids; ties ordered by id."""
    store.add_units([make_unit("hub"), *(make_unit(f"n{i:03d}") for i in range(600))])
    store.add_edges(
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


def test_change_edges_removes_then_adds_all_or_nothing(store: MemoryStore) -> None:
    store.add_units([make_unit(u) for u in "abcd"])
    store.add_edges([Edge("ns", "a", "b", "semantic", 0.9), Edge("ns", "a", "c", "semantic", 0.8)])
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


def test_edges_are_checked(store: MemoryStore) -> None:
    store.add_units([make_unit("a"), make_unit("b"), make_unit("x", namespace="other")])
    with pytest.raises(UnknownUnitError, match="'x'"):
        store.add_edges([Edge("ns", "a", "x", "semantic", 0.9)])
    with pytest.raises(InvalidInputError, match="kind"):
        store.add_edges([Edge("ns", "a", "b", "lexical", 0.9)])  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="kind"):
        store.neighbours("ns", ["a"], "lexical")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="itself"):
        store.add_edges([Edge("ns", "a", "a", "semantic", 0.9)])
    assert store.edges_of("ns", "a") == []


def test_centroid_is_the_mean_unit_vector_of_the_namespace(store: MemoryStore) -> None:
    assert store.centroid("ns") is None
    units = [make_unit(f"u{i}") for i in range(6)]
    store.add_units([*units, make_unit("x", namespace="other")])
    vectors = np.stack([u.vector for u in units])
    np.testing.assert_allclose(store.centroid("ns"), vectors.mean(axis=0), atol=1e-6)
    store.delete_unit("ns", "u0")
    np.testing.assert_allclose(store.centroid("ns"), vectors[1:].mean(axis=0), atol=1e-6)
    np.testing.assert_allclose(store.centroid("other"), make_unit("x").vector, atol=1e-6)
    assert store.centroid("none") is None


# --- deletes -------------------------------------------------------------------------------


def test_delete_unit_removes_it_from_every_view(store: MemoryStore) -> None:
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
    store.add_edges(
        [Edge("ns", "t", "o0", "semantic", 0.9), Edge("ns", "o1", "t", "structural", 0.8)]
    )
    store.add_edges([Edge("ns", "o0", "o1", "semantic", 0.88)])
    cues = Cues(participants=("Melanie",), locations=("Lisbon",), time_span=day_span(2))
    assert "t" in store.cue_candidates("ns", cues, near=T0, per_value=10)

    assert store.delete_unit("ns", "t") is True
    assert store.get_units("ns", ["t"]) == [] and store.count("ns") == 3
    assert "t" not in ids(store.search_dense("ns", target.vector, 10))
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
    assert ids(store.search_dense("ns", unit_vectors(1, seed=5)[0], 1)) == ["t"]


def test_delete_namespace_removes_everything_in_it_only(store: MemoryStore) -> None:
    add_docs(store, "ns")
    add_docs(store, "other")
    store.add_units([make_unit("p", namespace="ns", participants=("Ann",), time_span=day_span(1))])
    store.add_edges([Edge("ns", "book", "adopt", "semantic", 0.9)])
    store.add_edges([Edge("other", "book", "adopt", "semantic", 0.9)])
    assert store.delete_namespace("ns") == 6
    assert store.namespaces() == ["other"] and store.count("ns") == 0
    assert store.search_dense("ns", unit_vectors(1)[0], 5) == []
    assert store.search_lexical("ns", "adoption", 5) == []
    cues = Cues(participants=("Ann",), time_span=day_span(1))
    assert store.cue_candidates("ns", cues, near=None, per_value=5) == []
    assert store.cue_values("ns", "P") == []
    assert store.neighbours("ns", ["book"], "semantic") == {"book": []}
    assert ids(store.search_lexical("other", "adoption", 5)) == ["adopt", "book"]
    assert store.neighbours("other", ["book"], "semantic") == {"book": [("adopt", 0.9)]}
    add_docs(store, "ns")  # the namespace can be filled again
    assert store.count("ns") == 5


# --- embedder ------------------------------------------------------------------------------


def test_check_embedder_records_the_first_pair_and_refuses_others(store: MemoryStore) -> None:
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
    store: MemoryStore,
) -> None:
    store.add_units([make_unit("a")])
    with pytest.raises(EmbedderMismatchError, match="384-d"):
        store.check_embedder("tiny", 128)
    assert store.embedder_info() is None
    store.check_embedder("minilm-int8", DIM)
    assert store.embedder_info() == ("minilm-int8", DIM)


# --- concurrency & lifecycle ---------------------------------------------------------------


def test_concurrent_writers_and_readers(store: MemoryStore) -> None:
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
                store.search_dense("ns", query, 5)
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
    assert len(store.search_dense("ns", query, 100)) == 80


def test_a_closed_store_refuses_work(store: MemoryStore) -> None:
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.add_units([make_unit("a")])
    with pytest.raises(StoreError, match="closed"):
        store.search_lexical("ns", "anything", 3)
    store.close()  # closing twice is harmless
