"""Searches in worker processes: one Python process runs recall on about one core, so on a
machine with more cores the server hands searches to processes of its own.

Each worker opens its own :class:`~ripplemem.memory.Memory` over the same store and settings (the
store must be one that several processes can share: SQLite, PostgreSQL) and answers with the
recall's JSON (``Memory.search_json``: the same verb, and the same empty-namespace answer, as in
the server's threads). Writes stay in the server process; a worker sees them at its next search.
The pool is the :class:`~ripplemem.core.lanes.Searcher` of the server's ``AsyncMemory``.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime

from ripplemem import deadline
from ripplemem.errors import ConfigurationError
from ripplemem.recipes import RecallRecipe
from ripplemem.settings import Settings

__all__ = ["SearchPool"]

_memory = None  # the worker's Memory


def _start(settings: Settings) -> None:
    global _memory
    from threadpoolctl import threadpool_limits

    from ripplemem.extensions import warm_up
    from ripplemem.memory import Memory

    threadpool_limits(limits=1, user_api="blas")
    _memory = Memory(settings)
    warm_up(_memory)  # load the models now


def _search(
    namespace: str,
    query: str,
    limit: int | None,
    recipe: str | RecallRecipe | None,
    question_time: datetime | str | None,
    budget_s: float | None = None,
) -> str:
    assert _memory is not None
    with deadline.within(budget_s, clock=time.thread_time):  # the server's per-request budget
        return _memory.search_json(
            query, namespace=namespace, limit=limit, recipe=recipe, question_time=question_time
        )


class SearchPool:
    """``processes`` worker processes answering searches over ``settings.store``; each takes one
    search at a time (:attr:`free` says whether one is idle)."""

    def __init__(
        self, settings: Settings, processes: int, *, shared: bool = True, budget_s: float | None = None
    ) -> None:
        """``shared``: the store can be opened by other processes (a store's
        ``capabilities.shared``; not a ``memory://`` store)."""
        if processes < 1:
            raise ConfigurationError("a search pool needs at least one process")
        if not shared:
            raise ConfigurationError(
                "search processes cannot share a memory:// store; use a SQLite file or PostgreSQL"
            )
        self.processes = processes
        self.budget_s = budget_s  # CPU seconds per search (the server's --request-budget)
        self.busy = 0  # searches handed to the workers and not answered yet (event loop only)
        self._executor = ProcessPoolExecutor(
            processes,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start,
            initargs=(settings,),
        )

    def warm_up(self) -> None:
        """Start every worker (each loads its models) before the first request."""
        futures = [self._executor.submit(_noop) for _ in range(self.processes * 2)]
        for future in futures:
            future.result()

    @property
    def free(self) -> bool:
        return self.busy < self.processes

    async def search_json(
        self,
        namespace: str,
        query: str,
        *,
        limit: int | None,
        recipe: str | RecallRecipe | None,
        question_time: datetime | str | None,
    ) -> str:
        loop = asyncio.get_running_loop()
        self.busy += 1
        try:
            return await loop.run_in_executor(
                self._executor, _search, namespace, query, limit, recipe, question_time,
                self.budget_s,
            )
        finally:
            self.busy -= 1

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)


def _noop() -> None:
    return None
