"""The filter index every persistent store keeps: what a unit is found under by a search filter
(:class:`~ripplemem.records.filters.SearchFilter`), shared by the SQLite and PostgreSQL stores.

* ``unit_facet`` rows ``(namespace, facet, value, seq, unit_id)``: ``facet`` is ``m:<key>`` for
  a metadata key (``value`` its indexed JSON form, one row per scalar and per scalar of a list:
  :func:`~ripplemem.records.filters.metadata_facets`) or ``speaker`` (``value`` the speaker,
  case- and space-folded);
* ``unit_said`` rows ``(namespace, said, seq, unit_id)``: when the unit was said (its session
  time, as epoch seconds of the naive time), for the time range.

A filter is resolved to the ids of its units by one index range scan per asked value, so the
cost follows the number of matching units, not the size of the namespace.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ripplemem.records import MemoryUnit, normalise_cue
from ripplemem.records.filters import SearchFilter, facet_value, metadata_facets
from ripplemem.stores.cuekeys import epoch_seconds

__all__ = ["SPEAKER", "facet_rows", "facet_rows_of", "filter_groups", "said_key", "said_range"]

SPEAKER = "speaker"


def facet_rows(unit: MemoryUnit) -> list[tuple[str, str]]:
    """The (facet, value) pairs ``unit`` is indexed under."""
    return facet_rows_of(unit.speakers, unit.metadata)


def facet_rows_of(speakers: Iterable[str], metadata: Mapping[str, Any]) -> list[tuple[str, str]]:
    """:func:`facet_rows` from a unit's speakers and metadata."""
    rows = [(f"m:{key}", value) for key, value in metadata_facets(metadata)]
    rows += [(SPEAKER, normalise_cue(s)) for s in dict.fromkeys(speakers) if normalise_cue(s)]
    return list(dict.fromkeys(rows))


def said_key(unit: MemoryUnit) -> float | None:
    return epoch_seconds(unit.session_time) if unit.session_time is not None else None


def filter_groups(where: SearchFilter) -> list[list[tuple[str, str]]]:
    """The filter's facet lookups: a unit must be found under one pair of every group."""
    groups = [
        [(f"m:{key}", facet_value(value)) for value in values] for key, values in where.metadata
    ]
    if where.speakers:
        groups.append(list(dict.fromkeys((SPEAKER, normalise_cue(s)) for s in where.speakers)))
    return groups


def said_range(where: SearchFilter) -> tuple[float, float] | None:
    """``[low, high)`` in epoch seconds, or None when the filter sets no time bound."""
    if where.said_after is None and where.said_before is None:
        return None
    low = epoch_seconds(where.said_after) if where.said_after is not None else float("-inf")
    high = epoch_seconds(where.said_before) if where.said_before is not None else float("inf")
    return low, high
