"""Search filters: which memory units a search may return, decided before any view cuts its list.

A :class:`SearchFilter` is an AND of its parts; each part is an OR of its values:

* ``metadata``: for each key, the unit's metadata value is one of the given values (a unit whose
  value under that key is a list matches when the list holds one of them); values are JSON
  scalars (text, numbers, true / false, null);
* ``speakers``: the unit was said by one of them (case- and space-folded, as cues are);
* ``said_after`` / ``said_before``: the unit was said (its session time) at or after / before
  these times; a unit without a session time matches no time bound.

The dict form users write (``Memory.search(..., filters=...)``, the REST and MCP ``filters``):

    {"metadata": {"topic": "food", "mood": ["happy", "calm"]},
     "speaker": "Alex",                      # or a list
     "after": "2026-01-01", "before": "2026-02-01"}

Any other top-level key is a metadata key (mem0's ``filters={"category": "food"}``);
``metadata`` holds keys that would collide with these names. ``user_id``, ``agent_id`` and
``run_id`` are refused at the top level (mem0 takes them there): they are arguments of the search,
which choose the namespace, not filters within it. :meth:`SearchFilter.matches` is the
reference semantics every store's index must agree with (the store contract suite checks it).
"""

from __future__ import annotations

import json
import math
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ripplemem.errors import InvalidInputError
from ripplemem.records.unit import MemoryUnit, normalise_cue

__all__ = [
    "FilterError",
    "Scalar",
    "SearchFilter",
    "facet_value",
    "metadata_facets",
    "parse_filters",
]

Scalar = str | int | float | bool | None
RESERVED = ("metadata", "speaker", "speakers", "after", "before")
#: whose memories: arguments of the search, never filters (mem0 also takes them in ``filters``)
SCOPES = ("user_id", "agent_id", "run_id")


class FilterError(InvalidInputError):
    """A filter that cannot be applied; the message says how to write it."""


@dataclass(frozen=True, slots=True)
class SearchFilter:
    """An AND of metadata values, speakers and a said-time range (see the module notes)."""

    metadata: tuple[tuple[str, tuple[Scalar, ...]], ...] = ()
    speakers: tuple[str, ...] = ()
    said_after: datetime | None = None
    said_before: datetime | None = None

    @property
    def empty(self) -> bool:
        return not (self.metadata or self.speakers or self.said_after or self.said_before)

    def matches(self, unit: MemoryUnit) -> bool:
        """Whether ``unit`` passes: the semantics every store's filter index implements."""
        for key, values in self.metadata:
            if key not in unit.metadata:
                return False
            held = {facet_value(v) for v in _scalars(unit.metadata[key])}
            if not held & {facet_value(v) for v in values}:
                return False
        if self.speakers:
            said_by = {normalise_cue(s) for s in unit.speakers}
            if not said_by & {normalise_cue(s) for s in self.speakers}:
                return False
        if self.said_after is not None or self.said_before is not None:
            if unit.session_time is None:
                return False
            said = _naive(unit.session_time)
            if self.said_after is not None and said < self.said_after:
                return False
            if self.said_before is not None and said >= self.said_before:
                return False
        return True

    def before_bound(self, moment: datetime) -> bool:
        """Whether ``moment`` comes before the ``before`` bound (always, without one): a unit's
        successor said then had replaced it as of the time the filter asks about."""
        return self.said_before is None or _naive(moment) < self.said_before

    def to_json(self) -> dict[str, Any]:
        """The dict form :func:`parse_filters` reads back (keys left out when unused)."""
        out: dict[str, Any] = {}
        if self.metadata:
            out["metadata"] = {k: list(v) if len(v) != 1 else v[0] for k, v in self.metadata}
        if self.speakers:
            out["speaker"] = list(self.speakers)
        if self.said_after is not None:
            out["after"] = self.said_after.isoformat()
        if self.said_before is not None:
            out["before"] = self.said_before.isoformat()
        return out

    def __repr__(self) -> str:
        return f"SearchFilter({self.to_json()!r})"


def parse_filters(value: SearchFilter | Mapping[str, Any] | None) -> SearchFilter | None:
    """The filter a caller wrote, checked; None when it filters nothing. Raises FilterError."""
    if value is None or isinstance(value, SearchFilter):
        return None if value is None or value.empty else value
    if not isinstance(value, Mapping):
        raise FilterError(
            f"filters must be a dict such as {{'topic': 'food', 'speaker': 'Alex'}}, "
            f"got {type(value).__name__}"
        )
    metadata: dict[str, tuple[Scalar, ...]] = {}
    nested = value.get("metadata")
    if nested is not None:
        if not isinstance(nested, Mapping):
            raise FilterError(
                f"filters['metadata'] must be a dict of key -> value(s), got {type(nested).__name__}"
            )
        for key, wanted in nested.items():
            metadata[_key(key)] = _values(key, wanted)
    for key, wanted in value.items():
        if key in RESERVED:
            continue
        if key in SCOPES:
            raise FilterError(
                f"filters[{key!r}]: whose memories to search is not a filter: pass {key}=... to "
                f"search itself; a metadata key named {key!r} goes in filters['metadata']"
            )
        if _key(key) in metadata:
            raise FilterError(f"the metadata key {key!r} is given twice in filters")
        metadata[key] = _values(key, wanted)
    speakers = _speakers(value.get("speakers", value.get("speaker")))
    after = _time(value.get("after"), "after")
    before = _time(value.get("before"), "before")
    if after is not None and before is not None and after >= before:
        raise FilterError(
            f"filters 'after' ({after.isoformat()}) must be earlier than 'before' "
            f"({before.isoformat()})"
        )
    found = SearchFilter(tuple(sorted(metadata.items())), speakers, after, before)
    return None if found.empty else found


def facet_value(value: Scalar) -> str:
    """A scalar's indexed form: JSON text, with integral floats as integers (1.0 == 1)."""
    if isinstance(value, float) and value.is_integer() and math.isfinite(value):
        value = int(value)
    return json.dumps(value, ensure_ascii=False)


def metadata_facets(metadata: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The (key, indexed value) pairs a unit's metadata is found under: each scalar value, and
    each scalar inside a list value. Objects are stored but not indexed."""
    out: dict[tuple[str, str], None] = {}
    for key, value in metadata.items():
        for scalar in _scalars(value):
            out[(key, facet_value(scalar))] = None
    return list(out)


def _scalars(value: Any) -> Iterable[Scalar]:
    if isinstance(value, list | tuple):
        return [v for v in value if _is_scalar(v)]
    return [value] if _is_scalar(value) else []


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _key(key: Any) -> str:
    if not isinstance(key, str) or not key.strip():
        raise FilterError(f"a metadata key in filters must be a non-empty string, got {key!r}")
    return key


def _values(key: str, wanted: Any) -> tuple[Scalar, ...]:
    if isinstance(wanted, Mapping):
        raise FilterError(
            f"filters[{key!r}] is an object ({dict(wanted)!r}): give a value or a list of "
            f"values, e.g. {{{key!r}: ['a', 'b']}} for 'any of' (mem0's {{'in': [...]}})"
        )
    values = list(wanted) if isinstance(wanted, list | tuple | set | frozenset) else [wanted]
    if not values:
        raise FilterError(f"filters[{key!r}] is an empty list: it would match nothing")
    for item in values:
        if not _is_scalar(item) or (isinstance(item, float) and not math.isfinite(item)):
            raise FilterError(
                f"filters[{key!r}] holds {item!r}: values are text, numbers, true/false or null"
            )
    return tuple(dict.fromkeys(values))


def _speakers(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    values = list(value) if isinstance(value, list | tuple | set | frozenset) else [value]
    for item in values:
        if not isinstance(item, str) or not normalise_cue(item):
            raise FilterError(f"filters 'speaker' must be a name or a list of names, got {item!r}")
    # in the composed form speakers are stored in (NFC: ripplemem.write.input_checks)
    return tuple(dict.fromkeys(unicodedata.normalize("NFC", v) for v in values))


def _time(value: Any, what: str) -> datetime | None:
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.strip())
        except ValueError:
            raise FilterError(
                f"filters {what!r} must be an ISO 8601 time such as '2026-03-01' or "
                f"'2026-03-01T18:30', got {value!r}"
            ) from None
    if not isinstance(value, datetime):
        raise FilterError(
            f"filters {what!r} must be a datetime or an ISO 8601 string, got {type(value).__name__}"
        )
    return _naive(value)


def _naive(moment: datetime) -> datetime:
    """Session times are naive (aware ones are stored in UTC): compare in that clock."""
    if moment.tzinfo is not None and moment.utcoffset() is not None:
        return moment.astimezone(UTC).replace(tzinfo=None)
    return moment.replace(tzinfo=None)
