"""Cues: the who / where / when / what a query or a goal asks for."""

from __future__ import annotations

from dataclasses import dataclass

from ripplemem.records.time import TimeSpan
from ripplemem.records.wire import CuesModel


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

    def to_model(self) -> CuesModel:
        span = self.time_span
        return CuesModel(
            text=self.text,
            keywords=list(self.keywords),
            participants=list(self.participants),
            locations=list(self.locations),
            time_span=[span.start, span.end] if span else None,
        )

    @classmethod
    def from_model(cls, model: CuesModel) -> Cues:
        span = model.time_span
        return cls(
            text=model.text,
            keywords=tuple(model.keywords),
            participants=tuple(model.participants),
            locations=tuple(model.locations),
            time_span=TimeSpan(span[0], span[1]) if span else None,
        )
