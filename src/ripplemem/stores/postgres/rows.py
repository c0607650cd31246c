"""MemoryUnit <-> the ``unit`` table's columns (times as ISO text, so every unit reads back
exactly as it was written, naive or aware)."""

from __future__ import annotations

from typing import Any

from ripplemem.records import MemoryUnit
from ripplemem.stores.postgres.adapt import as_vector
from ripplemem.stores.unit_row import unit_columns, unit_from_columns

__all__ = ["SELECT_UNITS", "UNIT_COLUMNS", "unit_from_row", "unit_values"]

UNIT_COLUMNS = (
    "namespace", "id", "restatement", "participants", "locations", "t_start", "t_end",
    "episode_id", "turn_ids", "session_time", "created_at", "time_phrases", "keywords", "extra",
    "speakers", "metadata",
)  # fmt: skip
_SELECTED = ", ".join(f"u.{column}" for column in UNIT_COLUMNS)
#: units with their vector (NULL when ``with_vectors`` is off) last; the caller adds WHERE ...
SELECT_UNITS = {
    True: f"SELECT u.seq, {_SELECTED}, v.embedding FROM unit AS u "
    "JOIN unit_vector AS v ON v.namespace = u.namespace AND v.seq = u.seq",
    False: f"SELECT u.seq, {_SELECTED}, NULL::vector FROM unit AS u",
}


def unit_values(unit: MemoryUnit) -> tuple[Any, ...]:
    """The ``unit`` row of a unit, in :data:`UNIT_COLUMNS` order (lists as ``text[]``)."""
    return unit_columns(unit, list)


def unit_from_row(row: tuple[Any, ...]) -> MemoryUnit:
    """A unit from a :data:`SELECT_UNITS` row (``seq`` first, the vector or None last)."""
    vector = row[-1]
    return unit_from_columns(row[1:-1], None if vector is None else as_vector(vector), tuple)
