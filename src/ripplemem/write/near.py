"""Stage: the near neighbours of freshly stored units, one batched dense search per namespace.

Two write stages want a new unit's nearest stored units: the linker (semantic edges: the
``semantic_candidates`` nearest at cosine >= its edge threshold) and the AssoMem clue graph
(utterance links: the ``utterance_link_neighbours`` nearest at >= γ). The write pipeline asks
the store once, for the larger k and the lower threshold, and each stage reads its own part with
:meth:`NearNeighbours.within`: the lists two searches would give, at the cost of one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ripplemem.records import MemoryUnit
from ripplemem.stores.base import MemoryStore

Hits = list[tuple[str, float]]


@dataclass(frozen=True, slots=True)
class NearNeighbours:
    """Per unit id, the first ``k`` hits of its search (itself included) scoring >= ``min_score``,
    best first."""

    hits: dict[str, Hits]
    k: int
    min_score: float

    def within(self, unit_id: str, k: int, min_score: float) -> Hits:
        """What a search for ``k`` hits at ``min_score`` gives, without the unit itself.

        Hits below ``self.min_score`` were cut from the end of each list, so the first ``k`` of
        a list are the first ``k`` of the wider search wherever they are >= ``min_score``.
        """
        if k > self.k or min_score < self.min_score:
            raise ValueError(
                f"asked for {k} hits at >= {min_score}, but the search was for {self.k} at "
                f">= {self.min_score}"
            )
        return [
            (i, s) for i, s in self.hits.get(unit_id, [])[:k] if s >= min_score and i != unit_id
        ]


def near_neighbours(
    store: MemoryStore, units: Sequence[MemoryUnit], k: int, min_score: float
) -> NearNeighbours:
    """The near neighbours of ``units`` (already stored): one ``search_dense_many`` per namespace."""
    by_namespace: dict[str, list[MemoryUnit]] = {}
    for unit in units:
        if unit.vector is not None:
            by_namespace.setdefault(unit.namespace, []).append(unit)
    hits: dict[str, Hits] = {}
    for namespace, group in by_namespace.items():
        vectors = np.stack([np.asarray(u.vector, dtype=np.float32) for u in group])
        found = store.search_dense_many(namespace, vectors, k, min_score=min_score)
        for unit, near in zip(group, found, strict=True):
            hits[unit.id] = [(i, float(s)) for i, s in near]
    return NearNeighbours(hits, k, min_score)
