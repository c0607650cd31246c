"""Time intervals on memory units and cues."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

#: the end of a span open towards the future: a change that starts and holds on ("from July
#: we'll be paying 1350", "Starting 1 Aug I work 4 days a week"), as "since" runs from the past
OPEN_END = datetime(9999, 12, 31, 23, 59, 59)


@dataclass(frozen=True, slots=True)
class TimeSpan:
    """A closed interval ``[start, end]`` of naive datetimes (the dialogue's own clock); one that
    ends at :data:`OPEN_END` is open towards the future (:meth:`onward`)."""

    start: datetime
    end: datetime

    def __post_init__(self) -> None:
        if self.end < self.start:
            raise ValueError(f"time span ends before it starts: {self.start} > {self.end}")

    @classmethod
    def day(cls, moment: datetime) -> TimeSpan:
        start = moment.replace(hour=0, minute=0, second=0, microsecond=0)
        return cls(start, start + timedelta(days=1) - timedelta(seconds=1))

    @classmethod
    def onward(cls, start: datetime) -> TimeSpan:
        """From ``start`` on, with no end ("from July", "starting 1 August")."""
        return cls(start, OPEN_END)

    @property
    def open_ended(self) -> bool:
        return self.end.replace(tzinfo=None) == OPEN_END

    def as_days(self, joiner: str = " to ") -> str:
        """Its first and last day ("2024-07-01 to 2024-07-31"), or "2024-07-01 onward" when open."""
        if self.open_ended:
            return f"{self.start:%Y-%m-%d} onward"
        return f"{self.start:%Y-%m-%d}{joiner}{self.end:%Y-%m-%d}"

    def overlaps(self, other: TimeSpan) -> bool:
        return self.start <= other.end and other.start <= self.end

    def gap_days(self, other: TimeSpan) -> float:
        """Days between the two intervals; 0 when they overlap."""
        if self.overlaps(other):
            return 0.0
        gap = other.start - self.end if self.end < other.start else self.start - other.end
        return gap.total_seconds() / 86400.0

    @property
    def midpoint(self) -> datetime:
        """The middle of the span; of one open towards the future, its start (the time known)."""
        return self.start if self.open_ended else self.start + (self.end - self.start) / 2

    def to_json(self) -> list[str]:
        return [self.start.isoformat(), self.end.isoformat()]

    @classmethod
    def from_json(cls, value: list[str] | None) -> TimeSpan | None:
        if not value:
            return None
        return cls(datetime.fromisoformat(value[0]), datetime.fromisoformat(value[1]))
