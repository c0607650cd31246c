"""Supersession: a later unit that restates a value an earlier unit stated replaces it.

A ``supersedes`` edge (:data:`~ripplemem.records.unit.EdgeKind`) joins the two; edges are stored
undirected, and the successor is the end said later (:func:`said_order`: the session time, then
the turn's place in its session, then when the unit was stored). Both units are kept: the earlier
one is *superseded*, valid until its successor was said.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ripplemem.records.unit import MemoryUnit
from ripplemem.records.wire import VersionModel

_FAR_PAST = datetime.min


def said_at(unit: MemoryUnit) -> datetime:
    """When ``unit`` was said: its session time, or when it was stored."""
    return unit.session_time or unit.created_at


def said_order(unit: MemoryUnit) -> tuple[datetime, int, datetime, str]:
    """A key that orders units as they were said (ties broken by storage time, then id)."""
    when = unit.session_time or unit.created_at or _FAR_PAST
    turn = unit.extra.get("turn_index")
    return (when, turn if isinstance(turn, int) else 0, unit.created_at, unit.id)


@dataclass(frozen=True, slots=True)
class Version:
    """One unit of a supersession chain with the time its value held until (None: current)."""

    unit: MemoryUnit
    superseded_by: str | None
    valid_until: datetime | None

    def to_model(self) -> VersionModel:
        return VersionModel(
            unit=self.unit.to_model(with_vector=False), superseded_by=self.superseded_by,
            valid_until=self.valid_until,
        )

    def to_json(self) -> dict:
        """The version's JSON form (:class:`~ripplemem.records.wire.VersionModel`)."""
        return self.to_model().model_dump(mode="json")


def successor_of(unit: MemoryUnit, linked: list[MemoryUnit]) -> MemoryUnit | None:
    """The earliest unit of ``linked`` (its supersedes neighbours) said after ``unit``."""
    later = [u for u in linked if said_order(u) > said_order(unit)]
    return min(later, key=said_order) if later else None
