"""The store contract, part: units: round trips, batches all or nothing, counts, deletes, the embedder
pair. It uses the fixtures of :class:`~ripplemem.testing.contracts.store.StoreContract`."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import numpy as np
import pytest

from ripplemem.errors import EmbedderMismatchError, InvalidInputError
from ripplemem.records import Cues, Edge
from ripplemem.stores.base import MemoryStore, StoreCapabilities, add_edges, search_dense
from ripplemem.stores.clues_base import ClueStore
from ripplemem.testing.builders import DIM, T0, day_span, make_unit, unit_vectors
from ripplemem.testing.contracts.store.shared import (
    add_docs,
    assert_absent,
    ids,
)

__all__ = ["UnitContract"]


class UnitContract:
    def test_implements_the_protocol(self, store: MemoryStore) -> None:
        assert isinstance(store, MemoryStore)
        assert isinstance(store.clues, ClueStore)
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

    def test_last_said_is_the_newest_session_or_creation_time(self, store: MemoryStore) -> None:
        """A unit without a session time was said when it was stored (``created_at``)."""
        assert store.last_said("ns") is None
        store.add_units([
            make_unit("early", session_time=T0),
            make_unit("late", session_time=T0 + timedelta(days=40, microseconds=5)),
            make_unit("other", namespace="other", session_time=T0 + timedelta(days=400)),
        ])
        assert store.last_said("ns") == T0 + timedelta(days=40, microseconds=5)
        stored = replace(make_unit("stored"), created_at=T0 + timedelta(days=41))  # no session time
        store.add_units([stored, make_unit("older", session_time=T0 + timedelta(days=2))])
        assert store.last_said("ns") == T0 + timedelta(days=41)
        store.delete_unit("ns", "stored")
        assert store.last_said("ns") == T0 + timedelta(days=40, microseconds=5)

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

    def test_lexicon_rows_page_every_unit_once_by_id(self, store: MemoryStore) -> None:
        """``lexicon_rows`` answers (id, participants, locations, restatement) in id order after
        ``after``, ``limit`` at a time: paged through, every unit of the namespace once."""
        units = [
            make_unit(
                f"u{n:02d}-{'zy'[n % 2]}", restatement=f"Ann said: walk {n} in the park",
                participants=("Ann", "Bo Lee")[: n % 3], locations=("Oslo",) if n % 4 else (),
            )
            for n in (7, 3, 11, 0, 5, 9, 1, 10, 2, 8, 4, 6)  # stored out of id order
        ]
        store.add_units(units)
        store.add_units([make_unit("u05-a", namespace="other", participants=("Zed",))])
        assert store.delete_unit("ns", units[4].id)  # u05-z: a hole in the ids
        expected = sorted(
            (u.id, u.participants, u.locations, u.restatement) for u in units if u is not units[4]
        )
        pages, after = [], None
        while True:
            page = store.lexicon_rows("ns", after=after, limit=5)
            assert len(page) <= 5
            pages.append(page)
            if len(page) < 5:
                break
            after = page[-1][0]
        assert [len(p) for p in pages] == [5, 5, 1]
        assert [row for page in pages for row in page] == expected
        assert store.lexicon_rows("ns", after=expected[-1][0], limit=5) == []
        assert store.lexicon_rows("ns", after="u03", limit=2) == expected[3:5]
        assert store.lexicon_rows("ns", limit=0) == []
        assert store.lexicon_rows("missing", limit=5) == []
        assert store.lexicon_rows("other", limit=5) == [("u05-a", ("Zed",), (), "Memory u05-a.")]

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
