"""Stage: the time a question names — what happened then before what happened at other times.

A question that names a time of its own ("What did Maya do on 3 May?", "Where was I in April?",
"What did we do last weekend?") asks about what happened then. Its words also match memories of
other times ("I was in Rome from 3 to 7 April" shares "3" and a month with the first), and the
dense and lexical views cannot tell the dates apart, while the cue view, which can, is one view
among three. :func:`prefer_the_time` lowers by ``penalty`` (the term ``time`` of its
:class:`~ripplemem.records.ScoreTerms`) every unit whose time — its grounded span, else the day
it was said (:func:`~ripplemem.structure.structural_time`; each of the times it names, when they
lie too far apart for one span: :func:`~ripplemem.structure.times_of`) — lies wholly outside the
question's span, then sorts again (by the larger ``day_penalty`` when the question's time is a single day).
A unit without a time keeps its score, so does one whose time overlaps; the candidates are the
same.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from ripplemem.read.rank import lower
from ripplemem.records import Evidence, TimeSpan
from ripplemem.structure import times_of


def another_time(item: Evidence, span: TimeSpan) -> bool:
    """Whether each of the unit's times lies wholly before or after ``span`` (False without a
    time): a memory that names several times far apart is of each of them
    (:func:`~ripplemem.structure.times_of`)."""
    times = times_of(item.unit)
    return bool(times) and all(t.end < span.start or t.start > span.end for t in times)


def prefer_the_time(
    ranked: Sequence[Evidence], span: TimeSpan | None, penalty: float, day_penalty: float | None = None
) -> tuple[list[Evidence], int]:
    """``ranked`` with the units of another time than ``span`` ``penalty`` lower, best first;
    and how many were lowered (the order as is without a span). For a span of one day or less
    ("on 1 May, 2022", "yesterday") they are ``day_penalty`` lower when it is given: the
    narrower the time asked about, the less a memory of another time answers it."""
    items = list(ranked)
    if span is None or penalty <= 0:
        return items, 0
    outside = {item.unit.id for item in items if another_time(item, span)}
    if not outside:
        return items, 0
    if day_penalty is not None and span.end - span.start <= _DAY:
        penalty = day_penalty
    return lower(items, lambda item: item.unit.id in outside, penalty, "time"), len(outside)


#: a time asked about that lasts no longer than this is a day
_DAY = timedelta(days=1)
