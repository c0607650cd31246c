"""The supersession stage: a new unit that restates an earlier unit's value supersedes it.

For each new unit with a slot claim (:mod:`ripplemem.write.slots`), the earlier units that could
hold the same attribute are gathered with two bounded lookups (the units naming the holder
nearest in time, and a BM25 search with the unit's own words); an earlier unit (said before it,
:func:`~ripplemem.records.said_order`) whose claim has the same holder and attribute but another
value gets a ``supersedes`` edge from the new unit. Both are kept. At most ``max_links`` of the
latest such units are linked per new unit.

With ``parse`` (the entity recogniser's spaCy pipeline) the claims also come from the dependency
parse of the sentences worth it; each unit's claims are kept in a bounded cache, so a unit read
as a new unit is not parsed again when it is an earlier unit's candidate.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from ripplemem.records import Cues, Edge, MemoryUnit, Version, said_at, said_order
from ripplemem.stores.base import MemoryStore
from ripplemem.write.slots import Claim, Parse, claims_of_units, restates_value

#: weight of a supersedes edge (the kind, not the weight, carries its meaning)
SUPERSEDES_WEIGHT = 1.0


@dataclass(frozen=True, slots=True)
class SupersessionReport:
    edges: int
    claims: int


class SupersessionLinker:
    """Write stage: ``link(units)`` adds the ``supersedes`` edges of newly stored units."""

    def __init__(
        self,
        store: MemoryStore,
        *,
        parse: Parse | None = None,
        per_holder: int = 40,
        lexical_k: int = 30,
        max_links: int = 3,
        cache_size: int = 20_000,
    ) -> None:
        self.store = store
        self.parse = parse
        self.per_holder, self.lexical_k, self.max_links = per_holder, lexical_k, max_links
        self.cache_size = cache_size
        self._cache: OrderedDict[tuple[str, str, str], list[Claim]] = OrderedDict()

    def link(self, units: Sequence[MemoryUnit]) -> SupersessionReport:
        edges: list[Edge] = []
        claimed = 0
        for unit, claims in zip(units, self.claims(units)):
            if not claims:
                continue
            claimed += 1
            edges.extend(self._edges(unit, claims))
        if edges:
            self.store.change_edges(add=edges)
        return SupersessionReport(len(edges), claimed)

    def claims(self, units: Sequence[MemoryUnit]) -> list[list[Claim]]:
        """The slot claims of each unit (cached by namespace, id and restatement)."""
        keys = [(u.namespace, u.id, u.restatement) for u in units]
        todo = {key: unit for key, unit in zip(keys, units) if key not in self._cache}
        for key, claims in zip(todo, claims_of_units(list(todo.values()), self.parse)):
            self._cache[key] = claims
        found = []
        for key in keys:
            self._cache.move_to_end(key)
            found.append(self._cache[key])
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return found

    def _edges(self, unit: MemoryUnit, claims: list[Claim]) -> list[Edge]:
        earlier = [u for u in self._candidates(unit, claims) if said_order(u) < said_order(unit)]
        earlier = [u for u in earlier if not set(u.turn_ids) & set(unit.turn_ids)]
        earlier.sort(key=said_order, reverse=True)
        replaced: list[MemoryUnit] = []
        for old, old_claims in zip(earlier, self.claims(earlier)):
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


def supersede(store: MemoryStore, old: MemoryUnit, new: Sequence[MemoryUnit]) -> int:
    """``supersedes`` edges from each of ``new`` to ``old`` (an explicit update)."""
    edges = [
        Edge(old.namespace, unit.id, old.id, "supersedes", SUPERSEDES_WEIGHT)
        for unit in new
        if unit.id != old.id
    ]
    if edges:
        with store.write([old.namespace]):
            store.change_edges(add=edges)
    return len(edges)


def chain_of(store: MemoryStore, unit: MemoryUnit, *, limit: int = 100) -> list[Version]:
    """Every unit joined to ``unit`` by ``supersedes`` edges, earliest first, each with the
    unit said next after it among its links (``superseded_by``) and that unit's time."""
    namespace = unit.namespace
    units = {unit.id: unit}
    links: dict[str, list[str]] = {}
    todo = [unit.id]
    while todo and len(units) < limit:
        found = store.neighbours(namespace, todo, "supersedes")
        fresh: list[str] = []
        for unit_id in todo:
            links[unit_id] = [other for other, _ in found.get(unit_id, [])]
            fresh.extend(o for o in links[unit_id] if o not in units and o not in fresh)
        if fresh:
            for got in store.get_units(namespace, fresh, with_vectors=False):
                units[got.id] = got
        todo = [o for o in fresh if o in units]
    versions = []
    for member in sorted(units.values(), key=said_order):
        later = [units[o] for o in links.get(member.id, []) if o in units]
        later = [u for u in later if said_order(u) > said_order(member)]
        after = min(later, key=said_order) if later else None
        versions.append(
            Version(member, after.id if after else None, said_at(after) if after else None)
        )
    return versions


def delete_in_chain(store: MemoryStore, namespace: str, unit_id: str) -> bool:
    """Delete a unit; a unit it stood between in a chain is joined to its neighbours, so the
    units said after it supersede the ones said before it. False when there is no such unit."""
    with store.write([namespace]):
        found = store.get_units(namespace, [unit_id], with_vectors=False)
        if not found:
            return False
        unit = found[0]
        linked_ids = [o for o, _ in store.neighbours(namespace, [unit_id], "supersedes")[unit_id]]
        linked = store.get_units(namespace, linked_ids, with_vectors=False) if linked_ids else []
        before = [u for u in linked if said_order(u) < said_order(unit)]
        after = [u for u in linked if said_order(u) > said_order(unit)]
        deleted = store.delete_unit(namespace, unit_id)
        bridges = [
            Edge(namespace, new.id, old.id, "supersedes", SUPERSEDES_WEIGHT)
            for new in after
            for old in before
        ]
        if bridges:
            store.change_edges(add=bridges)
        return deleted
