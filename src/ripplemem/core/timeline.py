"""A namespace's units laid out in time: counts per bin, and the units of one window.

A unit is placed by its time span (when what it says happened); a unit without one by the
day it was said (its session time), as the linker compares them; a unit with neither is
``undated``. :func:`timeline` reads the namespace in pages, keeps only each unit's id and times,
and returns at most ``limit`` units (read again, without vectors): bins describe the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from ripplemem.records import MemoryUnit
from ripplemem.stores.base import MemoryStore

__all__ = ["MAX_BINS", "Placed", "Timeline", "TimelineBin", "TimelineUnit", "timeline"]

PAGE = 2_000
#: the most bins a timeline is cut into
MAX_BINS = 10_000


@dataclass(frozen=True, slots=True)
class Placed:
    id: str
    start: datetime
    end: datetime
    #: "span": the unit's own time span; "said": the day it was said
    basis: str


@dataclass(frozen=True, slots=True)
class TimelineUnit:
    unit: MemoryUnit
    start: datetime
    end: datetime
    #: "span": the unit's own time span; "said": the day it was said
    basis: str


@dataclass(frozen=True, slots=True)
class TimelineBin:
    start: datetime
    end: datetime
    count: int


@dataclass(frozen=True, slots=True)
class Timeline:
    total: int
    undated: int
    #: the first and last dated unit of the namespace (None when none is dated)
    first: datetime | None
    last: datetime | None
    bins: list[TimelineBin]
    #: the window's units, earliest first, at most ``limit``
    units: list[TimelineUnit]
    in_window: int


def timeline(
    store: MemoryStore,
    namespace: str,
    *,
    start: datetime | None = None,
    end: datetime | None = None,
    bins: int = 40,
    limit: int = 200,
    offset: int = 0,
) -> Timeline:
    """The units of ``namespace`` between ``start`` and ``end`` (default: all of them)."""
    placed: list[Placed] = []
    total = undated = 0
    while True:
        page = store.list_units(namespace, limit=PAGE, offset=total)
        for unit in page:
            if unit.time_span is not None:
                placed.append(Placed(unit.id, unit.time_span.start, unit.time_span.end, "span"))
            elif unit.session_time is not None:
                day = unit.session_time.replace(hour=0, minute=0, second=0, microsecond=0)
                placed.append(Placed(unit.id, day, day + timedelta(days=1), "said"))
            else:
                undated += 1
        total += len(page)
        if len(page) < PAGE:
            break
    placed.sort(key=lambda item: (item.start, item.id))
    first = placed[0].start if placed else None
    last = max((item.start for item in placed), default=None)
    low = start if start is not None else first
    high = end if end is not None else last
    window = [
        item for item in placed
        if low is not None and high is not None and low <= item.start <= high
    ]
    shown = window[offset : offset + limit]
    units = {u.id: u for u in store.get_units(namespace, [p.id for p in shown], with_vectors=False)}
    return Timeline(
        total=total,
        undated=undated,
        first=first,
        last=last,
        bins=_bins(window, low, high, bins),
        units=[TimelineUnit(units[p.id], p.start, p.end, p.basis) for p in shown if p.id in units],
        in_window=len(window),
    )


def _bins(
    items: list[Placed], low: datetime | None, high: datetime | None, count: int
) -> list[TimelineBin]:
    """``count`` equal bins over [low, high] (one bin when they are the same moment)."""
    if low is None or high is None or high < low or not items:
        return []
    width = (high - low) / count
    if width <= timedelta(0):
        return [TimelineBin(low, high, len(items))]
    counts = [0] * count
    for item in items:
        counts[min(int((item.start - low) / width), count - 1)] += 1
    return [
        TimelineBin(low + width * i, high if i == count - 1 else low + width * (i + 1), n)
        for i, n in enumerate(counts)
    ]
