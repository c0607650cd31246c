"""The supersession stage: a new unit that gives an earlier unit's fact a new value supersedes it.

For each new unit the candidates are the few most similar memories of the same speaker said
before it: the ``candidates`` nearest stored units (one batched dense search per batch) and the
nearest units of the same ``add`` not stored yet, at cosine >= ``min_similarity``
(:data:`PARALLEL_SIMILARITY`, or :data:`JUDGE_SIMILARITY` for a model). The work per
unit is bounded by these numbers, whatever the size of the store. What decides:

* with an :class:`UpdateJudge` (an LLM, :mod:`ripplemem.write.update_judge`): the model says
  whether the new unit updates, contradicts or merely adds to each candidate; an update or a
  contradiction becomes a ``supersedes`` edge;
* otherwise the dependency parse (:mod:`ripplemem.statements`): a candidate is superseded when one
  of its clauses and one of the new unit's are *parallel* — the same speaker states them about
  themself (or about the same thing of theirs, named alike: "my dog", "my rent", "my sister
  Priya"), both asserted, with the same
  predicate, and a grammatical place where both give a name or a number and the names differ
  ("Maya lives in Leeds" / "Maya lives in Bristol now", "my dog is called Rex" / "my dog is now
  called Max"). The new clause must be in the present tense: a past event ("I went to Rome")
  replaces no earlier one ("I went to Paris"). Wordings that change a value without repeating the
  structure ("I moved to Bristol") are left to the read path, which sees the question.

A unit's text is parsed only when it names something (a capitalised word that is not the start of
a sentence or a speaker's name) or counts something (a digit or a number word): a value the
parallel rule can compare; of a unit's candidates only the ``parsed`` most similar whose values
differ from its own are parsed. So the work per new unit is bounded like the linker's pools: one row
of a batched dense search, at most ``candidates`` stored units fetched, at most ``parsed`` texts
parsed, whatever the size of the store or of the add. The decisions are made before the add's write
block (model and parse work hold no lock); :meth:`SupersessionLinker.insert` stores the edges inside
it. At most ``max_links`` of the latest superseded units are linked per new unit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ripplemem.records import (
    Edge,
    MemoryUnit,
    Version,
    chain_order,
    normalise_cue,
    said_at,
    said_order,
)
from ripplemem.statements import Clause, StatementReader
from ripplemem.statements.surface import values_in
from ripplemem.stores.base import MemoryStore, supersedes_of

#: weight of a supersedes edge (the kind, not the weight, carries its meaning)
SUPERSEDES_WEIGHT = 1.0

#: the units of the same add compared with a new one: the last this many before its batch
_LOCAL = 2_000
#: the least cosine of a candidate: two parallel statements of one fact ("lives in Leeds" /
#: "lives in Bristol now") are near; a model also reads a reworded change ("moved to Bristol")
PARALLEL_SIMILARITY = 0.6
JUDGE_SIMILARITY = 0.3


class UpdateJudge(Protocol):
    """Decides which of ``candidates`` (earlier units of the same speaker) ``unit`` replaces."""

    name: str
    max_candidates: int
    tokens_used: int

    def replaced(self, unit: MemoryUnit, candidates: Sequence[MemoryUnit]) -> list[str]: ...


@dataclass(frozen=True, slots=True)
class SupersessionReport:
    edges: int
    candidates: int


class SupersessionLinker:
    """Write stage: :meth:`prepare` decides the ``supersedes`` edges of new units (no writes),
    :meth:`insert` stores them."""

    def __init__(
        self,
        store: MemoryStore,
        *,
        statements: StatementReader | None = None,
        judge: UpdateJudge | None = None,
        candidates: int = 8,
        parsed: int = 4,
        min_similarity: float | None = None,
        max_links: int = 3,
    ) -> None:
        self.store = store
        self.statements, self.judge = statements, judge
        self.candidates = judge.max_candidates if judge is not None else candidates
        if min_similarity is None:  # a model reads wordings the parse cannot compare
            min_similarity = JUDGE_SIMILARITY if judge is not None else PARALLEL_SIMILARITY
        self.min_similarity, self.max_links = min_similarity, max_links
        self.parsed = parsed
        self._values: dict[tuple[str, frozenset[str]], frozenset[str]] = {}

    def prepare(
        self,
        namespace: str,
        units: Sequence[MemoryUnit],
        earlier: Sequence[MemoryUnit] = (),
        speakers: Sequence[str] = (),
    ) -> tuple[list[Edge], int]:
        """The edges from ``units`` (embedded, not stored yet) to what they supersede, and the
        number of candidates read. ``earlier``: the units of the same add before these;
        ``speakers``: the conversation's speakers (their names address, they are no values)."""
        if self.judge is None and self.statements is None:
            return [], 0
        skip = frozenset(w.casefold() for name in speakers for w in name.split())
        self._values.clear()  # values_in per (text, names), for this call only
        pools = self._candidates(namespace, units, earlier, skip)
        if self.judge is None:
            pools = self._parallel(units, pools, skip)
        edges: list[Edge] = []
        read = 0
        for unit, pool in zip(units, pools, strict=True):
            read += len(pool)
            if not pool:
                continue
            if self.judge is not None:
                replaced = set(self.judge.replaced(unit, pool))
                pool = [u for u in pool if u.id in replaced]
            chosen = sorted(pool, key=said_order, reverse=True)[: self.max_links]
            edges.extend(Edge(namespace, unit.id, old.id, "supersedes", SUPERSEDES_WEIGHT) for old in chosen)
        return edges, read

    def insert(self, namespace: str, edges: Sequence[Edge]) -> int:
        """Store ``edges`` whose units are stored (inside the add's write block)."""
        if not edges:
            return 0
        ids = list({i for e in edges for i in (e.src, e.dst)})
        present = {u.id for u in self.store.get_units(namespace, ids, with_vectors=False)}
        kept = [e for e in edges if e.src in present and e.dst in present]
        if kept:
            self.store.change_edges(add=kept)
        return len(kept)

    def _candidates(
        self,
        namespace: str,
        units: Sequence[MemoryUnit],
        earlier: Sequence[MemoryUnit],
        skip: frozenset[str],
    ) -> list[list[MemoryUnit]]:
        """Per unit, the nearest earlier units of its speaker (stored, or of this add)."""
        wanted = [self._wanted(u, skip) for u in units]
        asking = [u for u, w in zip(units, wanted, strict=True) if w and u.vector is not None]
        if not asking:
            return [[] for _ in units]
        vectors = np.stack([np.asarray(u.vector, dtype=np.float32) for u in asking])
        stored = self.store.search_dense_many(namespace, vectors, self.candidates, min_score=self.min_similarity)
        fetched = {
            u.id: u
            for u in self.store.get_units(
                namespace, list({i for hits in stored for i, _ in hits}), with_vectors=False
            )
        } if any(stored) else {}
        local = [u for u in [*earlier[-_LOCAL:], *units] if u.vector is not None]
        # one matrix product for the batch; per unit the nearest few (itself among them)
        near = self.candidates + 1
        sims = (
            vectors @ np.stack([np.asarray(u.vector, dtype=np.float32) for u in local]).T
            if local else np.zeros((len(asking), 0), dtype=np.float32)
        )
        pools: dict[str, list[MemoryUnit]] = {}
        for unit, hits, row in zip(asking, stored, sims, strict=True):
            scored = [(s, fetched[i]) for i, s in hits if i in fetched]
            top = np.argpartition(-row, near)[:near] if row.size > near else np.arange(row.size)
            scored.extend(
                (float(row[i]), local[int(i)]) for i in top if row[i] >= self.min_similarity
            )
            pools[unit.id] = self._eligible(unit, scored, skip)
        return [pools.get(u.id, []) for u in units]

    def _eligible(
        self, unit: MemoryUnit, scored: list[tuple[float, MemoryUnit]], skip: frozenset[str]
    ) -> list[MemoryUnit]:
        """The ``candidates`` most similar of ``scored`` said before ``unit`` by its speaker."""
        speaker = _speaker(unit)
        seen: set[str] = {unit.id}
        out: list[MemoryUnit] = []
        for _, other in sorted(scored, key=lambda pair: -pair[0]):
            same_turn = other.episode_id == unit.episode_id and set(other.turn_ids) & set(unit.turn_ids)
            if other.id in seen or same_turn:
                continue
            seen.add(other.id)
            if _speaker(other) != speaker or said_order(other) >= said_order(unit):
                continue
            if self.judge is None and not self._wanted(other, skip):
                continue
            out.append(other)
            if len(out) >= self.candidates:
                break
        return out

    def _wanted(self, unit: MemoryUnit, skip: frozenset[str]) -> bool:
        """Whether the unit can be compared: any unit for a judge; for the parse, a unit that
        names or counts something (a value the parallel rule can compare)."""
        if self.judge is not None:
            return bool(unit.participants)
        if not unit.participants:
            return False
        names = skip | {w.casefold() for w in unit.participants[0].split()}  # the speakers
        return bool(self._values_in(unit.restatement, names))

    def _values_in(self, text: str, skip: frozenset[str]) -> frozenset[str]:
        """:func:`values_in`, once per text and names in a :meth:`prepare` call."""
        key = (text, skip)
        found = self._values.get(key)
        if found is None:
            found = self._values[key] = frozenset(values_in(text, skip))
        return found

    def _parallel(
        self, units: Sequence[MemoryUnit], pools: Sequence[list[MemoryUnit]], skip: frozenset[str]
    ) -> list[list[MemoryUnit]]:
        """Per unit, the candidates it gives a new value (:func:`parallel`). Two parallel
        statements with different values each name (or count) what the other does not, so only
        such pairs are parsed: the new units first (one call), then the candidates of a unit that
        states a named value in the present."""
        assert self.statements is not None
        asking: list[tuple[MemoryUnit, list[MemoryUnit]]] = []
        for unit, pool in zip(units, pools, strict=True):
            values = self._values_in(unit.restatement, skip)
            differing = [
                u for u in pool
                if (self._values_in(u.restatement, skip) - values)
                and (values - self._values_in(u.restatement, frozenset()))
            ][: self.parsed]  # the pool is most similar first
            if differing:
                asking.append((unit, differing))
        stated = self.statements.clauses([u for u, _ in asking]) if asking else []
        todo: dict[str, tuple[list[Clause], list[MemoryUnit]]] = {}
        for (unit, pool), clauses in zip(asking, stated, strict=True):
            mine = [c for c in clauses if c.asserted and c.tense == "present" and c.by_speaker() and c.named]
            if mine:
                todo[unit.id] = (mine, pool)
        others = list({u.id: u for _, pool in todo.values() for u in pool}.values())
        read = dict(zip([u.id for u in others], self.statements.clauses(others), strict=True)) if others else {}
        return [
            [old for old in todo[u.id][1] if _replaces(todo[u.id][0], read[old.id])] if u.id in todo else []
            for u in units
        ]


def _speaker(unit: MemoryUnit) -> str:
    return normalise_cue(unit.participants[0]) if unit.participants else ""


def _replaces(new: Sequence[Clause], old: Sequence[Clause]) -> bool:
    return any(parallel(n, o) for n in new for o in old)


def parallel(new: Clause, old: Clause) -> bool:
    """``new`` gives what ``old`` stated a new value (see the module doc)."""
    if not (new.asserted and old.asserted) or new.tense != "present" or old.tense == "future":
        return False
    if new.speaker != old.speaker or new.predicate != old.predicate:
        return False
    if not (new.by_speaker() and old.by_speaker()) or new.kind != old.kind:
        return False
    if new.kind == "thing" and new.subject_words != old.subject_words:
        return False  # "my dog is called Max" / "my cat is called Ana", "my sister Priya" /
        # "my sister Ana": two things
    was = dict(old.places)
    for place, words in new.places:
        if place not in was:
            continue
        before, now = was[place] & old.named, words & new.named
        if before and now and not before & now:
            return True
    return False


def chain_of(store: MemoryStore, unit: MemoryUnit, *, limit: int = 100) -> list[Version]:
    """Every unit joined to ``unit`` by ``supersedes`` edges in the order their values held (each
    after the units it supersedes: :func:`~ripplemem.records.chain_order`), each with the first
    of the units that supersede it (``superseded_by``) and the time that unit was said."""
    namespace = unit.namespace
    units = {unit.id: unit}
    older: dict[str, set[str]] = {}
    todo = [unit.id]
    while todo and len(units) < limit:
        found = supersedes_of(store, namespace, todo)
        fresh: list[str] = []
        for newer_ids, older_ids in (found.get(i, ([], [])) for i in todo):
            fresh.extend(o for o in (*newer_ids, *older_ids) if o not in units and o not in fresh)
        for unit_id in todo:  # each edge from both its ends: one end may be left unread
            newer_ids, older_ids = found.get(unit_id, ([], []))
            older.setdefault(unit_id, set()).update(older_ids)
            for other in newer_ids:
                older.setdefault(other, set()).add(unit_id)
        if fresh:
            for got in store.get_units(namespace, fresh, with_vectors=False):
                units[got.id] = got
        todo = [o for o in fresh if o in units]
    order = chain_order(units.values(), older)
    place = {member.id: at for at, member in enumerate(order)}
    versions = []
    for member in order:
        later = [o for o, before in older.items() if member.id in before and o in units]
        after = units[min(later, key=place.__getitem__)] if later else None
        versions.append(
            Version(member, after.id if after else None, said_at(after) if after else None)
        )
    return versions


def delete_in_chain(store: MemoryStore, namespace: str, unit_id: str) -> bool:
    """Delete a unit; a unit it stood between in a chain is joined to its neighbours, so the
    units that superseded it supersede the ones it superseded. False when there is no such unit."""
    with store.write([namespace]):
        if not store.get_units(namespace, [unit_id], with_vectors=False):
            return False
        after, before = supersedes_of(store, namespace, [unit_id])[unit_id]
        deleted = store.delete_unit(namespace, unit_id)
        bridges = [
            Edge(namespace, new, old, "supersedes", SUPERSEDES_WEIGHT)
            for new in after
            for old in before
        ]
        if bridges:
            store.change_edges(add=bridges)
        return deleted
