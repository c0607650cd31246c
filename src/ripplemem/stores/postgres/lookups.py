"""Bounded read queries of the PostgreSQL store: cue, time and distinct-value lookups.

The same lookups as the SQLite store's (:mod:`ripplemem.stores.cuekeys` says what they mean):
index range scans with a LIMIT, or one seek per distinct value; none scans a namespace.
"""

from __future__ import annotations

import psycopg

from ripplemem.records import TimeSpan
from ripplemem.stores import cuekeys

__all__ = ["distinct_values", "nearest_for_value", "overlapping_span"]

_NEAR_BEFORE = """
    SELECT t_key, seq, unit_id FROM cue
    WHERE namespace = %(ns)s AND kind = %(kind)s AND value = %(value)s AND t_key <= %(t)s
    ORDER BY t_key DESC, seq DESC LIMIT %(n)s"""
_NEAR_AFTER = """
    SELECT t_key, seq, unit_id FROM cue
    WHERE namespace = %(ns)s AND kind = %(kind)s AND value = %(value)s AND t_key > %(t)s
    ORDER BY t_key ASC, seq ASC LIMIT %(n)s"""
_UNTIMED = """
    SELECT unit_id FROM cue
    WHERE namespace = %s AND kind = %s AND value = %s AND t_key IS NULL
    ORDER BY seq DESC LIMIT %s"""
_RECENT = """
    SELECT unit_id FROM cue
    WHERE namespace = %s AND kind = %s AND value = %s
    ORDER BY seq DESC LIMIT %s"""
_SPAN_BEFORE = """
    SELECT t_start, seq, unit_id FROM time_span
    WHERE namespace = %s AND bucket = %s AND t_start >= %s AND t_start <= %s AND t_end >= %s
    ORDER BY t_start DESC, seq DESC LIMIT %s"""
_SPAN_AFTER = """
    SELECT t_start, seq, unit_id FROM time_span
    WHERE namespace = %s AND bucket = %s AND t_start > %s AND t_start <= %s
    ORDER BY t_start ASC, seq ASC LIMIT %s"""
_BUCKETS = """
    WITH RECURSIVE b(x) AS (
        SELECT min(bucket) FROM time_span WHERE namespace = %(ns)s
        UNION ALL
        SELECT (SELECT min(bucket) FROM time_span WHERE namespace = %(ns)s AND bucket > b.x)
        FROM b WHERE b.x IS NOT NULL
    ) SELECT x FROM b WHERE x IS NOT NULL"""
_VALUES = """
    WITH RECURSIVE v(x) AS (
        SELECT min(value) FROM cue WHERE namespace = %(ns)s AND kind = %(kind)s
        UNION ALL
        SELECT (SELECT min(value) FROM cue
                WHERE namespace = %(ns)s AND kind = %(kind)s AND value > v.x)
        FROM v WHERE v.x IS NOT NULL
    ) SELECT x FROM v WHERE x IS NOT NULL"""


def nearest_for_value(
    db: psycopg.Connection,
    namespace: str,
    kind: str,
    value: str,
    reference: float | None,
    n: int,
) -> list[str]:
    """Up to ``n`` units carrying the cue value, nearest in time to ``reference``."""
    if reference is None:
        return [row[0] for row in db.execute(_RECENT, (namespace, kind, value, n))]
    key = {"ns": namespace, "kind": kind, "value": value, "t": reference, "n": n}
    candidates = db.execute(_NEAR_BEFORE, key).fetchall()
    candidates += db.execute(_NEAR_AFTER, key).fetchall()
    picked = cuekeys.pick_nearest(candidates, reference, n)
    if len(picked) < n:
        rows = db.execute(_UNTIMED, (namespace, kind, value, n - len(picked)))
        picked += [row[0] for row in rows]
    return picked


def overlapping_span(db: psycopg.Connection, namespace: str, span: TimeSpan, n: int) -> list[str]:
    """Up to ``n`` units whose time span overlaps ``span``, starts nearest its middle first."""
    start, end = cuekeys.span_seconds(span)
    middle = (start + end) / 2.0
    candidates: list[tuple[float, int, str]] = []
    for (bucket,) in db.execute(_BUCKETS, {"ns": namespace}).fetchall():
        low = start - cuekeys.bucket_width(bucket)
        candidates += db.execute(_SPAN_BEFORE, (namespace, bucket, low, middle, start, n)).fetchall()
        candidates += db.execute(_SPAN_AFTER, (namespace, bucket, middle, end, n)).fetchall()
    return cuekeys.pick_nearest(candidates, middle, n)


def distinct_values(db: psycopg.Connection, namespace: str, kind: str) -> list[str]:
    """Distinct cue values by index skip-scan: one seek per value."""
    return [row[0] for row in db.execute(_VALUES, {"ns": namespace, "kind": kind})]
