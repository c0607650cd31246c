"""The edges around one insert batch: read from the store once, changed in memory, written once.

:class:`~ripplemem.write.link.Linker` decides each new unit's edges from the degrees of the
units it touches, and a unit's decision must see the edges made and evicted by the units of the
batch before it. Asking the store for those degrees once per unit and writing each unit's edges
in their own transaction cost a round of queries and a commit per unit; :class:`BatchGraph`
instead loads the adjacency of every unit the batch can touch in one ``neighbours`` call per
kind, applies each decision to that copy, and keeps the *net* change per edge (the last add or
remove of a pair wins), which :meth:`BatchGraph.write` stores with one ``change_edges``: one
transaction. The store ends in the same state as when each change was written as it was decided.

An id not loaded up front is read from the store when first asked and brought up to date with
the pending changes, so the copy is never stale, only slower.
"""

from __future__ import annotations

from collections.abc import Iterable

from ripplemem.records import Edge, EdgeKind
from ripplemem.stores.base import MemoryStore

__all__ = ["BatchGraph"]

Key = tuple[str, EdgeKind, str, str]  # (namespace, kind, lower id, higher id)


class BatchGraph:
    """Adjacency (per namespace and kind) of the units one link batch touches, with its changes."""

    def __init__(self, store: MemoryStore) -> None:
        self.store = store
        self._adjacency: dict[tuple[str, EdgeKind], dict[str, dict[str, float]]] = {}
        self._pending: dict[Key, tuple[bool, float]] = {}  # net change: (added?, weight)

    def load(self, namespace: str, kind: EdgeKind, ids: Iterable[str]) -> None:
        """Read the neighbours of ``ids`` (those not loaded yet) in one store call."""
        adjacency = self._adjacency.setdefault((namespace, kind), {})
        missing = [i for i in dict.fromkeys(ids) if i not in adjacency]
        if not missing:
            return
        found = self.store.neighbours(namespace, missing, kind)
        for unit_id in missing:
            adjacency[unit_id] = dict(found.get(unit_id, []))
        fresh = set(missing)
        for (ns, k, a, b), change in self._pending.items():  # changes the store has not seen
            if ns == namespace and k == kind and (a in fresh or b in fresh):
                for end, other in ((a, b), (b, a)):
                    if end in fresh:
                        self._set(adjacency[end], other, change)

    def of(self, namespace: str, kind: EdgeKind, unit_id: str) -> dict[str, float]:
        """``unit_id``'s neighbours of that kind -> weight, with the batch's changes so far."""
        adjacency = self._adjacency.get((namespace, kind), {})
        if unit_id not in adjacency:
            self.load(namespace, kind, [unit_id])
            adjacency = self._adjacency[(namespace, kind)]
        return adjacency[unit_id]

    def remove(self, edge: Edge) -> None:
        self._change(edge, (False, float(edge.weight)))

    def add(self, edge: Edge) -> None:
        self._change(edge, (True, float(edge.weight)))

    def write(self) -> None:
        """Store the net changes with one ``change_edges`` (one transaction)."""
        net = [
            (Edge(ns, a, b, kind, w), added)
            for (ns, kind, a, b), (added, w) in self._pending.items()
        ]
        removed = [edge for edge, added in net if not added]
        added = [edge for edge, added in net if added]
        if removed or added:
            self.store.change_edges(remove=removed, add=added)
        self._pending.clear()

    def _change(self, edge: Edge, change: tuple[bool, float]) -> None:
        a, b = sorted((edge.src, edge.dst))
        self._pending[(edge.namespace, edge.kind, a, b)] = change
        adjacency = self._adjacency.get((edge.namespace, edge.kind), {})
        for end, other in ((edge.src, edge.dst), (edge.dst, edge.src)):
            if end in adjacency:
                self._set(adjacency[end], other, change)

    @staticmethod
    def _set(neighbours: dict[str, float], other: str, change: tuple[bool, float]) -> None:
        added, weight = change
        if added:
            neighbours[other] = weight
        else:
            neighbours.pop(other, None)
