"""The store contract (ripplemem.testing.contracts.store) against a real PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from ripplemem.stores.registry import open_store
from ripplemem.testing.contracts.store import StoreContract, StoreFactory


class TestPostgresStore(StoreContract):
    @pytest.fixture
    def make_store(self, postgres_store_url: Callable[[str], str]) -> StoreFactory:
        return lambda name="main", **options: open_store(postgres_store_url(name), **options)
