"""A unit as the 16 columns of a ``unit`` row, shared by the SQLite and PostgreSQL stores.

The stores differ only in how a list column is kept (JSON text in SQLite, ``text[]`` in
PostgreSQL) and how the vector is read, so both are parameters here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any

import numpy as np

from ripplemem.errors import InvalidInputError
from ripplemem.records import MemoryUnit, TimeSpan

__all__ = ["moment_column", "unit_columns", "unit_from_columns"]


def unit_columns(unit: MemoryUnit, as_list: Callable[[tuple[str, ...]], Any]) -> tuple[Any, ...]:
    """The ``unit`` row of a unit (namespace, id, restatement, participants, locations, span
    start and end, episode, turns, session time, created, time phrases, keywords, extra,
    speakers, metadata)."""
    extra = _json_object(unit, "extra", unit.extra)
    metadata = _json_object(unit, "metadata", unit.metadata)
    span = unit.time_span
    return (
        unit.namespace,
        unit.id,
        unit.restatement,
        as_list(unit.participants),
        as_list(unit.locations),
        span.start.isoformat() if span else None,
        span.end.isoformat() if span else None,
        unit.episode_id,
        as_list(unit.turn_ids),
        unit.session_time.isoformat() if unit.session_time else None,
        unit.created_at.isoformat(),
        as_list(unit.time_phrases),
        as_list(unit.keywords),
        extra,
        as_list(unit.speakers),
        metadata,
    )


def _json_object(unit: MemoryUnit, what: str, value: dict) -> str:
    if not isinstance(value, dict):
        raise InvalidInputError(
            f"unit {unit.id!r} has {what} of type {type(value).__name__}: give a dict"
        )
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise InvalidInputError(
            f"unit {unit.id!r} has {what} that is not JSON-serialisable ({error}); "
            f"keep unit.{what} to plain JSON values"
        ) from error


def unit_from_columns(
    columns: Sequence[Any],
    vector: np.ndarray | None,
    from_list: Callable[[Any], tuple[str, ...]],
) -> MemoryUnit:
    """Inverse of :func:`unit_columns`."""
    (namespace, unit_id, restatement, participants, locations, t_start, t_end, episode_id,
     turn_ids, session_time, created_at, time_phrases, keywords, extra, speakers,
     metadata) = columns  # fmt: skip
    span = TimeSpan(_moment(t_start), _moment(t_end)) if t_start is not None else None
    return MemoryUnit(
        id=unit_id,
        namespace=namespace,
        restatement=restatement,
        vector=vector,
        participants=from_list(participants),
        locations=from_list(locations),
        time_span=span,
        episode_id=episode_id,
        turn_ids=from_list(turn_ids),
        session_time=_moment(session_time) if session_time else None,
        created_at=_moment(created_at),
        time_phrases=from_list(time_phrases),
        keywords=from_list(keywords),
        speakers=from_list(speakers),
        metadata=_json_dict(metadata),
        extra=_json_dict(extra),
    )


def moment_column(text: str | None) -> datetime | None:
    """A time column as the unit reads it (None for NULL)."""
    return _moment(text) if text else None


@lru_cache(maxsize=8192)
def _moment(text: str) -> datetime:
    """A time column; cached (datetimes are immutable): a store repeats the same few session
    and creation times, and a recall reads a hundred units."""
    return datetime.fromisoformat(text)


def _json_dict(text: str) -> dict:
    """A JSON object column as a new dict; most units' metadata is empty, read without the
    parser, and an object of plain values (most units' ``extra``: ``{"turn_index": 3}``) is
    parsed once per text and copied."""
    if text == "{}":
        return {}
    flat = _flat_object(text)
    return dict(flat) if flat is not None else json.loads(text)


@lru_cache(maxsize=8192)
def _flat_object(text: str) -> dict | None:
    """The object of ``text`` when each of its values is a number, a string, a boolean or null
    (a copy of it shares nothing that could change), else None."""
    found = json.loads(text)
    plain = isinstance(found, dict) and all(
        value is None or isinstance(value, (str, int, float)) for value in found.values()
    )
    return found if plain else None
