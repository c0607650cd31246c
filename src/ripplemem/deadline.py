"""A time budget for one call, seen by every stage it runs: :func:`within` and :func:`check`.

A server gives each request a budget of CPU time (``ripplemem serve --request-budget``: the
calling thread's CPU, so neither a loaded machine, nor a wait for a lock or an LLM, counts, plus
the CPU of the time parser's child process spent on the call's texts, :func:`charge`); the stages
check it at their natural steps (the write pipeline per batch and stage, the extractor per window,
the embedder per batch, the recall per stage) and time grounding never parses past it. A call past
its deadline raises :class:`~ripplemem.errors.OverBudgetError`; a write block rolls back, so
nothing of the call is stored. Without a budget (the library's default) :func:`check` is a no-op.

The budget lives in a context variable: it follows the thread or task that set it (and the
threads ``asyncio.to_thread`` or ``anyio`` start from it), never another request's. On a thread's
CPU clock each thread is timed from the budget's first check in it: a server sets the budget in
the request's task, and the worker thread that runs the call spends it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from ripplemem.errors import OverBudgetError

__all__ = ["Deadline", "charge", "check", "remaining", "within"]


Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class Deadline:
    seconds: float  # the budget
    clock: Clock  # time.monotonic (wall time) or time.thread_time (a thread's CPU)
    #: when each thread started spending it (the wall clock: one start, when it was set)
    started: dict[int, float] = field(default_factory=dict)
    #: CPU spent for the call outside its threads (a time parser's child process)
    charged: list[float] = field(default_factory=lambda: [0.0])

    def left(self) -> float:
        key = 0 if self.clock is time.monotonic else threading.get_ident()
        start = self.started.setdefault(key, self.clock())
        return self.seconds - (self.clock() - start) - self.charged[0]


_DEADLINE: ContextVar[Deadline | None] = ContextVar("ripplemem_deadline", default=None)


@contextmanager
def within(seconds: float | None, *, clock: Clock = time.monotonic) -> Iterator[None]:
    """Run the block with ``seconds`` of budget on ``clock`` (None: no budget). An outer budget
    stays in force: the block stops at whichever runs out first."""
    if seconds is None:
        yield
        return
    outer = _DEADLINE.get()
    mine = Deadline(seconds, clock)
    if clock is time.monotonic:
        mine.left()  # wall time runs from now
    if outer is not None and outer.clock is clock and outer.left() < seconds:
        mine = outer  # the outer budget, of the same kind, runs out first
    token = _DEADLINE.set(mine)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def remaining() -> float | None:
    """Seconds left of the budget (never below 0), or None without one."""
    deadline = _DEADLINE.get()
    return None if deadline is None else max(0.0, deadline.left())


def charge(cpu_s: float) -> None:
    """Count ``cpu_s`` seconds of CPU spent for the call by another process (the time parser's
    child) against a CPU budget; a wall-clock budget has counted the wait already."""
    deadline = _DEADLINE.get()
    if deadline is not None and deadline.clock is not time.monotonic and cpu_s > 0:
        deadline.charged[0] += cpu_s


def check(stage: str) -> None:
    """Raise OverBudgetError when the budget is spent; ``stage`` names where the call stopped."""
    deadline = _DEADLINE.get()
    if deadline is not None and deadline.left() < 0:
        kind = "of CPU " if deadline.clock is time.thread_time else ""
        raise OverBudgetError(
            f"the request ran past its budget of {deadline.seconds:g} s {kind}(at {stage}) and "
            "stopped; a write is rolled back, nothing of it is stored: send less at once "
            "(several smaller adds), or ask for a larger budget (ripplemem serve --request-budget)"
        )
