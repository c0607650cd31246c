"""Bounded read queries of the SQLite store: cue, time and distinct-value lookups.

Each lookup is a few index range scans with a LIMIT (see :mod:`ripplemem.stores.cuekeys`), or
primary-key seeks for the asked ids: nothing here scans a whole namespace.
"""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Iterable
from collections.abc import Set as AbstractSet

from ripplemem.records import TimeSpan
from ripplemem.records.filters import SearchFilter
from ripplemem.stores import cuekeys, filter_keys

__all__ = [
    "CueValues",
    "distinct_namespaces",
    "distinct_values",
    "nearest_for_value",
    "overlapping_span",
    "select_units",
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


def _first(
    connection: sqlite3.Connection, sql: str, params: tuple, n: int, allowed: AbstractSet[str] | None
) -> list[tuple]:
    """The first ``n`` rows (the unit id last) of ``sql``, whose last parameter is its LIMIT;
    with ``allowed``, the first ``n`` rows of allowed units (the scan goes on past the others)."""
    if allowed is None:
        return connection.execute(sql, (*params, n)).fetchall()
    rows: Iterable[tuple] = connection.execute(sql, (*params, -1))
    return list(itertools.islice((row for row in rows if row[-1] in allowed), n))


def nearest_for_value(
    connection: sqlite3.Connection,
    namespace: str,
    kind: str,
    value: str,
    reference: float | None,
    n: int,
    allowed: AbstractSet[str] | None = None,
) -> list[str]:
    """Up to ``n`` units (of ``allowed``) carrying the cue value, nearest in time to
    ``reference``."""
    key = (namespace, kind, value)
    if reference is None:
        return [row[-1] for row in _first(connection, _RECENT, key, n, allowed)]
    candidates = _first(connection, _NEAR_BEFORE, (*key, reference), n, allowed)
    candidates += _first(connection, _NEAR_AFTER, (*key, reference), n, allowed)
    picked = cuekeys.pick_nearest(candidates, reference, n)
    if len(picked) < n:
        picked += [row[-1] for row in _first(connection, _UNTIMED, key, n - len(picked), allowed)]
    return picked


def overlapping_span(
    connection: sqlite3.Connection,
    namespace: str,
    span: TimeSpan,
    n: int,
    allowed: AbstractSet[str] | None = None,
) -> list[str]:
    """Up to ``n`` units (of ``allowed``) whose time span overlaps ``span``, starts nearest its
    middle first."""
    start, end = cuekeys.span_seconds(span)
    middle = (start + end) / 2.0
    candidates: list[tuple] = []
    for (bucket,) in connection.execute(_BUCKETS, {"ns": namespace}).fetchall():
        low = start - cuekeys.bucket_width(bucket)
        candidates += _first(
            connection, _SPAN_BEFORE, (namespace, bucket, low, middle, start), n, allowed
        )
        candidates += _first(connection, _SPAN_AFTER, (namespace, bucket, middle, end), n, allowed)
    return cuekeys.pick_nearest(candidates, middle, n)


def select_units(connection: sqlite3.Connection, namespace: str, where: SearchFilter) -> set[str]:
    """The ids of the namespace's units ``where`` matches, from the filter index."""
    found: set[str] | None = None
    for group in filter_keys.filter_groups(where):
        ids: set[str] = set()
        for facet, value in group:
            ids.update(
                row[0]
                for row in connection.execute(
                    "SELECT unit_id FROM unit_facet WHERE namespace = ? AND facet = ? "
                    "AND value = ?",
                    (namespace, facet, value),
                )
            )
        found = ids if found is None else found & ids
        if not found:
            return set()
    bounds = filter_keys.said_range(where)
    if bounds is not None:
        ids = {
            row[0]
            for row in connection.execute(
                "SELECT unit_id FROM unit_said WHERE namespace = ? AND said >= ? AND said < ?",
                (namespace, *bounds),
            )
        }
        found = ids if found is None else found & ids
    return found or set()


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
