"""Tests of the AssoMem read path, and the small units they share."""

from __future__ import annotations

import hashlib
from datetime import datetime

import numpy as np

from ripplemem.records import MemoryUnit, TimeSpan

DIM = 384
CREATED = datetime(2024, 1, 1)


def unit_vectors(n: int, *, seed: int = 7, dim: int = DIM) -> np.ndarray:
    matrix = np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32)
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


def make_unit(
    unit_id: str,
    *,
    namespace: str = "ns",
    session_time: datetime | None = None,
    time_span: TimeSpan | None = None,
    vector: np.ndarray | None = None,
    episode_id: str = "session-1",
) -> MemoryUnit:
    if vector is None:
        seed = int(hashlib.sha1(unit_id.encode()).hexdigest()[:8], 16)
        vector = unit_vectors(1, seed=seed)[0]
    return MemoryUnit(
        id=unit_id, namespace=namespace, restatement=f"Memory {unit_id}.", vector=vector,
        participants=(), locations=(), time_span=time_span, episode_id=episode_id,
        turn_ids=(f"D1:{unit_id}",), session_time=session_time, created_at=CREATED,
    )
