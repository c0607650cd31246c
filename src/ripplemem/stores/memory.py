"""InMemoryStore: the reference :class:`~ripplemem.stores.base.MemoryStore`, held in dicts.

Dense search is a :class:`~ripplemem.stores.vectors.VectorIndex` per namespace; lexical search
is the bounded BM25 of :mod:`ripplemem.stores.lexical` over a :class:`Postings` index;
cue lookups use sorted lists scanned outwards from the reference time (see
:mod:`ripplemem.stores.cuekeys`); edges are adjacency dicts. One lock guards everything.

A ``write()`` block holds the lock and keeps an undo log: each write inside it records how to take
itself back (units added, edge weights replaced; the clue graph of a namespace is copied before its
first change), and a block that raises is undone in reverse order.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import math
import threading
from bisect import bisect_left, bisect_right, insort
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field, replace
from datetime import datetime

import numpy as np

from ripplemem.errors import InvalidInputError, StoreError, UnknownUnitError
from ripplemem.records import Cues, Edge, EdgeKind, MemoryUnit, normalise_cue, said_at
from ripplemem.records.filters import SearchFilter
from ripplemem.stores import cuekeys
from ripplemem.stores.base import LexiconRow, StoreCapabilities
from ripplemem.stores.checks import (
    EDGE_KINDS,
    check_cue_kind,
    check_edge_kind,
    check_edges,
    check_embedder_pair,
    check_parses,
    check_units,
    unknown_unit,
)
from ripplemem.stores.clues_base import InMemoryClueStore
from ripplemem.stores.graph import back_weight, oriented, stored_edge
from ripplemem.stores.keys_base import InMemoryKeyStore
from ripplemem.stores.lexical import LEXICAL_POSTING_BUDGET, LEXICAL_RERANK_DEPTH
from ripplemem.stores.postings import Postings
from ripplemem.stores.text import document_terms, terms
from ripplemem.stores.vectors import ANN_THRESHOLD, VectorIndex

__all__ = ["InMemoryStore"]

_INF = math.inf


@dataclass(slots=True)
class _CueList:
    timed: list[tuple[float, int, str]] = field(default_factory=list)  # sorted (t_key, seq, id)
    untimed: list[tuple[int, str]] = field(default_factory=list)  # in seq order
    members: dict[str, int] = field(default_factory=dict)  # id -> seq, in seq order


@dataclass(slots=True)
class _Space:
    """Everything one namespace holds."""

    vectors: VectorIndex
    units: dict[str, MemoryUnit] = field(default_factory=dict)
    # the same units without their vectors, made once on add, not on every vector-less read
    bare: dict[str, MemoryUnit] = field(default_factory=dict)
    seqs: dict[str, int] = field(default_factory=dict)
    parses: dict[str, bytes] = field(default_factory=dict)  # unit id -> its kept parse
    lexical: Postings = field(default_factory=Postings)
    cues: dict[tuple[str, str], _CueList] = field(default_factory=dict)
    spans: dict[int, list[tuple[float, int, str, float]]] = field(default_factory=dict)
    edges: dict[str, dict[str, dict[str, float]]] = field(
        default_factory=lambda: {kind: {} for kind in EDGE_KINDS}
    )


class InMemoryStore:
    """A complete store in process memory; contents are gone on close."""

    capabilities = StoreCapabilities(persistent=False, shared=False, approximate_dense=True)
    url = "memory://"

    def __init__(
        self,
        *,
        ann_threshold: int | None = ANN_THRESHOLD,
        lexical_budget: int = LEXICAL_POSTING_BUDGET,
        lexical_rerank_depth: int = LEXICAL_RERANK_DEPTH,
    ) -> None:
        self._ann_threshold = ann_threshold
        self._lexical_bound = (lexical_budget, lexical_rerank_depth)
        self._lock = threading.RLock()
        self._spaces: dict[str, _Space] = {}
        self._people: dict[str, str] = {}
        self._embedder: tuple[str, int] | None = None
        self._dim: int | None = None
        self._seq = itertools.count(1)
        self._closed = False
        self._undo: list[Callable[[], None]] | None = None  # while a write() block is open
        self.clues = InMemoryClueStore(self._lock, undo=self._log)  # the AssoMem clue graph
        self.keys = InMemoryKeyStore(self._lock)

    def reading(self, namespace: str) -> AbstractContextManager[None]:
        """The reads of one search: they run in this process already, nothing to gather."""
        return nullcontext()

    @contextmanager
    def write(self, namespaces: Sequence[str]) -> Iterator[None]:
        """One atomic write: undone in reverse order if the block raises. Blocks nest."""
        with self._lock:
            self._check_open()
            if self._undo is not None:
                yield
                return
            self._undo = []
            try:
                yield
            except BaseException:
                undo, self._undo = self._undo, None
                for step in reversed(undo):
                    step()
                raise
            finally:
                self._undo = None

    def _log(self, step: Callable[[], None]) -> None:
        if self._undo is not None:
            self._undo.append(step)

    # --- metadata ------------------------------------------------------------------------------

    def check_embedder(self, model: str, dim: int) -> None:
        with self._lock:
            self._check_open()
            if check_embedder_pair(self._embedder, self._dim, model, dim):
                self._embedder, self._dim = (model, dim), dim

    def embedder_info(self) -> tuple[str, int] | None:
        with self._lock:
            self._check_open()
            return self._embedder

    def namespaces(self) -> list[str]:
        with self._lock:
            self._check_open()
            return sorted(self._spaces)

    def count(self, namespace: str) -> int:
        with self._lock:
            self._check_open()
            space = self._spaces.get(namespace)
            return len(space.units) if space else 0

    def last_said(self, namespace: str) -> datetime | None:
        with self._lock:
            self._check_open()
            space = self._spaces.get(namespace)
            return max((said_at(u) for u in space.units.values()), default=None) if space else None

    # --- units ---------------------------------------------------------------------------------

    def add_units(self, units: Sequence[MemoryUnit]) -> None:
        with self._lock:
            self._check_open()
            batch = check_units(units, self._dim)
            if not batch.units:
                return
            for unit in batch.units:
                space = self._spaces.get(unit.namespace)
                if space is not None and unit.id in space.units:
                    raise _duplicate(unit)
            self._dim = batch.dim
            rows_by_namespace: dict[str, list[int]] = {}
            for row, unit in enumerate(batch.units):
                rows_by_namespace.setdefault(unit.namespace, []).append(row)
            for namespace, rows in rows_by_namespace.items():
                space = self._space(namespace, create=True)
                seqs = [next(self._seq) for _ in rows]
                ids = [batch.units[row].id for row in rows]
                space.vectors.add(ids, batch.vectors[rows], seqs)
                for row, seq in zip(rows, seqs):
                    unit = batch.units[row]
                    space.units[unit.id] = unit
                    space.bare[unit.id] = replace(unit, vector=None)
                    space.seqs[unit.id] = seq
                    self._index(space, unit, seq)
                self._log(functools.partial(self._drop_units, namespace, ids))

    def get_units(
        self, namespace: str, ids: Sequence[str], *, with_vectors: bool = True
    ) -> list[MemoryUnit]:
        with self._lock:
            self._check_open()
            space = self._spaces.get(namespace)
            if space is None:
                return []
            units = space.units if with_vectors else space.bare
            return [units[i] for i in ids if i in units]

    def list_units(
        self, namespace: str, *, limit: int | None = None, offset: int = 0
    ) -> list[MemoryUnit]:
        with self._lock:
            self._check_open()
            space = self._spaces.get(namespace)
            if space is None:
                return []
            stop = None if limit is None else offset + max(limit, 0)
            return list(itertools.islice(space.units.values(), max(offset, 0), stop))

    def lexicon_rows(
        self, namespace: str, *, after: str | None = None, limit: int
    ) -> list[LexiconRow]:
        with self._lock:
            self._check_open()
            space = self._spaces.get(namespace)
            if space is None or limit <= 0:
                return []
            ids = space.units if after is None else (i for i in space.units if i > after)
            units = space.bare
            return [
                (i, units[i].participants, units[i].locations, units[i].restatement)
                for i in heapq.nsmallest(limit, ids)
            ]

    def delete_unit(self, namespace: str, unit_id: str) -> bool:
        with self._lock:
            self._check_open()
            space = self._spaces.get(namespace)
            if space is None or unit_id not in space.units:
                return False
            if self._undo is not None:
                self._log(self._unit_restorer(space, unit_id))
            self._drop_units(namespace, [unit_id])
            self.clues.forget_units(namespace, [unit_id])
            return True

    def add_parses(self, namespace: str, parses: Mapping[str, bytes]) -> None:
        with self._lock:
            self._check_open()
            checked = check_parses(parses)
            space = self._spaces.get(namespace)
            for unit_id in checked:
                if space is None or unit_id not in space.units:
                    raise unknown_unit(namespace, unit_id)
            if not checked or space is None:
                return
            before = {i: space.parses.get(i) for i in checked}
            space.parses.update(checked)
            self._log(functools.partial(self._restore_parses, space, before))

    @staticmethod
    def _restore_parses(space: _Space, before: dict[str, bytes | None]) -> None:
        for unit_id, blob in before.items():
            if blob is None:
                space.parses.pop(unit_id, None)
            else:
                space.parses[unit_id] = blob

    def get_parses(self, namespace: str, ids: Sequence[str]) -> dict[str, bytes]:
        with self._lock:
            self._check_open()
            space = self._spaces.get(namespace)
            if space is None:
                return {}
            return {i: space.parses[i] for i in ids if i in space.parses}

    def _unit_restorer(self, space: _Space, unit_id: str) -> Callable[[], None]:
        """How to put a unit back as it is now: same seq, index entries, parse and edges."""
        unit, seq = space.units[unit_id], space.seqs[unit_id]
        parse = space.parses.get(unit_id)
        edges = {kind: dict(adjacency.get(unit_id, {})) for kind, adjacency in space.edges.items()}

        def restore() -> None:
            target = self._space(unit.namespace, create=True)
            assert unit.vector is not None
            target.vectors.add([unit.id], unit.vector[None, :], [seq])
            target.units[unit.id] = unit
            target.bare[unit.id] = replace(unit, vector=None)
            target.seqs[unit.id] = seq
            if parse is not None:
                target.parses[unit.id] = parse
            self._index(target, unit, seq)
            for kind, others in edges.items():
                adjacency = target.edges[kind]
                adjacency[unit.id] = dict(others)
                for other, weight in others.items():
                    adjacency.setdefault(other, {})[unit.id] = back_weight(kind, weight)

        return restore

    def _drop_units(self, namespace: str, ids: Sequence[str]) -> None:
        """Remove units with their index entries and edges (the clue graph is the caller's)."""
        space = self._spaces.get(namespace)
        if space is None:
            return
        for unit_id in ids:
            if unit_id not in space.units:
                continue
            unit = space.units.pop(unit_id)
            del space.bare[unit_id]
            seq = space.seqs.pop(unit_id)
            space.parses.pop(unit_id, None)
            space.vectors.remove([unit_id])
            self._unindex(space, unit, seq)
            for adjacency in space.edges.values():
                for other in adjacency.pop(unit_id, {}):
                    adjacency.get(other, {}).pop(unit_id, None)
        if not space.units:
            del self._spaces[namespace]

    def delete_namespace(self, namespace: str) -> int:
        with self._lock:
            self._check_open()
            space = self._spaces.pop(namespace, None)
            if space is not None:
                self._log(lambda: self._spaces.__setitem__(namespace, space))
            self.clues.forget_namespace(namespace)
            return len(space.units) if space else 0

    # --- views ---------------------------------------------------------------------------------

    def search_dense_many(
        self, namespace: str, vectors: np.ndarray, k: int, *, min_score: float | None = None,
        allowed: AbstractSet[str] | None = None,
    ) -> list[list[tuple[str, float]]]:
        with self._lock:
            self._check_open()
            space = self._spaces.get(namespace)
            if space is None or k <= 0:
                return [[] for _ in range(len(vectors))]
            try:
                if allowed is not None:
                    found = space.vectors.search_within(vectors, k, allowed)
                    if min_score is None:
                        return found
                    return [[h for h in hits if h[1] >= min_score] for hits in found]
                return space.vectors.search_many(vectors, k, min_score=min_score)
            except ValueError as error:
                raise InvalidInputError(
                    f"{error}; embed the queries with the store's embedder"
                ) from error

    def centroid(self, namespace: str) -> np.ndarray | None:
        with self._lock:
            self._check_open()
            space = self._spaces.get(namespace)
            return space.vectors.centroid() if space is not None else None

    def search_lexical(
        self, namespace: str, text: str, k: int, *, allowed: AbstractSet[str] | None = None
    ) -> list[tuple[str, float]]:
        with self._lock:
            self._check_open()
            space = self._spaces.get(namespace)
            if space is None:
                return []
            budget, depth = self._lexical_bound
            return space.lexical.search(
                terms(text), k, budget=budget, rerank_depth=depth, allowed=allowed
            )

    def select_units(self, namespace: str, where: SearchFilter) -> set[str]:
        with self._lock:
            self._check_open()
            space = self._spaces.get(namespace)
            if space is None:
                return set()
            return {i for i, unit in space.bare.items() if where.matches(unit)}

    def person(self, namespace: str) -> str | None:
        with self._lock:
            self._check_open()
            return self._people.get(namespace)

    def set_person(self, namespace: str, name: str | None) -> None:
        with self._lock:
            self._check_open()
            before = self._people.get(namespace)
            if name is None:
                self._people.pop(namespace, None)
            else:
                self._people[namespace] = name
            self._log(lambda: self._restore_person(namespace, before))

    def _restore_person(self, namespace: str, name: str | None) -> None:
        if name is None:
            self._people.pop(namespace, None)
        else:
            self._people[namespace] = name

    def cue_candidates(
        self, namespace: str, cues: Cues, *, near: datetime | None, per_value: int,
        allowed: AbstractSet[str] | None = None,
    ) -> list[str]:
        with self._lock:
            self._check_open()
            space = self._spaces.get(namespace)
            if space is None or per_value <= 0:
                return []
            reference = cuekeys.epoch_seconds(near) if near is not None else None
            found: dict[str, None] = {}
            for kind, values in (("P", cues.participants), ("L", cues.locations)):
                for value in dict.fromkeys(normalise_cue(v) for v in values):
                    entry = space.cues.get((kind, value))
                    if value and entry is not None:
                        near_ones = _nearest(entry, reference, per_value, allowed)
                        found.update(dict.fromkeys(near_ones))
            if cues.time_span is not None:
                found.update(dict.fromkeys(_overlapping(space, cues, per_value, allowed)))
            return list(found)

    def cue_values(self, namespace: str, kind: str) -> list[str]:
        with self._lock:
            self._check_open()
            check_cue_kind(kind)
            space = self._spaces.get(namespace)
            if space is None:
                return []
            return sorted(value for k, value in space.cues if k == kind)

    # --- graph ---------------------------------------------------------------------------------

    def change_edges(self, *, remove: Iterable[Edge] = (), add: Iterable[Edge] = ()) -> None:
        with self._lock:
            self._check_open()
            gone, new = check_edges(remove), check_edges(add)
            for edge in new:  # everything is checked before anything changes
                space = self._spaces.get(edge.namespace)
                for end in (edge.src, edge.dst):
                    if space is None or end not in space.units:
                        raise UnknownUnitError(
                            f"edge end {end!r} is not a unit of namespace {edge.namespace!r}; "
                            "add the units before linking them"
                        )
            if self._undo is not None:
                self._log(self._edge_restorer([*gone, *new]))
            for edge in gone:
                space = self._spaces.get(edge.namespace)
                if space is None:
                    continue
                adjacency = space.edges[edge.kind]
                adjacency.get(edge.src, {}).pop(edge.dst, None)
                adjacency.get(edge.dst, {}).pop(edge.src, None)
            for edge in new:
                adjacency = self._spaces[edge.namespace].edges[edge.kind]
                adjacency.setdefault(edge.src, {})[edge.dst] = float(edge.weight)
                adjacency.setdefault(edge.dst, {})[edge.src] = back_weight(edge.kind, float(edge.weight))

    def _edge_restorer(self, edges: Sequence[Edge]) -> Callable[[], None]:
        """How to put back the weights (or absence) these edges have now."""
        before: dict[tuple[str, str, str, str], float | None] = {}
        for edge in edges:
            space = self._spaces.get(edge.namespace)
            adjacency = space.edges[edge.kind] if space else {}
            for x, y in ((edge.src, edge.dst), (edge.dst, edge.src)):  # each end's row
                before.setdefault((edge.namespace, edge.kind, x, y), adjacency.get(x, {}).get(y))

        def restore() -> None:
            for (namespace, kind, x, y), weight in before.items():
                space = self._spaces.get(namespace)
                if space is None:
                    continue
                adjacency = space.edges[kind]
                if weight is None:
                    adjacency.get(x, {}).pop(y, None)
                else:
                    adjacency.setdefault(x, {})[y] = weight

        return restore

    def neighbours(
        self, namespace: str, ids: Sequence[str], kind: EdgeKind
    ) -> dict[str, list[tuple[str, float]]]:
        with self._lock:
            self._check_open()
            check_edge_kind(kind)
            space = self._spaces.get(namespace)
            adjacency = space.edges[kind] if space else {}
            return {
                unit_id: sorted(
                    ((other, abs(weight)) for other, weight in adjacency.get(unit_id, {}).items()),
                    key=lambda e: (-e[1], e[0]),
                )
                for unit_id in ids
            }

    def edges_of(self, namespace: str, unit_id: str) -> list[Edge]:
        with self._lock:
            self._check_open()
            space = self._spaces.get(namespace)
            if space is None:
                return []
            found = [
                stored_edge(namespace, unit_id, kind, other, weight, adjacency.get(other, {}).get(unit_id))  # type: ignore[arg-type]
                for kind, adjacency in space.edges.items()
                for other, weight in sorted(adjacency.get(unit_id, {}).items())
            ]
            return oriented(found, lambda ids: self.get_units(namespace, ids, with_vectors=False))

    def flush_erasure(self, timeout: float | None = None) -> bool:
        """Nothing to wait for: a deleted unit is gone from memory when ``delete_unit`` returns."""
        return True

    def close(self) -> None:
        with self._lock:
            self._spaces.clear()
            self._closed = True

    # --- internals -----------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("this store is closed; open a new one")

    def _space(self, namespace: str, *, create: bool = False) -> _Space:
        space = self._spaces.get(namespace)
        if space is None and create:
            assert self._dim is not None
            space = _Space(VectorIndex(self._dim, ann_threshold=self._ann_threshold))
            self._spaces[namespace] = space
        assert space is not None
        return space

    def _index(self, space: _Space, unit: MemoryUnit, seq: int) -> None:
        space.lexical.add(unit.id, seq, document_terms(unit.restatement, unit.keywords))
        t_key = cuekeys.time_key(unit)
        for key in cuekeys.cue_keys(unit.participants, unit.locations):
            entry = space.cues.setdefault(key, _CueList())
            entry.members[unit.id] = seq
            if t_key is None:
                entry.untimed.append((seq, unit.id))
            else:
                insort(entry.timed, (t_key, seq, unit.id))
        for bucket_of, start, end in cuekeys.span_rows(unit.time_span, unit.extra):
            insort(space.spans.setdefault(bucket_of, []), (start, seq, unit.id, end))

    def _unindex(self, space: _Space, unit: MemoryUnit, seq: int) -> None:
        space.lexical.remove(unit.id, document_terms(unit.restatement, unit.keywords))
        t_key = cuekeys.time_key(unit)
        for key in cuekeys.cue_keys(unit.participants, unit.locations):
            entry = space.cues[key]
            del entry.members[unit.id]
            if t_key is None:
                entry.untimed.remove((seq, unit.id))
            else:
                entry.timed.pop(bisect_left(entry.timed, (t_key, seq, unit.id)))
            if not entry.members:
                del space.cues[key]
        for bucket_of, start, end in cuekeys.span_rows(unit.time_span, unit.extra):
            bucket = space.spans[bucket_of]
            bucket.pop(bisect_left(bucket, (start, seq, unit.id, end)))


def _duplicate(unit: MemoryUnit) -> InvalidInputError:
    return InvalidInputError(
        f"unit id {unit.id!r} already exists in namespace {unit.namespace!r}; "
        "delete it first or give the new unit another id"
    )


def _nearest(
    entry: _CueList, reference: float | None, n: int, allowed: AbstractSet[str] | None = None
) -> list[str]:
    if allowed is not None:  # the same walk over the allowed units only
        entry = _CueList(
            timed=[t for t in entry.timed if t[2] in allowed],
            untimed=[u for u in entry.untimed if u[1] in allowed],
            members={i: q for i, q in entry.members.items() if i in allowed},
        )
    if reference is None:  # the most recently added
        return list(itertools.islice(reversed(entry.members), n))
    split = bisect_right(entry.timed, (reference, _INF))
    before = entry.timed[max(0, split - n) : split]
    after = entry.timed[split : split + n]
    picked = cuekeys.pick_nearest(before + after, reference, n)
    if len(picked) < n:
        picked += [unit_id for _, unit_id in reversed(entry.untimed[-(n - len(picked)) :])]
    return picked


def _overlapping(
    space: _Space, cues: Cues, n: int, allowed: AbstractSet[str] | None = None
) -> list[str]:
    if allowed is not None:
        space = replace(
            space,
            spans={b: [s for s in spans if s[2] in allowed] for b, spans in space.spans.items()},
        )
    assert cues.time_span is not None
    start, end = cuekeys.span_seconds(cues.time_span)
    middle = (start + end) / 2.0
    candidates: list[tuple[float, int, str]] = []
    for bucket, spans in space.spans.items():
        low = bisect_left(spans, (start - cuekeys.bucket_width(bucket),))
        mid = bisect_right(spans, (middle, _INF))
        taken = 0
        for s_start, seq, unit_id, s_end in reversed(spans[low:mid]):
            if s_end >= start:
                candidates.append((s_start, seq, unit_id))
                taken += 1
                if taken == n:
                    break
        high = bisect_right(spans, (end, _INF))
        candidates += [(s, q, u) for s, q, u, _ in spans[mid : min(high, mid + n)]]
    return cuekeys.pick_nearest(candidates, middle, n)
