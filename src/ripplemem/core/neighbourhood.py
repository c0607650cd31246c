"""A bounded neighbourhood of the memory graph around some units: what the viewer draws.

Starting from seed units (a search's evidence, its anchors and the units on its expansion
paths), :func:`neighbourhood` walks ``hops`` steps along every edge kind, strongest edges
first, and stops adding units at ``max_nodes``: the viewer never loads the whole store. The
edges returned are every edge whose both ends are among the units returned, each once; a
``supersedes`` edge runs new -> old, as the store reports it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ripplemem.records import Edge, MemoryUnit
from ripplemem.stores.base import MemoryStore

__all__ = ["MAX_NODES", "Neighbourhood", "neighbourhood"]

#: the most units one neighbourhood holds, whatever the caller asks
MAX_NODES = 300


@dataclass(frozen=True, slots=True)
class Neighbourhood:
    """Units (seeds first, then by hop and edge strength), the edges among them, and each unit's
    hop count from the nearest seed; ``truncated`` when ``max_nodes`` left units out."""

    units: list[MemoryUnit]
    edges: list[Edge]
    hops: dict[str, int]
    truncated: bool


def neighbourhood(
    store: MemoryStore,
    namespace: str,
    seeds: Sequence[str],
    *,
    hops: int = 1,
    max_nodes: int = MAX_NODES,
) -> Neighbourhood:
    """The units within ``hops`` edges of ``seeds`` (ids not in ``namespace`` are left out)."""
    budget = max(1, min(max_nodes, MAX_NODES))
    wanted = list(dict.fromkeys(seeds))
    truncated = len(wanted) > budget
    known = {u.id: u for u in store.get_units(namespace, wanted[:budget], with_vectors=False)}
    hop = {unit_id: 0 for unit_id in wanted[:budget] if unit_id in known}
    frontier = list(hop)
    edges_of: dict[str, list[tuple[str, Edge]]] = {}
    for step in range(1, hops + 1):
        if not frontier:
            break
        strongest: dict[str, float] = {}
        for unit_id in frontier:
            for other, edge in _edges(store, namespace, unit_id, edges_of):
                if other not in hop and edge.weight > strongest.get(other, float("-inf")):
                    strongest[other] = edge.weight
        ranked = sorted(strongest, key=lambda other: (-strongest[other], other))
        room = budget - len(hop)
        truncated = truncated or len(ranked) > room
        frontier = ranked[: max(room, 0)]
        hop.update((unit_id, step) for unit_id in frontier)
    added = [unit_id for unit_id in hop if unit_id not in known]
    if added:
        known.update((u.id, u) for u in store.get_units(namespace, added, with_vectors=False))
    units = [known[unit_id] for unit_id in hop if unit_id in known]
    inside = {u.id for u in units}
    seen: set[tuple[str, str, str]] = set()
    edges: list[Edge] = []
    for unit in units:
        for other, edge in _edges(store, namespace, unit.id, edges_of):
            if other not in inside:
                continue
            low, high = sorted((edge.src, edge.dst))
            if (low, high, edge.kind) in seen:
                continue
            seen.add((low, high, edge.kind))
            edges.append(edge)
    return Neighbourhood(units, edges, {u.id: hop[u.id] for u in units}, truncated)


def _edges(
    store: MemoryStore, namespace: str, unit_id: str, cache: dict[str, list[tuple[str, Edge]]]
) -> list[tuple[str, Edge]]:
    """``unit_id``'s edges, each with its other end: a ``supersedes`` edge as the store reports
    it (new -> old), any other with ``unit_id`` as its ``src``."""
    found = cache.get(unit_id)
    if found is None:
        found = cache[unit_id] = [
            (
                edge.dst if edge.src == unit_id else edge.src,
                edge if edge.src == unit_id or edge.kind == "supersedes"
                else Edge(edge.namespace, unit_id, edge.src, edge.kind, edge.weight),
            )
            for edge in store.edges_of(namespace, unit_id)
        ]
    return found
