"""The upgrade to the search-filter index (speakers, metadata, said times, the namespace's
person), checked the same way on every backend: units stored before it, then what the upgraded
store must do with them."""

from __future__ import annotations

from datetime import datetime

from ripplemem.records import MemoryUnit
from ripplemem.records.filters import parse_filters
from ripplemem.stores.base import MemoryStore
from ripplemem.testing.builders import make_unit

SUMMER = parse_filters({"after": "2024-06-01"})


def old_units() -> list[MemoryUnit]:
    """What a store held before the migration: two dated units and an undated one."""
    return [
        make_unit("may", session_time=datetime(2024, 5, 1, 10)),
        make_unit("july", session_time=datetime(2024, 7, 1, 9, 30)),
        make_unit("undated"),
    ]


def check_upgraded(store: MemoryStore) -> None:
    """Old units kept whole and found by time filters (the said-time index is filled from their
    session times), with no speakers or metadata; new units indexed; the person settable; a
    deleted old unit leaves the index. Leaves ``may`` and ``new``, and the person ``Ann``."""
    assert store.select_units("ns", SUMMER) == {"july"}
    assert store.select_units("ns", parse_filters({"before": "2024-06-01"})) == {"may"}
    old = store.get_units("ns", ["may", "july", "undated"])
    assert sorted(u.id for u in old) == ["july", "may", "undated"]
    assert all(u.speakers == () and u.metadata == {} for u in old)
    assert store.select_units("ns", parse_filters({"speaker": "Ann"})) == set()
    assert store.person("ns") is None
    store.set_person("ns", "Ann")
    store.add_units([make_unit("new", session_time=datetime(2024, 8, 1), speakers=("Ann",),
                               metadata={"topic": "pets"})])
    assert store.select_units("ns", parse_filters({"speaker": "ann", "topic": "pets"})) == {"new"}
    assert store.select_units("ns", SUMMER) == {"july", "new"}
    assert store.delete_unit("ns", "july")
    assert store.select_units("ns", SUMMER) == {"new"}
