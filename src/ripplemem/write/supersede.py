"""The supersession stage: a new unit that restates an earlier unit's value supersedes it.

For each new unit with a slot claim (:mod:`ripplemem.write.slots`), the earlier units that could
hold the same attribute are gathered with two bounded lookups (the units naming the holder
nearest in time, and a BM25 search with the unit's own words); an earlier unit (said before it,
:func:`~ripplemem.records.said_order`) whose claim has the same holder and attribute but another
value gets a ``supersedes`` edge from the new unit. Both are kept. At most ``max_links`` of the
latest such units are linked per new unit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ripplemem.records import Cues, Edge, MemoryUnit, said_order
from ripplemem.stores.base import MemoryStore
from ripplemem.write.slots import Claim, claims_of, restates_value

#: weight of a supersedes edge (the kind, not the weight, carries its meaning)
SUPERSEDES_WEIGHT = 1.0


@dataclass(frozen=True, slots=True)
class SupersessionReport:
    edges: int
    claims: int


class SupersessionLinker:
    """Write stage: ``link(units)`` adds the ``supersedes`` edges of newly stored units."""

    def __init__(
        self, store: MemoryStore, *, per_holder: int = 40, lexical_k: int = 30, max_links: int = 3
    ) -> None:
        self.store = store
        self.per_holder, self.lexical_k, self.max_links = per_holder, lexical_k, max_links

    def link(self, units: Sequence[MemoryUnit]) -> SupersessionReport:
        edges: list[Edge] = []
        claimed = 0
        for unit in units:
            claims = claims_of(unit)
            if not claims:
                continue
            claimed += 1
            edges.extend(self._edges(unit, claims))
        if edges:
            self.store.change_edges(add=edges)
        return SupersessionReport(len(edges), claimed)

    def _edges(self, unit: MemoryUnit, claims: list[Claim]) -> list[Edge]:
        earlier = [u for u in self._candidates(unit, claims) if said_order(u) < said_order(unit)]
        earlier = [u for u in earlier if not set(u.turn_ids) & set(unit.turn_ids)]
        replaced: list[MemoryUnit] = []
        for old in sorted(earlier, key=said_order, reverse=True):
            old_claims = claims_of(old)
            if any(restates_value(new, was) for new in claims for was in old_claims):
                replaced.append(old)
            if len(replaced) >= self.max_links:
                break
        return [
            Edge(unit.namespace, unit.id, old.id, "supersedes", SUPERSEDES_WEIGHT) for old in replaced
        ]

    def _candidates(self, unit: MemoryUnit, claims: list[Claim]) -> list[MemoryUnit]:
        namespace = unit.namespace
        holders = tuple(dict.fromkeys(c.holder for c in claims))
        ids: dict[str, None] = {}
        if holders:
            near = unit.session_time or unit.created_at
            cues = Cues(participants=holders)
            ids.update(
                dict.fromkeys(
                    self.store.cue_candidates(namespace, cues, near=near, per_value=self.per_holder)
                )
            )
        for found, _ in self.store.search_lexical(namespace, unit.restatement, self.lexical_k):
            ids.setdefault(found)
        ids.pop(unit.id, None)
        return self.store.get_units(namespace, list(ids), with_vectors=False) if ids else []
