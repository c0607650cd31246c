"""A stage stopwatch: the read and write pipelines time their stages with it.

Each stage starts with a check of the call's time budget (:func:`ripplemem.deadline.check`), so
a call given a budget stops at the first stage boundary past it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from ripplemem import deadline


class Stopwatch:
    """Adds each stage's wall time (ms) to ``timings``; repeated stages accumulate."""

    def __init__(self, timings: dict[str, float]) -> None:
        self.timings = timings

    @contextmanager
    def __call__(self, stage: str) -> Iterator[None]:
        deadline.check(stage)
        started = time.perf_counter()
        try:
            yield
        finally:
            elapsed = (time.perf_counter() - started) * 1000
            self.timings[stage] = self.timings.get(stage, 0.0) + elapsed
