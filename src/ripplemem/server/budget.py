"""The per-request budget: no request holds a worker for more than ``seconds`` of CPU.

Two checks. Before any work, an add (or update) whose text could not be read in the budget even
at :data:`CHARS_PER_SECOND` is refused with 413 (:class:`BodyTooLargeError`), without spending
anything on it. Then the work runs under :func:`ripplemem.deadline.within` on the worker
thread's CPU clock: every stage checks it, and a request past it stops with 503
(:class:`~ripplemem.errors.OverBudgetError`); an add is rolled back, nothing of it is stored.
Time parsing has its own budget inside (``grounding/ground_time.py``), so a text built to make
the parser explode costs a bounded few seconds, not minutes.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from ripplemem import deadline
from ripplemem.server.errors import BodyTooLargeError

__all__ = ["CHARS_PER_SECOND", "RequestBudget"]

T = TypeVar("T")

#: characters an add reads per second of CPU at best (extraction and embedding; about twice what
#: the 2-core reference machine reaches, docs/reliability.md), for the up-front 413
CHARS_PER_SECOND = 10_000


class RequestBudget:
    """``seconds`` of CPU per request (None: no budget)."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds if seconds and seconds > 0 else None

    @property
    def max_chars(self) -> int | None:
        """The most characters an add may hold (None: no limit)."""
        return None if self.seconds is None else int(self.seconds * CHARS_PER_SECOND)

    def check_messages(self, messages: Sequence[Mapping[str, Any]]) -> None:
        """413 for an add that cannot fit the budget (counted before any work)."""
        limit = self.max_chars
        if limit is None:
            return
        size = sum(_chars(m) for m in messages)
        if size > limit:
            raise BodyTooLargeError(
                f"this add holds {size:,} characters of text; a request on this server may hold "
                f"at most {limit:,} (its budget is {self.seconds:g} s of CPU per request): send "
                "the messages in several adds (each is stored whole or not at all), or start the "
                "server with a larger --request-budget"
            )

    def bind(self, function: Callable[..., T]) -> Callable[..., T]:
        """``function`` run under the budget (on the CPU clock of the thread that runs it)."""
        if self.seconds is None:
            return function

        @functools.wraps(function)
        def bounded(*args: Any, **kwargs: Any) -> T:
            with deadline.within(self.seconds, clock=time.thread_time):
                return function(*args, **kwargs)

        return bounded


def _chars(message: Mapping[str, Any]) -> int:
    total = 0
    for key in ("content", "text", "caption", "image_caption", "blip_caption"):
        value = message.get(key)
        if isinstance(value, str):
            total += len(value)
    return total
