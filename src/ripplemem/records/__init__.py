"""Data-only records shared by every stage."""

from ripplemem.records.clue import Clue, ClueSource, Membership
from ripplemem.records.cues import Cues
from ripplemem.records.dialogue import (
    SHARED_PHOTO,
    Conversation,
    Session,
    Turn,
    Window,
    shares_a_photo,
)
from ripplemem.records.evidence import (
    Evidence,
    ExpansionPath,
    Hit,
    Recall,
    RecallPlan,
    RecallTrace,
    ScoreTerms,
)
from ripplemem.records.extraction import ExtractionFallback, WindowDrafts
from ripplemem.records.jobs import Job, JobStatus
from ripplemem.records.keys import ApiKey
from ripplemem.records.results import INSERT_STAGES, AddResult, Answer
from ripplemem.records.supersession import Version, chain_order, said_at, said_order
from ripplemem.records.time import TimeSpan
from ripplemem.records.unit import Edge, EdgeKind, MemoryUnit, UnitDraft, named_times, normalise_cue

__all__ = [
    "INSERT_STAGES",
    "SHARED_PHOTO",
    "AddResult",
    "Answer",
    "ApiKey",
    "Clue",
    "ClueSource",
    "Conversation",
    "Cues",
    "Edge",
    "EdgeKind",
    "Evidence",
    "ExpansionPath",
    "ExtractionFallback",
    "Hit",
    "Job",
    "JobStatus",
    "Membership",
    "MemoryUnit",
    "Recall",
    "RecallPlan",
    "RecallTrace",
    "ScoreTerms",
    "Session",
    "TimeSpan",
    "Turn",
    "UnitDraft",
    "Version",
    "Window",
    "WindowDrafts",
    "chain_order",
    "named_times",
    "normalise_cue",
    "said_at",
    "said_order",
    "shares_a_photo",
]
