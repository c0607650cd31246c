"""A time budget for one call, seen by every stage it runs: :func:`within` and :func:`check`.

A server gives each request a budget (``ripplemem serve --request-budget``); the stages check it
at their natural steps (the write pipeline per batch and stage, the extractor per window, the
embedder per batch, the recall per stage) and time grounding never parses past it. A call past
its deadline raises :class:`~ripplemem.errors.OverBudgetError`; a write block rolls back, so
nothing of the call is stored. Without a budget (the library's default) :func:`check` is a no-op.

The budget lives in a context variable: it follows the thread or task that set it (and the
threads ``asyncio.to_thread`` starts from it), never another request's.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from ripplemem.errors import OverBudgetError

__all__ = ["Deadline", "check", "remaining", "within"]


@dataclass(frozen=True, slots=True)
class Deadline:
    at: float  # time.monotonic() past which the call stops
    seconds: float  # the budget it was given, for the message


_DEADLINE: ContextVar[Deadline | None] = ContextVar("ripplemem_deadline", default=None)


@contextmanager
def within(seconds: float | None) -> Iterator[None]:
    """Run the block with ``seconds`` of budget (None: no budget). Nested budgets keep the
    earlier deadline."""
    if seconds is None:
        yield
        return
    outer = _DEADLINE.get()
    mine = Deadline(time.monotonic() + seconds, seconds)
    token = _DEADLINE.set(mine if outer is None or mine.at < outer.at else outer)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def remaining() -> float | None:
    """Seconds left before the deadline (never below 0), or None without a budget."""
    deadline = _DEADLINE.get()
    return None if deadline is None else max(0.0, deadline.at - time.monotonic())


def check(stage: str) -> None:
    """Raise OverBudgetError when the deadline has passed; ``stage`` names where it stopped."""
    deadline = _DEADLINE.get()
    if deadline is not None and time.monotonic() > deadline.at:
        raise OverBudgetError(
            f"the request ran past its time budget of {deadline.seconds:g} s (at {stage}) and "
            "stopped; a write is rolled back, nothing of it is stored: send less at once "
            "(several smaller adds), or ask for a larger budget (ripplemem serve --request-budget)"
        )
