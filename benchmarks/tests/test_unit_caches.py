"""Each benchmarked recipe reads through a cache of its own: none is warmed by another's
reads of the same question."""

from __future__ import annotations

from pathlib import Path

from ripplemem.stores.memory import InMemoryStore
from ripplemem.stores.sqlite import SQLiteStore
from ripplemem.testing.builders import make_unit
from ripplemem_bench.unit_caches import RecipeCaches


def test_a_recipe_is_warmed_only_by_its_own_reads(tmp_path: Path) -> None:
    caches = RecipeCaches()
    with SQLiteStore(tmp_path / "m.db", unit_cache=100) as store:
        store.add_units([make_unit("a"), make_unit("b")])
        caches.use(store, "ripple")
        store.get_units("ns", ["a", "b"])
        caches.use(store, "hybrid")
        assert store.unit_cache.capacity == 100 and len(store.unit_cache) == 0
        store.get_units("ns", ["a"])
        assert store.unit_cache.misses == 1 and store.unit_cache.hits == 0
        caches.use(store, "ripple")
        store.get_units("ns", ["a", "b"])
        assert store.unit_cache.hits == 2


def test_a_store_without_a_unit_cache_is_left_as_it_is() -> None:
    store = InMemoryStore()
    RecipeCaches().use(store, "ripple")
    assert not hasattr(store, "unit_cache")
