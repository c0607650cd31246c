"""The SQLite store's edges: a journal of changes and a snapshot, served from memory (schema 6).

Every edge change lands somewhere random in a table keyed by unit: an insert batch of 50 units
into a 100k-unit store made ~600 edge-row changes on ~350 pages, written out at every commit
(7 of the 16 pages per unit the WAL took) and again at each checkpoint. So the edges are not a
table of rows any more but three small tables:

* ``edge_journal`` (namespace, n) -> the changes of one write, in order (JSON): appended, so a
  batch writes a few new pages at the end;
* ``edge_snapshot`` (namespace, part) -> every edge of the namespace as of journal row
  ``snapshot_n`` (:meth:`~ripplemem.stores.graph.GraphIndex.snapshot`, in parts of 32 MB);
* ``edge_state`` (namespace) -> ``token`` (new whenever the namespace's graph starts afresh),
  ``snapshot_n``, ``journal_n`` (the last row) and ``pending`` (changes after the snapshot).

A namespace's :class:`~ripplemem.stores.graph.GraphIndex` is loaded on first use (snapshot, then
the journal after it) and kept in memory; each call first reads ``edge_state`` and replays rows
another connection appended, or reloads when the token changed or the snapshot moved past it.
Writes run inside the caller's transaction: catch up, append one journal row, apply it in memory.
Once the journal holds more changes than a quarter of the graph's entries (and at least
:data:`COMPACT_MIN`), the snapshot is rewritten and the journal emptied, so the journal a load
replays stays short and each change costs a bounded share of a snapshot write.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from ripplemem.errors import StoreError
from ripplemem.records import Edge, EdgeKind
from ripplemem.stores.graph import Change, GraphIndex, stored_edge

__all__ = ["COMPACT_MIN", "TABLES", "SQLiteGraph", "migrate_edge_table"]

#: Journal changes before a snapshot rewrite is considered (a quarter of the entries above that).
COMPACT_MIN = 20_000
SNAPSHOT_PART = 32 * 2**20

TABLES = (
    """CREATE TABLE edge_state (
        namespace TEXT PRIMARY KEY,
        token INTEGER NOT NULL,
        snapshot_n INTEGER NOT NULL,
        journal_n INTEGER NOT NULL,
        pending INTEGER NOT NULL
    )""",
    """CREATE TABLE edge_snapshot (
        namespace TEXT NOT NULL,
        part INTEGER NOT NULL,
        blob BLOB NOT NULL,
        PRIMARY KEY (namespace, part)
    )""",
    """CREATE TABLE edge_journal (
        namespace TEXT NOT NULL,
        n INTEGER NOT NULL,
        changes BLOB NOT NULL,
        PRIMARY KEY (namespace, n)
    )""",
)


@dataclass(slots=True)
class _Loaded:
    graph: GraphIndex
    token: int  # 0: the namespace has no edge state yet
    position: int  # the last journal row applied


class SQLiteGraph:
    """The edges of every namespace of one store connection (the store holds the lock)."""

    def __init__(self, db: sqlite3.Connection, lock: threading.RLock) -> None:
        self._db, self._lock = db, lock
        self._loaded: dict[str, _Loaded] = {}

    # --- reads ----------------------------------------------------------------------------

    def neighbours(
        self, namespace: str, ids: Sequence[str], kind: EdgeKind
    ) -> dict[str, list[tuple[str, float]]]:
        with self._lock:
            return self._current(namespace).graph.neighbours(ids, kind)

    def edges_of(self, namespace: str, unit_id: str) -> list[tuple[Edge, bool]]:
        """``unit_id``'s edges and whether each one's direction is known
        (:func:`~ripplemem.stores.graph.stored_edge`)."""
        with self._lock:
            graph = self._current(namespace).graph
            return [stored_edge(namespace, unit_id, k, o, w, b) for k, o, w, b in graph.edges_of(unit_id)]

    def removals(self, namespace: str, unit_id: str) -> list[Change]:
        with self._lock:
            return self._current(namespace).graph.removals(unit_id)

    # --- writes (inside the caller's write transaction) ------------------------------------

    def record(self, db: sqlite3.Connection, changes: Mapping[str, Sequence[Change]]) -> None:
        """Journal and apply each namespace's changes. The caller must :meth:`forget` those
        namespaces if its transaction then rolls back (memory already holds the changes)."""
        for namespace, batch in changes.items():
            if not batch:
                continue
            loaded = self._current(namespace)  # under the write lock: nobody appends meanwhile
            if loaded.token == 0:
                loaded.token = secrets.randbits(62) or 1
                db.execute(
                    "INSERT INTO edge_state (namespace, token, snapshot_n, journal_n, pending) "
                    "VALUES (?, ?, 0, 0, 0)",
                    (namespace, loaded.token),
                )
            number = loaded.position + 1
            db.execute(
                "INSERT INTO edge_journal (namespace, n, changes) VALUES (?, ?, ?)",
                (namespace, number, _encode(batch)),
            )
            (pending,) = db.execute(
                "UPDATE edge_state SET journal_n = ?, pending = pending + ? WHERE namespace = ? "
                "RETURNING pending",
                (number, len(batch), namespace),
            ).fetchone()
            loaded.graph.apply(batch)
            loaded.position = number
            if pending >= max(COMPACT_MIN, loaded.graph.entries // 4):
                self._compact(db, namespace, loaded)

    def drop_namespace_rows(self, db: sqlite3.Connection, namespace: str) -> None:
        for table in ("edge_state", "edge_snapshot", "edge_journal"):
            db.execute(f"DELETE FROM {table} WHERE namespace = ?", (namespace,))
        self._loaded.pop(namespace, None)

    def forget(self, namespaces: Iterable[str]) -> None:
        """Drop the loaded graphs of ``namespaces`` (reloaded from the file when next asked)."""
        for namespace in namespaces:
            self._loaded.pop(namespace, None)

    @contextmanager
    def guard(self, namespaces: Iterable[str]) -> Iterator[None]:
        """Around a write transaction that calls :meth:`record`: if it fails (and rolls back),
        the graphs it changed in memory are dropped."""
        try:
            yield
        except BaseException:
            self.forget(namespaces)
            raise

    def unknown_ends(self, changes: Mapping[str, Sequence[Change]]) -> dict[str, set[str]]:
        """Per namespace, the ends of added edges that have no edge yet (to check they exist)."""
        out: dict[str, set[str]] = {}
        with self._lock:
            for namespace, batch in changes.items():
                graph = self._current(namespace).graph
                ends = {end for _, a, b, weight in batch if weight is not None for end in (a, b)}
                out[namespace] = {end for end in ends if not graph.has_edges(end)}
        return out

    def close(self) -> None:
        self._loaded.clear()

    # --- internals ---------------------------------------------------------------------------

    def _current(self, namespace: str) -> _Loaded:
        """The namespace's graph, brought up to date with what other connections wrote."""
        row = self._db.execute(
            "SELECT token, snapshot_n, journal_n FROM edge_state WHERE namespace = ?",
            (namespace,),
        ).fetchone()
        loaded = self._loaded.get(namespace)
        if row is None:
            if loaded is None or loaded.token != 0:
                loaded = self._loaded[namespace] = _Loaded(GraphIndex(), 0, 0)
            return loaded
        token, snapshot_n, journal_n = row
        fresh = loaded is None or loaded.token != token or loaded.position < snapshot_n
        if loaded is None or fresh or loaded.position > journal_n:
            loaded = self._loaded[namespace] = self._load(namespace, token, snapshot_n)
        self._replay(namespace, loaded, journal_n)
        return loaded

    def _load(self, namespace: str, token: int, snapshot_n: int) -> _Loaded:
        parts = self._db.execute(
            "SELECT blob FROM edge_snapshot WHERE namespace = ? ORDER BY part", (namespace,)
        ).fetchall()
        if not parts:
            return _Loaded(GraphIndex(), token, snapshot_n)
        try:
            graph = GraphIndex.from_snapshot(b"".join(bytes(part) for (part,) in parts))
        except ValueError as error:
            raise StoreError(
                f"the edges of namespace {namespace!r} cannot be read ({error}); restore the "
                "store from a backup or an export (ripplemem export / import)"
            ) from error
        return _Loaded(graph, token, snapshot_n)

    def _replay(self, namespace: str, loaded: _Loaded, journal_n: int) -> None:
        if loaded.position >= journal_n:
            return
        rows = self._db.execute(
            "SELECT n, changes FROM edge_journal WHERE namespace = ? AND n > ? AND n <= ? "
            "ORDER BY n",
            (namespace, loaded.position, journal_n),
        )
        for number, changes in rows:
            loaded.graph.apply(_decode(changes))
            loaded.position = number

    def _compact(self, db: sqlite3.Connection, namespace: str, loaded: _Loaded) -> None:
        _write_snapshot(db, namespace, loaded.graph.snapshot())
        db.execute(
            "DELETE FROM edge_journal WHERE namespace = ? AND n <= ?",
            (namespace, loaded.position),
        )
        db.execute(
            "UPDATE edge_state SET snapshot_n = ?, pending = 0 WHERE namespace = ?",
            (loaded.position, namespace),
        )


def _write_snapshot(db: sqlite3.Connection, namespace: str, blob: bytes) -> None:
    db.execute("DELETE FROM edge_snapshot WHERE namespace = ?", (namespace,))
    db.executemany(
        "INSERT INTO edge_snapshot (namespace, part, blob) VALUES (?, ?, ?)",
        [
            (namespace, part, blob[start : start + SNAPSHOT_PART])
            for part, start in enumerate(range(0, len(blob), SNAPSHOT_PART))
        ],
    )


def _encode(changes: Sequence[Change]) -> bytes:
    return json.dumps([list(change) for change in changes], separators=(",", ":")).encode()


def _decode(blob: bytes) -> list[Change]:
    return [(kind, a, b, weight) for kind, a, b, weight in json.loads(blob)]


def migrate_edge_table(connection: sqlite3.Connection) -> None:
    """6: the rows of the ``edge`` table become one snapshot per namespace; the table goes."""
    for statement in TABLES:
        connection.execute(statement)
    namespaces = [row[0] for row in connection.execute("SELECT DISTINCT namespace FROM edge")]
    for namespace in namespaces:
        rows = connection.execute(
            "SELECT kind, src, dst, weight FROM edge WHERE namespace = ? AND src < dst "
            "ORDER BY src, kind, dst",
            (namespace,),
        )
        connection.execute(
            "INSERT INTO edge_state (namespace, token, snapshot_n, journal_n, pending) "
            "VALUES (?, ?, 0, 0, 0)",
            (namespace, secrets.randbits(62) or 1),
        )
        _write_snapshot(connection, namespace, GraphIndex.from_edges(rows).snapshot())
    connection.execute("DROP TABLE edge")
