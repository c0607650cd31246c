"""SQLiteStore: the whole memory in one SQLite file (WAL), behind the MemoryStore Protocol.

SQLite is the source of truth. Dense search runs on a per-namespace
:class:`~ripplemem.stores.vectors.VectorIndex` loaded on first use; its HNSW graph (above
``ann_threshold`` vectors) is cached in ``ann_cache`` after a build and on close. A per-namespace
``version`` in ``namespace_state`` tells when another connection changed a namespace, so a
loaded index is reloaded rather than served stale.

``write()`` is one SQLite write transaction (``BEGIN IMMEDIATE``: the file's single writer lock,
so writers of every namespace, in this process and others, take turns; a writer waits up to
``write_wait_s`` for its turn). The store's thread lock is held for the whole block, so other
threads of this process wait too. If the block fails, the transaction rolls back and every cache
held in memory (vector and clue indexes, edge graphs, cue values) is dropped, to be reloaded from
the file.
"""

from __future__ import annotations

import logging
import random
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from contextlib import AbstractContextManager, contextmanager, nullcontext
from datetime import datetime
from pathlib import Path
from typing import Self

import numpy as np

from ripplemem.errors import InvalidInputError, StoreError
from ripplemem.records import Cues, Edge, EdgeKind, MemoryUnit
from ripplemem.records.filters import SearchFilter
from ripplemem.stores import cuekeys
from ripplemem.stores.base import LexiconRow, StoreCapabilities
from ripplemem.stores.checks import (
    check_cue_kind,
    check_edge_kind,
    check_edges,
    check_embedder_pair,
    check_parses,
    check_units,
)
from ripplemem.stores.graph import edge_changes, oriented
from ripplemem.stores.lexical import LEXICAL_POSTING_BUDGET, LEXICAL_RERANK_DEPTH
from ripplemem.stores.sqlite import ann_cache, lexical, lookups, rows, writes
from ripplemem.stores.sqlite.clues import SQLiteClueStore
from ripplemem.stores.sqlite.erasure import Erasure
from ripplemem.stores.sqlite.failures import busy, store_error, translate_public_methods
from ripplemem.stores.sqlite.graph import SQLiteGraph
from ripplemem.stores.sqlite.keys import SQLiteKeyStore
from ripplemem.stores.sqlite.schema import migrate
from ripplemem.stores.text import terms
from ripplemem.stores.unit_cache import UNIT_CACHE, UnitCache
from ripplemem.stores.unit_row import moment_column
from ripplemem.stores.vectors import ANN_THRESHOLD, VectorIndex

__all__ = ["SQLiteStore"]

log = logging.getLogger(__name__)
_CHUNK = writes.CHUNK
#: How long opening a store waits for another process that is migrating the same file.
MIGRATION_WAIT_MS = 120_000
#: How long a write waits for another writer of the file to finish (its whole ``write()`` block).
WRITE_WAIT_S = 600.0
#: SQLite's page cache per store, in MB (SQLite's default is 2 MB): inserts touch index pages all
#: over a growing file (postings, cue and time indexes), which a small cache misses constantly.
CACHE_MB = 64
#: WAL pages between automatic checkpoints (SQLite's default: 1,000, ~4 MB). A checkpoint copies
#: the WAL into the file and syncs both, and an insert batch into a large store dirties hundreds
#: of pages, so the default would checkpoint every batch or two. The price: up to ~40 MB of WAL.
WAL_CHECKPOINT_PAGES = 10_000
CAPABILITIES = StoreCapabilities(persistent=True, shared=True, approximate_dense=True)


def enter_wal(db: sqlite3.Connection, wait_s: float) -> str:
    """Put the file in write-ahead-log mode (kept in the file: a no-op once done) and return
    the journal mode SQLite reports.

    The switch needs the file to itself for a moment. While other processes open the same new
    file, SQLite may answer "database is locked" at once, without waiting out the busy timeout
    (waiting could deadlock two connections that both read first), so the switch is tried again
    after a short, growing, jittered pause until ``wait_s`` has passed.
    """
    deadline = time.monotonic() + wait_s
    pause = 0.005
    while True:
        try:
            return str(db.execute("PRAGMA journal_mode=WAL").fetchone()[0])
        except sqlite3.OperationalError as error:
            if not busy(error) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause * (0.5 + random.random()))
        pause = min(2 * pause, 0.1)


@translate_public_methods
class SQLiteStore:
    """A MemoryStore in one SQLite file; safe to share between threads and processes.

    ``unit_cache`` holds the units read before, decoded (:class:`~ripplemem.stores.unit_cache.UnitCache`);
    a reader may put one of its own in its place (a benchmark gives each recipe its own).
    """

    capabilities = CAPABILITIES

    def __init__(
        self,
        path: str | Path,
        *,
        ann_threshold: int | None = ANN_THRESHOLD,
        lexical_budget: int = LEXICAL_POSTING_BUDGET,
        lexical_rerank_depth: int = LEXICAL_RERANK_DEPTH,
        lexical_staged: int = lexical.RECENT_POSTINGS,
        cache_mb: int = CACHE_MB,
        write_wait_s: float = WRITE_WAIT_S,
        unit_cache: int = UNIT_CACHE,
    ) -> None:
        for name, value in (("cache_mb", cache_mb), ("lexical_staged", lexical_staged)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise InvalidInputError(f"{name} must be a whole number >= 1, got {value!r}")
        # decoded units served again while their namespace's version stands (stores/unit_cache.py)
        self.unit_cache = UnitCache(unit_cache)
        self._lexical_staged = lexical_staged
        self.path = str(path)
        self.url = self.path
        self._ann_threshold = ann_threshold
        self._lexical_bound = (lexical_budget, lexical_rerank_depth)
        self._lock = threading.RLock()
        self._indexes: dict[str, tuple[int, VectorIndex]] = {}  # namespace -> (version, index)
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as error:
            raise store_error(error, self.path, "open") from error
        try:
            # wait for another process's migration (a large store's takes seconds) ...
            self._db.execute(f"PRAGMA busy_timeout={MIGRATION_WAIT_MS}")
            migrate(self._db, self.path)
            mode = enter_wal(self._db, MIGRATION_WAIT_MS / 1000)
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._busy_ms = int(write_wait_s * 1000)
            self._db.execute(f"PRAGMA busy_timeout={self._busy_ms}")  # ... and writers
            self._db.execute(f"PRAGMA cache_size=-{cache_mb * 1024}")  # negative: KiB
            self._db.execute(f"PRAGMA wal_autocheckpoint={WAL_CHECKPOINT_PAGES}")
            # freed pages are zeroed: deleted text does not linger in the file (docs/reliability.md)
            self._db.execute("PRAGMA secure_delete=ON")
        except sqlite3.Error as error:
            self._db.close()
            raise store_error(error, self.path, "open") from error
        except BaseException:
            self._db.close()
            raise
        self.journal_mode = str(mode).lower()
        self._closed = False
        self._depth = 0  # 1 while a write transaction is open (its thread holds the lock)
        self._scrub = False  # the open transaction deletes: checkpoint the WAL after its commit
        self._erasure = Erasure(self.path)
        self.clues = SQLiteClueStore(self._db, self._lock, self._transaction, self._check_open)
        self.keys = SQLiteKeyStore(self._db, self._lock, self._transaction, self._check_open)
        self.clues.path = self.keys.path = self.path
        self._graph = SQLiteGraph(self._db, self._lock)
        self._cue_values = lookups.CueValues(self._db)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- metadata ------------------------------------------------------------------------------

    def check_embedder(self, model: str, dim: int) -> None:
        with self._lock, self._transaction() as db:
            if check_embedder_pair(self._embedder(), self._dim(), model, dim):
                db.executemany(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                    [
                        ("embedder_model", model),
                        ("embedder_dim", str(dim)),
                        ("vector_dim", str(dim)),
                    ],
                )

    def embedder_info(self) -> tuple[str, int] | None:
        with self._lock:
            self._check_open()
            return self._embedder()

    def namespaces(self) -> list[str]:
        with self._lock:
            self._check_open()
            return lookups.distinct_namespaces(self._db)

    def count(self, namespace: str) -> int:
        with self._lock:
            self._check_open()
            return lexical.unit_count(self._db, namespace)  # O(1), not a scan of the namespace

    def last_said(self, namespace: str) -> datetime | None:
        with self._lock:
            self._check_open()
            (latest,) = self._db.execute(  # ISO texts of one form: their order is the times'
                "SELECT max(coalesce(session_time, created_at)) FROM unit WHERE namespace = ?",
                (namespace,),
            ).fetchone()
            return moment_column(latest)

    # --- units ---------------------------------------------------------------------------------

    def add_units(self, units: Sequence[MemoryUnit]) -> None:
        with self._lock:
            self._check_open()
            batch = check_units(units, self._dim())
            if not batch.units:
                return
            values = [rows.unit_values(unit) for unit in batch.units]
            added: dict[str, list[tuple[str, int, int]]] = {}  # namespace -> (id, seq, row)
            with self._transaction() as db:
                if self._dim() is None:
                    db.execute("INSERT INTO meta VALUES ('vector_dim', ?)", (str(batch.dim),))
                seqs = writes.insert_units(
                    db, batch.units, values, batch.vectors, staged_postings=self._lexical_staged
                )
                for row, (unit, seq) in enumerate(zip(batch.units, seqs)):
                    added.setdefault(unit.namespace, []).append((unit.id, seq, row))
                versions = {ns: writes.bump_version(db, ns) for ns in added}
            for namespace, entries in added.items():
                loaded = self._indexes.get(namespace)
                if loaded is None:
                    continue
                if loaded[0] != versions[namespace][0]:  # changed elsewhere: reload when asked
                    del self._indexes[namespace]
                    continue
                index = loaded[1]
                unit_ids, entry_seqs, batch_rows = zip(*entries, strict=True)
                index.add(list(unit_ids), batch.vectors[list(batch_rows)], list(entry_seqs))
                self._indexes[namespace] = (versions[namespace][1], index)
                self._persist_if_rebuilt(namespace, index)

    def get_units(
        self, namespace: str, ids: Sequence[str], *, with_vectors: bool = True
    ) -> list[MemoryUnit]:
        with self._lock:
            self._check_open()
            if not ids:
                return []
            if self._db.in_transaction:  # what a write reads may still be rolled back
                return self._read_units(namespace, ids, with_vectors)
            version = writes.namespace_version(self._db, namespace)
            loaded = self._indexes.get(namespace)
            index = loaded[1] if loaded is not None and loaded[0] == version else None
            return self.unit_cache.get(
                namespace, version, ids, with_vectors,
                lambda todo, vectors: self._read_units(namespace, todo, vectors, index),
            )

    def _read_units(
        self, namespace: str, ids: Sequence[str], with_vectors: bool, index: VectorIndex | None = None
    ) -> list[MemoryUnit]:
        """The units of ``ids`` that exist, in order. With the namespace's current vector
        ``index``, the ids it holds are read by their row number (the ``unit`` table's rowid:
        one B-tree search a unit instead of two), and their vectors, while the index keeps its
        exact float32 rows, from there (the same floats as the ``vector`` rows); the others,
        and any such row that is not the unit asked for, by id."""
        with self._lock:
            found: dict[str, MemoryUnit] = {}
            unique = list(dict.fromkeys(ids))
            # without vectors: the unit row alone (a vector row is a 1.5 KB page read per unit)
            source = rows.WITH_VECTORS if with_vectors else rows.WITHOUT_VECTORS
            seqs = index.seq_by_id(unique) if index is not None else {}
            exact = index.exact_vectors(seqs) if index is not None and seqs and with_vectors else None
            if seqs:
                numbers = list(seqs.values())
                by_seq = rows.WITHOUT_VECTORS if exact is not None else source
                for start in range(0, len(numbers), _CHUNK):
                    part = numbers[start : start + _CHUNK]
                    sql = f"{by_seq} WHERE u.seq IN ({', '.join('?' * len(part))}) AND u.namespace = ?"
                    for row in self._db.execute(sql, (*part, namespace)):
                        if row[1] not in seqs:  # not the unit asked for at that row
                            continue
                        if exact is None:
                            found[row[1]] = rows.unit_from_row(row[:-1], row[-1])
                        else:
                            found[row[1]] = rows.unit_with_vector(row[:-1], exact[row[1]])
            rest = [i for i in unique if i not in found]
            for start in range(0, len(rest), _CHUNK):
                chunk = rest[start : start + _CHUNK]
                sql = f"{source} WHERE u.namespace = ? AND u.id IN ({', '.join('?' * len(chunk))})"
                for row in self._db.execute(sql, (namespace, *chunk)):
                    found[row[1]] = rows.unit_from_row(row[:-1], row[-1])
            return [found[i] for i in ids if i in found]

    def add_parses(self, namespace: str, parses: Mapping[str, bytes]) -> None:
        with self._lock:
            self._check_open()
            checked = check_parses(parses)
            if checked:
                with self._transaction() as db:
                    writes.keep_parses(db, namespace, checked)

    def get_parses(self, namespace: str, ids: Sequence[str]) -> dict[str, bytes]:
        with self._lock:
            self._check_open()
            return writes.kept_parses(self._db, namespace, ids) if ids else {}

    def list_units(
        self, namespace: str, *, limit: int | None = None, offset: int = 0
    ) -> list[MemoryUnit]:
        with self._lock:
            self._check_open()
            sql = f"{rows.WITH_VECTORS} WHERE u.namespace = ? ORDER BY u.seq LIMIT ? OFFSET ?"
            params = (namespace, -1 if limit is None else max(limit, 0), max(offset, 0))
            return [rows.unit_from_row(r[:-1], r[-1]) for r in self._db.execute(sql, params)]

    def lexicon_rows(
        self, namespace: str, *, after: str | None = None, limit: int
    ) -> list[LexiconRow]:
        with self._lock:
            self._check_open()
            return rows.lexicon_rows(self._db, namespace, after, limit)

    def delete_unit(self, namespace: str, unit_id: str) -> bool:
        with self._lock:
            self._check_open()
            with self._graph.guard([namespace]), self._transaction() as db:
                if not writes.delete_unit_rows(db, namespace, unit_id):
                    return False
                self._scrub = True
                self._graph.record(db, {namespace: self._graph.removals(namespace, unit_id)})
                before, after = writes.bump_version(db, namespace)
            self.unit_cache.forget(namespace)
            loaded = self._indexes.pop(namespace, None)
            if loaded is not None and loaded[0] == before:
                loaded[1].remove([unit_id])
                self._indexes[namespace] = (after, loaded[1])
                self._persist_if_rebuilt(namespace, loaded[1])
            return True

    def delete_namespace(self, namespace: str) -> int:
        with self._lock:
            self._check_open()
            with self._transaction() as db:
                count = writes.delete_namespace_rows(db, namespace)
                self._scrub = True
                self._graph.drop_namespace_rows(db, namespace)
            self._indexes.pop(namespace, None)
            self.unit_cache.forget(namespace)
            return count

    # --- views ---------------------------------------------------------------------------------

    def search_dense_many(
        self, namespace: str, vectors: np.ndarray, k: int, *, min_score: float | None = None,
        allowed: AbstractSet[str] | None = None,
    ) -> list[list[tuple[str, float]]]:
        with self._lock:
            self._check_open()
            index = self._vector_index(namespace) if k > 0 else None
            if index is None:
                return [[] for _ in range(len(vectors))]
            try:
                if allowed is not None:
                    found = index.search_within(vectors, k, allowed)
                    if min_score is None:
                        return found
                    return [[h for h in hits if h[1] >= min_score] for hits in found]
                return index.search_many(vectors, k, min_score=min_score)
            except ValueError as error:
                raise InvalidInputError(
                    f"{error}; embed the queries with the store's embedder"
                ) from error

    def centroid(self, namespace: str) -> np.ndarray | None:
        with self._lock:
            self._check_open()
            index = self._vector_index(namespace)
            return index.centroid() if index is not None else None

    def search_lexical(
        self, namespace: str, text: str, k: int, *, allowed: AbstractSet[str] | None = None
    ) -> list[tuple[str, float]]:
        with self._lock:
            self._check_open()
            budget, depth = self._lexical_bound
            seqs: set[int] | None = None
            if allowed is not None:  # ids -> row numbers, from the namespace's vector index
                index = self._vector_index(namespace)
                seqs = set(index.seq_by_id(allowed).values()) if index is not None else set()
            return lexical.search(
                self._db, namespace, terms(text), k, budget=budget, rerank_depth=depth,
                allowed=seqs,
            )

    def person(self, namespace: str) -> str | None:
        with self._lock:
            self._check_open()
            row = self._db.execute(
                "SELECT name FROM namespace_person WHERE namespace = ?", (namespace,)
            ).fetchone()
            return None if row is None else str(row[0])

    def set_person(self, namespace: str, name: str | None) -> None:
        with self._lock:
            self._check_open()
            with self._transaction() as db:
                if name is None:
                    db.execute("DELETE FROM namespace_person WHERE namespace = ?", (namespace,))
                else:
                    db.execute(
                        "INSERT INTO namespace_person (namespace, name) VALUES (?, ?) "
                        "ON CONFLICT (namespace) DO UPDATE SET name = excluded.name",
                        (namespace, name),
                    )

    def select_units(self, namespace: str, where: SearchFilter) -> set[str]:
        with self._lock:
            self._check_open()
            return lookups.select_units(self._db, namespace, where)

    def cue_candidates(
        self, namespace: str, cues: Cues, *, near: datetime | None, per_value: int,
        allowed: AbstractSet[str] | None = None,
    ) -> list[str]:
        with self._lock:
            self._check_open()
            if per_value <= 0:
                return []
            reference = cuekeys.epoch_seconds(near) if near is not None else None
            found: dict[str, None] = {}
            for kind, value in cuekeys.cue_keys(cues.participants, cues.locations):
                ids = lookups.nearest_for_value(
                    self._db, namespace, kind, value, reference, per_value, allowed
                )
                found.update(dict.fromkeys(ids))
            if cues.time_span is not None:
                ids = lookups.overlapping_span(
                    self._db, namespace, cues.time_span, per_value, allowed
                )
                found.update(dict.fromkeys(ids))
            return list(found)

    def cue_values(self, namespace: str, kind: str) -> list[str]:
        with self._lock:
            self._check_open()
            check_cue_kind(kind)
            return self._cue_values.get(namespace, kind)

    # --- graph ---------------------------------------------------------------------------------

    def change_edges(self, *, remove: Iterable[Edge] = (), add: Iterable[Edge] = ()) -> None:
        with self._lock:
            self._check_open()
            changes = edge_changes(check_edges(remove), check_edges(add))
            for namespace, ends in self._graph.unknown_ends(changes).items():
                writes.require_units(self._db, namespace, ends)  # an end with an edge exists
            if changes:
                with self._graph.guard(changes), self._transaction() as db:  # one commit
                    self._graph.record(db, changes)

    def neighbours(
        self, namespace: str, ids: Sequence[str], kind: EdgeKind
    ) -> dict[str, list[tuple[str, float]]]:
        with self._lock:
            self._check_open()
            check_edge_kind(kind)
            return self._graph.neighbours(namespace, ids, kind)

    def edges_of(self, namespace: str, unit_id: str) -> list[Edge]:
        with self._lock:
            self._check_open()
            found = self._graph.edges_of(namespace, unit_id)
            return oriented(found, lambda ids: self.get_units(namespace, ids, with_vectors=False))

    def index_stats(self, namespace: str) -> dict[str, object]:
        """Diagnostics of the namespace's dense index (loads it): see ``VectorIndex.stats``."""
        with self._lock:
            self._check_open()
            index = self._vector_index(namespace)
            return index.stats() if index is not None else {"vectors": 0, "search": "exact"}

    def close(self) -> None:
        """Close the file. Never raises: what was committed is on disk already, and a cache
        that cannot be saved now is rebuilt by the next open (logged as a warning)."""
        with self._lock:
            if self._closed:
                return
            try:
                for namespace, (_, index) in self._indexes.items():
                    if index.ann_changed:
                        self._persist_ann(namespace, index)
                try:
                    self._db.execute("PRAGMA optimize")
                except sqlite3.OperationalError as error:  # another writer holds the file
                    log.info("skipped PRAGMA optimize on close of %s: %s", self.path, error)
            except (sqlite3.Error, StoreError) as error:
                log.warning("closing %s: %s (committed data is not affected)", self.path, error)
            finally:
                self._indexes.clear()
                self.unit_cache.clear()
                self._graph.close()
                self._erasure.close(self._db if self.journal_mode == "wal" else None)
                try:
                    self._db.close()
                except sqlite3.Error as error:
                    log.warning("closing %s: %s (committed data is not affected)", self.path, error)
                self._closed = True

    # --- internals: writing --------------------------------------------------------------------

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction, or the open ``write()`` block's when there is one."""
        self._check_open()
        with self._lock:
            if self._depth:
                yield self._db
                return
            self._begin()
            self._depth = 1
            self._scrub = False
            try:
                yield self._db
                self._db.execute("COMMIT")
                if self._scrub:
                    self._checkpoint()
            except sqlite3.Error as error:
                self._rollback()
                raise store_error(error, self.path, "write to") from error
            except BaseException:
                self._rollback()
                raise
            finally:
                self._depth = 0
                self._cue_values.forget()  # committed or not: cached cue values may be stale

    def reading(self, namespace: str) -> AbstractContextManager[None]:
        """The reads of one search: they run in this process already, nothing to gather."""
        return nullcontext()

    @contextmanager
    def write(self, namespaces: Sequence[str]) -> Iterator[None]:
        """One atomic write (see the module docstring); blocks nest."""
        with self._transaction():
            yield

    def _checkpoint(self) -> None:
        """Copy the WAL into the file and empty it: with ``secure_delete`` the file's freed
        cells are zeroed, and the WAL's older page images (deleted text) go with the WAL. Never
        waits for a reader: one held by another connection leaves it to the background
        (:mod:`ripplemem.stores.sqlite.erasure`)."""
        if self.journal_mode == "wal":
            self._erasure.after_delete(self._db, self._busy_ms)

    def flush_erasure(self, timeout: float | None = None) -> bool:
        """Wait until the text of every unit deleted so far is gone from the files (the database
        and its WAL); False when ``timeout`` seconds passed first (a reader still holds the WAL)."""
        return self._erasure.wait(timeout)

    def _begin(self) -> None:
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            raise store_error(error, self.path, "write to") from error

    def _rollback(self) -> None:
        """Undo the open transaction and drop what memory holds of it."""
        if self._db.in_transaction:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error as error:  # SQLite already rolled back (a full disk, an I/O error)
                log.info("rollback of %s: %s", self.path, error)
        self._indexes.clear()
        self._graph.close()
        self.clues.forget_cached()

    # --- internals: reading --------------------------------------------------------------------

    def _check_open(self) -> None:
        if getattr(self, "_closed", True):
            raise StoreError(f"the store {self.path} is closed; open it again")

    def _embedder(self) -> tuple[str, int] | None:
        return rows.embedder(self._db)

    def _dim(self) -> int | None:
        return rows.vector_dim(self._db)

    def _vector_index(self, namespace: str) -> VectorIndex | None:
        """The namespace's loaded index, (re)loaded when this or another connection wrote."""
        version = writes.namespace_version(self._db, namespace)
        loaded = self._indexes.get(namespace)
        if loaded is not None and loaded[0] == version:
            return loaded[1]
        if loaded is not None and ann_cache.catch_up(self._db, namespace, loaded[1]):
            # another connection only added rows (a server's search worker after an add)
            self._indexes[namespace] = (version, loaded[1])
            self._persist_if_rebuilt(namespace, loaded[1])
            return loaded[1]
        self._indexes.pop(namespace, None)
        dim = self._dim()
        index = ann_cache.load_index(self._db, namespace, dim, self._ann_threshold) if dim else None
        if index is not None:
            self._indexes[namespace] = (version, index)
            self._persist_if_rebuilt(namespace, index)
        return index

    def _persist_if_rebuilt(self, namespace: str, index: VectorIndex) -> None:
        """A fresh HNSW build is expensive: cache it at once; incremental adds wait for close."""
        if index.ann_changed and (index.ann_rebuilt or not index.ann_active):
            self._persist_ann(namespace, index)

    def _persist_ann(self, namespace: str, index: VectorIndex) -> None:
        try:
            with self._transaction() as db:
                ann_cache.save_snapshot(db, namespace, index.snapshot())
        except StoreError as error:  # the cache is optional: the next open rebuilds it
            log.warning("could not cache the vector index of %r: %s", namespace, error)
            return
        index.ann_changed = False
        index.ann_rebuilt = False
