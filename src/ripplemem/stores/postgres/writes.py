"""The row-level writes of the PostgreSQL store; each runs inside the caller's transaction,
which holds the advisory lock of every namespace it writes."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np
import psycopg

from ripplemem.errors import InvalidInputError
from ripplemem.records import MemoryUnit
from ripplemem.stores import cuekeys, filter_keys
from ripplemem.stores.checks import unknown_unit
from ripplemem.stores.postgres import lexical
from ripplemem.stores.postgres.adapt import as_vector
from ripplemem.stores.postgres.rows import UNIT_COLUMNS, unit_values
from ripplemem.stores.text import document_terms

__all__ = [
    "Counters",
    "count_change",
    "delete_namespace_rows",
    "delete_unit_rows",
    "forget_namespace_state",
    "insert_units",
    "keep_parses",
    "kept_parses",
    "refuse_known_ids",
]

_COPY_UNITS = f"COPY unit (seq, {', '.join(UNIT_COLUMNS)}) FROM STDIN WITH (FORMAT BINARY)"
_UNIT_TYPES = [
    "int8", "text", "text", "text", "text[]", "text[]", "text", "text", "text", "text[]", "text",
    "text", "text[]", "text[]", "text", "text[]", "text",
]  # fmt: skip
_COPY_VECTORS = (
    "COPY unit_vector (namespace, seq, id, embedding) FROM STDIN WITH (FORMAT BINARY)"
)


@dataclass(frozen=True, slots=True)
class Counters:
    """A namespace's ``namespace_state`` counters after a change."""

    units: int
    version: int
    removals: int


def refuse_known_ids(db: psycopg.Connection, units: Sequence[MemoryUnit]) -> None:
    """Raise before any write when a unit's id is already stored in its namespace."""
    by_namespace: dict[str, list[str]] = {}
    for unit in units:
        by_namespace.setdefault(unit.namespace, []).append(unit.id)
    for namespace, ids in by_namespace.items():
        row = db.execute(
            "SELECT id FROM unit WHERE namespace = %s AND id = ANY(%s) LIMIT 1", (namespace, ids)
        ).fetchone()
        if row is not None:
            raise InvalidInputError(
                f"unit id {row[0]!r} already exists in namespace {namespace!r}; "
                "delete it first or give the new unit another id"
            )


def insert_units(
    db: psycopg.Connection, units: Sequence[MemoryUnit], vectors: np.ndarray
) -> tuple[list[int], dict[str, tuple[int, int, np.ndarray]]]:
    """Insert units with their vector, cue, time and lexical rows.

    Returns their ``seq`` numbers and, per namespace, (units, tokens, vector sum) added, for
    :func:`count_change`.
    """
    values = [unit_values(unit) for unit in units]  # refuses unserialisable extras first
    seqs = [
        int(row[0])
        for row in db.execute(
            "SELECT nextval('unit_seq') FROM generate_series(1, %s)", (len(units),)
        ).fetchall()
    ]
    with db.cursor() as cursor:  # COPY: one stream per table, no statement per row
        with cursor.copy(_COPY_UNITS) as copy:
            copy.set_types(_UNIT_TYPES)
            for seq, value in zip(seqs, values):
                copy.write_row((seq, *value))
        with cursor.copy(_COPY_VECTORS) as copy:
            copy.set_types(["text", "int8", "text", "vector"])
            for row, (unit, seq) in enumerate(zip(units, seqs)):
                copy.write_row((unit.namespace, seq, unit.id, vectors[row]))
    cues = [
        (unit.namespace, kind, value, seq, unit.id, cuekeys.time_key(unit))
        for unit, seq in zip(units, seqs)
        for kind, value in cuekeys.cue_keys(unit.participants, unit.locations)
    ]
    if cues:
        db.execute(
            "INSERT INTO cue (namespace, kind, value, seq, unit_id, t_key) SELECT * FROM "
            "unnest(%s::text[], %s::text[], %s::text[], %s::int8[], %s::text[], %s::float8[])",
            [list(column) for column in zip(*cues, strict=True)],
        )
    spans = [
        (unit.namespace, bucket, start, seq, unit.id, end)
        for unit, seq in zip(units, seqs) for bucket, start, end in cuekeys.span_rows(unit.time_span, unit.extra)
    ]
    if spans:
        db.execute(
            "INSERT INTO time_span (namespace, bucket, t_start, seq, unit_id, t_end) SELECT * FROM "
            "unnest(%s::text[], %s::int4[], %s::float8[], %s::int8[], %s::text[], %s::float8[])",
            [list(column) for column in zip(*spans, strict=True)],
        )
    _index_filters(db, units, seqs)
    documents = [
        (unit.namespace, seq, document_terms(unit.restatement, unit.keywords))
        for unit, seq in zip(units, seqs)
    ]
    lexical.index_units(db, documents)
    totals: dict[str, tuple[int, int, np.ndarray]] = {}
    for row, (namespace, _, terms) in enumerate(documents):
        count, tokens, total = totals.get(namespace, (0, 0, np.zeros(vectors.shape[1])))
        totals[namespace] = (count + 1, tokens + len(terms), total + vectors[row])
    return seqs, totals


_FLOOR = "SELECT coalesce(max(value::bigint), 0) AS floor FROM meta WHERE key = 'version_floor'"


def forget_namespace_state(db: psycopg.Connection, namespace: str, highest: int) -> None:
    """Drop the namespace's ``namespace_state`` row, so no row keeps its name once it is deleted,
    raising the store's version floor to ``highest`` (its last version or removals count): a
    namespace made again starts above it, so no process mistakes new rows for the vectors it
    loaded before the delete."""
    db.execute(
        "INSERT INTO meta (key, value) VALUES ('version_floor', %s) ON CONFLICT (key) DO UPDATE "
        "SET value = greatest(meta.value::bigint, excluded.value::bigint)::text",
        (str(highest),),
    )
    db.execute("DELETE FROM namespace_state WHERE namespace = %s", (namespace,))


def count_change(
    db: psycopg.Connection,
    namespace: str,
    units: int,
    tokens: int,
    vectors: np.ndarray | None,
    *,
    removals: int = 0,
) -> Counters:
    """Add to the namespace's counters and vector sum (negative numbers take away); one more
    ``version``. The sum is kept in float64, so the centroid does not drift."""
    row = db.execute(
        "SELECT vector_sum FROM namespace_state WHERE namespace = %s", (namespace,)
    ).fetchone()
    total = None
    if row is not None and row[0] is not None:
        total = np.frombuffer(row[0], dtype=np.float64)
    if vectors is not None:
        total = vectors.astype(np.float64) if total is None else total + vectors
    found = db.execute(  # a new row starts above the floor a deleted namespace left (forget)
        "INSERT INTO namespace_state AS s (namespace, units, tokens, version, removals) "
        f"SELECT %(ns)s, %(units)s, %(tokens)s, f.floor + 1, f.floor + 1 + %(removals)s FROM ({_FLOOR}) AS f "
        "ON CONFLICT (namespace) DO UPDATE SET units = s.units + %(units)s, "
        "tokens = s.tokens + %(tokens)s, version = s.version + 1, removals = s.removals + %(removals)s "
        "RETURNING units, version, removals",
        {"ns": namespace, "units": units, "tokens": tokens, "removals": removals},
    ).fetchone()
    assert found is not None
    counters = Counters(*(int(value) for value in found))
    blob = None if counters.units <= 0 or total is None else total.astype(np.float64).tobytes()
    db.execute(
        "UPDATE namespace_state SET vector_sum = %s WHERE namespace = %s", (blob, namespace)
    )
    return counters


def _index_filters(db: psycopg.Connection, units: Sequence[MemoryUnit], seqs: Sequence[int]) -> None:
    """The units' rows of the search-filter index (:mod:`ripplemem.stores.filter_keys`)."""
    facets = [
        (unit.namespace, facet, value, seq, unit.id)
        for unit, seq in zip(units, seqs)
        for facet, value in filter_keys.facet_rows(unit)
    ]
    if facets:
        db.execute(
            "INSERT INTO unit_facet (namespace, facet, value, seq, unit_id) SELECT * FROM "
            "unnest(%s::text[], %s::text[], %s::text[], %s::int8[], %s::text[])",
            [list(column) for column in zip(*facets, strict=True)],
        )
    said = [
        (unit.namespace, key, seq, unit.id)
        for unit, seq in zip(units, seqs)
        if (key := filter_keys.said_key(unit)) is not None
    ]
    if said:
        db.execute(
            "INSERT INTO unit_said (namespace, said, seq, unit_id) SELECT * FROM "
            "unnest(%s::text[], %s::float8[], %s::int8[], %s::text[])",
            [list(column) for column in zip(*said, strict=True)],
        )


def _unindex_filters(
    db: psycopg.Connection, namespace: str, seq: int, speakers: list[str], metadata: str,
    session_time: str | None,
) -> None:
    """Delete a unit's rows of the search-filter index, found from its columns (index seeks)."""
    facets = filter_keys.facet_rows_of(speakers, json.loads(metadata))
    if facets:
        db.execute(
            "DELETE FROM unit_facet AS f USING unnest(%s::text[], %s::text[]) AS k (facet, value) "
            "WHERE f.namespace = %s AND f.facet = k.facet AND f.value = k.value AND f.seq = %s",
            ([f for f, _ in facets], [v for _, v in facets], namespace, seq),
        )
    if session_time is not None:
        said = cuekeys.epoch_seconds(datetime.fromisoformat(session_time))
        db.execute(
            "DELETE FROM unit_said WHERE namespace = %s AND said = %s AND seq = %s",
            (namespace, said, seq),
        )


def delete_unit_rows(
    db: psycopg.Connection, namespace: str, unit_id: str
) -> tuple[int, np.ndarray] | None:
    """Delete a unit and every row that refers to it (edges and clue rows are the caller's);
    returns its term count and vector, or None when there is no such unit."""
    row = db.execute(
        "DELETE FROM unit WHERE namespace = %s AND id = %s "
        "RETURNING seq, participants, locations, t_start, t_end, restatement, keywords, extra, "
        "speakers, metadata, session_time",
        (namespace, unit_id),
    ).fetchone()
    if row is None:
        return None
    seq, participants, locations, t_start, t_end, restatement, keywords, extra, *said = row
    _unindex_filters(db, namespace, seq, *said)
    (vector,) = db.execute(
        "DELETE FROM unit_vector WHERE namespace = %s AND seq = %s RETURNING embedding",
        (namespace, seq),
    ).fetchone() or (None,)
    db.execute("DELETE FROM unit_parse WHERE namespace = %s AND seq = %s", (namespace, seq))
    terms = document_terms(restatement, keywords)
    lexical.unindex_terms(db, namespace, seq, terms)
    keys = cuekeys.cue_keys(participants, locations)
    if keys:
        db.execute(
            "DELETE FROM cue AS c USING unnest(%s::text[], %s::text[]) AS k (kind, value) "
            "WHERE c.namespace = %s AND c.kind = k.kind AND c.value = k.value AND c.seq = %s",
            ([kind for kind, _ in keys], [value for _, value in keys], namespace, seq),
        )
    rows = cuekeys.stored_span_rows(t_start, t_end, extra)
    if rows:
        db.execute(
            "DELETE FROM time_span AS t USING unnest(%s::int4[], %s::float8[]) AS r (bucket, t_start) "
            "WHERE t.namespace = %s AND t.bucket = r.bucket AND t.t_start = r.t_start AND t.seq = %s",
            ([bucket for bucket, _, _ in rows], [start for _, start, _ in rows], namespace, seq),
        )
    return len(terms), as_vector(vector)


def delete_namespace_rows(db: psycopg.Connection, namespace: str) -> int:
    """Delete every unit row of a namespace (edges and clue rows are the caller's); returns how
    many units it had and resets its counters (its ``version`` goes on counting)."""
    for table in (
        "unit_vector", "cue", "time_span", "lexical_posting", "lexical_term", "unit_facet",
        "unit_said", "unit_parse",
    ):
        db.execute(f"DELETE FROM {table} WHERE namespace = %s", (namespace,))
    count = db.execute("DELETE FROM unit WHERE namespace = %s", (namespace,)).rowcount
    return max(count, 0)


def keep_parses(db: psycopg.Connection, namespace: str, parses: dict[str, bytes]) -> None:
    """Store units' parses (replacing earlier ones); UnknownUnitError for an id of no unit."""
    ids = list(parses)
    found = db.execute("SELECT id, seq FROM unit WHERE namespace = %s AND id = ANY(%s)", (namespace, ids))
    seqs: dict[str, int] = {row[0]: int(row[1]) for row in found.fetchall()}
    missing = [i for i in ids if i not in seqs]
    if missing:
        raise unknown_unit(namespace, missing[0])
    db.execute(
        "INSERT INTO unit_parse (namespace, seq, parse) "
        "SELECT %s, k.seq, k.parse FROM unnest(%s::bigint[], %s::bytea[]) AS k (seq, parse) "
        "ON CONFLICT (namespace, seq) DO UPDATE SET parse = excluded.parse",
        (namespace, [seqs[i] for i in ids], [parses[i] for i in ids]),
    )


def kept_parses(db: psycopg.Connection, namespace: str, ids: Sequence[str]) -> dict[str, bytes]:
    """The stored parses of the units of ``ids`` that have one."""
    rows = db.execute(
        "SELECT u.id, p.parse FROM unit AS u JOIN unit_parse AS p "
        "ON p.namespace = u.namespace AND p.seq = u.seq WHERE u.namespace = %s AND u.id = ANY(%s)",
        (namespace, list(dict.fromkeys(ids))),
    ).fetchall()
    return {unit_id: bytes(blob) for unit_id, blob in rows}
