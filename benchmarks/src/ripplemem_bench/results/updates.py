"""The result of ``bench updates``: the knowledge-update suite, per recipe and question kind."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from ripplemem_bench.results.base import Facts, Record

__all__ = ["KindScore", "UpdateRecipe", "UpdatesResult"]


class KindScore(Record):
    questions: int
    passed: int
    share: float  # in %


class UpdateRecipe(Record):
    summary: dict[str, KindScore]  # current, history, control
    questions: list[dict[str, Any]] = Field(default_factory=list)


class UpdatesResult(Facts):
    kind: Literal["updates"]
    conversations: int = 0
    questions: int = 0
    extractor: str | None = None
    file: str | None = None
    split: str | None = None
    recipes: dict[str, UpdateRecipe]
