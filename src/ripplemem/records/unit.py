"""Memory units and the edges between them."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import lru_cache
from typing import Literal

import numpy as np

from ripplemem.records.time import TimeSpan

EdgeKind = Literal["semantic", "structural"]


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


@dataclass(frozen=True, slots=True)
class MemoryUnit:
    """``m = (r, v, P, L, T)`` plus provenance.

    ``participants`` / ``locations`` are display forms; stores index them normalised
    (see :func:`normalise_cue`). ``episode_id`` is the source session.
    """

    id: str
    namespace: str
    restatement: str
    vector: np.ndarray | None
    participants: tuple[str, ...]
    locations: tuple[str, ...]
    time_span: TimeSpan | None
    episode_id: str
    turn_ids: tuple[str, ...]
    session_time: datetime | None
    created_at: datetime
    time_phrases: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    extra: dict = field(default_factory=dict, compare=False)

    def with_vector(self, vector: np.ndarray) -> MemoryUnit:
        return replace(self, vector=vector)

    def to_json(self, *, with_vector: bool = True) -> dict:
        return {
            "id": self.id,
            "namespace": self.namespace,
            "restatement": self.restatement,
            "vector": self.vector.astype(float).round(7).tolist()
            if with_vector and self.vector is not None
            else None,
            "participants": list(self.participants),
            "locations": list(self.locations),
            "time_span": self.time_span.to_json() if self.time_span else None,
            "episode_id": self.episode_id,
            "turn_ids": list(self.turn_ids),
            "session_time": self.session_time.isoformat() if self.session_time else None,
            "created_at": self.created_at.isoformat(),
            "time_phrases": list(self.time_phrases),
            "keywords": list(self.keywords),
            "extra": self.extra,
        }

    @classmethod
    def from_json(cls, data: dict) -> MemoryUnit:
        vector = data.get("vector")
        return cls(
            id=data["id"],
            namespace=data["namespace"],
            restatement=data["restatement"],
            vector=np.asarray(vector, dtype=np.float32) if vector is not None else None,
            participants=tuple(data.get("participants") or ()),
            locations=tuple(data.get("locations") or ()),
            time_span=TimeSpan.from_json(data.get("time_span")),
            episode_id=data.get("episode_id") or "",
            turn_ids=tuple(data.get("turn_ids") or ()),
            session_time=datetime.fromisoformat(data["session_time"])
            if data.get("session_time")
            else None,
            created_at=datetime.fromisoformat(data["created_at"]),
            time_phrases=tuple(data.get("time_phrases") or ()),
            keywords=tuple(data.get("keywords") or ()),
            extra=dict(data.get("extra") or {}),
        )


@dataclass(frozen=True, slots=True)
class Edge:
    """An undirected weighted edge, stored once per direction."""

    namespace: str
    src: str
    dst: str
    kind: EdgeKind
    weight: float


@lru_cache(maxsize=65_536)
def normalise_cue(value: str) -> str:
    """The indexed form of a participant or location: case- and space-folded.

    Cached: the same few names are folded over and over (every vocabulary value for every
    query, every candidate's cues for every link decision)."""
    return " ".join(value.casefold().replace("’", "'").split())
