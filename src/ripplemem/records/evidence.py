"""What a recall returns: evidence with provenance, and the trace of how it was found."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ripplemem.records.cues import Cues
from ripplemem.records.unit import MemoryUnit

View = Literal["dense", "lexical", "cue", "expansion", "context", "clue"]


@dataclass(frozen=True, slots=True)
class Hit:
    """One view's finding of a unit: its rank (0-based) and raw score in that view."""

    view: View
    rank: int
    score: float


@dataclass(frozen=True, slots=True)
class ExpansionPath:
    """How diffusion reached a unit: anchor -> ... -> unit along one channel."""

    anchor: str
    channel: Literal["semantic", "structural"]
    nodes: tuple[str, ...]  # anchor first, the reached unit last
    path_weight: float  # product of edge weights along the path
    goal_score: float  # match of the unit against the missing-support goal


@dataclass(frozen=True, slots=True)
class ScoreTerms:
    """The terms of rho(m) = lambda_q*a + lambda_p*pi + lambda_a*I_anchor (and any extra terms)."""

    alignment: float
    provenance: float
    anchor: float
    extra: dict[str, float] = field(default_factory=dict)
    total: float = 0.0


@dataclass(frozen=True, slots=True)
class Evidence:
    unit: MemoryUnit
    score: float
    hits: tuple[Hit, ...]
    terms: ScoreTerms | None = None
    paths: tuple[ExpansionPath, ...] = ()

    @property
    def views(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(h.view for h in self.hits))


@dataclass(frozen=True, slots=True)
class RecallPlan:
    """The recall planner's decision (d_r, A_r, g_r, s_r)."""

    proceed: bool
    anchors: tuple[str, ...]
    goal: Cues | None
    stop_reason: str = ""
    planner: str = ""  # "deterministic" or "llm:<model>"
    tokens: int = 0


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


@dataclass(frozen=True, slots=True)
class Recall:
    evidence: tuple[Evidence, ...]
    trace: RecallTrace
