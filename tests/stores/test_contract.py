"""The store contract (ripplemem.testing.contracts.store), run against the shipped backends."""

from __future__ import annotations

from pathlib import Path

import pytest

from ripplemem.stores.memory import InMemoryStore
from ripplemem.stores.registry import open_store
from ripplemem.testing.contracts.store import StoreContract, StoreFactory


class TestInMemoryStore(StoreContract):
    @pytest.fixture
    def make_store(self) -> StoreFactory:
        return lambda name="main", **options: InMemoryStore(**options)


class TestSQLiteStore(StoreContract):
    @pytest.fixture
    def make_store(self, tmp_path: Path) -> StoreFactory:
        return lambda name="main", **options: open_store(tmp_path / f"{name}.db", **options)
