"""open_store: a path string becomes a backend."""

from __future__ import annotations

from pathlib import Path

import pytest

from ripplemem.errors import StoreError
from ripplemem.stores.base import MemoryStore
from ripplemem.stores.memory import InMemoryStore
from ripplemem.stores.registry import open_store
from ripplemem.stores.sqlite import SQLiteStore

from . import make_unit


@pytest.mark.parametrize("path", [None, ":memory:"])
def test_no_path_means_memory(path: str | None) -> None:
    store = open_store(path)
    assert isinstance(store, InMemoryStore) and isinstance(store, MemoryStore)
    store.close()


def test_a_path_means_sqlite_with_folders_created(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "memory.db"
    store = open_store(str(path), ann_threshold=10)
    assert isinstance(store, SQLiteStore) and path.exists()
    store.add_units([make_unit(f"u{i}", seed=i) for i in range(12)])
    assert store.index_stats("ns")["search"] == "hnsw"  # the option reached the store
    store.close()


def test_an_unusable_folder_is_reported(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match="writable"):
        open_store(blocker / "memory.db")
