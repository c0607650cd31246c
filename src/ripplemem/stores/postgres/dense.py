"""Dense search of the PostgreSQL store: exact in process memory below ``ann_threshold`` units
of a namespace, pgvector's HNSW index above it.

**Exact (small namespaces).** :class:`VectorCache` keeps, per namespace, a
:class:`~ripplemem.stores.vectors.VectorIndex` of its *committed* vectors (exact: one matrix
product per batch of queries, as the SQLite store searches below the same threshold), labelled
with the namespace's ``version`` and ``removals`` counters from ``namespace_state``. A search
first reads the counters; when only units were added since the label (``removals`` unchanged),
the rows after the last ``seq`` held are fetched, else the namespace is loaded again. Writers of a
namespace take its advisory lock before they draw ``seq`` numbers, so within a namespace ``seq``
order is commit order and "the rows after the last ``seq``" misses none. The cache holds at most
``max_vectors`` vectors (least recently used namespaces go first).

An open transaction's own changes are not in the cache (other threads read it): they are a
:class:`Pending` overlay per namespace, merged into the transaction's own searches (exact over
both, so the result is that of one index holding the transaction's view) and applied to the cache
when the transaction commits (dropped when it rolls back).

**HNSW (large namespaces).** One ``hnsw (embedding vector_ip_ops)`` index over every namespace;
a query filters by namespace and ``hnsw.iterative_scan = strict_order`` (pgvector >= 0.8) keeps
the scan going until ``k`` rows of the namespace are found (or ``hnsw.max_scan_tuples`` were
read). It runs on the caller's connection, so a transaction sees its own writes.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import psycopg

from ripplemem.stores.vectors import VectorIndex

__all__ = ["Loaded", "Pending", "VectorCache", "hnsw_search", "merge_exact"]

Hits = list[list[tuple[str, float]]]
#: ``load(after_seq)``: the namespace's committed (ids, seqs, vectors) after ``after_seq``
#: (every row when None), with the counters they reflect (version, removals) read first.
Loaded = tuple[int, int, list[str], list[int], np.ndarray]
Loader = Callable[[int | None], Loaded]


@dataclass(slots=True)
class _Entry:
    index: VectorIndex
    version: int
    removals: int
    max_seq: int


@dataclass(slots=True)
class Pending:
    """An open transaction's vector changes to one namespace."""

    dim: int
    base_version: int  # the committed counters when the transaction first changed it
    base_removals: int
    version: int = 0  # the counters as the transaction leaves them
    removals: int = 0
    dropped: bool = False  # the namespace was deleted: committed vectors no longer count
    removed: set[str] = field(default_factory=set)  # committed units deleted
    added: VectorIndex | None = None
    added_seqs: dict[str, int] = field(default_factory=dict)
    added_vectors: dict[str, np.ndarray] = field(default_factory=dict)

    def add(self, ids: Sequence[str], seqs: Sequence[int], vectors: np.ndarray) -> None:
        if self.added is None:
            self.added = VectorIndex(self.dim, ann_threshold=None)
        self.added.add(list(ids), vectors, list(seqs))
        for row, unit_id in enumerate(ids):
            self.added_seqs[unit_id] = int(seqs[row])
            self.added_vectors[unit_id] = vectors[row]

    def remove(self, unit_id: str) -> None:
        if unit_id in self.added_seqs:
            assert self.added is not None
            self.added.remove([unit_id])
            del self.added_seqs[unit_id], self.added_vectors[unit_id]
        else:
            self.removed.add(unit_id)

    def drop(self) -> None:
        self.dropped = True
        self.removed.clear()
        self.added, self.added_seqs, self.added_vectors = None, {}, {}


class VectorCache:
    """Exact indexes of committed vectors per namespace (see the module notes); thread-safe."""

    def __init__(self, max_vectors: int) -> None:
        self._max = max_vectors
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self._held = 0
        self._lock = threading.RLock()

    def index(
        self, namespace: str, dim: int, counters: tuple[int, int], load: Loader
    ) -> VectorIndex:
        """The namespace's committed vectors at ``counters`` (version, removals) or later."""
        with self._lock:
            entry = self._entries.get(namespace)
            if entry is not None and (entry.version, entry.removals) == counters:
                self._entries.move_to_end(namespace)
                return entry.index
            if entry is not None and entry.removals == counters[1]:  # only additions since
                version, removals, ids, seqs, vectors = load(entry.max_seq)
                fresh = [i for i, unit_id in enumerate(ids) if unit_id not in entry.index]
                if len(fresh) == len(ids) and removals == entry.removals:
                    self._grow(entry, ids, seqs, vectors)
                    entry.version = version
                    self._entries.move_to_end(namespace)
                    self._evict(keep=namespace)
                    return entry.index
            self._forget(namespace)
            version, removals, ids, seqs, vectors = load(None)
            entry = _Entry(VectorIndex(dim, ann_threshold=None), version, removals, -1)
            self._grow(entry, ids, seqs, vectors)
            self._entries[namespace] = entry
            self._evict(keep=namespace)
            return entry.index

    def commit(self, changes: dict[str, Pending]) -> None:
        """Apply a committed transaction's changes to the entries they were made on."""
        with self._lock:
            for namespace, pending in changes.items():
                entry = self._entries.get(namespace)
                if entry is None:
                    continue
                base = (pending.base_version, pending.base_removals)
                if pending.dropped or (entry.version, entry.removals) != base:
                    self._forget(namespace)
                    continue
                self._held -= entry.index.remove(pending.removed)
                ids = list(pending.added_seqs)
                if ids:
                    vectors = np.stack([pending.added_vectors[i] for i in ids])
                    self._grow(entry, ids, [pending.added_seqs[i] for i in ids], vectors)
                entry.version, entry.removals = pending.version, pending.removals
            self._evict()

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._held = 0

    def _grow(self, entry: _Entry, ids: list[str], seqs: list[int], vectors: np.ndarray) -> None:
        if ids:
            entry.index.add(ids, vectors, seqs)
            entry.max_seq = max(entry.max_seq, max(seqs))
            self._held += len(ids)

    def _forget(self, namespace: str) -> None:
        entry = self._entries.pop(namespace, None)
        if entry is not None:
            self._held -= len(entry.index)

    def _evict(self, keep: str | None = None) -> None:
        while self._held > self._max and len(self._entries) > (1 if keep else 0):
            oldest = next(iter(self._entries))
            if oldest == keep:
                self._entries.move_to_end(oldest)
                continue
            self._forget(oldest)


def merge_exact(
    committed: VectorIndex | None,
    pending: Pending | None,
    queries: np.ndarray,
    k: int,
    min_score: float | None,
) -> Hits:
    """Exact top ``k`` over the committed index as ``pending`` changes it (queries normalised)."""
    parts: list[Hits] = []
    if committed is not None and len(committed) and not (pending is not None and pending.dropped):
        removed = pending.removed if pending is not None else set()
        found = committed.search_many(queries, k + len(removed), min_score=min_score)
        parts.append([[hit for hit in hits if hit[0] not in removed][:k] for hits in found])
    if pending is not None and pending.added is not None and len(pending.added):
        parts.append(pending.added.search_many(queries, k, min_score=min_score))
    if not parts:
        return [[] for _ in range(len(queries))]
    if len(parts) == 1:
        return parts[0]
    return [
        sorted(a + b, key=lambda hit: -hit[1])[:k] for a, b in zip(parts[0], parts[1], strict=True)
    ]


_HNSW = """
    SELECT q.n, h.id, h.score
    FROM unnest(%(queries)s::vector[]) WITH ORDINALITY AS q (v, n)
    CROSS JOIN LATERAL (
        SELECT id, -(embedding <#> q.v) AS score FROM unit_vector
        WHERE (namespace || '') = %(ns)s
        ORDER BY embedding <#> q.v LIMIT %(k)s
    ) AS h"""


def hnsw_search(
    db: psycopg.Connection,
    namespace: str,
    queries: np.ndarray,
    k: int,
    min_score: float | None,
) -> Hits:
    """The ``k`` nearest units of the namespace per query, from the HNSW index (queries
    normalised). ``namespace || ''`` keeps the planner off the namespace's btree (an exact scan
    of the whole namespace): past ``ann_threshold`` units the graph is the cheaper plan."""
    found: Hits = [[] for _ in range(len(queries))]
    rows = db.execute(_HNSW, {"queries": list(queries), "ns": namespace, "k": k})
    for n, unit_id, score in rows:
        if min_score is None or score >= min_score:
            found[n - 1].append((unit_id, float(score)))
    for hits in found:
        hits.sort(key=lambda hit: -hit[1])
    return found
