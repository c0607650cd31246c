"""The results of the knowledge-update benchmarks.

``bench updates``: the project's update suite, per recipe and question kind
(:class:`UpdatesResult`). ``bench lme-updates``: LongMemEval's knowledge-update questions, whether
the latest gold session ranks above the earlier ones, and whether the session holding the answer
does (:class:`LmeUpdatesResult`).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from ripplemem_bench.results.base import Facts, Record
from ripplemem_bench.results.retrieval import DatasetRun

__all__ = [
    "GoldOrderRow",
    "KindScore",
    "LmeUpdateRecipe",
    "LmeUpdatesResult",
    "OrderSummary",
    "UpdateRecipe",
    "UpdatesResult",
]


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


class GoldOrderRow(Record):
    """Where one recall ranked a question's gold sessions (earliest first); None: not returned.

    ``answer_session``: the one gold session holding the answer, None when none or several do
    (then the latest stands for it); ``answer_first`` is None in runs written before it was read.
    """

    id: str
    sessions: list[str]
    ranks: list[int | None]
    latest_first: bool
    all_found: bool
    latest_found: bool
    answer_session: str | None = None
    answer_first: bool | None = None


class OrderSummary(Record):
    """Shares (in %) of the scored questions, and the counts behind them."""

    questions: int = 0
    latest_first: float = 0.0
    all_found: float = 0.0
    latest_found: float = 0.0
    latest_first_when_all_found: float = 0.0  # among the questions with every gold session found
    latest_first_count: int = 0
    all_found_count: int = 0
    latest_found_count: int = 0
    # the answer session first (the latest when no single session holds the answer); None in
    # runs written before it was read
    answer_first: float | None = None
    answer_first_count: int | None = None
    answer_sessions: int | None = None  # questions with an answer session
    earlier_answers: int | None = None  # of those, answer session not the latest


class LmeUpdateRecipe(Record):
    summary: OrderSummary
    search_ms_p50: float | None = None
    search_ms_p95: float | None = None
    questions: list[GoldOrderRow] = Field(default_factory=list)


class LmeUpdatesResult(DatasetRun):
    """``bench lme-updates``: one recall per knowledge-update question, read at ``k`` sessions."""

    kind: Literal["lme-updates"]
    question_type: str = "knowledge-update"
    k: int
    recipes: dict[str, LmeUpdateRecipe]
