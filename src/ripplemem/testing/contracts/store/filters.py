"""The store contract for search filters: a unit's speakers and metadata are kept, the filter
index agrees with :meth:`SearchFilter.matches` (the reference semantics), and the three views
restrict to the allowed units *before* their cut. Part of :class:`StoreContract`; it needs the
``store`` and ``opened`` fixtures."""

from __future__ import annotations

from datetime import timedelta

import numpy as np

from ripplemem.records import Cues, MemoryUnit
from ripplemem.records.filters import SearchFilter, parse_filters
from ripplemem.stores.base import MemoryStore, search_dense
from ripplemem.testing.builders import T0, day_span, make_unit, unit_vectors

__all__ = ["StoreFilterContract"]

TOPICS = ["food", "travel", "work"]
PEOPLE = ["Alex", "Sam", "Priya"]


def filter_units(n: int = 60) -> list[MemoryUnit]:
    """Units with varied metadata (scalars, lists, numbers, booleans, nulls), speakers and
    session times; the lexical term ``lisbon`` in every third one."""
    vectors = unit_vectors(n, seed=11)
    units = []
    for i in range(n):
        metadata: dict = {"topic": TOPICS[i % 3], "n": i % 4, "flag": i % 2 == 0}
        if i % 5 == 0:
            metadata["tags"] = ["a", "b"] if i % 10 == 0 else ["b", "c"]
        if i % 7 == 0:
            metadata["maybe"] = None
        if i % 11 == 0:
            metadata["nested"] = {"topic": "food"}  # objects are kept, not indexed
        units.append(
            make_unit(
                f"f{i:03d}",
                vector=vectors[i],
                restatement=f"Memory {i} about Lisbon." if i % 3 == 0 else f"Memory {i}.",
                participants=(PEOPLE[i % 3],),
                time_span=day_span(i) if i % 4 else None,
                session_time=(T0 + timedelta(days=i)) if i % 6 else None,
                speakers=(PEOPLE[(i + 1) % 3],) if i % 8 else (),
                metadata=metadata,
            )
        )
    return units


FILTERS = [
    {"topic": "food"},
    {"topic": ["food", "work"]},
    {"n": 2},
    {"n": 2.0},
    {"flag": True},
    {"flag": 1},  # true is not 1
    {"tags": "a"},
    {"tags": ["c", "zzz"]},
    {"maybe": None},
    {"metadata": {"topic": "travel", "n": [1, 3]}},
    {"speaker": "sam"},
    {"speaker": ["ALEX", "Priya"], "topic": "work"},
    {"after": (T0 + timedelta(days=10)).isoformat()},
    {"before": (T0 + timedelta(days=20)).isoformat(), "topic": "food"},
    {"after": T0 + timedelta(days=5), "before": T0 + timedelta(days=40), "speaker": "Alex"},
    {"topic": "nothing"},
    {"missing": "x"},
]


class StoreFilterContract:
    def test_speakers_and_metadata_round_trip(self, store: MemoryStore) -> None:
        units = filter_units(12)
        store.add_units(units)
        got = {u.id: u for u in store.get_units("ns", [u.id for u in units])}
        for unit in units:
            assert got[unit.id].speakers == unit.speakers
            assert got[unit.id].metadata == unit.metadata
        listed = {u.id: u for u in store.list_units("ns")}
        assert listed[units[10].id].metadata == {"topic": "travel", "n": 2, "flag": True,
                                                 "tags": ["a", "b"]}

    def test_the_filter_index_agrees_with_the_reference_semantics(self, store: MemoryStore) -> None:
        units = filter_units()
        store.add_units(units)
        store.add_units([make_unit("other-ns", namespace="elsewhere", metadata={"topic": "food"})])
        for written in FILTERS:
            where = parse_filters(written)
            assert where is not None
            expected = {u.id for u in units if where.matches(u)}
            assert store.select_units("ns", where) == expected, written
        assert store.select_units("nobody", SearchFilter(speakers=("Alex",))) == set()

    def test_a_deleted_unit_leaves_the_filter_index(self, store: MemoryStore) -> None:
        units = filter_units(12)
        store.add_units(units)
        where = parse_filters({"topic": "food", "after": T0.isoformat()})
        assert where is not None
        before = store.select_units("ns", where)
        gone = min(before)
        assert store.delete_unit("ns", gone)
        assert store.select_units("ns", where) == before - {gone}
        store.delete_namespace("ns")
        assert store.select_units("ns", where) == set()

    def test_dense_view_restricts_before_the_cut(self, store: MemoryStore) -> None:
        units = filter_units()
        store.add_units(units)
        allowed = {u.id for u in units if u.metadata["topic"] == "work"}
        query = unit_vectors(1, seed=99)[0]
        matrix = np.stack([u.vector for u in units if u.id in allowed])
        scores = matrix @ query
        order = [u.id for u in units if u.id in allowed]
        expected = [order[i] for i in np.argsort(-scores, kind="stable")[:5]]
        found = search_dense(store, "ns", query, 5, allowed=allowed)
        assert [i for i, _ in found] == expected  # the 5 nearest allowed, not 5 of the nearest
        unfiltered = [i for i, _ in search_dense(store, "ns", query, 5)]
        assert set(unfiltered) - allowed  # the case this test is about: others rank higher
        for (_, score), want in zip(found, sorted(scores, reverse=True)[:5], strict=True):
            assert abs(score - float(want)) < 2e-3
        assert search_dense(store, "ns", query, 5, allowed=set()) == []

    def test_lexical_view_restricts_before_the_cut(self, store: MemoryStore) -> None:
        units = filter_units()
        store.add_units(units)
        holding = [u.id for u in units if "Lisbon" in u.restatement]
        allowed = set(holding[-3:]) | {units[1].id}  # units[1] holds no query term
        found = store.search_lexical("ns", "Lisbon", 2, allowed=allowed)
        assert len(found) == 2 and {i for i, _ in found} <= set(holding[-3:])
        everything = store.search_lexical("ns", "Lisbon", len(units), allowed=allowed)
        assert {i for i, _ in everything} == set(holding[-3:])
        top = [i for i, _ in store.search_lexical("ns", "Lisbon", 2)]
        assert not set(top) & allowed  # equal scores: the earliest units, none of the allowed

    def test_cue_candidates_restrict_before_the_cut(self, store: MemoryStore) -> None:
        units = filter_units()
        store.add_units(units)
        alex = [u for u in units if u.participants == ("Alex",)]
        allowed = {u.id for u in alex[-4:]}
        cues = Cues(participants=("Alex",))
        for near in (None, T0, T0 + timedelta(days=200)):
            found = store.cue_candidates("ns", cues, near=near, per_value=2, allowed=allowed)
            assert len(found) == 2 and set(found) <= allowed, near
        spans = Cues(time_span=day_span(0, days=80))
        found = store.cue_candidates("ns", spans, near=None, per_value=3, allowed=allowed)
        timed = {u.id for u in alex[-4:] if u.time_span is not None}
        assert set(found) <= allowed and len(found) == min(3, len(timed))

    def test_a_namespace_keeps_its_person(self, store: MemoryStore) -> None:
        assert store.person("ns") is None
        store.set_person("ns", "Alex")
        store.set_person("other", "Sam")
        assert (store.person("ns"), store.person("other")) == ("Alex", "Sam")
        store.add_units([make_unit("p1")])
        store.delete_namespace("ns")  # the units go, the person stays
        assert store.person("ns") == "Alex"
        store.set_person("ns", "Alexandra")
        assert store.person("ns") == "Alexandra"
        store.set_person("ns", None)
        assert store.person("ns") is None and store.person("other") == "Sam"

    def test_a_failed_write_block_takes_the_person_back(self, store: MemoryStore) -> None:
        store.set_person("ns", "Alex")
        try:
            with store.write(["ns"]):
                store.set_person("ns", "Someone else")
                raise RuntimeError("the add failed")
        except RuntimeError:
            pass
        assert store.person("ns") == "Alex"
