"""Temporal alignment: how well a unit's time matches the question's time constraint (§2).

The constraint comes from the question, grounded against the question's date with the write
path's grounding (:func:`ripplemem.read.query_cues.query_time`: rules + Duckling — "last May",
"two weekends ago", "in 2022"):

* **a span** ``C``: ``T(u) = 1`` when the unit's time overlaps ``C``, else
  ``exp(-gap_days / max(1, |C| in days))`` — a miss by a few days costs little for "last May",
  much for "yesterday"; a unit with no time at all gets 0;
* **temporal intent but no groundable span** ("when did ...", "how many days between X and Y",
  "the week before my trip", "after the concert"): the event reference cannot be grounded
  without recall, so units whose *event* time was grounded at write time get 1, others 0
  (the answer needs a dated unit);
* **no time named**: recency decay ``(e^{-a/3} + e^{-a/90} + e^{-a/365}) / 3`` of the age ``a``
  in days before the question date (the newest unit's time when the date is unknown).

A unit's time is its grounded event span, else the day it was said (session time).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ripplemem.records import MemoryUnit, TimeSpan

_INTENT = re.compile(
    r"\b(?:when|what (?:time|date|day|year|month)|which (?:day|date|year|month|week)|"
    r"how long|how many (?:days|weeks|months|years|hours) (?:did|does|will) it take|"
    r"how recently|"
    r"before|after|between|since|until|ago|first|last time|earliest|latest|recently|"
    r"date|dates|yesterday|today|tomorrow|week|weekend|month|year)\b",
    re.IGNORECASE,
)
DAY_SECONDS = 86_400.0


@dataclass(frozen=True, slots=True)
class TimeConstraint:
    """What the question asks of time: a grounded span, a bare intent, or nothing."""

    span: TimeSpan | None
    intent: bool
    phrases: tuple[str, ...] = ()

    @property
    def kind(self) -> str:
        return "span" if self.span is not None else "intent" if self.intent else "recency"


def time_constraint(
    question: str, question_date: datetime | None, *, day_first: bool = False
) -> TimeConstraint:
    """The question's time (``day_first``: ``Settings.date_order``)."""
    from ripplemem.read.query_cues import query_time

    span, phrases = query_time(question, question_date, day_first=day_first)
    intent = span is not None or bool(phrases) or bool(_INTENT.search(question))
    return TimeConstraint(span, intent, tuple(phrases))


def unit_time(unit: MemoryUnit) -> TimeSpan | None:
    if unit.time_span is not None:
        return unit.time_span
    return TimeSpan.day(unit.session_time) if unit.session_time else None


def recency(age_days: float) -> float:
    age = max(0.0, age_days)
    return (math.exp(-age / 3) + math.exp(-age / 90) + math.exp(-age / 365)) / 3


def span_closeness(span: TimeSpan | None, constraint: TimeSpan) -> float:
    if span is None:
        return 0.0
    tolerance = max(1.0, (constraint.end - constraint.start).total_seconds() / DAY_SECONDS)
    return math.exp(-span.gap_days(constraint) / tolerance)


def temporal_scores(
    units: Sequence[MemoryUnit],
    constraint: TimeConstraint,
    question_date: datetime | None,
    *,
    use_recency: bool = True,
) -> list[float]:
    """``T(u)`` for each unit, in [0, 1] (all 0 for a timeless question without recency)."""
    if constraint.span is not None:
        return [span_closeness(unit_time(u), constraint.span) for u in units]
    if constraint.intent:
        return [1.0 if u.time_span is not None else 0.0 for u in units]
    if not use_recency:
        return [0.0] * len(units)
    times = [unit_time(u) for u in units]
    # a time open towards the future ("from July on") is as recent as its start
    known = [t.start if t.open_ended else t.end for t in times if t is not None]
    reference = question_date or (max(known) if known else None)
    if reference is None:
        return [0.0] * len(units)
    return [
        recency((reference - (t.start if t.open_ended else t.end)).total_seconds() / DAY_SECONDS) if t is not None else 0.0
        for t in times
    ]
