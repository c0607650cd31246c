"""Change versions of a namespace (``namespace_state``, ``clue_state``) that outlive its name.

A connection keeps a namespace's vector and clue indexes while their version is the one it
loaded. ``delete_all`` removes a namespace's rows from both tables, so the store keeps no trace
of its name; the highest version it reached goes into ``meta`` as the *floor*, and a namespace
that is (re)created starts above it: a version is never reused, so no connection can mistake
new data for the index it loaded before the delete.
"""

from __future__ import annotations

import sqlite3

__all__ = ["bump", "forget", "version"]

_FLOOR = "version_floor"
_TABLES = ("namespace_state", "clue_state")


def _floor(db: sqlite3.Connection) -> int:
    row = db.execute("SELECT value FROM meta WHERE key = ?", (_FLOOR,)).fetchone()
    return 0 if row is None else int(row[0])


def version(db: sqlite3.Connection, table: str, namespace: str) -> int:
    """The namespace's version in ``table`` (0: it has none)."""
    row = db.execute(f"SELECT version FROM {table} WHERE namespace = ?", (namespace,)).fetchone()
    return 0 if row is None else int(row[0])


def bump(db: sqlite3.Connection, table: str, namespace: str) -> int:
    """Count a change; returns the new version (above the floor for a new row)."""
    row = db.execute(
        f"INSERT INTO {table} (namespace, version) VALUES (?, ?) "
        "ON CONFLICT (namespace) DO UPDATE SET version = version + 1 RETURNING version",
        (namespace, _floor(db) + 1),
    ).fetchone()
    return int(row[0])


def forget(db: sqlite3.Connection, namespace: str) -> None:
    """Drop the namespace's versions, raising the floor to the highest of them."""
    highest = max(version(db, table, namespace) for table in _TABLES)
    if highest > _floor(db):
        db.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (_FLOOR, str(highest))
        )
    for table in _TABLES:
        db.execute(f"DELETE FROM {table} WHERE namespace = ?", (namespace,))
