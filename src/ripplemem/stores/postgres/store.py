"""PostgresStore: the whole memory in a PostgreSQL database (pgvector), behind the MemoryStore
Protocol; for several processes and machines sharing one store.

**Connections.** A psycopg connection pool (``pool_size`` connections at most). Outside a write,
each call borrows a connection in autocommit mode (one statement, one snapshot); a call that finds
its connection broken (the server restarted, the backend was ended) tries once more on a fresh one.

**Writes.** ``write(namespaces)`` and every write method run in one transaction on one connection,
bound to the calling thread while it is open (blocks nest: the outermost commits). Before it
writes a namespace, a transaction takes that namespace's advisory lock
(``pg_advisory_xact_lock``, released at commit or rollback): writers of one namespace, in any
process on any machine, take turns, while writers of different namespaces run at once. A writer
waits up to ``lock_wait_s`` for its turn. A lost connection or a failed statement rolls the whole
transaction back and raises :class:`~ripplemem.errors.StoreError`; nothing of it stays.

**Reads** see committed data, and inside a write block the block's own writes as well. Dense
search: :mod:`ripplemem.stores.postgres.dense` (exact in memory below ``ann_threshold`` units of
a namespace, pgvector HNSW above). Lexical: the SQLite store's bounded BM25
(:mod:`ripplemem.stores.postgres.lexical`), identical scores.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Self, TypeVar

import numpy as np
import psycopg
from psycopg import sql
from psycopg_pool import ConnectionPool, PoolTimeout

from ripplemem.errors import InvalidInputError, RippleMemError, StoreError
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
from ripplemem.stores.hnsw import HNSW_EF_SEARCH
from ripplemem.stores.lexical import LEXICAL_POSTING_BUDGET, LEXICAL_RERANK_DEPTH
from ripplemem.stores.postgres import adapt, dense, graph, lexical, lookups, writes
from ripplemem.stores.postgres.clues import (
    PostgresClueStore,
    forget_namespace_rows,
    forget_unit_rows,
)
from ripplemem.stores.postgres.jobs import PostgresJobStore
from ripplemem.stores.postgres.keys import PostgresKeyStore
from ripplemem.stores.postgres.location import Location, parse_location
from ripplemem.stores.postgres.rows import SELECT_UNITS, unit_from_row
from ripplemem.stores.postgres.schema import (
    fix_dimension,
    has_store_tables,
    lock_key,
    migrate,
    search_path,
)
from ripplemem.stores.text import terms
from ripplemem.stores.unit_cache import UNIT_CACHE, UnitCache
from ripplemem.stores.unit_row import moment_column
from ripplemem.stores.vector_search import normalised_queries
from ripplemem.stores.vectors import ANN_THRESHOLD

__all__ = ["PostgresStore", "holds_store"]

log = logging.getLogger(__name__)
T = TypeVar("T")

CAPABILITIES = StoreCapabilities(persistent=True, shared=True, approximate_dense=True)
POOL_SIZE = 8
#: Vectors the exact-search cache of one store holds (~1.5 KB each at 384-d).
CACHE_VECTORS = 1_000_000
#: (namespace, kind) entries of the cue-value cache before it starts afresh.
CUE_VALUE_ENTRIES = 10_000
#: How long a writer waits for another writer of the same namespace.
LOCK_WAIT_S = 600.0
#: Rows an HNSW scan may read looking for ``k`` rows of one namespace (pgvector's default: 20,000).
MAX_SCAN_TUPLES = 100_000


@dataclass(slots=True)
class _Open:
    """The calling thread's open transaction."""

    connection: psycopg.Connection
    depth: int = 1
    locked: set[str] = field(default_factory=set)
    pending: dict[str, dense.Pending] = field(default_factory=dict)


@dataclass(slots=True)
class _State:
    """A namespace's ``namespace_state`` row."""

    units: int
    version: int
    removals: int
    hnsw: bool
    vector_sum: bytes | None


@dataclass(slots=True)
class _Reading:
    """The calling thread's :meth:`PostgresStore.reading` block: the namespace's counters once
    read."""

    namespace: str
    state: _State | None = None
    state_read: bool = False


def _read_state(db: psycopg.Connection, namespace: str) -> _State | None:
    row = db.execute(
        "SELECT units, version, removals, hnsw, vector_sum FROM namespace_state "
        "WHERE namespace = %s",
        (namespace,),
    ).fetchone()
    if row is None:
        return None
    return _State(int(row[0]), int(row[1]), int(row[2]), bool(row[3]), row[4])


class PostgresStore:
    """A MemoryStore in a PostgreSQL database; safe to share between threads, processes and
    machines.

    ``unit_cache`` holds the units read before, decoded (:class:`~ripplemem.stores.unit_cache.UnitCache`);
    a reader may put one of its own in its place (a benchmark gives each recipe its own).
    """

    capabilities = CAPABILITIES

    def __init__(
        self,
        location: str,
        *,
        ann_threshold: int | None = ANN_THRESHOLD,
        lexical_budget: int = LEXICAL_POSTING_BUDGET,
        lexical_rerank_depth: int = LEXICAL_RERANK_DEPTH,
        pool_size: int = POOL_SIZE,
        cache_vectors: int = CACHE_VECTORS,
        ef_search: int = HNSW_EF_SEARCH,
        max_scan_tuples: int = MAX_SCAN_TUPLES,
        lock_wait_s: float = LOCK_WAIT_S,
        unit_cache: int = UNIT_CACHE,
    ) -> None:
        # decoded units served again while their namespace's version stands (stores/unit_cache.py)
        self.unit_cache = UnitCache(unit_cache)
        for name, value in (
            ("pool_size", pool_size),
            ("cache_vectors", cache_vectors),
            ("ef_search", ef_search),
            ("max_scan_tuples", max_scan_tuples),
        ):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise InvalidInputError(f"{name} must be a whole number >= 1, got {value!r}")
        where = parse_location(location)
        self.url = where.url
        self.schema = where.schema
        self._ann_threshold = ann_threshold
        self._lexical_bound = (lexical_budget, lexical_rerank_depth)
        self._session = (
            sql.SQL("SET hnsw.ef_search = {}").format(sql.Literal(ef_search)),
            sql.SQL("SET hnsw.iterative_scan = strict_order"),
            sql.SQL("SET hnsw.max_scan_tuples = {}").format(sql.Literal(max_scan_tuples)),
            sql.SQL("SET lock_timeout = {}").format(sql.Literal(f"{int(lock_wait_s * 1000)}ms")),
            # a prepared statement (psycopg prepares one run 5 times) is planned once: every
            # query here is a key lookup whose plan does not depend on the values
            sql.SQL("SET plan_cache_mode = force_generic_plan"),
        )
        self._local = threading.local()
        self._cache = dense.VectorCache(cache_vectors, ann_threshold)
        self._indexed: set[str] = set()  # namespaces whose HNSW index this store saw built
        self._cue_values: dict[tuple[str, str], tuple[int, list[str]]] = {}
        self._closed = True
        first = connect(where)
        try:
            with first:
                self._extension_schema = migrate(first, self.schema, self.url)
                self._dim_value = _meta_dim(first)
        except psycopg.Error as error:
            raise StoreError(
                f"cannot prepare the store at {self.url}: {_first_line(error)}"
            ) from error
        self._pool = ConnectionPool(
            where.conninfo,
            min_size=1,
            max_size=pool_size,
            kwargs={"autocommit": True},
            configure=self._configure,
            open=False,
            name=f"ripplemem {self.url}",
        )
        try:
            self._pool.open(wait=True, timeout=30.0)
        except PoolTimeout as error:
            self._pool.close()
            raise StoreError(
                f"cannot open connections to the store at {self.url}; check the server's "
                "max_connections and that it is still reachable"
            ) from error
        self._closed = False
        self.clues = PostgresClueStore(self._transaction, self._read)
        self.keys = PostgresKeyStore(self._transaction, self._read)
        self.jobs = PostgresJobStore(self._transaction, self._read)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"PostgresStore({self.url!r})"

    # --- metadata ------------------------------------------------------------------------------

    def check_embedder(self, model: str, dim: int) -> None:
        recorded, vector_dim = self._read(lambda db: (_embedder(db), _meta_dim(db)))
        if not check_embedder_pair(recorded, vector_dim, model, dim):
            return
        with self._transaction([]) as db:
            db.execute(sql.SQL("SELECT pg_advisory_xact_lock({})").format(
                lock_key(self.schema, ":embedder")
            ))
            if check_embedder_pair(_embedder(db), _meta_dim(db), model, dim):
                fix_dimension(db, self.schema, dim)
                db.execute(
                    "INSERT INTO meta (key, value) VALUES ('embedder_model', %s), "
                    "('embedder_dim', %s) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    (model, str(dim)),
                )
        self._dim_value = dim

    def embedder_info(self) -> tuple[str, int] | None:
        return self._read(_embedder)

    def namespaces(self) -> list[str]:
        sql_text = "SELECT namespace FROM namespace_state WHERE units > 0 ORDER BY namespace"
        return self._read(lambda db: [row[0] for row in db.execute(sql_text)])

    def count(self, namespace: str) -> int:
        state = self._state(namespace)
        return 0 if state is None else state.units

    def last_said(self, namespace: str) -> datetime | None:
        sql_text = (  # ISO texts of one form, compared byte by byte: their order is the times'
            'SELECT max(coalesce(session_time, created_at) COLLATE "C") FROM unit WHERE namespace = %s'
        )

        def read(db: psycopg.Connection) -> datetime | None:
            row = db.execute(sql_text, (namespace,)).fetchone()
            return moment_column(row[0]) if row else None

        return self._read(read)

    # --- one atomic write ----------------------------------------------------------------------

    @contextmanager
    def write(self, namespaces: Sequence[str]) -> Iterator[None]:
        """One atomic write (see the module docstring); blocks nest."""
        with self._transaction(namespaces):
            yield

    # --- units ---------------------------------------------------------------------------------

    def add_units(self, units: Sequence[MemoryUnit]) -> None:
        self._check_open()
        batch = check_units(units, self._dim_value)
        if not batch.units:
            return
        namespaces = sorted({unit.namespace for unit in batch.units})
        with self._transaction(namespaces) as db:
            dim = self._dim_value or fix_dimension(db, self.schema, batch.dim)
            if dim != batch.dim:
                raise InvalidInputError(
                    f"unit {batch.units[0].id!r} has a {batch.dim}-d vector but this store holds "
                    f"{dim}-d vectors; embed with the store's embedder or use another store"
                )
            self._dim_value = dim
            writes.refuse_known_ids(db, batch.units)
            seqs, totals = writes.insert_units(db, batch.units, batch.vectors)
            open_ = self._open()
            assert open_ is not None
            for namespace, (count, tokens, total) in totals.items():
                counters = writes.count_change(db, namespace, count, tokens, total)
                pending = self._pending(open_, namespace, counters, removals=0)
                rows = [i for i, unit in enumerate(batch.units) if unit.namespace == namespace]
                pending.add(
                    [batch.units[i].id for i in rows], [seqs[i] for i in rows], batch.vectors[rows]
                )

    def get_units(
        self, namespace: str, ids: Sequence[str], *, with_vectors: bool = True
    ) -> list[MemoryUnit]:
        self._check_open()
        if not ids:
            return []
        if self._open() is not None:  # what a write reads may still be rolled back
            return self._read_units(namespace, ids, with_vectors)
        state = self._state(namespace)
        return self.unit_cache.get(
            namespace, -1 if state is None else state.version, ids, with_vectors,
            lambda todo, vectors: self._read_units(namespace, todo, vectors),
        )

    def _read_units(self, namespace: str, ids: Sequence[str], with_vectors: bool) -> list[MemoryUnit]:
        query = f"{SELECT_UNITS[with_vectors]} WHERE u.namespace = %s AND u.id = ANY(%s)"
        unique = list(dict.fromkeys(ids))
        if not unique:
            self._check_open()
            return []

        def read(db: psycopg.Connection) -> dict[str, MemoryUnit]:
            with db.cursor(binary=True) as cursor:
                rows = cursor.execute(query, (namespace, unique)).fetchall()
            return {row[2]: unit_from_row(row) for row in rows}

        found = self._read(read)
        return [found[i] for i in ids if i in found]

    def add_parses(self, namespace: str, parses: Mapping[str, bytes]) -> None:
        self._check_open()
        checked = check_parses(parses)
        if checked:
            with self._transaction([namespace]) as db:
                writes.keep_parses(db, namespace, checked)

    def get_parses(self, namespace: str, ids: Sequence[str]) -> dict[str, bytes]:
        self._check_open()
        if not ids:
            return {}
        return self._read(lambda db: writes.kept_parses(db, namespace, ids))

    def list_units(
        self, namespace: str, *, limit: int | None = None, offset: int = 0
    ) -> list[MemoryUnit]:
        query = f"{SELECT_UNITS[True]} WHERE u.namespace = %s ORDER BY u.seq LIMIT %s OFFSET %s"
        params = (namespace, None if limit is None else max(limit, 0), max(offset, 0))

        def read(db: psycopg.Connection) -> list[MemoryUnit]:
            with db.cursor(binary=True) as cursor:
                return [unit_from_row(row) for row in cursor.execute(query, params)]

        return self._read(read)

    def lexicon_rows(
        self, namespace: str, *, after: str | None = None, limit: int
    ) -> list[LexiconRow]:
        if limit <= 0:
            return []
        # by key on the (namespace, id) index; the ids' "C" collation orders by code points
        query = (
            "SELECT id, participants, locations, restatement FROM unit WHERE namespace = %s"
            + ("" if after is None else " AND id > %s") + " ORDER BY id LIMIT %s"
        )
        params = (namespace, limit) if after is None else (namespace, after, limit)

        def read(db: psycopg.Connection) -> list[LexiconRow]:
            return [
                (unit_id, tuple(participants), tuple(locations), restatement)
                for unit_id, participants, locations, restatement in db.execute(query, params)
            ]

        return self._read(read)

    def delete_unit(self, namespace: str, unit_id: str) -> bool:
        with self._transaction([namespace]) as db:
            deleted = writes.delete_unit_rows(db, namespace, unit_id)
            if deleted is None:
                return False
            tokens, vector = deleted
            graph.remove_unit_edges(db, namespace, unit_id)
            forget_unit_rows(db, namespace, [unit_id])
            counters = writes.count_change(db, namespace, -1, -tokens, -vector, removals=1)
            open_ = self._open()
            assert open_ is not None
            self._pending(open_, namespace, counters, removals=1).remove(unit_id)
        self.unit_cache.forget(namespace)
        return True

    def delete_namespace(self, namespace: str) -> int:
        index = None
        with self._transaction([namespace]) as db:
            count = writes.delete_namespace_rows(db, namespace)
            db.execute("DELETE FROM edge WHERE namespace = %s", (namespace,))
            forget_namespace_rows(db, namespace)
            # finished background adds keep their results (the units' text): they go too
            db.execute(
                "DELETE FROM job WHERE namespace = %s AND finished_at IS NOT NULL", (namespace,)
            )
            row = db.execute(
                "UPDATE namespace_state SET units = 0, tokens = 0, vector_sum = NULL, "
                "version = version + 1, removals = removals + 1 WHERE namespace = %s "
                "RETURNING units, version, removals, hnsw",
                (namespace,),
            ).fetchone()
            if row is not None:
                counters = writes.Counters(*(int(value) for value in row[:3]))
                open_ = self._open()
                assert open_ is not None
                self._pending(open_, namespace, counters, removals=1).drop()
                writes.forget_namespace_state(
                    db, namespace, max(counters.version, counters.removals)
                )
                index = row[3]
        self.unit_cache.forget(namespace)
        if index is not None:
            self._drop_index(index)
        return count

    def _drop_index(self, name: str) -> None:
        """Drop a deleted namespace's HNSW index (its definition names the namespace); outside
        the delete's transaction, so other namespaces' searches never wait for the table lock a
        plain ``DROP INDEX`` takes. Best effort: a failure is logged, the data are gone anyway."""
        try:
            with self._connection() as db:
                db.execute(sql.SQL("DROP INDEX CONCURRENTLY IF EXISTS {}").format(sql.Identifier(name)))
        except (psycopg.Error, StoreError) as error:
            log.warning("could not drop the index %s of a deleted namespace: %s", name, error)

    # --- views ---------------------------------------------------------------------------------

    def search_dense_many(
        self, namespace: str, vectors: np.ndarray, k: int, *, min_score: float | None = None,
        allowed: AbstractSet[str] | None = None,
    ) -> list[list[tuple[str, float]]]:
        self._check_open()
        empty: list[list[tuple[str, float]]] = [[] for _ in range(len(vectors))]
        if k <= 0:
            return empty
        if allowed is not None:
            dim = self._dimension()
            if dim is None or not allowed:
                return empty
            try:
                queries = normalised_queries(vectors, dim)
            except ValueError as error:
                raise InvalidInputError(
                    f"{error}; embed the queries with the store's embedder"
                ) from error
            ids = sorted(allowed)
            return self._read(
                lambda db: dense.search_within(db, namespace, queries, k, ids, min_score)
            )

        found = self._state(namespace)
        dim = self._dimension()
        if found is None or found.units <= 0 or dim is None:
            return empty
        try:
            queries = normalised_queries(vectors, dim)
        except ValueError as error:
            raise InvalidInputError(f"{error}; embed the queries with the store's embedder") from error
        units, version, removals, indexed = found.units, found.version, found.removals, found.hnsw
        if indexed and self._ann_threshold is not None and units >= self._ann_threshold:
            return self._read(lambda db: dense.hnsw_search(db, namespace, queries, k, min_score))
        open_ = self._open()
        pending = open_.pending.get(namespace) if open_ is not None else None
        committed: Any = None
        if pending is None:
            committed = self._cache.index(
                namespace, dim, (version, removals), self._loader(namespace, open_)
            )
        elif not pending.dropped:
            base = (pending.base_version, pending.base_removals)
            committed = self._cache.index(namespace, dim, base, self._loader(namespace, None))
        return dense.merge_exact(committed, pending, queries, k, min_score)

    def centroid(self, namespace: str) -> np.ndarray | None:
        state = self._state(namespace)
        if state is None or state.units <= 0 or state.vector_sum is None:
            return None
        total = np.frombuffer(state.vector_sum, dtype=np.float64)
        return (total / state.units).astype(np.float32)

    def search_lexical(
        self, namespace: str, text: str, k: int, *, allowed: AbstractSet[str] | None = None
    ) -> list[tuple[str, float]]:
        budget, depth = self._lexical_bound
        query = terms(text)
        return self._read(
            lambda db: lexical.search(
                db, namespace, query, k, budget=budget, rerank_depth=depth, allowed=allowed
            )
        )

    def person(self, namespace: str) -> str | None:
        row = self._read(
            lambda db: db.execute(
                "SELECT name FROM namespace_person WHERE namespace = %s", (namespace,)
            ).fetchone()
        )
        return None if row is None else str(row[0])

    def set_person(self, namespace: str, name: str | None) -> None:
        self._check_open()
        with self._transaction([namespace]) as db:
            if name is None:
                db.execute("DELETE FROM namespace_person WHERE namespace = %s", (namespace,))
            else:
                db.execute(
                    "INSERT INTO namespace_person (namespace, name) VALUES (%s, %s) "
                    "ON CONFLICT (namespace) DO UPDATE SET name = excluded.name",
                    (namespace, name),
                )

    def select_units(self, namespace: str, where: SearchFilter) -> set[str]:
        return self._read(lambda db: lookups.select_units(db, namespace, where))

    def cue_candidates(
        self, namespace: str, cues: Cues, *, near: datetime | None, per_value: int,
        allowed: AbstractSet[str] | None = None,
    ) -> list[str]:
        self._check_open()
        if per_value <= 0:
            return []
        reference = cuekeys.epoch_seconds(near) if near is not None else None

        keys = cuekeys.cue_keys(cues.participants, cues.locations)

        def read(db: psycopg.Connection) -> list[str]:
            found: dict[str, None] = {}
            near_ones = lookups.nearest_for_values(
                db, namespace, keys, reference, per_value, allowed
            )
            for ids in near_ones:
                found.update(dict.fromkeys(ids))
            if cues.time_span is not None:
                ids = lookups.overlapping_span(
                    db, namespace, cues.time_span, per_value, allowed
                )
                found.update(dict.fromkeys(ids))
            return list(found)

        return self._read(read)

    def cue_values(self, namespace: str, kind: str) -> list[str]:
        """Kept per namespace and kind until its ``version`` moves (every search asks for them;
        reading the version is one key lookup, the values one seek per value)."""
        self._check_open()
        check_cue_kind(kind)
        open_ = self._open()
        cacheable = open_ is None or namespace not in open_.pending  # no own change pending

        state = self._state(namespace)
        version = -1 if state is None else state.version
        cached = self._cue_values.get((namespace, kind))
        if cacheable and cached is not None and cached[0] == version:
            return list(cached[1])

        def read(db: psycopg.Connection) -> list[str]:
            values = lookups.distinct_values(db, namespace, kind)
            if cacheable:
                if len(self._cue_values) >= CUE_VALUE_ENTRIES:
                    self._cue_values.clear()
                self._cue_values[(namespace, kind)] = (version, values)
            return list(values)

        return self._read(read)

    # --- graph ---------------------------------------------------------------------------------

    def change_edges(self, *, remove: Iterable[Edge] = (), add: Iterable[Edge] = ()) -> None:
        self._check_open()
        changes = edge_changes(check_edges(remove), check_edges(add))
        if changes:
            with self._transaction(sorted(changes)) as db:
                graph.apply_changes(db, changes)

    def neighbours(
        self, namespace: str, ids: Sequence[str], kind: EdgeKind
    ) -> dict[str, list[tuple[str, float]]]:
        self._check_open()
        check_edge_kind(kind)
        return self._read(lambda db: graph.neighbours(db, namespace, ids, kind))

    def edges_of(self, namespace: str, unit_id: str) -> list[Edge]:
        found = self._read(lambda db: graph.edges_of(db, namespace, unit_id))
        return oriented(found, lambda ids: self.get_units(namespace, ids, with_vectors=False))

    def flush_erasure(self, timeout: float | None = None) -> bool:
        """Nothing ripplemem can wait for: the server keeps dead tuples until VACUUM and its WAL
        until recycled, which are the administrator's (docs/reliability.md, *Deletion*)."""
        return True

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._cache.clear()
        self._cue_values.clear()
        self.unit_cache.clear()
        self._pool.close()

    # --- internals: connections ----------------------------------------------------------------

    def _configure(self, connection: psycopg.Connection) -> None:
        """Run on every new pooled connection: the schema, pgvector's types, the HNSW scan."""
        connection.execute(search_path(self.schema, self._extension_schema))
        adapt.register(connection)
        for statement in self._session:
            connection.execute(statement)

    def _dimension(self) -> int | None:
        """The store's vector dimension (read again until some writer has fixed it)."""
        if self._dim_value is None:
            self._dim_value = self._read(_meta_dim)
        return self._dim_value

    @contextmanager
    def reading(self, namespace: str) -> Iterator[None]:
        """The reads of one search, the namespace's counters read once for all of them (the
        dense view, the centroid, the cue vocabularies and the count each need them). Inside a
        write, or nested, the block adds nothing. No connection is held for the block (a planner
        may wait seconds for an LLM in it)."""
        self._check_open()
        if self._open() is not None or self._reading() is not None:
            yield
            return
        self._local.reading = _Reading(namespace)
        try:
            yield
        finally:
            self._local.reading = None

    def _reading(self) -> _Reading | None:
        return getattr(self._local, "reading", None)

    def _state(self, namespace: str) -> _State | None:
        """The namespace's counters: read once per :meth:`reading` block, else every time (and
        always from the open transaction, which may have changed them)."""
        block = self._reading()
        if block is None or block.namespace != namespace or self._open() is not None:
            return self._read(lambda db: _read_state(db, namespace))
        if not block.state_read:
            block.state = self._read(lambda db: _read_state(db, namespace))
            block.state_read = True
        return block.state

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError(f"the store {self.url} is closed; open it again")

    def _open(self) -> _Open | None:
        return getattr(self._local, "open", None)

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection]:
        """A pooled connection (autocommit), or StoreError when none can be had."""
        try:
            with self._pool.connection() as connection:
                yield connection
        except PoolTimeout as error:
            raise StoreError(
                f"no connection to the store at {self.url} could be had ({error}); check that "
                "the server is up and reachable, and its max_connections"
            ) from error

    def _read(self, work: Callable[[psycopg.Connection], T]) -> T:
        """Run ``work`` on the open transaction's connection, or on a pooled one (once more on a
        fresh one if that connection turns out broken)."""
        self._check_open()
        open_ = self._open()
        if open_ is not None:
            with self._errors("read"):
                return work(open_.connection)
        for attempt in (1, 2):
            with self._connection() as connection:
                try:
                    with self._errors("read"):
                        return work(connection)
                except StoreError:
                    if attempt == 1 and connection.broken:
                        log.warning("a connection to %s was lost; retrying the read", self.url)
                        continue
                    raise
        raise AssertionError("unreachable")

    def _loader(self, namespace: str, open_: _Open | None) -> dense.Loader:
        """How the cache loads the namespace's committed vectors: on ``open_``'s connection when
        it holds no change to them (a read there sees the committed rows), else on another."""

        def load_on(db: psycopg.Connection, after: int | None) -> dense.Loaded:
            # the counters and the rows in one statement (one snapshot): the label a cache entry
            # gets says exactly what it holds
            with db.cursor(binary=True) as cursor:
                rows = cursor.execute(
                    "SELECT s.version, s.removals, v.seq, v.id, v.embedding "
                    "FROM namespace_state AS s LEFT JOIN unit_vector AS v "
                    "ON v.namespace = s.namespace AND v.seq > %s "
                    "WHERE s.namespace = %s ORDER BY v.seq",
                    (-1 if after is None else after, namespace),
                ).fetchall()
            version, removals = (int(rows[0][0]), int(rows[0][1])) if rows else (0, 0)
            rows = [row for row in rows if row[2] is not None]
            dim = self._dim_value or 0
            matrix = (
                np.stack([adapt.as_vector(r[4]) for r in rows])
                if rows
                else np.zeros((0, dim), dtype=np.float32)
            )
            return version, removals, [r[3] for r in rows], [int(r[2]) for r in rows], matrix

        def load(after: int | None) -> dense.Loaded:
            if open_ is not None:
                with self._errors("read"):
                    return load_on(open_.connection, after)
            with self._connection() as connection, self._errors("read"):
                return load_on(connection, after)

        return load

    # --- internals: transactions ---------------------------------------------------------------

    @contextmanager
    def _transaction(self, namespaces: Iterable[str] = ()) -> Iterator[psycopg.Connection]:
        """The calling thread's transaction (opened here if none is), holding the advisory lock
        of each of ``namespaces``."""
        self._check_open()
        open_ = self._open()
        if open_ is not None:
            with self._errors("write"):
                self._lock(open_, namespaces)
            open_.depth += 1
            try:
                yield open_.connection
            finally:
                open_.depth -= 1
            return
        committed = False
        with self._connection() as connection:
            open_ = _Open(connection)
            self._local.open = open_
            try:
                with self._errors("write"), connection.transaction():
                    self._lock(open_, namespaces)
                    yield connection
                committed = True
            finally:
                self._local.open = None
        block = self._reading()
        if block is not None:  # a write inside a reading block: its counters are read again
            block.state_read = False
        if committed and open_.pending:
            self._cache.commit(open_.pending)
            self._index_large(open_.pending)

    def _index_large(self, changed: dict[str, dense.Pending]) -> None:
        """Build the HNSW index of each namespace the commit took past ``ann_threshold``."""
        if self._ann_threshold is None:
            return
        for namespace, pending in changed.items():
            if pending.units < self._ann_threshold or namespace in self._indexed:
                continue
            lock = lock_key(self.schema, f"hnsw/{namespace}")
            try:
                with self._connection() as db, self._errors("index build"):
                    if dense.build_namespace_index(db, lock, namespace):
                        self._indexed.add(namespace)
            except StoreError as error:  # searches stay exact; the next add tries again
                log.warning("the HNSW index of %r was not built: %s", namespace, error)

    def _lock(self, open_: _Open, namespaces: Iterable[str]) -> None:
        """Take the advisory locks of the namespaces not locked yet, in name order."""
        wanted = sorted(set(namespaces) - open_.locked)
        if not wanted:
            return
        keys = sql.SQL(", ").join(
            sql.SQL("pg_advisory_xact_lock({})").format(lock_key(self.schema, f"n/{ns}"))
            for ns in wanted
        )
        open_.connection.execute(sql.SQL("SELECT {}").format(keys))
        open_.locked.update(wanted)

    def _pending(
        self,
        open_: _Open,
        namespace: str,
        counters: writes.Counters,
        *,
        removals: int,
    ) -> dense.Pending:
        """The transaction's vector changes to ``namespace``, now at ``counters``."""
        pending = open_.pending.get(namespace)
        if pending is None:
            pending = dense.Pending(
                self._dim_value or 0,
                base_version=counters.version - 1,
                base_removals=counters.removals - removals,
            )
            open_.pending[namespace] = pending
        pending.version, pending.removals = counters.version, counters.removals
        pending.units = counters.units
        return pending

    @contextmanager
    def _errors(self, action: str) -> Iterator[None]:
        """psycopg's errors as StoreError, naming the store and what to do."""
        try:
            yield
        except RippleMemError:
            raise
        except psycopg.errors.LockNotAvailable as error:
            raise StoreError(
                f"the {action} at {self.url} waited too long for another writer of the same "
                "namespace and was rolled back; try again"
            ) from error
        except psycopg.errors.DeadlockDetected as error:
            raise StoreError(
                f"the {action} at {self.url} was rolled back to break a deadlock with another "
                "writer (write blocks that take several namespaces in different orders); "
                "try again"
            ) from error
        except psycopg.OperationalError as error:
            raise StoreError(
                f"the connection to the store at {self.url} failed during a {action} "
                f"({_first_line(error)}); nothing of it was kept. Check that the server is up; "
                "the next call connects again"
            ) from error
        except psycopg.Error as error:
            raise StoreError(
                f"the {action} at {self.url} failed and was rolled back: {_first_line(error)}"
            ) from error


def connect(where: Location) -> psycopg.Connection:
    """A connection (autocommit) to the server of ``where``; StoreError saying what to check."""
    try:
        return psycopg.connect(where.conninfo, autocommit=True)
    except psycopg.Error as error:
        raise StoreError(
            f"cannot connect to the PostgreSQL store at {where.url} ({_first_line(error)}); "
            "check that the server is running and reachable from here (host and port), and "
            "that the user, password and database in the URL are right"
        ) from error


def holds_store(location: str) -> bool:
    """Whether the schema ``location`` names holds a ripplemem store, found without creating
    anything (no schema, no table, no extension): what only reads asks first."""
    where = parse_location(location)
    with connect(where) as db:
        try:
            return has_store_tables(db, where.schema)
        except psycopg.Error as error:
            raise StoreError(f"cannot read the store at {where.url}: {_first_line(error)}") from error


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _meta(db: psycopg.Connection, key: str) -> str | None:
    row = db.execute("SELECT value FROM meta WHERE key = %s", (key,)).fetchone()
    return None if row is None else str(row[0])


def _meta_dim(db: psycopg.Connection) -> int | None:
    value = _meta(db, "vector_dim")
    return None if value is None else int(value)


def _embedder(db: psycopg.Connection) -> tuple[str, int] | None:
    model, dim = _meta(db, "embedder_model"), _meta(db, "embedder_dim")
    return None if model is None or dim is None else (model, int(dim))
