"""Bounded read queries of the SQLite store: cue, time and distinct-value lookups.

Each lookup is a few index range scans with a LIMIT (see :mod:`ripplemem.stores.cuekeys`), or
primary-key seeks for the asked ids: nothing here scans a whole namespace.
"""

from __future__ import annotations

import sqlite3

from ripplemem.records import TimeSpan
from ripplemem.stores import cuekeys

__all__ = [
    "CueValues",
    "distinct_namespaces",
    "distinct_values",
    "nearest_for_value",
    "overlapping_span",
]

_CHUNK = 500  # ids per IN (...) list

_NEAR_BEFORE = """
    SELECT t_key, seq, unit_id FROM cue
    WHERE namespace = ? AND kind = ? AND value = ? AND t_key <= ?
    ORDER BY t_key DESC, seq DESC LIMIT ?"""
_NEAR_AFTER = """
    SELECT t_key, seq, unit_id FROM cue
    WHERE namespace = ? AND kind = ? AND value = ? AND t_key > ?
    ORDER BY t_key ASC, seq ASC LIMIT ?"""
_UNTIMED = """
    SELECT unit_id FROM cue INDEXED BY cue_by_time
    WHERE namespace = ? AND kind = ? AND value = ? AND t_key IS NULL
    ORDER BY seq DESC LIMIT ?"""
_RECENT = """
    SELECT unit_id FROM cue
    WHERE namespace = ? AND kind = ? AND value = ?
    ORDER BY seq DESC LIMIT ?"""
_SPAN_BEFORE = """
    SELECT t_start, seq, unit_id FROM time_span
    WHERE namespace = ? AND bucket = ? AND t_start >= ? AND t_start <= ? AND t_end >= ?
    ORDER BY t_start DESC, seq DESC LIMIT ?"""
_SPAN_AFTER = """
    SELECT t_start, seq, unit_id FROM time_span
    WHERE namespace = ? AND bucket = ? AND t_start > ? AND t_start <= ?
    ORDER BY t_start ASC, seq ASC LIMIT ?"""
_BUCKETS = """
    WITH RECURSIVE b(x) AS (
        SELECT min(bucket) FROM time_span WHERE namespace = :ns
        UNION ALL
        SELECT (SELECT min(bucket) FROM time_span WHERE namespace = :ns AND bucket > b.x)
        FROM b WHERE b.x IS NOT NULL
    ) SELECT x FROM b WHERE x IS NOT NULL"""
_VALUES = """
    WITH RECURSIVE v(x) AS (
        SELECT min(value) FROM cue WHERE namespace = :ns AND kind = :kind
        UNION ALL
        SELECT (SELECT min(value) FROM cue WHERE namespace = :ns AND kind = :kind AND value > v.x)
        FROM v WHERE v.x IS NOT NULL
    ) SELECT x FROM v WHERE x IS NOT NULL"""
_NAMESPACES = """
    WITH RECURSIVE n(x) AS (
        SELECT min(namespace) FROM unit
        UNION ALL
        SELECT (SELECT min(namespace) FROM unit WHERE namespace > n.x) FROM n WHERE n.x IS NOT NULL
    ) SELECT x FROM n WHERE x IS NOT NULL"""


def nearest_for_value(
    connection: sqlite3.Connection,
    namespace: str,
    kind: str,
    value: str,
    reference: float | None,
    n: int,
) -> list[str]:
    """Up to ``n`` units carrying the cue value, nearest in time to ``reference``."""
    if reference is None:
        return [row[0] for row in connection.execute(_RECENT, (namespace, kind, value, n))]
    key = (namespace, kind, value, reference, n)
    candidates = connection.execute(_NEAR_BEFORE, key).fetchall()
    candidates += connection.execute(_NEAR_AFTER, key).fetchall()
    picked = cuekeys.pick_nearest(candidates, reference, n)
    if len(picked) < n:
        rows = connection.execute(_UNTIMED, (namespace, kind, value, n - len(picked)))
        picked += [row[0] for row in rows]
    return picked


def overlapping_span(
    connection: sqlite3.Connection, namespace: str, span: TimeSpan, n: int
) -> list[str]:
    """Up to ``n`` units whose time span overlaps ``span``, starts nearest its middle first."""
    start, end = cuekeys.span_seconds(span)
    middle = (start + end) / 2.0
    candidates: list[tuple[float, int, str]] = []
    for (bucket,) in connection.execute(_BUCKETS, {"ns": namespace}).fetchall():
        low = start - cuekeys.bucket_width(bucket)
        candidates += connection.execute(
            _SPAN_BEFORE, (namespace, bucket, low, middle, start, n)
        ).fetchall()
        candidates += connection.execute(
            _SPAN_AFTER, (namespace, bucket, middle, end, n)
        ).fetchall()
    return cuekeys.pick_nearest(candidates, middle, n)


def distinct_values(connection: sqlite3.Connection, namespace: str, kind: str) -> list[str]:
    """Distinct cue values by index skip-scan: one seek per value."""
    return [row[0] for row in connection.execute(_VALUES, {"ns": namespace, "kind": kind})]


class CueValues:
    """:func:`distinct_values` per (namespace, kind), kept until the data changes.

    Every search asks for the namespace's people and places (query cues are matched against
    them), and the skip-scan costs one seek per value. A write through this connection calls
    :meth:`forget`; a commit by another connection moves ``PRAGMA data_version``.
    """

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._db = connection
        self._version: int | None = None
        self._values: dict[tuple[str, str], list[str]] = {}

    def get(self, namespace: str, kind: str) -> list[str]:
        (version,) = self._db.execute("PRAGMA data_version").fetchone()
        if version != self._version:
            self._values.clear()
            self._version = version
        key = (namespace, kind)
        if key not in self._values:
            self._values[key] = distinct_values(self._db, namespace, kind)
        return list(self._values[key])

    def forget(self) -> None:
        self._values.clear()


def distinct_namespaces(connection: sqlite3.Connection) -> list[str]:
    return [row[0] for row in connection.execute(_NAMESPACES)]
