"""What a recall returns: evidence with provenance, and the trace of how it was found."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from ripplemem.records.cues import Cues
from ripplemem.records.unit import MemoryUnit
from ripplemem.records.wire import (
    EvidenceModel,
    ExpansionPathModel,
    HitModel,
    RecallModel,
    RecallPlanModel,
    RecallTraceModel,
    ScoreTermsModel,
)

View = Literal["dense", "lexical", "cue", "expansion", "context", "clue", "focus"]


@dataclass(frozen=True, slots=True)
class Hit:
    """One view's finding of a unit: its rank (0-based) and raw score in that view."""

    view: View
    rank: int
    score: float

    def to_model(self) -> HitModel:
        return HitModel(view=self.view, rank=self.rank, score=self.score)

    @classmethod
    def from_model(cls, model: HitModel) -> Hit:
        return cls(model.view, model.rank, model.score)


@dataclass(frozen=True, slots=True)
class ExpansionPath:
    """How diffusion reached a unit: anchor -> ... -> unit along one channel."""

    anchor: str
    channel: Literal["semantic", "structural", "supersedes"]
    nodes: tuple[str, ...]  # anchor first, the reached unit last
    path_weight: float  # product of edge weights along the path
    goal_score: float  # match of the unit against the missing-support goal

    def to_model(self) -> ExpansionPathModel:
        return ExpansionPathModel(
            anchor=self.anchor,
            channel=self.channel,
            nodes=list(self.nodes),
            path_weight=self.path_weight,
            goal_score=self.goal_score,
        )

    @classmethod
    def from_model(cls, model: ExpansionPathModel) -> ExpansionPath:
        return cls(model.anchor, model.channel, tuple(model.nodes), model.path_weight, model.goal_score)


@dataclass(frozen=True, slots=True)
class ScoreTerms:
    """The terms of rho(m) = lambda_q*a + lambda_p*pi + lambda_a*I_anchor (and any extra terms)."""

    alignment: float
    provenance: float
    anchor: float
    extra: dict[str, float] = field(default_factory=dict)
    total: float = 0.0

    def to_model(self) -> ScoreTermsModel:
        return ScoreTermsModel(
            alignment=self.alignment,
            provenance=self.provenance,
            anchor=self.anchor,
            extra=dict(self.extra),
            total=self.total,
        )

    @classmethod
    def from_model(cls, model: ScoreTermsModel) -> ScoreTerms:
        return cls(model.alignment, model.provenance, model.anchor, dict(model.extra), model.total)


@dataclass(frozen=True, slots=True)
class Evidence:
    unit: MemoryUnit
    score: float
    hits: tuple[Hit, ...]
    terms: ScoreTerms | None = None
    paths: tuple[ExpansionPath, ...] = ()
    #: the unit that replaced this unit's value, and when it was said (None: still current)
    superseded_by: str | None = None
    valid_until: datetime | None = None

    @property
    def views(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(h.view for h in self.hits))

    def to_model(self, *, with_vector: bool = False) -> EvidenceModel:
        return EvidenceModel(
            unit=self.unit.to_model(with_vector=with_vector),
            score=self.score,
            views=list(self.views),
            hits=[h.to_model() for h in self.hits],
            terms=self.terms.to_model() if self.terms else None,
            paths=[p.to_model() for p in self.paths],
            superseded_by=self.superseded_by,
            valid_until=self.valid_until,
        )

    @classmethod
    def from_model(cls, model: EvidenceModel) -> Evidence:
        return cls(
            unit=MemoryUnit.from_model(model.unit),
            score=model.score,
            hits=tuple(Hit.from_model(h) for h in model.hits),
            terms=ScoreTerms.from_model(model.terms) if model.terms else None,
            paths=tuple(ExpansionPath.from_model(p) for p in model.paths),
            superseded_by=model.superseded_by,
            valid_until=model.valid_until,
        )


@dataclass(frozen=True, slots=True)
class RecallPlan:
    """The recall planner's decision (d_r, A_r, g_r, s_r)."""

    proceed: bool
    anchors: tuple[str, ...]
    goal: Cues | None
    stop_reason: str = ""
    planner: str = ""  # "deterministic" or "llm:<model>"
    tokens: int = 0

    def to_model(self) -> RecallPlanModel:
        return RecallPlanModel(
            proceed=self.proceed,
            anchors=list(self.anchors),
            goal=self.goal.to_model() if self.goal else None,
            stop_reason=self.stop_reason,
            planner=self.planner,
            tokens=self.tokens,
        )

    @classmethod
    def from_model(cls, model: RecallPlanModel) -> RecallPlan:
        return cls(
            proceed=model.proceed,
            anchors=tuple(model.anchors),
            goal=Cues.from_model(model.goal) if model.goal else None,
            stop_reason=model.stop_reason,
            planner=model.planner,
            tokens=model.tokens,
        )


@dataclass(slots=True)
class RecallTrace:
    """Everything needed to explain a recall; filled in stage by stage."""

    query: str
    namespace: str
    recipe: str
    cues: Cues | None = None
    initial: dict[str, list[tuple[str, float]]] = field(default_factory=dict)  # view -> [(id, score)]
    plans: list[RecallPlan] = field(default_factory=list)
    expansions: list[ExpansionPath] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def to_model(self) -> RecallTraceModel:
        return RecallTraceModel(
            query=self.query,
            namespace=self.namespace,
            recipe=self.recipe,
            cues=self.cues.to_model() if self.cues else None,
            initial={view: [(i, float(x)) for i, x in hits] for view, hits in self.initial.items()},
            plans=[p.to_model() for p in self.plans],
            expansions=[e.to_model() for e in self.expansions],
            timings_ms=dict(self.timings_ms),
            notes=list(self.notes),
        )

    @classmethod
    def from_model(cls, model: RecallTraceModel) -> RecallTrace:
        return cls(
            query=model.query,
            namespace=model.namespace,
            recipe=model.recipe,
            cues=Cues.from_model(model.cues) if model.cues else None,
            initial={view: [(i, x) for i, x in hits] for view, hits in model.initial.items()},
            plans=[RecallPlan.from_model(p) for p in model.plans],
            expansions=[ExpansionPath.from_model(e) for e in model.expansions],
            timings_ms=dict(model.timings_ms),
            notes=list(model.notes),
        )


@dataclass(frozen=True, slots=True)
class Recall:
    evidence: tuple[Evidence, ...]
    trace: RecallTrace

    def to_model(self, *, with_vectors: bool = False) -> RecallModel:
        return RecallModel(
            evidence=[e.to_model(with_vector=with_vectors) for e in self.evidence],
            trace=self.trace.to_model(),
        )

    def to_json(self, *, with_vectors: bool = False) -> dict:
        """The recall's JSON form (:class:`~ripplemem.records.wire.RecallModel`)."""
        return self.to_model(with_vectors=with_vectors).model_dump(mode="json")

    @classmethod
    def from_json(cls, data: dict) -> Recall:
        return cls.from_model(RecallModel.model_validate(data))

    @classmethod
    def from_model(cls, model: RecallModel) -> Recall:
        return cls(
            evidence=tuple(Evidence.from_model(e) for e in model.evidence),
            trace=RecallTrace.from_model(model.trace),
        )
