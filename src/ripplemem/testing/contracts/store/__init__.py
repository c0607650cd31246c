"""The store contract: what every :class:`~ripplemem.stores.base.MemoryStore` must do.

Run it against a backend by subclassing :class:`StoreContract` in a test module and giving it the
one fixture it needs, ``make_store(name="main", **options)``: open the store called ``name`` (each
name a separate, initially empty store; opening a name again opens the same data when the
backend is ``persistent``), passing ``options`` (``lexical_budget``, ``lexical_rerank_depth``,
``ann_threshold``) to the backend::

    class TestMyStore(StoreContract):
        @pytest.fixture
        def make_store(self, tmp_path):
            return lambda name="main", **options: MyStore(tmp_path / f"{name}.db", **options)

The suite closes the stores it opens. Tests that need a store to be reopened, or opened by a
second connection at once, run only when the backend declares it (``capabilities``).
"""
from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from ripplemem.stores.base import MemoryStore
from ripplemem.stores.clues_base import ClueStore
from ripplemem.testing.contracts.store.clues import ClueContract
from ripplemem.testing.contracts.store.filters import StoreFilterContract
from ripplemem.testing.contracts.store.graph import GraphContract
from ripplemem.testing.contracts.store.parses import ParseContract
from ripplemem.testing.contracts.store.persistence import PersistenceContract
from ripplemem.testing.contracts.store.shared import StoreFactory, StoreOpener
from ripplemem.testing.contracts.store.units import UnitContract
from ripplemem.testing.contracts.store.views import ViewContract
from ripplemem.testing.contracts.store.writes import WriteContract

__all__ = [
    "ClueContract",
    "GraphContract",
    "ParseContract",
    "PersistenceContract",
    "StoreContract",
    "StoreFactory",
    "StoreFilterContract",
    "UnitContract",
    "ViewContract",
    "WriteContract",
]


class StoreContract(
    UnitContract, ViewContract, GraphContract, ClueContract, WriteContract, PersistenceContract,
    StoreFilterContract, ParseContract,
):
    """Subclass it (``class TestMyStore(StoreContract)``) and provide ``make_store``."""

    @pytest.fixture
    def make_store(self) -> StoreFactory:
        raise NotImplementedError("a StoreContract subclass provides the make_store fixture")

    @pytest.fixture
    def opened(self, make_store: StoreFactory) -> Iterator[StoreFactory]:
        """``make_store``, closing every store it opened when the test ends."""
        stores: list[MemoryStore] = []

        def open_store(name: str = "main", **options: object) -> MemoryStore:
            store = make_store(name, **options)
            stores.append(store)
            return store

        yield open_store
        for store in reversed(stores):
            store.close()

    @pytest.fixture
    def store(self, opened: StoreFactory) -> MemoryStore:
        return opened()

    @pytest.fixture
    def open_bounded(self, opened: StoreFactory) -> StoreOpener:
        """Opens separate stores with a given lexical bound (budget, re-rank depth)."""
        names = itertools.count()
        return lambda **bound: opened(f"bounded{next(names)}", **bound)

    @pytest.fixture
    def clues(self, store: MemoryStore) -> ClueStore:
        return store.clues
