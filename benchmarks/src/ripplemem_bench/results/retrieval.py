"""The result of ``bench locomo`` / ``bench longmemeval`` (and ``merge``, ``--cross-fit``).

One run ingests every sample once and scores every recipe (and peer) on the same memory: the
header facts (split, models, profile, ingest cost) and one :class:`RecipeScores` per recipe.
A file of several runs of the same kind (``{"sqlite": run, "postgresql": run}``, or one run per
cross-fitting temperature) is :class:`RetrievalVariants`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, RootModel, model_serializer, model_validator

from ripplemem_bench.results.base import Facts, Record, Scores

__all__ = [
    "GROUP_KEYS",
    "AnswerRow",
    "AnswerScores",
    "CrossFit",
    "DatasetRun",
    "IngestSummary",
    "MergedPart",
    "QuestionRow",
    "QuestionSample",
    "RecipeScores",
    "Rejudged",
    "RejudgedRow",
    "RejudgedSystem",
    "RetrievalResult",
    "RetrievalVariants",
]

#: how each dataset names its groups of questions in a recipe's scores
GROUP_KEYS: dict[str, Literal["per_category", "per_question_type"]] = {
    "locomo": "per_category",
    "longmemeval": "per_question_type",
}


class QuestionRow(Record):
    """One question's scores for one recipe (``--details``): ``{"id", "group", <metric>: ...}``."""

    id: str
    group: str
    values: dict[str, float | None] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _gather(cls, data: Any) -> Any:
        if isinstance(data, dict) and "values" not in data:
            values = {k: v for k, v in data.items() if k not in ("id", "group")}
            return {"id": data.get("id"), "group": data.get("group"), "values": values}
        return data

    @model_serializer(mode="plain")
    def _flatten(self) -> dict[str, Any]:
        return {"id": self.id, "group": self.group, **self.values}


class AnswerRow(Record):
    """One answered question (``--answer --details``): what was asked, answered and judged;
    its scores (``f1``, ``bleu1``, ``j``, tokens, ``cited``) are the row's other fields."""

    id: str
    group: str
    question: str = ""  # empty in runs written before the rows kept it
    gold: str
    answer: str
    verdict: str
    citations: list[int] = Field(default_factory=list)
    seconds: float = 0.0
    answer_error: str | None = None
    judge_error: str | None = None


class RejudgedRow(Record):
    """One answer graded again (``bench rejudge``), beside the first judge's verdict."""

    id: str
    group: str
    verdict: str
    first_verdict: str
    tokens: int = 0


class RejudgedSystem(Record):
    questions: int = 0
    j: float | None = None
    judge_failures: int = 0
    agreement_with_first_judge: float | None = None
    judge_tokens: float | None = None  # per question
    per_question: list[RejudgedRow] = Field(default_factory=list)


class Rejudged(Record):
    """``bench rejudge``: the kept answers of the run graded by another judge."""

    judge_model: str
    judge_prompt: str
    systems: dict[str, RejudgedSystem]


class AnswerScores(Record):
    """Answer quality of one system (``--answer``): F1, BLEU-1, the judge's J, tokens, latency."""

    questions: int = 0
    metrics: dict[str, float | None] = Field(default_factory=dict)
    groups: dict[str, Scores] = Field(default_factory=dict)
    answer_failures: int = 0
    judge_failures: int = 0
    answer_ms_p50: float | None = None
    answer_ms_p95: float | None = None
    per_question: list[AnswerRow] | None = None


class RecipeScores(Record):
    """One recipe's (or peer's) scores: means over the scored questions, per group, latency."""

    budget: int | None = None
    token_budget: int | None = None
    metrics: dict[str, float | None] = Field(default_factory=dict)
    per_category: dict[str, Scores] | None = None  # LoCoMo
    per_question_type: dict[str, Scores] | None = None  # LongMemEval
    adversarial: Scores | None = None  # LoCoMo category 5, scored apart
    search_ms_p50: float | None = None
    search_ms_p95: float | None = None
    kind: Literal["recipe", "peer"] | None = None
    answers: AnswerScores | None = None
    per_question: list[QuestionRow] | None = None
    evaluated_on_fitted: bool | None = None  # asso weights asked on their own fitting questions

    def groups(self) -> dict[str, Scores]:
        """The per-group scores, whichever the dataset names them."""
        return self.per_category or self.per_question_type or {}


class IngestSummary(Record):
    conversations: int = 0
    seconds_per_conversation: float = 0.0
    seconds_total: float = 0.0
    units: int = 0
    units_per_conversation: float = 0.0
    edges: int = 0
    windows: int = 0
    llm_tokens: int = 0
    llm_tokens_per_conversation: float = 0.0
    kept_store: str | None = None  # --keep: the file the ingested conversations are kept in
    reused_conversations: int | None = None  # --keep: conversations read back, not ingested


class MergedPart(Record):
    """One of the runs a merged result was made of (``bench merge``)."""

    split: str | None = None
    skip: int = 0
    commit: str | None = None
    questions: int = 0
    load: list[float] | None = None
    date: str | None = None


class QuestionSample(Record):
    """``--questions N --seed S``: a fixed random sample of N scored questions per conversation."""

    per_conversation: int
    seed: int = 0


class CrossFit(Record):
    """``--cross-fit``: weights fitted on each half of the questions, scored on the other."""

    temperature: float | Literal["auto"]
    bins: int
    questions: dict[str, int]  # per half
    weights: dict[str, dict[str, Any]]  # per half, as fitted
    equal_weights: Any = None


class DatasetRun(Facts):
    """What every run over a dataset's samples records (``BenchRun.header``): the split, the
    questions scored and left out, the stages, the store, the profile, the ingest cost."""

    dataset: str
    split: str | None = None
    questions: int = 0
    excluded: dict[str, int] = Field(default_factory=dict)
    extractor: str | None = None
    planner: str | None = None
    store: str | None = None
    profile: dict[str, Any] | None = None
    packages: dict[str, str | None] = Field(default_factory=dict)
    ingest: IngestSummary = Field(default_factory=IngestSummary)
    token_budget: int | None = None
    peers: dict[str, dict[str, Any]] = Field(default_factory=dict)
    skip: int = 0
    weights: dict[str, Any] | None = None  # the fitted asso weights the run read
    evaluated_on_fitted: bool | None = None


class RetrievalResult(DatasetRun):
    """One retrieval run: who ran what on which split, and every recipe's scores."""

    question_sample: QuestionSample | None = None
    recipes: dict[str, RecipeScores]
    answering: dict[str, Any] | None = None
    merged_from: list[MergedPart] | None = None
    recipe: str | None = None  # --cross-fit: the recipe whose signals were collected
    cross_fit: CrossFit | None = None
    rejudged: Rejudged | None = None

    def group_key(self) -> str | None:
        return GROUP_KEYS.get(self.dataset)


class RetrievalVariants(RootModel[dict[str, RetrievalResult]]):
    """Several runs of the same kind in one file, by name (a backend, a temperature ...)."""

    def first(self) -> RetrievalResult:
        return next(iter(self.root.values()))

    def to_json(self) -> dict[str, Any]:
        return {name: run.to_json() for name, run in self.root.items()}
