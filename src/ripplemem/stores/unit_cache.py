"""Units read before, kept decoded while their namespace has not changed.

A search reads about a hundred whole units (``ripple``: the pool, diffusion, dialogue context),
and turning a row into a :class:`~ripplemem.records.MemoryUnit` (its JSON fields, times and
vector) costs more than finding the row. Units never change once written — an update is a new
unit — so a unit read once can be served again until its namespace changes: every write to a
namespace (an add, a delete, a delete of the namespace) moves its *version*, which every
connection reads from the store, so a change by another process is seen as soon as it commits.
A namespace whose version moved loses all its entries at once; the cache keeps at most
``capacity`` units, the least recently used namespace's oldest first.

A store asks only outside its own write transactions: what a transaction read may still be
rolled back, and its version with it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

from ripplemem.errors import InvalidInputError
from ripplemem.records import MemoryUnit

__all__ = ["UNIT_CACHE", "UnitCache"]

#: units a store keeps decoded (about 3 KB each with its vector)
UNIT_CACHE = 8_192

Read = Callable[[list[str], bool], list[MemoryUnit]]


class UnitCache:
    """``get(namespace, version, ids, with_vectors, read)``: the units of ``ids`` that exist, in
    order, reading with ``read(missing_ids, with_vectors)`` only those not kept for ``version``
    (a unit kept without its vector is read again when a vector is asked for). Thread-safe."""

    def __init__(self, capacity: int = UNIT_CACHE) -> None:
        if not isinstance(capacity, int) or isinstance(capacity, bool) or capacity < 0:
            raise InvalidInputError(f"unit_cache must be a whole number >= 0 (0: none), got {capacity!r}")
        self.capacity = capacity
        self.hits = self.misses = 0
        self._spaces: OrderedDict[str, tuple[int, OrderedDict[str, MemoryUnit]]] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get(
        self, namespace: str, version: int, ids: Sequence[str], with_vectors: bool, read: Read
    ) -> list[MemoryUnit]:
        if self.capacity <= 0:
            return read(list(ids), with_vectors)
        with self._lock:
            kept = self._units(namespace, version)
            found = {
                i: u for i in dict.fromkeys(ids)
                if (u := kept.get(i)) is not None and (u.vector is not None or not with_vectors)
            }
            for unit_id in found:
                kept.move_to_end(unit_id)
        missing = [i for i in dict.fromkeys(ids) if i not in found]
        fresh = read(missing, with_vectors) if missing else []
        with self._lock:
            self.hits += len(found)
            self.misses += len(missing)
            kept = self._units(namespace, version)
            for unit in fresh:
                found[unit.id] = unit
                self._size += unit.id not in kept
                kept[unit.id] = unit
            self._evict()
        return [found[i] for i in ids if i in found]

    def __len__(self) -> int:
        return self._size

    def forget(self, namespace: str) -> None:
        """Drop the namespace's units now (a delete: its text stays no longer than the row)."""
        with self._lock:
            entry = self._spaces.pop(namespace, None)
            if entry is not None:
                self._size -= len(entry[1])

    def clear(self) -> None:
        with self._lock:
            self._spaces.clear()
            self._size = 0

    def _units(self, namespace: str, version: int) -> OrderedDict[str, MemoryUnit]:
        """The namespace's units kept for ``version`` (its entries dropped when that moved)."""
        entry = self._spaces.get(namespace)
        if entry is None or entry[0] != version:
            if entry is not None:
                self._size -= len(entry[1])
            entry = (version, OrderedDict())
            self._spaces[namespace] = entry
        self._spaces.move_to_end(namespace)
        return entry[1]

    def _evict(self) -> None:
        while self._size > self.capacity and self._spaces:
            namespace, (_, units) = next(iter(self._spaces.items()))
            if units:
                units.popitem(last=False)
                self._size -= 1
            if not units:
                del self._spaces[namespace]
