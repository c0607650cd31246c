"""Memory units and the edges between them."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import lru_cache
from typing import Literal

import numpy as np

from ripplemem.records.time import TimeSpan
from ripplemem.records.wire import EdgeModel, UnitModel, vector_from_json, vector_to_json

#: ``supersedes`` runs from a unit to the one whose value it replaces (new -> old, a direction
#: the store keeps; :mod:`ripplemem.records.supersession`)
EdgeKind = Literal["semantic", "structural", "supersedes"]


@dataclass(frozen=True, slots=True)
class UnitDraft:
    """What an extractor grounded from a window, before embedding and storage.

    ``time_phrases`` are raw relative/absolute time expressions found for this unit; the
    time-grounding stage turns them into ``time_span`` against the session time.
    """

    restatement: str
    turn_ids: tuple[str, ...]
    participants: tuple[str, ...] = ()
    locations: tuple[str, ...] = ()
    time_span: TimeSpan | None = None
    time_phrases: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    #: every time the draft names when they lie too far apart for one span ("married in 2019 ...
    #: bought the house last April"; ``time_span`` is then the narrowest): kept in
    #: ``extra["time_spans"]``, so the unit is of each of them
    time_spans: tuple[TimeSpan, ...] = ()
    #: how the draft was made when not by the extractor's own path, e.g. {"extractor":
    #: "deterministic", "instead_of": "llm:...", "reason": ...} (kept in ``extra["provenance"]``)
    provenance: dict | None = None
    #: the time parser ran out of its budget on this unit's text, so only the rules grounded it
    #: (kept as ``extra["time_grounding"] = "rules"``; docs/reliability.md)
    time_fallback: bool = False


@dataclass(frozen=True, slots=True)
class MemoryUnit:
    """``m = (r, v, P, L, T)`` plus provenance.

    ``participants`` / ``locations`` are display forms; stores index them normalised
    (see :func:`normalise_cue`). ``episode_id`` is the source session. ``repr()`` leaves out the
    vector and ``extra``.
    """

    id: str
    namespace: str
    restatement: str
    vector: np.ndarray | None = field(repr=False)  # 384 floats: left out of repr()
    participants: tuple[str, ...]
    locations: tuple[str, ...]
    time_span: TimeSpan | None
    episode_id: str
    turn_ids: tuple[str, ...]
    session_time: datetime | None
    created_at: datetime
    time_phrases: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    #: who said the turns the unit comes from (a search can filter on them)
    speakers: tuple[str, ...] = ()
    #: the caller's JSON object, from the add or its messages (a search can filter on it)
    metadata: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict, compare=False, repr=False)

    def with_vector(self, vector: np.ndarray) -> MemoryUnit:
        return replace(self, vector=vector)

    def to_model(self, *, with_vector: bool = True) -> UnitModel:
        return UnitModel(
            id=self.id,
            namespace=self.namespace,
            restatement=self.restatement,
            vector=vector_to_json(self.vector) if with_vector else None,
            participants=list(self.participants),
            locations=list(self.locations),
            time_span=[self.time_span.start, self.time_span.end] if self.time_span else None,
            episode_id=self.episode_id,
            turn_ids=list(self.turn_ids),
            session_time=self.session_time,
            created_at=self.created_at,
            time_phrases=list(self.time_phrases),
            keywords=list(self.keywords),
            speakers=list(self.speakers),
            metadata=dict(self.metadata),
            extra=dict(self.extra),
        )

    def to_json(self, *, with_vector: bool = True) -> dict:
        """The unit's JSON form (:class:`~ripplemem.records.wire.UnitModel`)."""
        return self.to_model(with_vector=with_vector).model_dump(mode="json")

    @classmethod
    def from_model(cls, model: UnitModel) -> MemoryUnit:
        span = model.time_span
        return cls(
            id=model.id,
            namespace=model.namespace,
            restatement=model.restatement,
            vector=vector_from_json(model.vector),
            participants=tuple(model.participants),
            locations=tuple(model.locations),
            time_span=TimeSpan(span[0], span[1]) if span else None,
            episode_id=model.episode_id,
            turn_ids=tuple(model.turn_ids),
            session_time=model.session_time,
            created_at=model.created_at,
            time_phrases=tuple(model.time_phrases),
            keywords=tuple(model.keywords),
            speakers=tuple(model.speakers),
            metadata=dict(model.metadata),
            extra=dict(model.extra),
        )

    @classmethod
    def from_json(cls, data: dict) -> MemoryUnit:
        """A unit from its JSON form; raises pydantic's ValidationError on malformed data."""
        return cls.from_model(UnitModel.model_validate(data))


@dataclass(frozen=True, slots=True)
class Edge:
    """A weighted edge, stored once per direction: undirected, but a ``supersedes`` edge keeps its
    direction (``src`` replaces ``dst``)."""

    namespace: str
    src: str
    dst: str
    kind: EdgeKind
    weight: float

    def to_model(self) -> EdgeModel:
        return EdgeModel(
            namespace=self.namespace, src=self.src, dst=self.dst, kind=self.kind, weight=self.weight
        )

    def to_json(self) -> dict:
        """The edge's JSON form (:class:`~ripplemem.records.wire.EdgeModel`)."""
        return self.to_model().model_dump(mode="json")

    @classmethod
    def from_json(cls, data: dict) -> Edge:
        model = EdgeModel.model_validate(data)
        return cls(model.namespace, model.src, model.dst, model.kind, model.weight)


@lru_cache(maxsize=65_536)
def normalise_cue(value: str) -> str:
    """The indexed form of a participant or location: case- and space-folded.

    Cached: the same few names are folded over and over (every vocabulary value for every
    query, every candidate's cues for every link decision)."""
    return " ".join(value.casefold().replace("’", "'").split())


def named_times(extra: dict | None) -> tuple[TimeSpan, ...]:
    """The times a unit names when they lie too far apart for one span (``extra["time_spans"]``,
    written by the extractor as ``[start, end]`` ISO pairs; ``time_span`` is then the narrowest):
    none when it names one, or when an edited or foreign ``extra`` holds something else."""
    kept = extra.get("time_spans") if extra else None
    if not kept:
        return ()
    try:
        return tuple(TimeSpan(datetime.fromisoformat(a), datetime.fromisoformat(b)) for a, b in kept)
    except (TypeError, ValueError):
        return ()
