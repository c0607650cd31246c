"""The per-request budget: no request holds a worker for more than ``seconds`` of CPU.

It bounds the verbs whose cost grows with what the caller sends (:attr:`Verb.bounded
<ripplemem.server.verbs.Verb.bounded>`: add, update, search, answer), over REST and MCP alike.
Two checks. Before any work, an add or update whose text could not be read in the budget even at
:data:`CHARS_PER_SECOND` is refused with 413 (:class:`BodyTooLargeError`), without spending
anything on it (a ``wait=false`` add too: no job is queued). Then the verb runs under
:func:`ripplemem.deadline.within` on the CPU clock of the worker thread that runs it: every stage
checks it, and a request past it stops with 503 (:class:`~ripplemem.errors.OverBudgetError`); an
add is rolled back, nothing of it is stored. Time parsing has deadlines of its own inside
(``grounding/ground_time.py``), so a text built to make the parser explode costs a bounded few
seconds, not minutes, and the CPU its child process spends counts against the request's budget. Deletes, imports and exports cost what is stored, not what is sent, and
are not bounded.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

from ripplemem import deadline
from ripplemem.server.errors import BodyTooLargeError

if TYPE_CHECKING:
    from pydantic import BaseModel

    from ripplemem.memory import AsyncMemory
    from ripplemem.server.verbs import Result, Verb

__all__ = ["CHARS_PER_SECOND", "RequestBudget"]

T = TypeVar("T")

#: characters an add reads per second of CPU at best (extraction and embedding; about twice what
#: the 2-core reference machine reaches, docs/reliability.md), for the up-front 413
CHARS_PER_SECOND = 10_000


class RequestBudget:
    """``seconds`` of CPU per request (None or 0: no budget)."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds if seconds and seconds > 0 else None

    @property
    def max_chars(self) -> int | None:
        """The most characters an add may hold (None: no limit)."""
        return None if self.seconds is None else int(self.seconds * CHARS_PER_SECOND)

    def admit(self, characters: int) -> None:
        """413 for a request whose text cannot fit the budget (counted before any work)."""
        limit = self.max_chars
        if limit is not None and characters > limit:
            raise BodyTooLargeError(
                f"this request holds {characters:,} characters of text; a request on this server "
                f"may hold at most {limit:,} (its budget is {self.seconds:g} s of CPU per "
                "request): send the messages in several adds (each is stored whole or not at "
                "all), or start the server with a larger --request-budget"
            )

    async def run(self, call: Callable[[], Awaitable[T]]) -> T:
        """``call()`` under the budget: its worker thread spends it (its own CPU clock)."""
        with deadline.within(self.seconds, clock=time.thread_time):
            return await call()

    async def run_verb(
        self, verb: Verb, memory: AsyncMemory, namespace: str, arguments: BaseModel
    ) -> Result:
        """``verb`` run for a caller: admitted by its size, then under the budget if bounded."""
        if verb.size is not None:
            self.admit(verb.size(arguments))
        if not verb.bounded:
            return await verb.run(memory, namespace, arguments)
        return await self.run(lambda: verb.run(memory, namespace, arguments))
