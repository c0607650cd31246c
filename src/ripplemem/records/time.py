"""Time intervals on memory units and cues."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta


@dataclass(frozen=True, slots=True)
class TimeSpan:
    """A closed interval ``[start, end]`` of naive datetimes (the dialogue's own clock)."""

    start: datetime
    end: datetime

    def __post_init__(self) -> None:
        if self.end < self.start:
            raise ValueError(f"time span ends before it starts: {self.start} > {self.end}")

    @classmethod
    def day(cls, moment: datetime) -> TimeSpan:
        start = moment.replace(hour=0, minute=0, second=0, microsecond=0)
        return cls(start, start + timedelta(days=1) - timedelta(seconds=1))

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
        return self.start + (self.end - self.start) / 2

    def to_json(self) -> list[str]:
        return [self.start.isoformat(), self.end.isoformat()]

    @classmethod
    def from_json(cls, value: list[str] | None) -> TimeSpan | None:
        if not value:
            return None
        return cls(datetime.fromisoformat(value[0]), datetime.fromisoformat(value[1]))
