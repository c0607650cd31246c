"""What the time grounder reads in a message said on one Thursday: the grounding tests' probes."""

from __future__ import annotations

from datetime import datetime

from ripplemem.grounding.ground_time import ground_times

#: when the probed messages are said: Thursday 16 May 2024, 10:00
THURSDAY = datetime(2024, 5, 16, 10, 0)


def days(text: str, ref: datetime = THURSDAY) -> list[str]:
    """The first day of each time ``text`` names, said at ``ref``."""
    return [g.span.start.date().isoformat() for g in ground_times(text, ref) if g.span is not None]


def spans(text: str, ref: datetime = THURSDAY) -> list[tuple[str, str]]:
    """The first and last day of each time ``text`` names, said at ``ref``."""
    return [
        (g.span.start.date().isoformat(), g.span.end.date().isoformat())
        for g in ground_times(text, ref) if g.span is not None
    ]
