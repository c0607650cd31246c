"""Dense search of the PostgreSQL store: exact in process memory below ``ann_threshold`` units
of a namespace, pgvector's HNSW index above it.

**Exact (small namespaces).** :class:`VectorCache` keeps, per namespace, a
:class:`~ripplemem.stores.vectors.VectorIndex` of its *committed* vectors, the SQLite store's own
index with the same threshold (exact: one matrix product per batch of queries; a near-only search,
the linker's, through its in-memory graph once that holds every row), labelled
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

**HNSW (large namespaces).** A namespace that grows past ``ann_threshold`` units gets an HNSW index
of its own: a *partial* index of ``unit_vector`` (``WHERE namespace = '...'``), built once, after
the commit that took it past the threshold (:func:`build_namespace_index`, ``CREATE INDEX
CONCURRENTLY``: writers go on meanwhile), and kept current by every insert after. A search with
the namespace as a literal lets the planner use it: every row the graph yields is the namespace's,
so ``k`` rows come back with the graph's own recall. One index over all namespaces with a filter
(``hnsw.iterative_scan``) was measured against this (docs/postgres.md): it costs an HNSW insert
for every unit of every namespace and loses recall as namespaces get small relative to the
table; the partial indexes cost nothing below the threshold. ``hnsw.iterative_scan`` stays on
(strict order), so rows deleted but not yet vacuumed never cut a result short. The search runs on
the caller's connection, so a transaction sees its own writes.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import psycopg
from psycopg import sql

from ripplemem.stores.vectors import VectorIndex

__all__ = [
    "Loaded",
    "Pending",
    "VectorCache",
    "build_namespace_index",
    "hnsw_search",
    "index_name",
    "merge_exact",
]

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
    units: int = 0
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

    def __init__(self, max_vectors: int, ann_threshold: int | None) -> None:
        self._max, self._ann_threshold = max_vectors, ann_threshold
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
            index = VectorIndex(dim, ann_threshold=self._ann_threshold)
            entry = _Entry(index, version, removals, -1)
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
                ids = list(pending.added_seqs)
                if any(unit_id in entry.index for unit_id in ids):  # loaded meanwhile: reload
                    self._forget(namespace)
                    continue
                self._held -= entry.index.remove(pending.removed)
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


#: pgvector's HNSW build parameters (its defaults; the SQLite store's faiss graph uses the same)
HNSW_M = 16
HNSW_EF_CONSTRUCTION = 64
#: memory for one index build (pgvector builds the graph in memory when it fits)
BUILD_MEMORY = "256MB"

_HNSW = """
    SELECT q.n, h.id, h.score
    FROM unnest(%(queries)s::vector[]) WITH ORDINALITY AS q (v, n)
    CROSS JOIN LATERAL (
        SELECT id, -(embedding <#> q.v) AS score FROM unit_vector
        WHERE namespace = {namespace}
        ORDER BY embedding <#> q.v LIMIT %(k)s
    ) AS h"""


_WITHIN = """
    SELECT q.n, h.id, h.score
    FROM unnest(%(queries)s::vector[]) WITH ORDINALITY AS q (v, n)
    CROSS JOIN LATERAL (
        SELECT id, -(embedding <#> q.v) AS score FROM unit_vector
        WHERE namespace = %(ns)s AND id = ANY(%(ids)s)
        ORDER BY embedding <#> q.v, seq LIMIT %(k)s
    ) AS h"""


def search_within(
    db: psycopg.Connection,
    namespace: str,
    queries: np.ndarray,
    k: int,
    ids: Sequence[str],
    min_score: float | None,
) -> Hits:
    """The exact ``k`` nearest of the units ``ids`` per query (a search filter's units: an
    exact scan of those rows, restricted before the cut; queries normalised)."""
    found: Hits = [[] for _ in range(len(queries))]
    params = {"queries": list(queries), "ns": namespace, "ids": list(ids), "k": k}
    for n, unit_id, score in db.execute(_WITHIN, params):
        if min_score is None or score >= min_score:
            found[n - 1].append((unit_id, float(score)))
    for hits in found:
        hits.sort(key=lambda hit: -hit[1])
    return found


def index_name(namespace: str) -> str:
    """The name of a namespace's HNSW index (any namespace text gives a valid, short name)."""
    return "unit_vector_hnsw_" + hashlib.sha1(namespace.encode("utf-8")).hexdigest()[:20]


def hnsw_search(
    db: psycopg.Connection,
    namespace: str,
    queries: np.ndarray,
    k: int,
    min_score: float | None,
) -> Hits:
    """The ``k`` nearest units of the namespace per query, from its HNSW index (queries
    normalised). The namespace is written into the query as a literal, never a parameter of a
    prepared statement: only then can the planner match the partial index's predicate."""
    found: Hits = [[] for _ in range(len(queries))]
    query = sql.SQL(_HNSW).format(namespace=sql.Literal(namespace))
    rows = db.execute(query, {"queries": list(queries), "k": k}, prepare=False)
    for n, unit_id, score in rows:
        if min_score is None or score >= min_score:
            found[n - 1].append((unit_id, float(score)))
    for hits in found:
        hits.sort(key=lambda hit: -hit[1])
    return found


def _indexed_table(db: psycopg.Connection, namespace: str) -> str:
    """The table a namespace's index goes on: ``unit_vector``, or, when an operator has
    partitioned it by namespace (docs/postgres.md), the partition holding the namespace's rows
    (PostgreSQL builds no index ``CONCURRENTLY`` on a partitioned table; a search naming the
    namespace as a literal is pruned to that partition, whose partial index the planner uses)."""
    row = db.execute(
        "SELECT c.relname FROM unit_vector AS u JOIN pg_class AS c ON c.oid = u.tableoid "
        "WHERE u.namespace = %s LIMIT 1",
        (namespace,),
    ).fetchone()
    return "unit_vector" if row is None else str(row[0])


def build_namespace_index(db: psycopg.Connection, lock: sql.Composable, namespace: str) -> bool:
    """Build the namespace's HNSW index unless it exists (``db`` in autocommit: ``CREATE INDEX
    CONCURRENTLY`` runs outside transactions). ``lock`` is the advisory lock key that keeps two
    processes from building it at once; the one that does not get it leaves the build to the
    other. Returns whether the index is ready."""
    got = db.execute(sql.SQL("SELECT pg_try_advisory_lock({})").format(lock)).fetchone()
    if not (got and got[0]):
        return False
    name = index_name(namespace)
    try:
        row = db.execute(
            "SELECT hnsw FROM namespace_state WHERE namespace = %s", (namespace,)
        ).fetchone()
        if row is not None and row[0] is not None:
            return True
        valid = db.execute(
            "SELECT i.indisvalid FROM pg_index AS i JOIN pg_class AS c ON c.oid = i.indexrelid "
            "WHERE c.relname = %s AND c.relnamespace = current_schema()::regnamespace",
            (name,),
        ).fetchone()
        if valid is not None and not valid[0]:  # an interrupted build leaves an invalid index
            db.execute(sql.SQL("DROP INDEX CONCURRENTLY {}").format(sql.Identifier(name)))
        if valid is None or not valid[0]:
            db.execute(sql.SQL("SET maintenance_work_mem = {}").format(sql.Literal(BUILD_MEMORY)))
            try:
                db.execute(
                    sql.SQL(
                        "CREATE INDEX CONCURRENTLY {} ON {} "
                        "USING hnsw (embedding vector_ip_ops) WITH (m = {}, ef_construction = {}) "
                        "WHERE namespace = {}"
                    ).format(
                        sql.Identifier(name),
                        sql.Identifier(_indexed_table(db, namespace)),
                        sql.Literal(HNSW_M),
                        sql.Literal(HNSW_EF_CONSTRUCTION),
                        sql.Literal(namespace),
                    )
                )
            finally:
                db.execute("RESET maintenance_work_mem")
        db.execute(
            "UPDATE namespace_state SET hnsw = %s WHERE namespace = %s", (name, namespace)
        )
        return True
    finally:
        db.execute(sql.SQL("SELECT pg_advisory_unlock({})").format(lock))
