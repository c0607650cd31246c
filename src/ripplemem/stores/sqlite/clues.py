"""SQLiteClueStore: the clue graph in tables of the store's own SQLite file (migration 2).

It shares the :class:`~ripplemem.stores.sqlite.SQLiteStore` connection, lock and transactions.
Clue search runs on a per-namespace :class:`~ripplemem.stores.vectors.VectorIndex` loaded on first
use and reloaded when ``clue_state.version`` says another connection changed the clues.
The row functions ``forget_unit_rows`` / ``forget_namespace_rows`` run inside the store's
``delete_unit`` / ``delete_namespace`` transactions, so a deleted unit never leaves graph rows.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager

import numpy as np

from ripplemem.errors import InvalidInputError
from ripplemem.records import Clue, Membership
from ripplemem.stores.clues_base import Link, normalised
from ripplemem.stores.sqlite import versions
from ripplemem.stores.sqlite.failures import translate_public_methods
from ripplemem.stores.sqlite.rows import vector_blob
from ripplemem.stores.vectors import VectorIndex

__all__ = ["SQLiteClueStore", "forget_namespace_rows", "forget_unit_rows"]

Transaction = Callable[[], AbstractContextManager[sqlite3.Connection]]
_CHUNK = 500


def _bump(db: sqlite3.Connection, namespace: str) -> int:
    return versions.bump(db, "clue_state", namespace)


def _version(db: sqlite3.Connection, namespace: str) -> int:
    return versions.version(db, "clue_state", namespace)


def forget_unit_rows(db: sqlite3.Connection, namespace: str, unit_id: str) -> None:
    """Drop a unit's membership and links; a clue left without members goes with its sessions."""
    db.execute("DELETE FROM utterance_link WHERE namespace = ? AND src = ?", (namespace, unit_id))
    db.execute("DELETE FROM utterance_link WHERE namespace = ? AND dst = ?", (namespace, unit_id))
    row = db.execute(
        "SELECT clue_id FROM clue_member WHERE namespace = ? AND unit_id = ?", (namespace, unit_id)
    ).fetchone()
    if row is None:
        return
    db.execute("DELETE FROM clue_member WHERE namespace = ? AND unit_id = ?", (namespace, unit_id))
    left = db.execute(
        "SELECT 1 FROM clue_member WHERE namespace = ? AND clue_id = ? LIMIT 1", (namespace, row[0])
    ).fetchone()
    if left is None:
        db.execute("DELETE FROM clue WHERE namespace = ? AND id = ?", (namespace, row[0]))
        db.execute("DELETE FROM clue_session WHERE namespace = ? AND clue_id = ?", (namespace, row[0]))
        _bump(db, namespace)


def forget_namespace_rows(db: sqlite3.Connection, namespace: str) -> None:
    for table in ("clue", "clue_session", "clue_member", "utterance_link"):
        db.execute(f"DELETE FROM {table} WHERE namespace = ?", (namespace,))
    _bump(db, namespace)


@translate_public_methods
class SQLiteClueStore:
    """A :class:`~ripplemem.stores.clues_base.ClueStore` over the store's connection."""

    path = "the store"  # the owning SQLiteStore's file, named in errors

    def __init__(
        self,
        db: sqlite3.Connection,
        lock: threading.RLock,
        transaction: Transaction,
        check_open: Callable[[], None],
    ) -> None:
        self._db, self._lock, self._transaction, self._check_open = db, lock, transaction, check_open
        self._indexes: dict[str, tuple[int, VectorIndex | None]] = {}

    def clue_count(self, namespace: str) -> int:
        (count,) = self._all("SELECT count(*) FROM clue WHERE namespace = ?", (namespace,))[0]
        return int(count)

    def clue_for_session(self, namespace: str, episode_id: str) -> str | None:
        sql = "SELECT clue_id FROM clue_session WHERE namespace = ? AND episode_id = ?"
        row = self._one(sql, (namespace, episode_id))
        return None if row is None else str(row[0])

    def add_clue(self, clue: Clue, episode_id: str) -> None:
        vector = normalised(clue.vector)
        with self._lock, self._transaction() as db:
            try:
                db.execute(
                    "INSERT INTO clue (namespace, id, text, source, sessions, vector) "
                    "VALUES (?, ?, ?, ?, 1, ?)",
                    (clue.namespace, clue.id, clue.text, clue.source, vector_blob(vector)),
                )
            except sqlite3.IntegrityError as error:
                raise InvalidInputError(
                    f"clue {clue.id!r} already exists in {clue.namespace!r}"
                ) from error
            db.execute(
                "INSERT OR REPLACE INTO clue_session (namespace, episode_id, clue_id) VALUES (?, ?, ?)",
                (clue.namespace, episode_id, clue.id),
            )
            before = _version(db, clue.namespace)
            after = _bump(db, clue.namespace)
        loaded = self._indexes.get(clue.namespace)
        if loaded is not None and loaded[0] == before:  # keep the loaded index: add, not reload
            index = loaded[1] or VectorIndex(vector.shape[0])
            index.add([clue.id], vector[None, :])
            self._indexes[clue.namespace] = (after, index)

    def rewrite_clue(self, namespace: str, clue_id: str, text: str, vector: np.ndarray) -> None:
        unit = normalised(vector)
        with self._lock, self._transaction() as db:
            self._require(db, namespace, [clue_id])
            db.execute(
                "UPDATE clue SET text = ?, vector = ? WHERE namespace = ? AND id = ?",
                (text, vector_blob(unit), namespace, clue_id),
            )
            _bump(db, namespace)  # the loaded clue index reloads

    def merge_session(self, namespace: str, clue_id: str, episode_id: str) -> None:
        with self._lock, self._transaction() as db:
            self._require(db, namespace, [clue_id])
            if self.clue_for_session(namespace, episode_id) == clue_id:
                return
            db.execute(
                "INSERT OR REPLACE INTO clue_session (namespace, episode_id, clue_id) VALUES (?, ?, ?)",
                (namespace, episode_id, clue_id),
            )
            db.execute(
                "UPDATE clue SET sessions = sessions + 1 WHERE namespace = ? AND id = ?",
                (namespace, clue_id),
            )

    def get_clues(self, namespace: str, ids: Sequence[str]) -> list[Clue]:
        found: dict[str, Clue] = {}
        for chunk in _chunks(list(dict.fromkeys(ids))):
            sql = (
                "SELECT id, text, source, sessions, vector FROM clue WHERE namespace = ? "
                f"AND id IN ({', '.join('?' * len(chunk))})"
            )
            for cid, text, source, sessions, blob in self._all(sql, (namespace, *chunk)):
                vector = np.frombuffer(blob, dtype=np.float32).copy()
                found[cid] = Clue(cid, namespace, text, vector, source, int(sessions))
        return [found[i] for i in ids if i in found]

    def search_clues(self, namespace: str, vector: np.ndarray, k: int) -> list[tuple[str, float]]:
        with self._lock:
            self._check_open()
            index = self._index(namespace)
            if index is None or k <= 0:
                return []
            return index.search(vector, k)

    def attach(self, namespace: str, memberships: Sequence[Membership]) -> None:
        if not memberships:
            return
        with self._lock, self._transaction() as db:
            self._require(db, namespace, {m.clue_id for m in memberships})
            db.executemany(
                "INSERT OR REPLACE INTO clue_member (namespace, unit_id, clue_id, weight) "
                "VALUES (?, ?, ?, ?)",
                [(namespace, m.unit_id, m.clue_id, float(m.weight)) for m in memberships],
            )

    def members(self, namespace: str, clue_ids: Sequence[str]) -> dict[str, list[tuple[str, float]]]:
        sql = (
            "SELECT unit_id, weight FROM clue_member WHERE namespace = ? AND clue_id = ? "
            "ORDER BY weight DESC, unit_id"
        )
        return {c: [(u, float(w)) for u, w in self._all(sql, (namespace, c))] for c in clue_ids}

    def clues_of_units(self, namespace: str, unit_ids: Sequence[str]) -> dict[str, Membership]:
        found: dict[str, Membership] = {}
        for chunk in _chunks(list(dict.fromkeys(unit_ids))):
            sql = (
                "SELECT unit_id, clue_id, weight FROM clue_member WHERE namespace = ? "
                f"AND unit_id IN ({', '.join('?' * len(chunk))})"
            )
            for unit_id, clue_id, weight in self._all(sql, (namespace, *chunk)):
                found[unit_id] = Membership(unit_id, clue_id, float(weight))
        return found

    def add_links(self, namespace: str, links: Iterable[Link]) -> None:
        rows = [
            (namespace, x, y, float(w)) for a, b, w in links if a != b for x, y in ((a, b), (b, a))
        ]
        if not rows:
            return
        with self._lock, self._transaction() as db:
            db.executemany(
                "INSERT OR REPLACE INTO utterance_link (namespace, src, dst, weight) VALUES (?, ?, ?, ?)",
                rows,
            )

    def links(self, namespace: str, unit_ids: Sequence[str]) -> dict[str, list[tuple[str, float]]]:
        sql = (
            "SELECT dst, weight FROM utterance_link WHERE namespace = ? AND src = ? "
            "ORDER BY weight DESC, dst"
        )
        return {u: [(d, float(w)) for d, w in self._all(sql, (namespace, u))] for u in unit_ids}

    def forget_units(self, namespace: str, unit_ids: Sequence[str]) -> None:
        with self._lock, self._transaction() as db:
            for unit_id in unit_ids:
                forget_unit_rows(db, namespace, unit_id)

    def forget_namespace(self, namespace: str) -> None:
        with self._lock, self._transaction() as db:
            forget_namespace_rows(db, namespace)

    def forget_cached(self) -> None:
        """Drop the clue indexes held in memory (reloaded from the file when next asked)."""
        self._indexes.clear()

    # --- internals -------------------------------------------------------------------------

    def _one(self, sql: str, params: tuple) -> tuple | None:
        with self._lock:
            self._check_open()
            return self._db.execute(sql, params).fetchone()

    def _all(self, sql: str, params: tuple) -> list[tuple]:
        with self._lock:
            self._check_open()
            return self._db.execute(sql, params).fetchall()

    def _require(self, db: sqlite3.Connection, namespace: str, clue_ids: Iterable[str]) -> None:
        for clue_id in clue_ids:
            sql = "SELECT 1 FROM clue WHERE namespace = ? AND id = ?"
            if db.execute(sql, (namespace, clue_id)).fetchone() is None:
                raise InvalidInputError(
                    f"no clue {clue_id!r} in namespace {namespace!r}; add it first"
                )

    def _index(self, namespace: str) -> VectorIndex | None:
        version = _version(self._db, namespace)
        loaded = self._indexes.get(namespace)
        if loaded is not None and loaded[0] == version:
            return loaded[1]
        sql = "SELECT id, vector FROM clue WHERE namespace = ? ORDER BY seq"
        rows = self._db.execute(sql, (namespace,)).fetchall()
        index: VectorIndex | None = None
        if rows:
            matrix = np.stack([np.frombuffer(blob, dtype=np.float32) for _, blob in rows])
            index = VectorIndex(matrix.shape[1])
            index.add([cid for cid, _ in rows], matrix)
        self._indexes[namespace] = (version, index)
        return index


def _chunks(values: list[str]) -> Iterable[list[str]]:
    for start in range(0, len(values), _CHUNK):
        yield values[start : start + _CHUNK]
