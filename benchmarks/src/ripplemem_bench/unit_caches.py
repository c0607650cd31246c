"""Each benchmarked recipe reads units through a cache of its own.

A store keeps the units a search read, decoded, for the searches after it (``store.unit_cache``,
:mod:`ripplemem.stores.unit_cache`). A benchmark that asks every recipe the same question in
turn would let each recipe read what the one before it had just read for that very question;
with a cache of its own, a recipe is warmed only by its own earlier questions, as one user's
searches would be.
"""

from __future__ import annotations

from ripplemem.stores import UnitCache

__all__ = ["RecipeCaches"]


class RecipeCaches:
    """``use(store, recipe)`` before a recipe's search: the store reads through that recipe's
    cache (a store without one is left as it is)."""

    def __init__(self) -> None:
        self._caches: dict[str, UnitCache] = {}

    def use(self, store: object, recipe: str) -> None:
        current = getattr(store, "unit_cache", None)
        if not isinstance(current, UnitCache):
            return
        mine = self._caches.setdefault(recipe, UnitCache(current.capacity))
        if current is not mine:
            store.unit_cache = mine  # type: ignore[attr-defined]
