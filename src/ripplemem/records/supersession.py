"""Supersession: a later unit that restates a value an earlier unit stated replaces it.

A ``supersedes`` edge (:data:`~ripplemem.records.unit.EdgeKind`) runs from the new unit to the old
one, and the store keeps its direction. Both units are kept: the old one is *superseded*, valid
until its successor was said. A chain is ordered by its edges (:func:`chain_order`): a unit comes
after every unit it supersedes, whatever the clocks say (an update said in the same second as
the memory it updates, a successor said earlier that an imported edge names); only units the edges leave unordered (two branches of
one chain) are ordered by :func:`said_order` (the session time, then the turn's place in its
session, then when the unit was stored).
"""

from __future__ import annotations

import heapq
from collections.abc import Collection, Iterable, Mapping
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


def chain_order(units: Iterable[MemoryUnit], older: Mapping[str, Collection[str]]) -> list[MemoryUnit]:
    """``units`` in the order their values held: each after every unit of them it supersedes
    (``older``: the ids each unit supersedes), and of the units the edges leave unordered, the
    one said first (:func:`said_order`) first. A cycle (edges written both ways by hand) is
    broken at its unit said first."""
    members = {u.id: u for u in units}
    waiting = {i: {o for o in older.get(i, ()) if o in members and o != i} for i in members}
    after: dict[str, list[str]] = {}
    for unit_id, before in waiting.items():
        for other in before:
            after.setdefault(other, []).append(unit_id)
    ready = [(said_order(members[i]), i) for i, before in waiting.items() if not before]
    heapq.heapify(ready)
    placed: dict[str, MemoryUnit] = {}
    while len(placed) < len(members):
        if not ready:  # a cycle: its unit said first goes on
            rest = min((u for i, u in members.items() if i not in placed), key=said_order)
            waiting[rest.id] = set()
            ready = [(said_order(rest), rest.id)]
        _, unit_id = heapq.heappop(ready)
        if unit_id in placed:
            continue
        placed[unit_id] = members[unit_id]
        for later in after.get(unit_id, ()):
            waiting[later].discard(unit_id)
            if not waiting[later] and later not in placed:
                heapq.heappush(ready, (said_order(members[later]), later))
    return list(placed.values())
