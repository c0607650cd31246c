"""Stage support: the units one recall has read, read once.

The stages of a ``ripple`` recall read units by id from the store one after the other: the cue
view, the evidence pool, diffusion, the deeper view ranks, dialogue context, supersession. Their
sets overlap (about a fifth of the ids a LoCoMo recall asks for were read before in the same
recall), and reading a unit (a row, its JSON fields, its vector) is the larger part of a recall's
store time. :class:`RecallUnits` wraps the store for one recall and keeps every unit read; a
unit read without its vector is read again when a stage wants the vector. Everything else is the
store's own. The store is read under the recall's read lock, so a unit cannot change meanwhile.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ripplemem.records import MemoryUnit
from ripplemem.stores.base import MemoryStore

__all__ = ["RecallUnits"]


class RecallUnits:
    """``store`` for one recall: ``get_units`` reads each unit once; the rest as is."""

    def __init__(self, store: MemoryStore) -> None:
        self._store = store
        self._units: dict[tuple[str, str], MemoryUnit] = {}
        self._missing: set[tuple[str, str]] = set()  # asked for, not in the store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def get_units(
        self, namespace: str, ids: Sequence[str], *, with_vectors: bool = True
    ) -> list[MemoryUnit]:
        todo = [
            i for i in dict.fromkeys(ids)
            if (namespace, i) not in self._missing
            and (
                (found := self._units.get((namespace, i))) is None
                or (with_vectors and found.vector is None)
            )
        ]
        if todo:
            read = {u.id: u for u in self._store.get_units(namespace, todo, with_vectors=with_vectors)}
            for unit_id in todo:
                if unit_id in read:
                    self._units[(namespace, unit_id)] = read[unit_id]
                else:
                    self._missing.add((namespace, unit_id))
        return [u for i in ids if (u := self._units.get((namespace, i))) is not None]
