"""Calendar intervals: the day, week (Monday..Sunday), month and year around a date, as TimeSpans.

Every span runs from 00:00:00 of its first day to 23:59:59 of its last, as the stores and the
structural score compare them.
"""

from __future__ import annotations

import calendar
from collections.abc import Sequence
from datetime import date, datetime, timedelta

from ripplemem.records import TimeSpan

__all__ = [
    "SECOND",
    "day_span",
    "hull",
    "month_span",
    "occurrence",
    "shift_months",
    "unit_span",
    "week_span",
    "weekday_after",
    "weekday_before",
    "weekend_span",
    "year_span",
]

SECOND = timedelta(seconds=1)


def day_span(d: date) -> TimeSpan:
    start = datetime(d.year, d.month, d.day)
    return TimeSpan(start, start + timedelta(days=1) - SECOND)


def week_span(d: date) -> TimeSpan:
    monday = d - timedelta(days=d.weekday())
    return TimeSpan(day_span(monday).start, day_span(monday + timedelta(days=6)).end)


def weekend_span(saturday: date) -> TimeSpan:
    """The Saturday ``saturday`` and the Sunday after it."""
    return TimeSpan(day_span(saturday).start, day_span(saturday + timedelta(days=1)).end)


def weekday_after(d: date, weekday: int) -> date:
    """The first day after ``d`` that is ``weekday`` (Monday 0)."""
    return d + timedelta(days=(weekday - d.weekday() - 1) % 7 + 1)


def weekday_before(d: date, weekday: int) -> date:
    """The last day before ``d`` that is ``weekday`` (Monday 0)."""
    return d - timedelta(days=(d.weekday() - weekday - 1) % 7 + 1)


def month_span(year: int, month: int) -> TimeSpan:
    last = calendar.monthrange(year, month)[1]
    return TimeSpan(datetime(year, month, 1), datetime(year, month, last, 23, 59, 59))


def year_span(year: int) -> TimeSpan:
    return TimeSpan(datetime(year, 1, 1), datetime(year, 12, 31, 23, 59, 59))


def shift_months(d: date, months: int) -> tuple[int, int]:
    index = d.year * 12 + (d.month - 1) + months
    return index // 12, index % 12 + 1


def unit_span(reference: datetime, unit: str, offset: int) -> TimeSpan:
    """The day / week / month / year ``offset`` units from the reference (negative = past)."""
    d = reference.date()
    if unit == "day":
        return day_span(d + timedelta(days=offset))
    if unit == "week":
        return week_span(d + timedelta(weeks=offset))
    if unit == "month":
        return month_span(*shift_months(d, offset))
    return year_span(d.year + offset)


def hull(a: TimeSpan, b: TimeSpan) -> TimeSpan:
    return TimeSpan(min(a.start, b.start), max(a.end, b.end))


def occurrence(spans: Sequence[TimeSpan], reference: datetime, tense: str) -> TimeSpan:
    """Of the occurrences of a time that recurs (``spans``, not empty), the one a clause's
    ``tense`` names: the last that has begun by ``reference`` for "past", the first that has not
    ended before its day for "future", else (or when none is) the one that starts nearest it."""
    if tense == "past" and (begun := [s for s in spans if s.start <= reference]):
        return max(begun, key=lambda s: s.start)
    today = datetime(reference.year, reference.month, reference.day)
    if tense == "future" and (ahead := [s for s in spans if s.end >= today]):
        return min(ahead, key=lambda s: s.start)
    return min(spans, key=lambda s: abs(s.start - reference))
