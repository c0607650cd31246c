"""Cues: the who / where / when / what a query or a goal asks for."""

from __future__ import annotations

from dataclasses import dataclass

from ripplemem.records.time import TimeSpan


@dataclass(frozen=True, slots=True)
class Cues:
    """Grounded cues. Empty fields mean "not asked for", never "nobody / nowhere"."""

    text: str = ""
    keywords: tuple[str, ...] = ()
    participants: tuple[str, ...] = ()
    locations: tuple[str, ...] = ()
    time_span: TimeSpan | None = None

    @property
    def has_structure(self) -> bool:
        return bool(self.participants or self.locations or self.time_span)
