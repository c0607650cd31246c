"""PostgresClueStore: the AssoMem clue graph in tables of the store's schema.

It runs on the :class:`~ripplemem.stores.postgres.PostgresStore`'s connections and transactions
(a write inside a ``write()`` block joins it). Clue search is exact, in SQL: a namespace holds one
clue per few sessions, so a scan of its clues is a few hundred inner products at most.
``forget_unit_rows`` / ``forget_namespace_rows`` run inside the store's ``delete_unit`` /
``delete_namespace`` transactions, so a deleted unit never leaves graph rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from typing import Any, TypeVar

import numpy as np
import psycopg

from ripplemem.errors import InvalidInputError
from ripplemem.records import Clue, Membership
from ripplemem.stores.clues_base import Link, normalised
from ripplemem.stores.postgres.adapt import as_vector

__all__ = ["PostgresClueStore", "forget_namespace_rows", "forget_unit_rows"]

T = TypeVar("T")
Transaction = Callable[[Sequence[str]], AbstractContextManager[psycopg.Connection]]
Read = Callable[[Callable[[psycopg.Connection], T]], T]


def forget_unit_rows(db: psycopg.Connection, namespace: str, unit_ids: Sequence[str]) -> None:
    """Drop the units' memberships and links; a clue left without members goes with its sessions."""
    ids = list(unit_ids)
    db.execute(
        "DELETE FROM utterance_link WHERE namespace = %s AND (src = ANY(%s) OR dst = ANY(%s))",
        (namespace, ids, ids),
    )
    clues = [
        row[0]
        for row in db.execute(
            "DELETE FROM clue_member WHERE namespace = %s AND unit_id = ANY(%s) RETURNING clue_id",
            (namespace, ids),
        )
    ]
    if not clues:
        return
    empty = [
        row[0]
        for row in db.execute(
            "SELECT c FROM unnest(%s::text[]) AS c WHERE NOT EXISTS (SELECT 1 FROM clue_member "
            "WHERE namespace = %s AND clue_id = c)",
            (sorted(set(clues)), namespace),
        )
    ]
    if empty:
        db.execute("DELETE FROM clue WHERE namespace = %s AND id = ANY(%s)", (namespace, empty))
        db.execute(
            "DELETE FROM clue_session WHERE namespace = %s AND clue_id = ANY(%s)",
            (namespace, empty),
        )


def forget_namespace_rows(db: psycopg.Connection, namespace: str) -> None:
    for table in ("clue", "clue_session", "clue_member", "utterance_link"):
        db.execute(f"DELETE FROM {table} WHERE namespace = %s", (namespace,))


class PostgresClueStore:
    """A :class:`~ripplemem.stores.clues_base.ClueStore` over the store's connections."""

    def __init__(self, transaction: Transaction, read: Read[Any]) -> None:
        self._transaction, self._read = transaction, read

    def clue_count(self, namespace: str) -> int:
        sql = "SELECT count(*) FROM clue WHERE namespace = %s"
        return int(self._read(lambda db: db.execute(sql, (namespace,)).fetchall()[0][0]))

    def clue_for_session(self, namespace: str, episode_id: str) -> str | None:
        sql = "SELECT clue_id FROM clue_session WHERE namespace = %s AND episode_id = %s"
        row = self._read(lambda db: db.execute(sql, (namespace, episode_id)).fetchone())
        return None if row is None else str(row[0])

    def add_clue(self, clue: Clue, episode_id: str) -> None:
        vector = normalised(clue.vector)
        with self._transaction([clue.namespace]) as db:
            known = db.execute(
                "SELECT 1 FROM clue WHERE namespace = %s AND id = %s", (clue.namespace, clue.id)
            ).fetchone()
            if known is not None:
                raise InvalidInputError(f"clue {clue.id!r} already exists in {clue.namespace!r}")
            db.execute(
                "INSERT INTO clue (namespace, id, text, source, sessions, vector) "
                "VALUES (%s, %s, %s, %s, 1, %s)",
                (clue.namespace, clue.id, clue.text, clue.source, vector),
            )
            db.execute(
                "INSERT INTO clue_session (namespace, episode_id, clue_id) VALUES (%s, %s, %s) "
                "ON CONFLICT (namespace, episode_id) DO UPDATE SET clue_id = excluded.clue_id",
                (clue.namespace, episode_id, clue.id),
            )

    def rewrite_clue(self, namespace: str, clue_id: str, text: str, vector: np.ndarray) -> None:
        unit = normalised(vector)
        with self._transaction([namespace]) as db:
            _require(db, namespace, [clue_id])
            db.execute(
                "UPDATE clue SET text = %s, vector = %s WHERE namespace = %s AND id = %s",
                (text, unit, namespace, clue_id),
            )

    def merge_session(self, namespace: str, clue_id: str, episode_id: str) -> None:
        with self._transaction([namespace]) as db:
            _require(db, namespace, [clue_id])
            row = db.execute(
                "SELECT clue_id FROM clue_session WHERE namespace = %s AND episode_id = %s",
                (namespace, episode_id),
            ).fetchone()
            if row is not None and row[0] == clue_id:
                return
            db.execute(
                "INSERT INTO clue_session (namespace, episode_id, clue_id) VALUES (%s, %s, %s) "
                "ON CONFLICT (namespace, episode_id) DO UPDATE SET clue_id = excluded.clue_id",
                (namespace, episode_id, clue_id),
            )
            db.execute(
                "UPDATE clue SET sessions = sessions + 1 WHERE namespace = %s AND id = %s",
                (namespace, clue_id),
            )

    def get_clues(self, namespace: str, ids: Sequence[str]) -> list[Clue]:
        sql = (
            "SELECT id, text, source, sessions, vector FROM clue "
            "WHERE namespace = %s AND id = ANY(%s)"
        )
        rows = self._read(lambda db: db.execute(sql, (namespace, list(ids))).fetchall())
        found = {
            cid: Clue(cid, namespace, text, as_vector(vector), source, sessions)
            for cid, text, source, sessions, vector in rows
        }
        return [found[i] for i in ids if i in found]

    def search_clues(self, namespace: str, vector: np.ndarray, k: int) -> list[tuple[str, float]]:
        if k <= 0:
            return []
        query = normalised(vector)
        sql = (
            "SELECT id, -(vector <#> %(q)s) AS score FROM clue WHERE namespace = %(ns)s "
            "ORDER BY vector <#> %(q)s, seq LIMIT %(k)s"
        )

        def search(db: psycopg.Connection) -> list[tuple[str, float]]:
            try:
                rows = db.execute(sql, {"q": query, "ns": namespace, "k": k}).fetchall()
            except psycopg.errors.DataException as error:
                raise InvalidInputError(
                    f"{error}; embed the query with the store's embedder"
                ) from error
            return [(cid, float(score)) for cid, score in rows]

        return self._read(search)

    def attach(self, namespace: str, memberships: Sequence[Membership]) -> None:
        if not memberships:
            return
        last = {m.unit_id: m for m in memberships}  # a unit attached twice: the last one holds
        with self._transaction([namespace]) as db:
            _require(db, namespace, {m.clue_id for m in memberships})
            db.execute(
                "INSERT INTO clue_member (namespace, unit_id, clue_id, weight) "
                "SELECT %s, * FROM unnest(%s::text[], %s::text[], %s::float8[]) "
                "ON CONFLICT (namespace, unit_id) DO UPDATE SET clue_id = excluded.clue_id, "
                "weight = excluded.weight",
                (
                    namespace,
                    list(last),
                    [m.clue_id for m in last.values()],
                    [float(m.weight) for m in last.values()],
                ),
            )

    def members(self, namespace: str, clue_ids: Sequence[str]) -> dict[str, list[tuple[str, float]]]:
        sql = (
            "SELECT clue_id, unit_id, weight FROM clue_member WHERE namespace = %s "
            "AND clue_id = ANY(%s) ORDER BY weight DESC, unit_id"
        )
        rows = self._read(lambda db: db.execute(sql, (namespace, list(clue_ids))).fetchall())
        found: dict[str, list[tuple[str, float]]] = {c: [] for c in clue_ids}
        for clue_id, unit_id, weight in rows:
            found[clue_id].append((unit_id, float(weight)))
        return found

    def clues_of_units(self, namespace: str, unit_ids: Sequence[str]) -> dict[str, Membership]:
        sql = (
            "SELECT unit_id, clue_id, weight FROM clue_member WHERE namespace = %s "
            "AND unit_id = ANY(%s)"
        )
        rows = self._read(lambda db: db.execute(sql, (namespace, list(unit_ids))).fetchall())
        return {u: Membership(u, c, float(w)) for u, c, w in rows}

    def add_links(self, namespace: str, links: Iterable[Link]) -> None:
        final: dict[tuple[str, str], float] = {}
        for a, b, weight in links:
            if a != b:
                final[(a, b)] = final[(b, a)] = float(weight)
        if not final:
            return
        keys = sorted(final)
        with self._transaction([namespace]) as db:
            db.execute(
                "INSERT INTO utterance_link (namespace, src, dst, weight) "
                "SELECT %s, * FROM unnest(%s::text[], %s::text[], %s::float8[]) "
                "ON CONFLICT (namespace, src, dst) DO UPDATE SET weight = excluded.weight",
                (namespace, [a for a, _ in keys], [b for _, b in keys], [final[k] for k in keys]),
            )

    def links(self, namespace: str, unit_ids: Sequence[str]) -> dict[str, list[tuple[str, float]]]:
        sql = (
            "SELECT src, dst, weight FROM utterance_link WHERE namespace = %s AND src = ANY(%s) "
            "ORDER BY weight DESC, dst"
        )
        rows = self._read(lambda db: db.execute(sql, (namespace, list(unit_ids))).fetchall())
        found: dict[str, list[tuple[str, float]]] = {u: [] for u in unit_ids}
        for src, dst, weight in rows:
            found[src].append((dst, float(weight)))
        return found

    def forget_units(self, namespace: str, unit_ids: Sequence[str]) -> None:
        with self._transaction([namespace]) as db:
            forget_unit_rows(db, namespace, unit_ids)

    def forget_namespace(self, namespace: str) -> None:
        with self._transaction([namespace]) as db:
            forget_namespace_rows(db, namespace)


def _require(db: psycopg.Connection, namespace: str, clue_ids: Iterable[str]) -> None:
    wanted = sorted(set(clue_ids))
    present = {
        row[0]
        for row in db.execute(
            "SELECT id FROM clue WHERE namespace = %s AND id = ANY(%s)", (namespace, wanted)
        )
    }
    for clue_id in wanted:
        if clue_id not in present:
            raise InvalidInputError(f"no clue {clue_id!r} in namespace {namespace!r}; add it first")
