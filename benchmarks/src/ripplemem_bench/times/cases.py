"""Reading a time-expression suite file (``benchmarks/data/times_blind.json``) into typed cases.

Each case is one message, when it was said and the calendar span of every time expression in it
(inclusive days); a case with no expression expects no span at all.
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ripplemem.errors import InvalidInputError
from ripplemem_bench.suites import format_problem, read_suite

__all__ = ["Expected", "TimeCase", "TimeSuite", "load_time_cases"]

Grain = Literal["day", "weekend", "week", "month", "quarter", "season", "year", "range"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore")


class Expected(_Model):
    """One time expression as written and the days it names (``start`` to ``end``, inclusive)."""

    phrase: str
    start: date
    end: date
    grain: Grain

    @model_validator(mode="after")
    def _ordered(self) -> Expected:
        if self.end < self.start:
            raise ValueError(f"{self.phrase!r}: ends ({self.end}) before it starts ({self.start})")
        return self


class TimeCase(_Model):
    id: str
    lang: str
    category: str
    split: str = "tune"
    said_at: datetime
    text: str = Field(min_length=1)
    expect: list[Expected] = Field(default_factory=list)

    @model_validator(mode="after")
    def _phrases_in_text(self) -> TimeCase:
        missing = [e.phrase for e in self.expect if e.phrase not in self.text]
        if missing:
            raise ValueError(f"phrases not in the text: {missing}")
        return self


class TimeSuite(_Model):
    about: str = ""
    cases: list[TimeCase]


def load_time_cases(path: str | Path, *, split: str = "all") -> list[TimeCase]:
    """The cases of the suite at ``path`` in ``split`` (``all``: every case), or a clear error."""
    try:
        suite = TimeSuite.model_validate(read_suite(path, "times"))
    except ValidationError as error:
        raise format_problem(path, "times", error) from None
    cases = [c for c in suite.cases if split == "all" or c.split == split]
    if not cases:
        splits = sorted({c.split for c in suite.cases})
        raise InvalidInputError(f"{path} has no case in split {split!r} (its splits: {', '.join(splits)}, all)")
    return cases
