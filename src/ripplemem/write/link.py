"""Incremental linking (reference §1): bounded candidate pools, two scored channels, degree caps.

For each new unit: up to ``semantic_candidates`` dense neighbours (asked for the whole batch in
one ``search_dense_many``: one matrix product, not one scan per unit) and a bounded cue-index pool
(``cue_candidates``); semantic edges where cosine >= ``semantic_threshold`` and structural edges
where the who/where/when score >= ``structural_threshold``, each capped at ``max_*_edges`` per node.
Lexical similarity never makes edges. Cost per insert is independent of the store size.

Store calls are per batch, not per unit: one ``get_units`` for every unit of the batch's cue
pools, one ``neighbours`` per edge kind for every unit a decision can look at, and one
``change_edges`` for the net result; the decisions in between run in order on a
:class:`~ripplemem.write.batch_graph.BatchGraph`, so each unit sees the edges made and evicted by
the units before it, exactly as when each unit's edges were written at once.

Choices where the paper is silent ([open] in the reference):
* caps hold on *both* endpoints: when an older node is full, the new edge replaces its weakest
  edge of that kind if stronger, otherwise it is not added; degree stays bounded, so 2-hop
  diffusion stays bounded too;
* a unit without a grounded time span is compared in time by the day it was said (its session
  day): the utterance time is grounded even when the event time is not. The unit's own
  ``time_span`` stays empty;
* equal structural scores (common: the same speakers on the same day) are broken by the gap in
  time, then by how many turns apart the two units were said in their session (the write
  pipeline records each unit's ``extra["turn_index"]``), so a unit's structural neighbours are
  the nearby moments of its episode, not arbitrary ones.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ripplemem.records import Cues, Edge, EdgeKind, MemoryUnit, TimeSpan
from ripplemem.settings import WriteSettings
from ripplemem.stores.base import MemoryStore
from ripplemem.structure import (
    StructuralWeights,
    cue_set,
    structural_score,
    structural_time,
    turn_distance,
)
from ripplemem.write.batch_graph import BatchGraph
from ripplemem.write.near import NearNeighbours, near_neighbours

#: A unit's normalised (participants, locations, time) as the structural score compares them.
_Profile = tuple[frozenset[str], frozenset[str], TimeSpan | None]


def _profile(unit: MemoryUnit, memo: dict[tuple[str, str], _Profile]) -> _Profile:
    key = (unit.namespace, unit.id)
    found = memo.get(key)
    if found is None:
        found = (cue_set(unit.participants), cue_set(unit.locations), structural_time(unit))
        memo[key] = found
    return found


#: The paper's semantic edge threshold (set for Qwen3-Embedding); embedders may calibrate their own.
PAPER_SEMANTIC_THRESHOLD = 0.85


@dataclass(frozen=True, slots=True)
class LinkReport:
    added: int
    evicted: int
    candidates: int = 0  # candidates looked at: dense hits above the threshold + cue pools


def said_key(unit: MemoryUnit) -> str:
    """A hash of what a unit says and where (its session, turns and text), free of its namespace:
    the last tie-break between candidates, so one conversation links alike in any namespace."""
    key = "\x00".join((unit.episode_id, "|".join(unit.turn_ids), unit.restatement))
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:16]


_SAID_CACHE = 65_536  # units whose said_key a linker keeps (a tie needs no store read for them)


class Linker:
    """Stage: ``link(units) -> LinkReport`` for units already in the store."""

    def __init__(self, store: MemoryStore, settings: WriteSettings | None = None) -> None:
        self.store = store
        settings = settings or WriteSettings()
        self.settings = settings
        self.weights = StructuralWeights(
            participants=settings.beta_participants,
            locations=settings.beta_locations,
            time=settings.beta_time,
            tau_days=settings.tau_days,
        )
        self._said: OrderedDict[tuple[str, str], str] = OrderedDict()  # (namespace, id) -> key
        self._said_lock = threading.Lock()

    def link(self, units: Sequence[MemoryUnit], near: NearNeighbours | None = None) -> LinkReport:
        """Link ``units`` (already stored); ``near``: their dense search, if already made."""
        added = evicted = 0
        semantic = self._semantic_many(units, near)
        structural, pooled = self._structural_many(units)
        caps: tuple[tuple[EdgeKind, dict[str, list[tuple[str, float]]], int], ...] = (
            ("semantic", semantic, self.settings.max_semantic_edges),
            ("structural", structural, self.settings.max_structural_edges),
        )
        graph = BatchGraph(self.store)
        for kind, scored, cap in caps:  # every unit a decision can look at, in one call per kind
            touched: dict[str, dict[str, None]] = {}
            for unit in units:
                if scored.get(unit.id):
                    ids = touched.setdefault(unit.namespace, {})
                    ids[unit.id] = None
                    ids.update(dict.fromkeys(i for i, _ in scored[unit.id][:cap]))
            for namespace, ids in touched.items():
                graph.load(namespace, kind, ids)
        for unit in units:
            self._remember_said(unit)
        for unit in units:
            for kind, scored, cap in caps:
                a, e = self._attach(graph, unit, kind, scored.get(unit.id, [])[:cap], cap)
                added += a
                evicted += e
        graph.write()
        looked_at = pooled + sum(len(found) for found in semantic.values())
        return LinkReport(added, evicted, looked_at)

    @property
    def near_query(self) -> tuple[int, float]:
        """The dense search the linker needs per unit: (hits, itself included; min score)."""
        threshold = self.settings.semantic_threshold
        if threshold is None:
            threshold = PAPER_SEMANTIC_THRESHOLD  # WritePipeline resolves it per embedder
        return self.settings.semantic_candidates + 1, threshold

    def _semantic_many(
        self, units: Sequence[MemoryUnit], near: NearNeighbours | None
    ) -> dict[str, list[tuple[str, float]]]:
        """Dense candidates of every unit of the batch, from one search (``near`` when the
        pipeline shares its search with the clue graph)."""
        k, threshold = self.near_query
        if near is None:
            near = near_neighbours(self.store, units, k, threshold)
        return {u.id: near.within(u.id, k, threshold) for u in units if u.id in near.hits}

    def _structural_many(
        self, units: Sequence[MemoryUnit]
    ) -> tuple[dict[str, list[tuple[str, float]]], int]:
        """Structural candidates of every unit (a cue lookup each, one ``get_units`` per
        namespace), and how many cue-pool candidates there were."""
        wanted: dict[str, list[str]] = {}
        for unit in units:
            ids = self._cue_pool(unit)
            if ids:
                wanted[unit.id] = ids
        found: dict[tuple[str, str], MemoryUnit] = {}
        by_namespace: dict[str, dict[str, None]] = {}
        for unit in units:
            if unit.id in wanted:
                by_namespace.setdefault(unit.namespace, {}).update(dict.fromkeys(wanted[unit.id]))
        for namespace, wanted_ids in by_namespace.items():
            for other in self.store.get_units(namespace, list(wanted_ids), with_vectors=False):
                found[(namespace, other.id)] = other
        # pools overlap: each unit's cues are normalised once per batch, not once per pair
        profiles: dict[tuple[str, str], _Profile] = {}
        out: dict[str, list[tuple[str, float]]] = {}
        for unit in units:
            if unit.id in wanted:
                others = [found[k] for i in wanted[unit.id] if (k := (unit.namespace, i)) in found]
                out[unit.id] = self._structural(unit, others, profiles)
        return out, sum(len(ids) for ids in wanted.values())

    def _cue_pool(self, unit: MemoryUnit) -> list[str]:
        """The bounded cue-index pool of a unit: other units sharing a who / where / when value."""
        time = structural_time(unit)
        cues = Cues(participants=unit.participants, locations=unit.locations, time_span=time)
        if not cues.has_structure:
            return []
        values = len(cue_set(unit.participants)) + len(cue_set(unit.locations)) + (1 if time else 0)
        per_value = max(4, self.settings.cue_candidates // max(1, values))
        near = time.start if time else None
        ids = self.store.cue_candidates(unit.namespace, cues, near=near, per_value=per_value)
        return [i for i in ids if i != unit.id]

    def _structural(
        self,
        unit: MemoryUnit,
        others: Sequence[MemoryUnit],
        profiles: dict[tuple[str, str], _Profile],
    ) -> list[tuple[str, float]]:
        mine = _profile(unit, profiles)
        time = mine[2]
        scored: list[tuple[MemoryUnit, float, float, int]] = []
        for other in others:
            theirs = _profile(other, profiles)
            other_time = theirs[2]
            score = structural_score(*mine, *theirs, self.weights)
            if score is not None and score >= self.settings.structural_threshold:
                gap = time.gap_days(other_time) if time and other_time else float("inf")
                scored.append((other, score, gap, turn_distance(unit, other)))
        # strongest first; among equals the closest in time, down to the order of turns within a
        # session (ties are common: the same speakers on the same day), then what was said, never
        # the unit id (it hashes the namespace: one conversation would link differently in two)
        scored.sort(key=lambda x: (-x[1], x[2], x[3], said_key(x[0])))
        return [(o.id, s) for o, s, _, _ in scored[: self.settings.cue_candidates]]

    def _first_said(self, namespace: str, ids: list[str]) -> str:
        """Of units tied on an edge weight, the one first in :func:`said_key` order (a unit not
        linked lately by this linker is read from the store)."""
        if len(ids) == 1:
            return ids[0]
        with self._said_lock:
            keys = {i: self._said.get((namespace, i)) for i in ids}
        missing = [i for i, key in keys.items() if key is None]
        if missing:
            for unit in self.store.get_units(namespace, missing, with_vectors=False):
                keys[unit.id] = self._remember_said(unit)
        return min(ids, key=lambda i: (keys.get(i) or "", i))

    def _remember_said(self, unit: MemoryUnit) -> str:
        key = said_key(unit)
        with self._said_lock:  # adds to two namespaces may link at once
            self._said[(unit.namespace, unit.id)] = key
            self._said.move_to_end((unit.namespace, unit.id))
            while len(self._said) > _SAID_CACHE:
                self._said.popitem(last=False)
        return key

    def _attach(
        self,
        graph: BatchGraph,
        unit: MemoryUnit,
        kind: EdgeKind,
        scored: list[tuple[str, float]],
        cap: int,
    ) -> tuple[int, int]:
        """Add ``unit``'s edges of one kind to ``graph``, each decided on the degrees as they were
        before this unit (the edges made by earlier units of the batch included)."""
        if not scored:
            return 0, 0
        ns = unit.namespace
        mine = set(graph.of(ns, kind, unit.id))  # edges made by earlier units of the batch
        room = cap - len(mine)
        new_edges: list[Edge] = []
        evict: list[Edge] = []
        for other, weight in scored:
            if len(new_edges) >= room:
                break
            if other in mine:
                continue
            theirs = [(n, w) for n, w in graph.of(ns, kind, other).items() if n != unit.id]
            if len(theirs) >= cap:
                weakest_w = min(w for _, w in theirs)
                if weight <= weakest_w:
                    continue
                weakest_id = self._first_said(ns, [n for n, w in theirs if w == weakest_w])
                evict.append(Edge(ns, other, weakest_id, kind, weakest_w))
            new_edges.append(Edge(ns, unit.id, other, kind, float(np.float32(weight))))
        for edge in evict:
            graph.remove(edge)
        for edge in new_edges:
            graph.add(edge)
        return len(new_edges), len(evict)
