"""The store contract, part: the views: dense kNN, lexical BM25 (and its bound), cue lookups, the
centroid, reading blocks. It uses the fixtures of
:class:`~ripplemem.testing.contracts.store.StoreContract`."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import numpy as np
import pytest

from ripplemem.errors import InvalidInputError
from ripplemem.records import Cues, TimeSpan
from ripplemem.stores.base import MemoryStore, search_dense
from ripplemem.testing.builders import DIM, T0, day_span, make_unit, unit_vectors
from ripplemem.testing.contracts.store.shared import (
    StoreOpener,
    add_docs,
    add_lake,
    ids,
)

__all__ = ["ViewContract"]


class ViewContract:
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

    def test_a_unit_of_several_times_is_found_by_each_and_forgotten_by_all(self, store: MemoryStore) -> None:
        # "We got married in June 2019 ... and bought the house last April": the extractor keeps
        # both times (extra["time_spans"]), its time_span the narrowest
        wedding, house = day_span(0), day_span(1800, days=30)
        both = replace(
            make_unit("both", time_span=wedding),
            extra={"time_spans": [[s.start.isoformat(), s.end.isoformat()] for s in (wedding, house)]},
        )
        store.add_units([both, make_unit("only-wedding", time_span=wedding)])
        in_april = Cues(time_span=day_span(1810))
        assert store.cue_candidates("ns", in_april, near=None, per_value=5) == ["both"]
        assert sorted(store.cue_candidates("ns", Cues(time_span=wedding), near=None, per_value=5)) == [
            "both", "only-wedding",
        ]
        assert store.delete_unit("ns", "both")
        assert store.cue_candidates("ns", in_april, near=None, per_value=5) == []
        store.add_units([both])  # deleted from every time it was of: it can come back
        assert store.cue_candidates("ns", in_april, near=None, per_value=5) == ["both"]
        # two times that start on one day and fall in one bucket of the index ("from 1 May for
        # three weeks", "the whole of May")
        may = replace(
            make_unit("may"), extra={"time_spans": [
                [s.start.isoformat(), s.end.isoformat()] for s in (day_span(30, days=21), day_span(30, days=31), wedding)
            ]},
        )
        store.add_units([may])
        assert store.cue_candidates("ns", Cues(time_span=day_span(58)), near=None, per_value=5) == ["may"]
        assert store.delete_unit("ns", "may")
        assert store.cue_candidates("ns", Cues(time_span=day_span(58)), near=None, per_value=5) == []

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
