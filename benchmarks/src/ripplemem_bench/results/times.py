"""The result of ``bench times``: time expressions grounded to the spans a suite expects."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from ripplemem_bench.results.base import Facts, Record

__all__ = ["TimesResult", "TimesScore"]


class TimesScore(Record):
    cases: int
    passed: int
    share: float  # of cases passed, in %
    expressions: int  # expected spans
    found: int  # of them found


class TimesResult(Facts):
    benchmark: Literal["times"]
    file: str | None = None
    split: str | None = None
    cases: int = 0
    ms_per_message: float = 0.0
    by_language: dict[str, TimesScore]
    by_category: dict[str, TimesScore]
    rows: list[dict[str, Any]] = Field(default_factory=list)
