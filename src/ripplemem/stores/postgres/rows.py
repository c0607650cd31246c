"""MemoryUnit <-> the ``unit`` table's columns (times as ISO text, so every unit reads back
exactly as it was written, naive or aware)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from ripplemem.errors import InvalidInputError
from ripplemem.records import MemoryUnit, TimeSpan
from ripplemem.stores.postgres.adapt import as_vector

__all__ = ["SELECT_UNITS", "UNIT_COLUMNS", "unit_from_row", "unit_values"]

UNIT_COLUMNS = (
    "namespace", "id", "restatement", "participants", "locations", "t_start", "t_end",
    "episode_id", "turn_ids", "session_time", "created_at", "time_phrases", "keywords", "extra",
)  # fmt: skip
_SELECTED = ", ".join(f"u.{column}" for column in UNIT_COLUMNS)
#: units with their vector (NULL when ``with_vectors`` is off) last; the caller adds WHERE ...
SELECT_UNITS = {
    True: f"SELECT u.seq, {_SELECTED}, v.embedding FROM unit AS u "
    "JOIN unit_vector AS v ON v.namespace = u.namespace AND v.seq = u.seq",
    False: f"SELECT u.seq, {_SELECTED}, NULL::vector FROM unit AS u",
}


def unit_values(unit: MemoryUnit) -> tuple[Any, ...]:
    """The ``unit`` row of a unit, in :data:`UNIT_COLUMNS` order."""
    try:
        extra = json.dumps(unit.extra, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError) as error:
        raise InvalidInputError(
            f"unit {unit.id!r} has extra data that is not JSON-serialisable ({error}); "
            "keep unit.extra to plain JSON values"
        ) from error
    span = unit.time_span
    return (
        unit.namespace,
        unit.id,
        unit.restatement,
        list(unit.participants),
        list(unit.locations),
        span.start.isoformat() if span else None,
        span.end.isoformat() if span else None,
        unit.episode_id,
        list(unit.turn_ids),
        unit.session_time.isoformat() if unit.session_time else None,
        unit.created_at.isoformat(),
        list(unit.time_phrases),
        list(unit.keywords),
        extra,
    )


def unit_from_row(row: tuple[Any, ...]) -> MemoryUnit:
    """A unit from a :data:`SELECT_UNITS` row (``seq`` first, the vector or None last)."""
    (_, namespace, unit_id, restatement, participants, locations, t_start, t_end, episode_id,
     turn_ids, session_time, created_at, time_phrases, keywords, extra, vector) = row  # fmt: skip
    span = (
        TimeSpan(datetime.fromisoformat(t_start), datetime.fromisoformat(t_end))
        if t_start is not None
        else None
    )
    return MemoryUnit(
        id=unit_id,
        namespace=namespace,
        restatement=restatement,
        vector=None if vector is None else as_vector(vector),
        participants=tuple(participants),
        locations=tuple(locations),
        time_span=span,
        episode_id=episode_id,
        turn_ids=tuple(turn_ids),
        session_time=datetime.fromisoformat(session_time) if session_time else None,
        created_at=datetime.fromisoformat(created_at),
        time_phrases=tuple(time_phrases),
        keywords=tuple(keywords),
        extra=json.loads(extra),
    )
