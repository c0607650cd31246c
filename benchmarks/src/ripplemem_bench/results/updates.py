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
    "StageEffect",
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

    def stage_effect(self, recipe: str = "ripple", without: str = "ripple-no-supersession") -> StageEffect | None:
        """What the supersession stage changes, per question kind: the questions ``recipe``
        passes and ``without`` (the same recipe, the stage off) does not (helped), and the
        reverse (harmed); None unless both ran with their questions kept."""
        on, off = self.recipes.get(recipe), self.recipes.get(without)
        if on is None or off is None or not on.questions or not off.questions:
            return None
        passed_off = {q["id"]: bool(q["passed"]) for q in off.questions}
        effect = StageEffect(recipe=recipe, without=without)
        for question in on.questions:
            before = passed_off.get(question["id"])
            if before is None or before == bool(question["passed"]):
                continue
            found = effect.helped if question["passed"] else effect.harmed
            found[question["kind"]] = found.get(question["kind"], 0) + 1
        return effect


class StageEffect(Record):
    """The questions one recipe passes and its stage-off twin does not (``helped``), and the
    reverse (``harmed``), counted per question kind."""

    recipe: str
    without: str
    helped: dict[str, int] = Field(default_factory=dict)
    harmed: dict[str, int] = Field(default_factory=dict)


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
