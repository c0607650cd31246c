"""The one async core behind the REST routes and the MCP tools.

Every verb takes the namespace the caller may use (already resolved by
:class:`~ripplemem.server.access.Access`) and runs the synchronous :class:`~ripplemem.memory.Memory`
in a worker thread, so the event loop only routes requests:

* reads (search, answer, get, list, edges, export) share :attr:`read_threads` threads; with a
  :class:`~ripplemem.server.search_pool.SearchPool`, a search goes to a worker process while one
  is idle, else to those threads;
* writes (add, delete, import) share :attr:`write_threads` threads, and each namespace's writes
  wait for their turn on an ``asyncio.Lock`` (no thread is held while waiting), so a long add
  delays only later writes to its own namespace, never searches or other namespaces;
* with a ``reader`` (a second :class:`~ripplemem.memory.Memory` over the same SQLite file, its own
  connection and caches) the reads never queue behind a write block's hold on the store;
* adds, updates, searches and answers run under the per-request CPU budget
  (:mod:`ripplemem.server.budget`): 413 for an add too large for it, 503 past it. Deletes, imports
  and exports cost what is stored, not what is sent, and are not bounded by it.

Error messages name only the caller's namespace: "not found" never hints at what other
namespaces hold.
"""

from __future__ import annotations

import asyncio
import builtins
import functools
import json
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import anyio
from anyio import CapacityLimiter

from ripplemem.errors import (
    InvalidInputError,
    StoreError,
    UnknownNamespaceError,
    UnknownUnitError,
)
from ripplemem.memory import Memory
from ripplemem.records import AddResult, Answer, Edge, MemoryUnit, Recall, Version
from ripplemem.server.budget import RequestBudget
from ripplemem.server.empty import empty_recall
from ripplemem.server.errors import ShuttingDownError
from ripplemem.server.jobs import Job, JobBoard
from ripplemem.server.search_pool import SearchPool

__all__ = ["MemoryService"]

T = TypeVar("T")


class MemoryService:
    """Memory verbs for the service, namespace-scoped, off the event loop."""

    def __init__(
        self,
        memory: Memory,
        *,
        read_threads: int = 4,
        write_threads: int = 2,
        jobs: JobBoard | None = None,
        search_pool: SearchPool | None = None,
        budget: RequestBudget | None = None,
        reader: Memory | None = None,
    ) -> None:
        self.memory = memory
        self.reader = reader or memory  # the Memory the reads use
        self.budget = budget or RequestBudget(None)
        self.search_pool = search_pool
        self.read_threads, self.write_threads = read_threads, write_threads
        self.jobs = jobs or JobBoard()
        self._read: CapacityLimiter | None = None
        self._write: CapacityLimiter | None = None
        self._locks: dict[str, asyncio.Lock] = {}
        self._closing = False

    @property
    def search_processes(self) -> int:
        """Worker processes answering searches (0: this process's threads)."""
        return 0 if self.search_pool is None else self.search_pool.processes

    @property
    def answers(self) -> bool:
        """True when an LLM is configured, so ``answer`` works."""
        return self.memory.parts.chat is not None

    # -- write -------------------------------------------------------------------------------
    async def add(
        self,
        namespace: str,
        messages: Sequence[Mapping[str, Any]],
        *,
        session_time: str | None = None,
        session_id: str | None = None,
        started: Callable[[], None] | None = None,
    ) -> AddResult:
        self.budget.check_messages(messages)
        async with self._lock(namespace):
            if started is not None:
                started()
            return await self._write_call(
                self.budget.bind(self.memory.add), messages, namespace=namespace,
                session_time=session_time, session_id=session_id,
            )

    def add_later(
        self,
        namespace: str,
        messages: Sequence[Mapping[str, Any]],
        *,
        session_time: str | None = None,
        session_id: str | None = None,
    ) -> Job:
        """Queue the add as a job and return it at once."""
        self.budget.check_messages(messages)
        return self.jobs.submit(
            namespace,
            lambda started: self.add(
                namespace, messages, session_time=session_time, session_id=session_id,
                started=started,
            ),
        )

    async def delete(self, namespace: str, unit_id: str) -> None:
        async with self._lock(namespace):
            try:
                await self._write_call(self.memory.delete, unit_id, namespace=namespace)
            except UnknownUnitError:
                raise _no_unit(unit_id, namespace) from None

    async def delete_all(self, namespace: str) -> int:
        async with self._lock(namespace):
            return await self._write_call(self.memory.delete_all, namespace=namespace)

    async def import_jsonl(self, namespace: str, body: bytes) -> int:
        """Import an export's lines into ``namespace`` (the file's own namespace is replaced)."""
        lines = _retarget(body, namespace)
        async with self._lock(namespace):
            return await self._write_call(self._import, namespace, lines)

    # -- read --------------------------------------------------------------------------------
    async def search(
        self,
        namespace: str,
        query: str,
        *,
        limit: int | None = None,
        recipe: str | None = None,
        question_time: str | None = None,
    ) -> Recall:
        if self.search_pool is not None and self.search_pool.free:
            return Recall.from_json(json.loads(await self.search_pool.search_json(
                namespace, query, limit=limit, recipe=recipe, question_time=question_time
            )))
        return await self._read_call(
            self.budget.bind(self._search), namespace, query, limit=limit, recipe=recipe, question_time=question_time
        )

    async def search_json(
        self,
        namespace: str,
        query: str,
        *,
        limit: int | None = None,
        recipe: str | None = None,
        question_time: str | None = None,
    ) -> str:
        """The recall as its JSON text (:class:`~ripplemem.records.wire.RecallModel`)."""
        if self.search_pool is not None and self.search_pool.free:
            return await self.search_pool.search_json(
                namespace, query, limit=limit, recipe=recipe, question_time=question_time
            )
        return await self._read_call(
            self.budget.bind(self._search_json), namespace, query, limit=limit, recipe=recipe,
            question_time=question_time,
        )

    async def answer(
        self,
        namespace: str,
        question: str,
        *,
        recipe: str | None = None,
        question_time: str | None = None,
    ) -> Answer:
        try:
            return await self._read_call(
                self.budget.bind(self.reader.answer), question, namespace=namespace, recipe=recipe,
                question_time=question_time,
            )
        except UnknownNamespaceError:
            raise _empty(namespace) from None

    async def get(self, namespace: str, unit_id: str) -> MemoryUnit:
        try:
            return await self._read_call(self.reader.get, unit_id, namespace=namespace)
        except UnknownUnitError:
            raise _no_unit(unit_id, namespace) from None

    async def list(self, namespace: str, *, limit: int, offset: int) -> tuple[builtins.list[MemoryUnit], int]:
        return await self._read_call(self._list, namespace, limit, offset)

    async def edges(self, namespace: str, unit_id: str) -> builtins.list[Edge]:
        try:
            return await self._read_call(self.reader.edges, unit_id, namespace=namespace)
        except UnknownUnitError:
            raise _no_unit(unit_id, namespace) from None

    async def history(self, namespace: str, unit_id: str) -> builtins.list[Version]:
        try:
            return await self._read_call(self.reader.history, unit_id, namespace=namespace)
        except UnknownUnitError:
            raise _no_unit(unit_id, namespace) from None

    async def update(
        self, namespace: str, unit_id: str, text: str, *, session_time: str | None = None
    ) -> AddResult:
        self.budget.check_messages([{"text": text}])
        async with self._lock(namespace):
            try:
                return await self._write_call(
                    self.budget.bind(self.memory.update), unit_id, text, namespace=namespace,
                    session_time=session_time,
                )
            except UnknownUnitError:
                raise _no_unit(unit_id, namespace) from None

    async def export_jsonl(self, namespace: str) -> Path:
        """The namespace's export in a temporary file; the caller deletes it."""
        return await self._read_call(self._export, namespace)

    async def count(self, namespace: str) -> int:
        return await self._read_call(self.reader.store.count, namespace)

    async def close(self) -> None:
        self._closing = True
        if self.search_pool is not None:
            await anyio.to_thread.run_sync(self.search_pool.close)
        await anyio.to_thread.run_sync(self.memory.close)
        if self.reader is not self.memory:
            await anyio.to_thread.run_sync(self.reader.close)

    # -- in the worker threads -----------------------------------------------------------------
    def _search(
        self,
        namespace: str,
        query: str,
        *,
        limit: int | None,
        recipe: str | None,
        question_time: str | None,
    ) -> Recall:
        empty = empty_recall(self.reader, namespace, query, recipe)
        if empty is not None:
            return empty
        return self.reader.search(
            query, namespace=namespace, limit=limit, recipe=recipe, question_time=question_time
        )

    def _search_json(self, namespace: str, query: str, **options: Any) -> str:
        return self._search(namespace, query, **options).to_model().model_dump_json()

    def _list(self, namespace: str, limit: int, offset: int) -> tuple[builtins.list[MemoryUnit], int]:
        units = self.reader.list(namespace=namespace, limit=limit, offset=offset)
        return units, self.reader.store.count(namespace)

    def _export(self, namespace: str) -> Path:
        handle, name = tempfile.mkstemp(prefix="ripplemem-export-", suffix=".jsonl")
        os.close(handle)
        path = Path(name)
        try:
            self.reader.export_jsonl(path, namespace=namespace)
        except BaseException:
            path.unlink(missing_ok=True)
            raise
        return path

    def _import(self, namespace: str, lines: builtins.list[str]) -> int:
        handle, name = tempfile.mkstemp(prefix="ripplemem-import-", suffix=".jsonl")
        path = Path(name)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.writelines(line + "\n" for line in lines)
            with self.memory.store.write([namespace]):  # all of the file or none of it
                return self.memory.import_jsonl(path)
        finally:
            path.unlink(missing_ok=True)

    # -- helpers -------------------------------------------------------------------------------
    def _lock(self, namespace: str) -> asyncio.Lock:
        lock = self._locks.get(namespace)
        if lock is None:
            lock = self._locks[namespace] = asyncio.Lock()
        return lock

    async def _read_call(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        if self._read is None:
            self._read = CapacityLimiter(self.read_threads)
        return await self._run(function, args, kwargs, self._read)

    async def _write_call(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        if self._write is None:
            self._write = CapacityLimiter(self.write_threads)
        return await self._run(function, args, kwargs, self._write)

    async def _run(
        self, function: Callable[..., T], args: tuple, kwargs: dict, limiter: CapacityLimiter
    ) -> T:
        try:
            return await anyio.to_thread.run_sync(
                functools.partial(function, *args, **kwargs), limiter=limiter
            )
        except StoreError:
            if self._closing:  # the store closed under it: the server is stopping
                raise ShuttingDownError(
                    "the server stopped before this request finished and stored nothing of it; "
                    "send it again once the server is back"
                ) from None
            raise


def _no_unit(unit_id: str, namespace: str) -> UnknownUnitError:
    return UnknownUnitError(f"no memory {unit_id!r} in namespace {namespace!r}")


def _empty(namespace: str) -> UnknownNamespaceError:
    return UnknownNamespaceError(f"namespace {namespace!r} holds no memory yet: add memories first")


def _retarget(body: bytes, namespace: str) -> builtins.list[str]:
    """The export's lines (units, edges, the clue graph) moved to ``namespace``; checked first."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InvalidInputError(f"the import is not UTF-8 text ({error}); send an export file") from None
    lines: builtins.list[str] = []
    sources: set[str] = set()
    meta = False
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as error:
            raise InvalidInputError(
                f"import line {number} is not JSON ({error}); nothing was imported"
            ) from None
        kind = row.get("type") if isinstance(row, dict) else None
        if kind == "meta":
            meta = True
        elif kind in ("unit", "edge", "clue", "member", "link"):
            source = row.get("namespace")
            if isinstance(source, str):
                sources.add(source)
            row["namespace"] = namespace
        else:
            raise InvalidInputError(
                f"import line {number} is not a ripplemem export line (its type is {kind!r}); "
                "nothing was imported"
            )
        lines.append(json.dumps(row, ensure_ascii=False))
    if not meta:
        raise InvalidInputError(
            "the import has no meta line: send a file written by GET /v1/export or `ripplemem export`"
        )
    if len(sources) > 1:
        raise InvalidInputError(
            f"the file holds {len(sources)} namespaces; import the export of one namespace at a time"
        )
    return lines
