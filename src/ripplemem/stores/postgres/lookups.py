"""Bounded read queries of the PostgreSQL store: cue, time and distinct-value lookups.

The same lookups as the SQLite store's (:mod:`ripplemem.stores.cuekeys` says what they mean):
index range scans with a LIMIT, or one seek per distinct value; none scans a namespace. Each
lookup of a call is one statement (a lateral join over the asked values or buckets), so a call
costs one round trip to the server, not one per value.
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet

import psycopg

from ripplemem.records import TimeSpan
from ripplemem.records.filters import SearchFilter
from ripplemem.stores import cuekeys, filter_keys

__all__ = ["distinct_values", "nearest_for_values", "overlapping_span", "select_units"]

#: per asked (kind, value): the ``n`` timed rows nearest ``t`` (``n`` on each side, then the
#: nearest of those, ties to the latest added: cuekeys.pick_nearest), in one statement
_NEAREST = """
    SELECT v.i, c.unit_id
    FROM unnest(%(kinds)s::text[], %(values)s::text[]) WITH ORDINALITY AS v (kind, value, i)
    CROSS JOIN LATERAL (
        SELECT unit_id FROM (
            (SELECT t_key, seq, unit_id FROM cue
             WHERE namespace = %(ns)s AND kind = v.kind AND value = v.value AND t_key <= %(t)s{only}
             ORDER BY t_key DESC, seq DESC LIMIT %(n)s)
            UNION ALL
            (SELECT t_key, seq, unit_id FROM cue
             WHERE namespace = %(ns)s AND kind = v.kind AND value = v.value AND t_key > %(t)s{only}
             ORDER BY t_key ASC, seq ASC LIMIT %(n)s)
        ) AS near ORDER BY abs(t_key - %(t)s), seq DESC LIMIT %(n)s
    ) AS c"""
#: the latest ``n`` rows of each (kind, value) without a time
_UNTIMED = """
    SELECT v.i, c.unit_id
    FROM unnest(%(kinds)s::text[], %(values)s::text[]) WITH ORDINALITY AS v (kind, value, i)
    CROSS JOIN LATERAL (
        SELECT unit_id FROM cue
        WHERE namespace = %(ns)s AND kind = v.kind AND value = v.value AND t_key IS NULL{only}
        ORDER BY seq DESC LIMIT %(n)s
    ) AS c"""
_RECENT = """
    SELECT v.i, c.unit_id
    FROM unnest(%(kinds)s::text[], %(values)s::text[]) WITH ORDINALITY AS v (kind, value, i)
    CROSS JOIN LATERAL (
        SELECT seq, unit_id FROM cue
        WHERE namespace = %(ns)s AND kind = v.kind AND value = v.value{only}
        ORDER BY seq DESC LIMIT %(n)s
    ) AS c"""
#: time spans overlapping [start, end], per duration bucket the starts nearest ``middle`` on each
#: side (a bucket ``b`` holds spans of at most 2**b days: see ripplemem.stores.cuekeys)
_SPANS = """
    WITH RECURSIVE b(x) AS (
        SELECT min(bucket) FROM time_span WHERE namespace = %(ns)s
        UNION ALL
        SELECT (SELECT min(bucket) FROM time_span WHERE namespace = %(ns)s AND bucket > b.x)
        FROM b WHERE b.x IS NOT NULL
    )
    SELECT s.t_start, s.seq, s.unit_id FROM b CROSS JOIN LATERAL (
        (SELECT t_start, seq, unit_id FROM time_span
         WHERE namespace = %(ns)s AND bucket = b.x
           AND t_start >= %(start)s - %(day)s * power(2.0::float8, b.x) AND t_start <= %(middle)s
           AND t_end >= %(start)s{only}
         ORDER BY t_start DESC, seq DESC LIMIT %(n)s)
        UNION ALL
        (SELECT t_start, seq, unit_id FROM time_span
         WHERE namespace = %(ns)s AND bucket = b.x AND t_start > %(middle)s AND t_start <= %(end)s{only}
         ORDER BY t_start ASC, seq ASC LIMIT %(n)s)
    ) AS s WHERE b.x IS NOT NULL"""
#: a lookup restricted to a search filter's units (before its LIMIT), or not
_ONLY = {False: "", True: " AND unit_id = ANY(%(allowed)s)"}


def _sql(template: str, allowed: AbstractSet[str] | None) -> str:
    return template.replace("{only}", _ONLY[allowed is not None])


_VALUES = """
    WITH RECURSIVE v(x) AS (
        SELECT min(value) FROM cue WHERE namespace = %(ns)s AND kind = %(kind)s
        UNION ALL
        SELECT (SELECT min(value) FROM cue
                WHERE namespace = %(ns)s AND kind = %(kind)s AND value > v.x)
        FROM v WHERE v.x IS NOT NULL
    ) SELECT x FROM v WHERE x IS NOT NULL"""


def nearest_for_values(
    db: psycopg.Connection,
    namespace: str,
    keys: Sequence[tuple[str, str]],
    reference: float | None,
    n: int,
    allowed: AbstractSet[str] | None = None,
) -> list[list[str]]:
    """For each (kind, value): up to ``n`` units (of ``allowed``) carrying it, nearest in time
    to ``reference`` (then untimed ones, latest first), or the latest ``n`` when ``reference``
    is None."""
    if not keys:
        return []
    params = {
        "kinds": [kind for kind, _ in keys],
        "values": [value for _, value in keys],
        "ns": namespace,
        "t": reference,
        "n": n,
        "allowed": list(allowed or ()),
    }
    found: list[list[str]] = [[] for _ in keys]
    template = _NEAREST if reference is not None else _RECENT
    for i, unit_id in db.execute(_sql(template, allowed), params):
        found[i - 1].append(unit_id)
    short = [i for i, ids in enumerate(found) if len(ids) < n] if reference is not None else []
    if short:  # too few timed units: the latest untimed ones fill up
        params["kinds"] = [keys[i][0] for i in short]
        params["values"] = [keys[i][1] for i in short]
        latest: list[list[str]] = [[] for _ in short]
        for i, unit_id in db.execute(_sql(_UNTIMED, allowed), params):
            latest[i - 1].append(unit_id)
        for i, ids in zip(short, latest, strict=True):
            found[i] += ids[: n - len(found[i])]
    return found


def overlapping_span(
    db: psycopg.Connection, namespace: str, span: TimeSpan, n: int,
    allowed: AbstractSet[str] | None = None,
) -> list[str]:
    """Up to ``n`` units (of ``allowed``) whose time span overlaps ``span``, starts nearest its
    middle first."""
    start, end = cuekeys.span_seconds(span)
    middle = (start + end) / 2.0
    params = {
        "ns": namespace,
        "start": start,
        "end": end,
        "middle": middle,
        "day": cuekeys.DAY,
        "n": n,
        "allowed": list(allowed or ()),
    }
    rows = db.execute(_sql(_SPANS, allowed), params).fetchall()
    return cuekeys.pick_nearest(rows, middle, n)


def select_units(db: psycopg.Connection, namespace: str, where: SearchFilter) -> set[str]:
    """The ids of the namespace's units ``where`` matches, from the filter index."""
    found: set[str] | None = None
    for group in filter_keys.filter_groups(where):
        rows = db.execute(
            "SELECT f.unit_id FROM unnest(%s::text[], %s::text[]) AS k (facet, value) "
            "JOIN unit_facet AS f ON f.namespace = %s AND f.facet = k.facet AND f.value = k.value",
            ([f for f, _ in group], [v for _, v in group], namespace),
        )
        ids = {row[0] for row in rows}
        found = ids if found is None else found & ids
        if not found:
            return set()
    bounds = filter_keys.said_range(where)
    if bounds is not None:
        rows = db.execute(
            "SELECT unit_id FROM unit_said WHERE namespace = %s AND said >= %s AND said < %s",
            (namespace, *bounds),
        )
        ids = {row[0] for row in rows}
        found = ids if found is None else found & ids
    return found or set()


def distinct_values(db: psycopg.Connection, namespace: str, kind: str) -> list[str]:
    """Distinct cue values by index skip-scan: one seek per value."""
    return [row[0] for row in db.execute(_VALUES, {"ns": namespace, "kind": kind})]
