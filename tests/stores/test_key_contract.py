"""The key contract (ripplemem.testing.contracts.keys) against the shipped key stores: in memory,
a SQLite store's and a PostgreSQL store's (each sharing its store's connection)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ripplemem.stores.base import MemoryStore
from ripplemem.stores.keys_base import InMemoryKeyStore
from ripplemem.stores.registry import open_store
from ripplemem.testing.contracts.keys import KeyOpener, KeyStoreContract


def opener(location: Callable[[str], str]) -> Iterator[KeyOpener]:
    """``open_keys`` over stores at ``location(name)``, closed when the test ends."""
    opened: list[MemoryStore] = []

    def open_keys(name: str = "main"):
        store = open_store(location(name))
        opened.append(store)
        return store.keys  # type: ignore[attr-defined]

    yield open_keys
    for store in opened:
        store.close()


class TestInMemoryKeyStore(KeyStoreContract):
    @pytest.fixture
    def open_keys(self) -> KeyOpener:
        return lambda name="main": InMemoryKeyStore()


class TestSQLiteKeyStore(KeyStoreContract):
    persistent = True

    @pytest.fixture
    def open_keys(self, tmp_path: Path) -> Iterator[KeyOpener]:
        yield from opener(lambda name: str(tmp_path / f"{name}.db"))


class TestPostgresKeyStore(KeyStoreContract):
    persistent = True

    @pytest.fixture
    def open_keys(self, postgres_store_url: Callable[[str], str]) -> Iterator[KeyOpener]:
        yield from opener(postgres_store_url)
