"""Small synthetic records for tests: memory units with reproducible random vectors."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

import numpy as np

from ripplemem.records import Conversation, MemoryUnit, Session, TimeSpan, Turn

__all__ = ["CREATED", "DIM", "T0", "day_span", "dialogue", "make_unit", "unit_vectors"]

DIM = 384
T0 = datetime(2023, 5, 1, 9, 0)
CREATED = datetime(2024, 1, 1)


def unit_vectors(n: int, *, seed: int = 7, dim: int = DIM) -> np.ndarray:
    """``n`` random L2-normalised float32 vectors, reproducible from ``seed``."""
    matrix = np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32)
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


def day_span(day: int, days: int = 1) -> TimeSpan:
    """``days`` whole days starting ``day`` days after :data:`T0`."""
    start = T0.replace(hour=0) + timedelta(days=day)
    return TimeSpan(start, start + timedelta(days=days) - timedelta(seconds=1))


def make_unit(
    unit_id: str,
    *,
    namespace: str = "ns",
    restatement: str | None = None,
    vector: np.ndarray | None = None,
    participants: Sequence[str] = (),
    locations: Sequence[str] = (),
    time_span: TimeSpan | None = None,
    session_time: datetime | None = None,
    keywords: Sequence[str] = (),
    seed: int | None = None,
    episode_id: str = "session-1",
    speakers: Sequence[str] = (),
    metadata: dict | None = None,
) -> MemoryUnit:
    """A unit with a deterministic random vector (seeded by ``seed`` or the id)."""
    if vector is None:
        vector = unit_vectors(1, seed=seed if seed is not None else _seed(unit_id))[0]
    return MemoryUnit(
        id=unit_id,
        namespace=namespace,
        restatement=restatement if restatement is not None else f"Memory {unit_id}.",
        vector=vector,
        participants=tuple(participants),
        locations=tuple(locations),
        time_span=time_span,
        episode_id=episode_id,
        turn_ids=(f"D1:{len(unit_id)}",),
        session_time=session_time,
        created_at=CREATED,
        keywords=tuple(keywords),
        speakers=tuple(speakers),
        metadata=dict(metadata or {}),
    )


def dialogue(
    conversation_id: str, speakers: Sequence[str], sessions: Sequence[tuple[str, str, Sequence[tuple[str, str]]]]
) -> Conversation:
    """A conversation of ``(session id, ISO time, [(speaker, text), ...])`` sessions; turn ids
    are ``"<session id>:<n>"`` from 1."""
    return Conversation(
        conversation_id=conversation_id,
        sessions=tuple(
            Session(sid, datetime.fromisoformat(when),
                    tuple(Turn(f"{sid}:{n}", who, text) for n, (who, text) in enumerate(lines, 1)))
            for sid, when, lines in sessions
        ),
        speakers=tuple(speakers),
    )


def _seed(text: str) -> int:
    return sum((i + 1) * ord(ch) for i, ch in enumerate(text))
