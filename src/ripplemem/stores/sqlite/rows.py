"""MemoryUnit <-> the ``unit`` and ``vector`` table columns; the embedder recorded in ``meta``."""

from __future__ import annotations

import json
import sqlite3
from functools import lru_cache
from typing import Any

import numpy as np

from ripplemem.records import MemoryUnit
from ripplemem.stores.base import LexiconRow
from ripplemem.stores.unit_row import unit_columns, unit_from_columns

__all__ = [
    "UNIT_COLUMNS",
    "WITHOUT_VECTORS",
    "WITH_VECTORS",
    "embedder",
    "lexicon_rows",
    "unit_from_row",
    "unit_values",
    "unit_with_vector",
    "vector_blob",
    "vector_dim",
    "vectors_from_blobs",
]

UNIT_COLUMNS = (
    "namespace, id, restatement, participants, locations, t_start, t_end, episode_id, "
    "turn_ids, session_time, created_at, time_phrases, keywords, extra, speakers, metadata"
)
_SELECTED = ", ".join(f"u.{c.strip()}" for c in UNIT_COLUMNS.split(","))
#: Units with their vector blob (or NULL) as the last column; add WHERE ... to either.
WITH_VECTORS = f"SELECT {_SELECTED}, v.blob FROM unit AS u JOIN vector AS v ON v.seq = u.seq"
WITHOUT_VECTORS = f"SELECT {_SELECTED}, NULL FROM unit AS u"


def unit_values(unit: MemoryUnit) -> tuple[Any, ...]:
    """The ``unit`` row of a unit, in :data:`UNIT_COLUMNS` order (lists as JSON text)."""
    return unit_columns(unit, _json_list)


def unit_from_row(row: tuple[Any, ...], blob: bytes | None) -> MemoryUnit:
    """Inverse of :func:`unit_values`; ``blob`` is the unit's float32 vector."""
    vector = np.frombuffer(blob, dtype=np.float32).copy() if blob is not None else None
    return unit_from_columns(row, vector, _strings)


_LEXICON = "SELECT id, participants, locations, restatement FROM unit WHERE namespace = ?"
_LEXICON_PAGES = {  # by key on the (namespace, id) index; SQLite's BINARY order is code points
    False: f"{_LEXICON} ORDER BY id LIMIT ?",
    True: f"{_LEXICON} AND id > ? ORDER BY id LIMIT ?",
}


def lexicon_rows(
    db: sqlite3.Connection, namespace: str, after: str | None, limit: int
) -> list[LexiconRow]:
    """(id, participants, locations, restatement) of ``namespace``'s units after the id
    ``after``, in id order, at most ``limit``: the columns only, no vector."""
    if limit <= 0:
        return []
    params = (namespace, limit) if after is None else (namespace, after, limit)
    return [
        (unit_id, _strings(participants), _strings(locations), restatement)
        for unit_id, participants, locations, restatement in db.execute(
            _LEXICON_PAGES[after is not None], params
        )
    ]


def unit_with_vector(row: tuple[Any, ...], vector: np.ndarray) -> MemoryUnit:
    """:func:`unit_from_row` with the vector given (read from elsewhere than its blob)."""
    return unit_from_columns(row, vector, _strings)


@lru_cache(maxsize=8192)
def _strings(text: str) -> tuple[str, ...]:
    """A JSON list column as a tuple; cached: a store repeats the same few lists (speakers,
    places, ``[]``), and a batch of candidates decodes thousands of them. A list of strings
    as :func:`_json_list` writes it, with no escape in it, is split without the JSON parser
    (a unit's own lists, its keywords and turn ids, are new to the cache)."""
    if len(text) > 3 and text.startswith('["') and text.endswith('"]') and "\\" not in text:
        # no escape: every quote left is a string's own, so '", "' parts with none are the list
        parts = text[2:-2].split('", "')
        if text.count('"') == 2 * len(parts):  # the separators' quotes and the outer two only
            return tuple(parts)
    return tuple(json.loads(text))


def vector_blob(vector: np.ndarray) -> bytes:
    return np.ascontiguousarray(vector, dtype=np.float32).tobytes()


def vectors_from_blobs(blobs: list[bytes], dim: int) -> np.ndarray:
    if not blobs:
        return np.zeros((0, dim), dtype=np.float32)
    return np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(blobs), dim)


def _json_list(values: tuple[str, ...]) -> str:
    return json.dumps(list(values), ensure_ascii=False)


def _meta(db: sqlite3.Connection, key: str) -> str | None:
    row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def embedder(db: sqlite3.Connection) -> tuple[str, int] | None:
    """The (model, dimension) the store was built with, if recorded."""
    model, dim = _meta(db, "embedder_model"), _meta(db, "embedder_dim")
    return None if model is None or dim is None else (model, int(dim))


def vector_dim(db: sqlite3.Connection) -> int | None:
    dim = _meta(db, "vector_dim")
    return None if dim is None else int(dim)
