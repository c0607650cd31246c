"""Stage: a search filter applied to every read of one recall.

:func:`restrict` resolves the filter to its units once (``store.select_units``: the filter
index) and wraps the store so that every stage of the read path sees only those units: the three
views restrict to them *before* their cut (the store does it: the dense view answers the nearest
allowed units, not the allowed few among the nearest), and diffusion, dialogue context,
supersession and the AssoMem candidates, which reach units through the graph or by id, never see
another unit (``neighbours`` and ``get_units`` drop them).
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from datetime import datetime
from typing import Any

import numpy as np

from ripplemem.records import Cues, EdgeKind, MemoryUnit
from ripplemem.records.filters import SearchFilter
from ripplemem.stores.base import MemoryStore

__all__ = ["FilteredStore", "restrict"]


class FilteredStore:
    """The reads of a store, over the ``allowed`` units of one namespace only; everything
    else is the store's own."""

    def __init__(self, store: MemoryStore, allowed: AbstractSet[str]) -> None:
        self._store = store
        self.allowed = frozenset(allowed)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def search_dense_many(
        self, namespace: str, vectors: np.ndarray, k: int, *, min_score: float | None = None,
        allowed: AbstractSet[str] | None = None,
    ) -> list[list[tuple[str, float]]]:
        return self._store.search_dense_many(
            namespace, vectors, k, min_score=min_score, allowed=self._within(allowed)
        )

    def search_lexical(
        self, namespace: str, text: str, k: int, *, allowed: AbstractSet[str] | None = None
    ) -> list[tuple[str, float]]:
        return self._store.search_lexical(namespace, text, k, allowed=self._within(allowed))

    def cue_candidates(
        self, namespace: str, cues: Cues, *, near: datetime | None, per_value: int,
        allowed: AbstractSet[str] | None = None,
    ) -> list[str]:
        return self._store.cue_candidates(
            namespace, cues, near=near, per_value=per_value, allowed=self._within(allowed)
        )

    def get_units(
        self, namespace: str, ids: Sequence[str], *, with_vectors: bool = True
    ) -> list[MemoryUnit]:
        wanted = [i for i in ids if i in self.allowed]
        if not wanted:
            return []
        return self._store.get_units(namespace, wanted, with_vectors=with_vectors)

    def neighbours(
        self, namespace: str, ids: Sequence[str], kind: EdgeKind
    ) -> dict[str, list[tuple[str, float]]]:
        found = self._store.neighbours(namespace, ids, kind)
        return {
            unit_id: [(other, w) for other, w in edges if other in self.allowed]
            for unit_id, edges in found.items()
        }

    def _within(self, allowed: AbstractSet[str] | None) -> AbstractSet[str]:
        return self.allowed if allowed is None else self.allowed & allowed


def restrict(store: MemoryStore, namespace: str, where: SearchFilter) -> FilteredStore:
    """``store`` as seen by a recall under ``where``."""
    return FilteredStore(store, store.select_units(namespace, where))
