"""The one JSON form of the records: what export files, the REST API, the MCP tools, the
viewer's API and the command line's ``--json`` carry.

Each record has a pydantic model here (the schema: ``Model.model_json_schema()``; the service's
OpenAPI document is built from them) and ``to_json`` / ``from_json`` on the record itself, which go
through these models. Datetimes are ISO 8601 strings in the dialogue's own clock (naive); a time
span is ``[start, end]``. A vector is a list of numbers that round-trips bit-exactly to the stored
float32 vector (each number is the shortest decimal of its float32 value); responses leave it out
unless asked for (``null``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "AddResultModel",
    "AnswerModel",
    "ClueModel",
    "CountModel",
    "CuesModel",
    "EdgeModel",
    "EdgesModel",
    "EvidenceModel",
    "ExpansionPathModel",
    "HistoryModel",
    "HitModel",
    "RecallModel",
    "RecallPlanModel",
    "RecallTraceModel",
    "ScoreTermsModel",
    "UnitModel",
    "UnitPageModel",
    "VersionModel",
    "vector_from_json",
    "vector_to_json",
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


TimeSpanJSON = list[datetime]  # [start, end]


def vector_to_json(vector: np.ndarray | None) -> list[float] | None:
    """float32 components as the shortest decimals that read back to the same float32 values."""
    if vector is None:
        return None
    return [float(str(x)) for x in np.asarray(vector, dtype=np.float32)]


def vector_from_json(values: list[float] | None) -> np.ndarray | None:
    return None if values is None else np.asarray(values, dtype=np.float32)


class UnitModel(_Model):
    """A memory unit ``m = (r, v, P, L, T)`` with its provenance."""

    id: str
    namespace: str
    restatement: str
    vector: list[float] | None = None
    participants: list[str] = Field(default_factory=list)
    locations: list[str] = Field(default_factory=list)
    time_span: TimeSpanJSON | None = Field(
        default=None, min_length=2, max_length=2, description="[start, end]"
    )
    episode_id: str = ""
    turn_ids: list[str] = Field(default_factory=list)
    session_time: datetime | None = None
    created_at: datetime
    time_phrases: list[str] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    speakers: list[str] = Field(
        default_factory=list, description="who said the turns the unit comes from"
    )
    metadata: dict[str, Any] = Field(
        default_factory=dict, description="the caller's JSON object, given on add"
    )
    extra: dict[str, Any] = Field(default_factory=dict)


class EdgeModel(_Model):
    """A weighted edge between two units of one namespace: undirected, but a ``supersedes`` edge
    runs new -> old (``src`` replaces ``dst``)."""

    namespace: str
    src: str
    dst: str
    kind: Literal["semantic", "structural", "supersedes"]
    weight: float


class ClueModel(_Model):
    """A topic node of the AssoMem clue graph."""

    id: str
    namespace: str
    text: str
    vector: list[float] | None = None
    source: Literal["llm", "keyphrases"]
    sessions: int = 1


class ExtractionFallbackModel(_Model):
    """Turns the fallback extractor wrote because the primary one failed on them."""

    session_id: str
    turn_ids: list[str]
    extractor: str = Field(description="what wrote the units instead, e.g. deterministic")
    instead_of: str = Field(description="the extractor that failed, e.g. llm:<model>")
    reason: str
    units: int


class AddResultModel(_Model):
    """What one ``add`` stored."""

    units: list[UnitModel]
    edges: int
    windows: int
    skipped: int = Field(description="units already stored (re-adding is idempotent)")
    tokens: int = Field(description="LLM tokens spent on extraction and clues (0 offline)")
    clues: int
    clue_links: int
    seconds: float
    timings_ms: dict[str, float]
    fallbacks: list[ExtractionFallbackModel] = Field(
        default_factory=list,
        description="turns extracted by the fallback extractor because the LLM failed on them",
    )


class HitModel(_Model):
    view: Literal["dense", "lexical", "cue", "expansion", "context", "clue", "focus"]
    rank: int
    score: float


class ExpansionPathModel(_Model):
    anchor: str
    channel: Literal["semantic", "structural", "supersedes"]
    nodes: list[str] = Field(description="anchor first, the reached unit last")
    path_weight: float
    goal_score: float


class ScoreTermsModel(_Model):
    alignment: float
    provenance: float
    anchor: float
    extra: dict[str, float] = Field(default_factory=dict)
    total: float = 0.0


class EvidenceModel(_Model):
    """One recalled unit: its score, the views that found it, its score terms and paths."""

    unit: UnitModel
    score: float
    views: list[str] = Field(default_factory=list, description="derived from hits (read only)")
    hits: list[HitModel] = Field(default_factory=list)
    terms: ScoreTermsModel | None = None
    paths: list[ExpansionPathModel] = Field(default_factory=list)
    superseded_by: str | None = Field(
        default=None, description="id of the unit that replaced this unit's value"
    )
    valid_until: datetime | None = Field(
        default=None, description="when the successor was said (None: still current)"
    )


class CuesModel(_Model):
    text: str = ""
    keywords: list[str] = Field(default_factory=list)
    participants: list[str] = Field(default_factory=list)
    locations: list[str] = Field(default_factory=list)
    time_span: TimeSpanJSON | None = Field(default=None, min_length=2, max_length=2)


class RecallPlanModel(_Model):
    proceed: bool
    anchors: list[str]
    goal: CuesModel | None = None
    stop_reason: str = ""
    planner: str = ""
    tokens: int = 0


class RecallTraceModel(_Model):
    """How a recall went: cues, each view's initial hits, plans, expansions, timings, notes."""

    query: str
    namespace: str
    recipe: str
    cues: CuesModel | None = None
    initial: dict[str, list[tuple[str, float]]] = Field(default_factory=dict)
    plans: list[RecallPlanModel] = Field(default_factory=list)
    expansions: list[ExpansionPathModel] = Field(default_factory=list)
    timings_ms: dict[str, float] = Field(default_factory=dict)
    notes: list[str] = Field(default_factory=list)


class RecallModel(_Model):
    """What ``search`` returns: the evidence, best first, and the recall trace."""

    evidence: list[EvidenceModel]
    trace: RecallTraceModel


class AnswerModel(_Model):
    """What ``answer`` returns: the model's short answer and the evidence it was given."""

    text: str
    evidence: list[EvidenceModel]
    tokens: int
    model: str
    citations: list[int] = Field(
        default_factory=list, description="the [n] numbers (1-based, into evidence) the answer cites"
    )
    uncited: bool = Field(
        default=False, description="true when the answer cites no evidence (it may be unsupported)"
    )


class UnitPageModel(_Model):
    """A page of a namespace's memories in the order they were stored (``list``)."""

    memories: list[UnitModel]
    total: int = Field(description="units in the namespace")
    limit: int
    offset: int

    @classmethod
    def of(cls, units: list[Any], total: int, limit: int, offset: int) -> UnitPageModel:
        """The page of these :class:`~ripplemem.records.MemoryUnit` s (without their vectors)."""
        return cls(
            memories=[u.to_model(with_vector=False) for u in units], total=total, limit=limit,
            offset=offset,
        )


class EdgesModel(_Model):
    """A memory's edges (``edges``)."""

    unit_id: str
    edges: list[EdgeModel]


class VersionModel(_Model):
    unit: UnitModel
    superseded_by: str | None = Field(description="the unit that replaced this one's value")
    valid_until: datetime | None = Field(description="when the successor was said")


class HistoryModel(_Model):
    """A supersession chain, oldest value first: each version after the one it replaced (``history``)."""

    unit_id: str
    versions: list[VersionModel]


class CountModel(_Model):
    """How many units a delete removed or an import added."""

    count: int
