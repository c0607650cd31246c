"""Units kept decoded between reads (stores/unit_cache.py): served again only while their
namespace has not changed — in this process or another — and never what a rolled-back write
read."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from ripplemem.errors import InvalidInputError
from ripplemem.records import MemoryUnit
from ripplemem.stores.base import MemoryStore, search_dense
from ripplemem.stores.postgres import PostgresStore
from ripplemem.stores.sqlite import SQLiteStore
from ripplemem.stores.unit_cache import UnitCache

from . import make_unit


class _Reads:
    """A ``read`` for UnitCache over a dict of units, counting the ids it was asked for."""

    def __init__(self, units: list[MemoryUnit]) -> None:
        self.units = {u.id: u for u in units}
        self.asked: list[str] = []

    def __call__(self, ids: list[str], with_vectors: bool) -> list[MemoryUnit]:
        self.asked.extend(ids)
        found = [self.units[i] for i in ids if i in self.units]
        return found if with_vectors else [u.with_vector(None) for u in found]  # type: ignore[arg-type]


def test_a_unit_is_read_once_while_its_namespace_stands() -> None:
    reads, cache = _Reads([make_unit("a"), make_unit("b")]), UnitCache(10)
    first = cache.get("ns", 1, ["a", "b", "gone", "a"], True, reads)
    assert [u.id for u in first] == ["a", "b", "a"]  # the order asked, duplicates kept, the missing left out
    again = cache.get("ns", 1, ["b", "a"], True, reads)
    assert [u.id for u in again] == ["b", "a"] and again[0] is first[1]
    assert reads.asked == ["a", "b", "gone"]  # a missing unit is asked for again: it may come
    assert cache.get("ns", 2, ["a"], True, reads)[0].id == "a"  # a new version: read again
    assert reads.asked == ["a", "b", "gone", "a"]


def test_a_unit_kept_without_its_vector_is_read_again_for_it() -> None:
    reads, cache = _Reads([make_unit("a")]), UnitCache(10)
    assert cache.get("ns", 1, ["a"], False, reads)[0].vector is None
    assert cache.get("ns", 1, ["a"], False, reads)[0].vector is None
    assert cache.get("ns", 1, ["a"], True, reads)[0].vector is not None
    assert cache.get("ns", 1, ["a"], False, reads)[0].vector is not None  # the fuller one is kept
    assert reads.asked == ["a", "a"]


def test_the_least_recently_used_go_first() -> None:
    units = [make_unit(f"u{i}") for i in range(4)] + [make_unit("x", namespace="other")]
    reads, cache = _Reads(units), UnitCache(3)
    cache.get("other", 1, ["x"], True, reads)
    cache.get("ns", 1, ["u0", "u1"], True, reads)
    cache.get("ns", 1, ["u0"], True, reads)  # u0 used again
    cache.get("ns", 1, ["u2"], True, reads)  # over capacity: the other namespace's goes first
    cache.get("ns", 1, ["u3"], True, reads)  # then the namespace's oldest: u1
    reads.asked.clear()
    cache.get("ns", 1, ["u0", "u2", "u3"], True, reads)
    assert reads.asked == []
    cache.get("ns", 1, ["u1"], True, reads)
    cache.get("other", 1, ["x"], True, reads)
    assert reads.asked == ["u1", "x"]


def test_no_capacity_reads_every_time() -> None:
    reads, cache = _Reads([make_unit("a")]), UnitCache(0)
    cache.get("ns", 1, ["a"], True, reads)
    cache.get("ns", 1, ["a"], True, reads)
    assert reads.asked == ["a", "a"]


Opener = Callable[[], MemoryStore]


@pytest.fixture(params=["sqlite", "postgres"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Opener:
    """Opens a new connection to one store of the backend each call."""
    if request.param == "sqlite":
        return lambda: SQLiteStore(tmp_path / "m.db")
    url = request.getfixturevalue("postgres_store_url")("main")
    return lambda: PostgresStore(url)


def test_the_store_sees_another_connections_add_and_delete(opener: Opener) -> None:
    with opener() as mine, opener() as theirs:
        mine.add_units([make_unit("a"), make_unit("b")])
        assert [u.id for u in mine.get_units("ns", ["a", "b", "c"])] == ["a", "b"]
        theirs.delete_unit("ns", "a")
        theirs.add_units([make_unit("c", restatement="Written elsewhere.")])
        assert [u.restatement for u in mine.get_units("ns", ["a", "b", "c"])] == [
            "Memory b.", "Written elsewhere."
        ]
        theirs.delete_namespace("ns")
        assert mine.get_units("ns", ["b", "c"]) == []
        theirs.add_units([make_unit("b", restatement="Written again.")])
        assert [u.restatement for u in mine.get_units("ns", ["b"])] == ["Written again."]


def test_what_a_rolled_back_write_read_is_never_served(opener: Opener) -> None:
    with opener() as store:
        store.add_units([make_unit("a")])
        with pytest.raises(RuntimeError), store.write(["ns"]):
            store.add_units([make_unit("phantom")])
            assert [u.id for u in store.get_units("ns", ["phantom"])] == ["phantom"]
            raise RuntimeError("the write fails after reading its own unit")
        store.add_units([make_unit("b")])  # the namespace's version moves on to the same number
        assert [u.id for u in store.get_units("ns", ["phantom", "a", "b"])] == ["a", "b"]


def test_the_stores_refuse_a_negative_cache(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="unit_cache must be a whole number"):
        SQLiteStore(tmp_path / "m.db", unit_cache=-1)
    with pytest.raises(InvalidInputError, match="unit_cache must be a whole number"):
        PostgresStore("postgresql://localhost/none", unit_cache=-1)


def test_a_delete_drops_the_namespaces_units_at_once(opener: Opener) -> None:
    with opener() as store:
        store.add_units([make_unit("a"), make_unit("b"), make_unit("c", namespace="other")])
        store.get_units("ns", ["a", "b"])
        store.get_units("other", ["c"])
        store.delete_unit("ns", "a")
        assert len(store.unit_cache) == 1  # type: ignore[attr-defined]  # only the other namespace's unit is still kept
        store.delete_namespace("other")
        assert len(store.unit_cache) == 0  # type: ignore[attr-defined]


def test_sqlite_reads_by_row_number_while_its_vector_index_is_current(tmp_path: Path) -> None:
    """With the namespace's vector index loaded and current, a read finds each unit by its row
    number; the units are the ones a read by id finds, and once another connection changed the
    namespace (the index is then behind) the read goes by id until the index caught up."""
    path = tmp_path / "m.db"
    with SQLiteStore(path, unit_cache=0) as mine, SQLiteStore(path, unit_cache=0) as theirs:
        mine.add_units([make_unit(name) for name in ("a", "b", "c")])
        statements: list[str] = []
        mine._db.set_trace_callback(statements.append)  # type: ignore[attr-defined]
        by_id = mine.get_units("ns", ["c", "a", "gone"])
        assert not any("u.seq IN" in s for s in statements)  # no index loaded yet
        search_dense(mine, "ns", make_unit("q").vector, 2)  # loads the index  # type: ignore[arg-type]
        statements.clear()
        by_row = mine.get_units("ns", ["c", "a", "gone"])
        assert any("u.seq IN" in s for s in statements)
        assert [u.id for u in by_row] == ["c", "a"]
        assert [u.to_json() for u in by_row] == [u.to_json() for u in by_id]
        theirs.delete_unit("ns", "a")
        theirs.add_units([make_unit("a", restatement="Written again.")])  # a new row number
        statements.clear()
        assert [u.restatement for u in mine.get_units("ns", ["a", "c"])] == ["Written again.", "Memory c."]
        assert not any("u.seq IN" in s for s in statements)  # the index is behind: by id
        search_dense(mine, "ns", make_unit("q").vector, 2)  # catches up with their writes  # type: ignore[arg-type]
        statements.clear()
        assert [u.restatement for u in mine.get_units("ns", ["a", "c"])] == ["Written again.", "Memory c."]
        assert any("u.seq IN" in s for s in statements)
