"""Cue and time keys shared by the store backends, so lookups mean the same everywhere.

* A unit's *cue keys* are ``("P", value)`` per participant and ``("L", value)`` per location,
  normalised with :func:`ripplemem.records.normalise_cue`, empty values dropped.
* A unit's *time key* is the start of its time span, else its session time, in epoch seconds.
* Time spans are indexed by *duration bucket*: bucket ``b`` holds spans lasting at most
  ``2**b`` days. An overlap lookup for ``[a, b]`` then scans, per bucket, only the starts in
  ``[a - 2**b days, b]``, so a few year-long spans never force a scan of every short one.
* Candidate selection: scan outwards from the reference point (``<= x`` descending and ``> x``
  ascending, each limited to ``n``), then :func:`pick_nearest` keeps the ``n`` closest.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import UTC, datetime

from ripplemem.records import MemoryUnit, TimeSpan, named_times, normalise_cue

__all__ = [
    "DAY",
    "bucket_width",
    "cue_keys",
    "epoch_seconds",
    "pick_nearest",
    "span_bucket",
    "span_seconds",
    "time_key",
]

DAY = 86_400.0
_EPOCH = datetime(1970, 1, 1)
_MAX_BUCKET = 40


def epoch_seconds(moment: datetime) -> float:
    """Seconds since 1970-01-01 of a naive datetime (aware ones are taken in UTC)."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return (moment - _EPOCH).total_seconds()


def cue_keys(participants: Iterable[str], locations: Iterable[str]) -> list[tuple[str, str]]:
    keys = [("P", normalise_cue(value)) for value in participants]
    keys += [("L", normalise_cue(value)) for value in locations]
    return [key for key in dict.fromkeys(keys) if key[1]]


def time_key(unit: MemoryUnit) -> float | None:
    if unit.time_span is not None:
        return epoch_seconds(unit.time_span.start)
    if unit.session_time is not None:
        return epoch_seconds(unit.session_time)
    return None


def span_seconds(span: TimeSpan) -> tuple[float, float]:
    return epoch_seconds(span.start), epoch_seconds(span.end)


def span_rows(span: TimeSpan | None, extra: dict | None) -> list[tuple[int, float, float]]:
    """The time index's rows of a unit, ``(bucket, start, end)``: one for each time it names when
    they lie too far apart for one span (:func:`~ripplemem.records.named_times`), else one for
    its ``time_span``, else none."""
    spans = named_times(extra) or ((span,) if span is not None else ())
    # a row is keyed by its bucket and start: two times that start together in one bucket are
    # one row, to the later end (their union)
    rows: dict[tuple[int, float], float] = {}
    for start, end in (span_seconds(s) for s in spans):
        key = (span_bucket(start, end), start)
        rows[key] = max(end, rows.get(key, end))
    return sorted((bucket, start, end) for (bucket, start), end in rows.items())


def stored_span_rows(t_start: str | None, t_end: str | None, extra: str | dict | None) -> list[tuple[int, float, float]]:
    """:func:`span_rows` of a unit as a store's row keeps it: its span as ISO text, its
    ``extra`` as JSON text (or already read)."""
    span = None
    if t_start is not None and t_end is not None:
        span = TimeSpan(datetime.fromisoformat(t_start), datetime.fromisoformat(t_end))
    return span_rows(span, json.loads(extra) if isinstance(extra, str) else extra)


def span_bucket(start: float, end: float) -> int:
    """The smallest ``b`` with ``end - start <= 2**b`` days."""
    bucket, width = 0, DAY
    while end - start > width and bucket < _MAX_BUCKET:
        bucket += 1
        width *= 2.0
    return bucket


def bucket_width(bucket: int) -> float:
    return DAY * 2.0**bucket


def pick_nearest(
    candidates: Iterable[tuple[float, int, str]], reference: float, n: int
) -> list[str]:
    """Ids of the ``n`` candidates ``(time, seq, id)`` closest to ``reference``.

    Ties go to the most recently added (higher seq).
    """
    ranked = sorted(set(candidates), key=lambda c: (abs(c[0] - reference), -c[1]))
    out: list[str] = []
    for _, _, unit_id in ranked:
        if unit_id not in out:
            out.append(unit_id)
            if len(out) == n:
                break
    return out
