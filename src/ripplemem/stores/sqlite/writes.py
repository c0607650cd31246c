"""The row-level writes of the SQLite store; each runs inside the caller's transaction."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

import numpy as np

from ripplemem.errors import InvalidInputError, UnknownUnitError
from ripplemem.records import MemoryUnit
from ripplemem.stores import cuekeys, filter_keys
from ripplemem.stores.checks import unknown_unit
from ripplemem.stores.sqlite import clues, lexical, rows, versions
from ripplemem.stores.text import document_terms

__all__ = [
    "bump_version",
    "delete_namespace_rows",
    "delete_unit_rows",
    "insert_units",
    "keep_parses",
    "kept_parses",
    "namespace_version",
    "require_units",
]

CHUNK = 500  # ids per IN (...) list
_INSERT_UNIT = (
    f"INSERT INTO unit ({rows.UNIT_COLUMNS}) "
    f"VALUES ({', '.join('?' * len(rows.UNIT_COLUMNS.split(',')))})"
)


def insert_units(
    db: sqlite3.Connection,
    units: Sequence[MemoryUnit],
    values: Sequence[tuple],
    vectors: np.ndarray,
    *,
    staged_postings: int = lexical.RECENT_POSTINGS,
) -> list[int]:
    """Insert units with their vector, cue, time and lexical rows; returns their ``seq``s.

    ``staged_postings``: see :func:`ripplemem.stores.sqlite.lexical.index_units`.
    """
    seqs = [
        _insert_unit(db, unit, value, vectors[row])
        for row, (unit, value) in enumerate(zip(units, values))
    ]
    lexical.index_units(
        db,
        [
            (unit.namespace, seq, document_terms(unit.restatement, unit.keywords))
            for unit, seq in zip(units, seqs)
        ],
        staged=staged_postings,
    )
    return seqs


def _insert_unit(
    db: sqlite3.Connection, unit: MemoryUnit, values: tuple, vector: np.ndarray
) -> int:
    """Insert the unit with its vector, cue and time rows (not lexical); returns its ``seq``."""
    try:
        seq = int(db.execute(_INSERT_UNIT, values).lastrowid)  # type: ignore[arg-type]
    except sqlite3.IntegrityError as error:
        raise InvalidInputError(
            f"unit id {unit.id!r} already exists in namespace {unit.namespace!r}; "
            "delete it first or give the new unit another id"
        ) from error
    ns = unit.namespace
    db.execute(
        "INSERT INTO vector (seq, namespace, id, blob) VALUES (?, ?, ?, ?)",
        (seq, ns, unit.id, rows.vector_blob(vector)),
    )
    t_key = cuekeys.time_key(unit)
    db.executemany(
        "INSERT INTO cue (namespace, kind, value, seq, unit_id, t_key) VALUES (?, ?, ?, ?, ?, ?)",
        [
            (ns, kind, value, seq, unit.id, t_key)
            for kind, value in cuekeys.cue_keys(unit.participants, unit.locations)
        ],
    )
    db.executemany(
        "INSERT INTO time_span (namespace, bucket, t_start, seq, unit_id, t_end) VALUES (?, ?, ?, ?, ?, ?)",
        [(ns, bucket, start, seq, unit.id, end) for bucket, start, end in cuekeys.span_rows(unit.time_span, unit.extra)],
    )
    db.executemany(
        "INSERT INTO unit_facet (namespace, facet, value, seq, unit_id) VALUES (?, ?, ?, ?, ?)",
        [(ns, facet, value, seq, unit.id) for facet, value in filter_keys.facet_rows(unit)],
    )
    said = filter_keys.said_key(unit)
    if said is not None:
        db.execute(
            "INSERT INTO unit_said (namespace, said, seq, unit_id) VALUES (?, ?, ?, ?)",
            (ns, said, seq, unit.id),
        )
    return seq


def delete_unit_rows(db: sqlite3.Connection, namespace: str, unit_id: str) -> bool:
    """Delete a unit and every row that refers to it; False when there is no such unit."""
    row = db.execute(
        "SELECT seq, participants, locations, t_start, t_end, restatement, keywords, extra FROM unit "
        "WHERE namespace = ? AND id = ?",
        (namespace, unit_id),
    ).fetchone()
    if row is None:
        return False
    seq, participants, locations, t_start, t_end, restatement, keywords, extra = row
    _unindex_filters(db, namespace, seq)
    db.execute("DELETE FROM unit WHERE seq = ?", (seq,))
    db.execute("DELETE FROM vector WHERE seq = ?", (seq,))
    db.execute("DELETE FROM unit_parse WHERE seq = ?", (seq,))
    terms = document_terms(restatement, json.loads(keywords))
    lexical.unindex_terms(db, namespace, seq, terms)
    keys = cuekeys.cue_keys(json.loads(participants), json.loads(locations))
    db.executemany(
        "DELETE FROM cue WHERE namespace = ? AND kind = ? AND value = ? AND seq = ?",
        [(namespace, kind, value, seq) for kind, value in keys],
    )
    db.executemany(
        "DELETE FROM time_span WHERE namespace = ? AND bucket = ? AND t_start = ? AND seq = ?",
        [(namespace, bucket, start, seq) for bucket, start, _ in cuekeys.stored_span_rows(t_start, t_end, extra)],
    )
    clues.forget_unit_rows(db, namespace, unit_id)
    return True


def _unindex_filters(db: sqlite3.Connection, namespace: str, seq: int) -> None:
    """Delete the unit's rows of the search-filter index (before the unit row itself)."""
    row = db.execute(f"{rows.WITHOUT_VECTORS} WHERE u.seq = ?", (seq,)).fetchone()
    unit = rows.unit_from_row(row[:-1], None)
    db.executemany(
        "DELETE FROM unit_facet WHERE namespace = ? AND facet = ? AND value = ? AND seq = ?",
        [(namespace, facet, value, seq) for facet, value in filter_keys.facet_rows(unit)],
    )
    said = filter_keys.said_key(unit)
    if said is not None:
        db.execute(
            "DELETE FROM unit_said WHERE namespace = ? AND said = ? AND seq = ?",
            (namespace, said, seq),
        )


def delete_namespace_rows(db: sqlite3.Connection, namespace: str) -> int:
    """Delete everything a namespace holds; returns how many units it had."""
    key = (namespace,)
    count = int(db.execute("SELECT count(*) FROM unit WHERE namespace = ?", key).fetchone()[0])
    # by the namespace's unit rows (its index), not a scan of every parse
    db.execute("DELETE FROM unit_parse WHERE seq IN (SELECT seq FROM unit WHERE namespace = ?)", key)
    tables = ("unit", "vector", "cue", "time_span", "ann_cache", "unit_facet", "unit_said")
    lexical_tables = ("lexical_posting", "lexical_recent", "lexical_term", "lexical_namespace")
    for table in (*tables, *lexical_tables):
        db.execute(f"DELETE FROM {table} WHERE namespace = ?", key)
    clues.forget_namespace_rows(db, namespace)
    versions.forget(db, namespace)  # no row keeps the namespace's name
    return count


def unit_seqs(db: sqlite3.Connection, namespace: str, ids: Sequence[str]) -> dict[str, int]:
    """The row numbers of the units of ``ids`` that exist."""
    found: dict[str, int] = {}
    unique = list(dict.fromkeys(ids))
    for start in range(0, len(unique), CHUNK):
        chunk = unique[start : start + CHUNK]
        sql = f"SELECT id, seq FROM unit WHERE namespace = ? AND id IN ({', '.join('?' * len(chunk))})"
        found.update((row[0], int(row[1])) for row in db.execute(sql, (namespace, *chunk)))
    return found


def keep_parses(db: sqlite3.Connection, namespace: str, parses: dict[str, bytes]) -> None:
    """Store units' parses (replacing earlier ones); UnknownUnitError for an id of no unit."""
    seqs = unit_seqs(db, namespace, list(parses))
    missing = [i for i in parses if i not in seqs]
    if missing:
        raise unknown_unit(namespace, missing[0])
    db.executemany(
        "INSERT OR REPLACE INTO unit_parse (seq, namespace, blob) VALUES (?, ?, ?)",
        [(seqs[i], namespace, blob) for i, blob in parses.items()],
    )


def kept_parses(db: sqlite3.Connection, namespace: str, ids: Sequence[str]) -> dict[str, bytes]:
    """The stored parses of the units of ``ids`` that have one."""
    found: dict[str, bytes] = {}
    unique = list(dict.fromkeys(ids))
    for start in range(0, len(unique), CHUNK):
        chunk = unique[start : start + CHUNK]
        sql = (
            "SELECT u.id, p.blob FROM unit AS u JOIN unit_parse AS p ON p.seq = u.seq "
            f"WHERE u.namespace = ? AND u.id IN ({', '.join('?' * len(chunk))})"
        )
        found.update((row[0], bytes(row[1])) for row in db.execute(sql, (namespace, *chunk)))
    return found


def namespace_version(db: sqlite3.Connection, namespace: str) -> int:
    return versions.version(db, "namespace_state", namespace)


def bump_version(db: sqlite3.Connection, namespace: str) -> tuple[int, int]:
    """Count a change to the namespace; returns its (previous, new) version."""
    before = namespace_version(db, namespace)
    return before, versions.bump(db, "namespace_state", namespace)


def require_units(db: sqlite3.Connection, namespace: str, ids: set[str]) -> None:
    """Raise UnknownUnitError unless every id is a unit of the namespace."""
    wanted = sorted(ids)
    present: set[str] = set()
    for start in range(0, len(wanted), CHUNK):
        chunk = wanted[start : start + CHUNK]
        sql = f"SELECT id FROM unit WHERE namespace = ? AND id IN ({', '.join('?' * len(chunk))})"
        present.update(row[0] for row in db.execute(sql, (namespace, *chunk)))
    missing = sorted(ids - present)
    if missing:
        raise UnknownUnitError(
            f"edge end {missing[0]!r} is not a unit of namespace {namespace!r}; "
            "add the units before linking them"
        )
