"""How ``AsyncMemory`` runs the synchronous core without blocking its event loop.

* Reads (search, answer, get, list, edges, history, export) share :attr:`Lanes.read_threads`
  worker threads; the viewer's walks of the graph and the timeline share
  :attr:`Lanes.browse_threads` of their own, so a viewer never starves searches.
* Writes (add, update, delete, import) share :attr:`Lanes.write_threads` threads, and the
  writes of one namespace take turns on an ``asyncio.Lock`` (no thread is held while waiting):
  a long add delays only later writes to its own namespace, never searches or other namespaces.
  :meth:`Lanes.turn` holds a namespace's turn across several calls (re-entrant in one task).
* With a :class:`Searcher` (the server's worker processes), a search goes to it while it has an
  idle worker, else to the read threads.
* Once :meth:`Lanes.close` was called, a call whose store closed under it ends in
  :class:`~ripplemem.errors.ShuttingDownError` ("nothing was stored"), not a store error.
* A caller that must know whether a write reached the store (a server stopping while requests
  run) opens :func:`watching_writes`: its :class:`WriteWatch` says whether a call in that context
  handed a write to a worker thread. From then on the write's fate is decided in its thread
  (committed or rolled back), and only waiting for the call tells which.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, TypeVar

import anyio
from anyio import CapacityLimiter

from ripplemem.errors import ShuttingDownError, StoreError
from ripplemem.recipes import RecallRecipe
from ripplemem.records.filters import SearchFilter

__all__ = ["Lanes", "Searcher", "WriteWatch", "begin_write", "watching_writes"]

T = TypeVar("T")

#: the namespaces whose write turn the current task holds
_HELD: ContextVar[frozenset[str]] = ContextVar("ripplemem_turns", default=frozenset())


@dataclass
class WriteWatch:
    """Whether a call of the context that opened it handed a write to a worker thread."""

    begun: bool = False


_WATCH: ContextVar[WriteWatch | None] = ContextVar("ripplemem_write_watch", default=None)


@contextmanager
def watching_writes() -> Iterator[WriteWatch]:
    """A new :class:`WriteWatch` for the block (and the tasks and threads started in it)."""
    watch = WriteWatch()
    token = _WATCH.set(watch)
    try:
        yield watch
    finally:
        _WATCH.reset(token)


def begin_write() -> None:
    """Tell the current watch, if any, that a write is being handed to a worker thread (called
    by :meth:`Lanes.write`, and by other code that writes to a store from a thread)."""
    watch = _WATCH.get()
    if watch is not None:
        watch.begun = True


class Searcher(Protocol):
    """Something that answers searches elsewhere (worker processes), one per idle worker."""

    @property
    def free(self) -> bool: ...

    async def search_json(
        self,
        namespace: str,
        query: str,
        *,
        limit: int | None,
        recipe: str | RecallRecipe | None,
        question_time: datetime | str | None,
        filters: SearchFilter | None = None,
    ) -> str: ...

    def close(self) -> None: ...


class Lanes:
    """Thread limits, per-namespace write turns and the search hook of one ``AsyncMemory``."""

    def __init__(
        self,
        *,
        read_threads: int = 4,
        write_threads: int = 2,
        browse_threads: int = 2,
        searcher: Searcher | None = None,
    ) -> None:
        self.read_threads, self.write_threads = read_threads, write_threads
        self.browse_threads = browse_threads
        self.searcher = searcher
        self.closing = False
        self._limiters: dict[str, CapacityLimiter] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    async def read(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return await self._run("read", self.read_threads, function, args, kwargs)

    async def browse(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return await self._run("browse", self.browse_threads, function, args, kwargs)

    async def write(
        self, namespace: str | None, function: Callable[..., T], *args: Any, **kwargs: Any
    ) -> T:
        """``function`` in a write thread, in ``namespace``'s turn (None: a write whose
        namespaces its input names, such as a whole store's import, takes no turn)."""
        if namespace is None:
            return await self._run("write", self.write_threads, function, args, kwargs)
        async with self.turn(namespace):
            return await self._run("write", self.write_threads, function, args, kwargs)

    async def search(
        self,
        local: Callable[..., T],
        namespace: str,
        query: str,
        *,
        pooled: Callable[[str], T],
        **options: Any,
    ) -> T:
        """A search: by the searcher while it has an idle worker (its JSON read by ``pooled``),
        else ``local`` in a read thread."""
        if self.searcher is not None and self.searcher.free and not self.closing:
            return pooled(await self.searcher.search_json(namespace, query, **options))
        return await self.read(local, namespace, query, **options)

    @asynccontextmanager
    async def turn(self, namespace: str) -> AsyncIterator[None]:
        """Hold ``namespace``'s write turn (writes inside the block in this task do not wait)."""
        held = _HELD.get()
        if namespace in held:
            yield
            return
        lock = self._locks.get(namespace)
        if lock is None:
            lock = self._locks[namespace] = asyncio.Lock()
        async with lock:
            token = _HELD.set(held | {namespace})
            try:
                yield
            finally:
                _HELD.reset(token)

    def close(self) -> None:
        """From now on a store error is the closing's doing; the searcher stops."""
        self.closing = True
        if self.searcher is not None:
            self.searcher.close()

    async def _run(
        self, lane: str, threads: int, function: Callable[..., T], args: tuple, kwargs: dict
    ) -> T:
        limiter = self._limiters.get(lane)
        if limiter is None:
            limiter = self._limiters[lane] = CapacityLimiter(threads)
        if lane == "write":
            begin_write()
        try:
            return await anyio.to_thread.run_sync(
                functools.partial(function, *args, **kwargs), limiter=limiter
            )
        except StoreError:
            if self.closing:  # the store closed under it: the memory is being closed
                raise ShuttingDownError(
                    "the server stopped before this request finished and stored nothing of it; "
                    "send it again once the server is back"
                ) from None
            raise
