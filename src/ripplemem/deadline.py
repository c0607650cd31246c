"""A time budget for one call, seen by every stage it runs: :func:`within` and :func:`check`.

A server gives each request a budget of CPU time (``ripplemem serve --request-budget``: the
calling thread's CPU, so neither a loaded machine, nor a wait for a lock or an LLM, counts); the
stages check it
at their natural steps (the write pipeline per batch and stage, the extractor per window, the
embedder per batch, the recall per stage) and time grounding never parses past it. A call past
its deadline raises :class:`~ripplemem.errors.OverBudgetError`; a write block rolls back, so
nothing of the call is stored. Without a budget (the library's default) :func:`check` is a no-op.

The budget lives in a context variable: it follows the thread or task that set it (and the
threads ``asyncio.to_thread`` starts from it), never another request's.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from ripplemem.errors import OverBudgetError

__all__ = ["Deadline", "check", "remaining", "within"]


Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class Deadline:
    at: float  # the clock's reading past which the call stops
    seconds: float  # the budget it was given, for the message
    clock: Clock  # time.monotonic (wall time) or time.thread_time (the thread's CPU)
    thread: int  # the thread it was set in: a thread's CPU clock means nothing in another

    def left(self) -> float | None:
        if self.clock is not time.monotonic and threading.get_ident() != self.thread:
            return None
        return self.at - self.clock()


_DEADLINE: ContextVar[Deadline | None] = ContextVar("ripplemem_deadline", default=None)


@contextmanager
def within(seconds: float | None, *, clock: Clock = time.monotonic) -> Iterator[None]:
    """Run the block with ``seconds`` of budget on ``clock`` (None: no budget). An outer budget
    stays in force: the block stops at whichever runs out first."""
    if seconds is None:
        yield
        return
    outer = _DEADLINE.get()
    mine = Deadline(clock() + seconds, seconds, clock, threading.get_ident())
    if outer is not None:
        outer_left, mine_left = outer.left(), seconds
        if outer_left is not None and outer_left < mine_left:
            mine = outer
    token = _DEADLINE.set(mine)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def remaining() -> float | None:
    """Seconds left of the budget (never below 0), or None without one."""
    deadline = _DEADLINE.get()
    left = deadline.left() if deadline is not None else None
    return None if left is None else max(0.0, left)


def check(stage: str) -> None:
    """Raise OverBudgetError when the budget is spent; ``stage`` names where the call stopped."""
    deadline = _DEADLINE.get()
    left = deadline.left() if deadline is not None else None
    if deadline is not None and left is not None and left < 0:
        kind = "of CPU " if deadline.clock is time.thread_time else ""
        raise OverBudgetError(
            f"the request ran past its budget of {deadline.seconds:g} s {kind}(at {stage}) and "
            "stopped; a write is rolled back, nothing of it is stored: send less at once "
            "(several smaller adds), or ask for a larger budget (ripplemem serve --request-budget)"
        )
