"""The ``Memory`` facade: mem0-style verbs over the one core (:mod:`ripplemem.core`).

Each verb turns its ids into a namespace by the one rule of :mod:`ripplemem.core.identity`
(``namespace`` / ``user_id``, narrowed by ``agent_id`` and ``run_id``) and calls the core, which
holds every verb's implementation and the policies all faces share (empty namespaces, error
messages that name only the caller's namespace). ``AsyncMemory`` offers the same verbs, with the
same signatures, as coroutines: it runs the same core in worker threads under
:class:`~ripplemem.core.lanes.Lanes` (thread limits, per-namespace write turns, the search
workers' hook); the service, the MCP tools and the viewer use it.

``Memory.open(store, **settings)`` and ``Memory()`` read the settings the call does not give from
the ``RIPPLEMEM_*`` environment variables (:meth:`Settings.from_env`, as the command line and the
service do); a :class:`Settings` passed in is used as it is.
"""

from __future__ import annotations

import builtins
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from ripplemem.core.engine import Core, Messages, Progress
from ripplemem.core.identity import namespace_of, namespace_to_forget, user_of
from ripplemem.core.keys import Keys
from ripplemem.core.lanes import Lanes
from ripplemem.errors import ConfigurationError
from ripplemem.providers.base import ChatModel, Embedder
from ripplemem.recipes import RecallRecipe
from ripplemem.records import AddResult, Answer, Edge, MemoryUnit, Recall, Version
from ripplemem.records.filters import SearchFilter, parse_filters
from ripplemem.records.wire import RecallModel
from ripplemem.settings import Settings
from ripplemem.stores.base import MemoryStore

if TYPE_CHECKING:
    from ripplemem.core.copy import Migration
    from ripplemem.core.neighbourhood import Neighbourhood
    from ripplemem.core.timeline import Timeline

__all__ = ["AsyncMemory", "ExportLines", "Memory", "Messages", "Progress"]


class Memory:
    """Long-term memory for one store. Namespaces (user ids) keep memories apart."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        store: MemoryStore | None = None,
        embedder: Embedder | None = None,
        chat: ChatModel | None = None,
    ) -> None:
        chosen = settings if settings is not None else Settings.from_env()
        self._core = Core(chosen, store=store, embedder=embedder, chat=chat)
        self.settings = self._core.settings

    @classmethod
    def open(
        cls, store: str | Path, *, env: Mapping[str, str] | None = None, **settings: Any
    ) -> Memory:
        """A memory over the store at ``store`` (a path or URL); ``settings`` as :class:`Settings`.
        A setting not given comes from the ``RIPPLEMEM_*`` variables of ``env`` (default: this
        process's environment), as the command line reads them; ``env={}`` reads none."""
        return cls(_settings(store, env, settings))

    @property
    def store(self) -> MemoryStore:
        return self._core.store

    @property
    def keys(self) -> Keys:
        """The service's API keys kept in this store: ``create``, ``list``, ``revoke``, ``find``."""
        return self._core.keys

    @property
    def backend(self) -> str:
        """The store's kind: ``sqlite``, ``postgresql``, ``memory``, ..."""
        return self._core.backend

    @property
    def can_answer(self) -> bool:
        """True when an LLM is configured, so ``answer`` works."""
        return self._core.answers

    # -- write -------------------------------------------------------------------------------
    def add(
        self,
        messages: Messages,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        session_time: datetime | str | None = None,
        session_id: str | None = None,
        progress: Progress | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> AddResult:
        """Remember ``messages`` (dicts, one plain string, a Session or a Conversation).
        ``metadata`` (a JSON object) is stored on every unit they yield, under each message's
        own ``metadata``; a search can filter on both."""
        ns = namespace_of(namespace, user_id, agent_id, run_id)
        return self._core.add(
            ns, messages, session_time=session_time, session_id=session_id, progress=progress,
            metadata=metadata,
        )

    def check_add(
        self,
        messages: Messages,
        *,
        session_time: datetime | str | None = None,
        session_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> None:
        """Raise the InvalidInputError :meth:`add` would raise for this input before any work
        (its texts, times, metadata and sizes), adding nothing: quick, it reads no store and
        runs no model (the service checks a background add so before it queues it)."""
        self._core.check_add(messages, session_time=session_time, session_id=session_id, metadata=metadata)

    def set_person(
        self,
        name: str | None,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> None:
        """Name the person behind the namespace: the speaker of its role-style ``user`` messages
        (``{"role": "user", ...}`` without a ``name``), so "I" becomes ``name`` in what is
        remembered, and "User" and the person are not two people. Set it before the first add:
        once the namespace holds memories, a name other than the one they say is refused
        (``ConfigurationError``): a rename, and a first name when memories say "User".
        ``None`` forgets it."""
        self._core.set_person(namespace_of(namespace, user_id, agent_id, run_id), name)

    def person(
        self,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> str | None:
        """The person behind the namespace (:meth:`set_person`), None when unnamed."""
        return self._core.person(namespace_of(namespace, user_id, agent_id, run_id))

    def update(
        self,
        unit_id: str,
        text: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        session_time: datetime | str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> AddResult:
        """Write ``text`` as a new memory that supersedes unit ``unit_id`` (both are kept; the old
        one gets ``superseded_by`` and ``valid_until`` in :meth:`history` and search evidence).
        The new memory keeps the old one's metadata; ``metadata`` (a JSON object) is merged into
        it: its keys override the old memory's, the other old keys are kept. A ``text`` that
        yields no memory ("yes"), or a ``session_time`` before the memory it replaces was said,
        raises ``InvalidInputError`` and stores nothing."""
        ns = namespace_of(namespace, user_id, agent_id, run_id)
        return self._core.update(ns, unit_id, text, session_time=session_time, metadata=metadata)

    def history(
        self,
        unit_id: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> builtins.list[Version]:
        """The supersession chain ``unit_id`` belongs to, oldest value first: each unit after the
        units it supersedes, whatever their times (a unit nothing replaced and that replaced
        nothing is a chain of one)."""
        return self._core.history(namespace_of(namespace, user_id, agent_id, run_id), unit_id)

    def delete(
        self,
        unit_id: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> None:
        """Forget one unit: its edges, index entries and clue memberships go with it."""
        self._core.delete(self._to_forget(namespace, user_id, agent_id, run_id), unit_id)

    def delete_all(
        self,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> int:
        """Forget every unit of the namespace; how many there were. Any namespace
        :meth:`namespaces` lists can be named, even one an import wrote under a name ``add``
        refuses."""
        return self._core.delete_all(self._to_forget(namespace, user_id, agent_id, run_id))

    def _to_forget(
        self, namespace: str | None, user_id: str | None, agent_id: str | None, run_id: str | None
    ) -> str:
        return namespace_to_forget(namespace, user_id, agent_id, run_id, held=self._core.namespaces)

    def flush_erasure(self, timeout: float | None = None) -> bool:
        """Wait until no deleted unit's text or vector is left in the store's files (a delete
        returns without waiting for other connections' readers); False at ``timeout`` seconds."""
        return self._core.flush_erasure(timeout)

    # -- read --------------------------------------------------------------------------------
    def search(
        self,
        query: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        limit: int | None = None,
        recipe: str | RecallRecipe | None = None,
        question_time: datetime | str | None = None,
        filters: SearchFilter | Mapping[str, Any] | None = None,
    ) -> Recall:
        """The evidence for ``query``, best first, with its recall trace (no evidence, and a
        note, for a namespace that holds no memory yet). ``filters`` (metadata values,
        speakers, a said-time range: :mod:`ripplemem.records.filters`) restrict it before any
        view cuts its list."""
        ns = namespace_of(namespace, user_id, agent_id, run_id)
        return self._core.search(
            ns, query, limit=limit, recipe=recipe, question_time=question_time, filters=filters
        )

    def search_json(
        self,
        query: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        limit: int | None = None,
        recipe: str | RecallRecipe | None = None,
        question_time: datetime | str | None = None,
        filters: SearchFilter | Mapping[str, Any] | None = None,
    ) -> str:
        """:meth:`search`'s recall as its JSON text (what ``POST /v1/search`` answers)."""
        ns = namespace_of(namespace, user_id, agent_id, run_id)
        return self._core.search_json(
            ns, query, limit=limit, recipe=recipe, question_time=question_time, filters=filters
        )

    def answer(
        self,
        question: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        recipe: str | RecallRecipe | None = None,
        question_time: datetime | str | None = None,
    ) -> Answer:
        """The LLM's answer to ``question`` from the evidence a search finds (needs an LLM)."""
        ns = namespace_of(namespace, user_id, agent_id, run_id)
        return self._core.answer(ns, question, recipe=recipe, question_time=question_time)

    def get(
        self,
        unit_id: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> MemoryUnit:
        return self._core.get(namespace_of(namespace, user_id, agent_id, run_id), unit_id)

    def list(
        self,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        limit: int | None = None,
        offset: int = 0,
    ) -> builtins.list[MemoryUnit]:
        """The namespace's units in the order they were stored (none for an empty namespace):
        the first stored first, not sorted by ``session_time`` or ``created_at`` (an import, or
        adds from several threads or processes, can store an earlier conversation later); a page
        keeps its place as memories are added. :meth:`timeline` and the ``after`` / ``before``
        filters read by when memories were said."""
        ns = namespace_of(namespace, user_id, agent_id, run_id)
        return self._core.list(ns, limit=limit, offset=offset)

    def count(
        self,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> int:
        """How many units the namespace holds."""
        return self._core.count(namespace_of(namespace, user_id, agent_id, run_id))

    def edges(
        self,
        unit_id: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> builtins.list[Edge]:
        """``unit_id``'s edges; a ``supersedes`` edge runs new -> old (``src`` replaced ``dst``)
        whichever end is asked."""
        return self._core.edges(namespace_of(namespace, user_id, agent_id, run_id), unit_id)

    def namespaces(self) -> builtins.list[str]:
        """Every namespace that holds memories (for the store's owner: the service never shows
        one tenant another's)."""
        return self._core.namespaces()

    def check_namespace(
        self,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> str:
        """The namespace these ids name, or UnknownNamespaceError when it holds no memory yet."""
        return self._core.check_namespace(namespace_of(namespace, user_id, agent_id, run_id))

    def neighbourhood(
        self,
        ids: Sequence[str],
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        hops: int = 1,
        max_nodes: int | None = None,
    ) -> Neighbourhood:
        """The units within ``hops`` edges of ``ids`` and the edges among them (the viewer's graph)."""
        ns = namespace_of(namespace, user_id, agent_id, run_id)
        return self._core.neighbourhood(ns, ids, hops=hops, max_nodes=max_nodes)

    def timeline(
        self,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        start: datetime | str | None = None,
        end: datetime | str | None = None,
        bins: int = 40,
        limit: int = 200,
        offset: int = 0,
    ) -> Timeline:
        """The namespace's units laid out in time: counts per bin and one window's units."""
        ns = namespace_of(namespace, user_id, agent_id, run_id)
        return self._core.timeline(ns, start=start, end=end, bins=bins, limit=limit, offset=offset)

    # -- portability -------------------------------------------------------------------------
    def export_lines(
        self,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> ExportLines:
        """The export (of one namespace, or of every one when no id is given) as JSON lines,
        read from the store as they are taken (``for line in ...`` or ``async for``)."""
        return ExportLines(self._core.export_lines(_only(namespace, user_id, agent_id, run_id)))

    def import_lines(
        self,
        lines: Iterable[str] | bytes,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> int:
        """Import an export's lines (all of them or nothing): into their own namespaces, or, when
        an id is given, all into that namespace (then they must hold one namespace)."""
        return self._core.import_lines(lines, into=_only(namespace, user_id, agent_id, run_id))

    def export_jsonl(self, path: str | Path, *, namespace: str | None = None) -> int:
        """Write the export to ``path``; the number of units written."""
        return self._core.export_file(Path(path), namespace)

    def import_jsonl(self, path: str | Path) -> int:
        """Import the export file at ``path`` (its namespaces are kept); the units added."""
        return self._core.import_file(Path(path))

    def copy_to(
        self, target: str, *, sample: int = 20, progress: Callable[[str], None] | None = None
    ) -> Migration:
        """Copy the whole store into the empty store at ``target`` (a path or URL, any backend),
        then check the copy (counts, and ``sample`` units' searches per namespace)."""
        return self._core.copy_to(target, sample=sample, progress=progress)

    def close(self) -> None:
        """Release the store. Never raises (a failure is logged)."""
        self._core.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ExportLines:
    """An export's JSON lines, read from the store as they are taken: iterate them (``for``), or,
    from ``AsyncMemory``, ``async for`` them (a page of lines per worker-thread call)."""

    PAGE = 200

    def __init__(self, lines: Iterator[str], lanes: Lanes | None = None) -> None:
        self._lines, self._lanes = lines, lanes

    def __iter__(self) -> Iterator[str]:
        return self._lines

    async def __aiter__(self) -> AsyncIterator[str]:
        lanes = self._lanes or Lanes(read_threads=1)
        while page := await lanes.read(self._page):
            for line in page:
                yield line

    def _page(self) -> builtins.list[str]:
        return [line for line, _ in zip(self._lines, range(self.PAGE))]


class AsyncMemory:
    """The same verbs as :class:`Memory`, with the same signatures, as coroutines: the same core
    run in worker threads under ``lanes`` (:class:`~ripplemem.core.lanes.Lanes`: thread limits,
    per-namespace write turns, search workers). ``over=memory`` makes the async face of an open
    :class:`Memory` (they share its store and models). ``tests/facade/test_async_parity.py``
    keeps the two in step."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        store: MemoryStore | None = None,
        embedder: Embedder | None = None,
        chat: ChatModel | None = None,
        lanes: Lanes | None = None,
        over: Memory | None = None,
        reader: Memory | None = None,
    ) -> None:
        self.sync = over or Memory(settings, store=store, embedder=embedder, chat=chat)
        self._core = self.sync._core
        #: the core the reads run on: ``reader``'s (a second Memory over the same store, whose
        #: own connection, caches and name recogniser never wait on a write block), else this one
        self._reader = reader
        self._reads = reader._core if reader is not None else self._core
        self._lanes = lanes or Lanes()

    @classmethod
    def open(
        cls, store: str | Path, *, env: Mapping[str, str] | None = None, **settings: Any
    ) -> AsyncMemory:
        """A memory over the store at ``store`` (a path or URL), as :meth:`Memory.open`."""
        return cls(_settings(store, env, settings))

    @property
    def settings(self) -> Settings:
        return self._core.settings

    @property
    def store(self) -> MemoryStore:
        return self._core.store

    @property
    def keys(self) -> Keys:
        """The service's API keys kept in this store (synchronous, quick calls)."""
        return self._core.keys

    @property
    def backend(self) -> str:
        """The store's kind: ``sqlite``, ``postgresql``, ``memory``, ..."""
        return self._core.backend

    @property
    def can_answer(self) -> bool:
        """True when an LLM is configured, so ``answer`` works."""
        return self._core.answers

    # -- write -------------------------------------------------------------------------------
    async def add(
        self,
        messages: Messages,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        session_time: datetime | str | None = None,
        session_id: str | None = None,
        progress: Progress | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> AddResult:
        ns = namespace_of(namespace, user_id, agent_id, run_id)
        return await self._lanes.write(
            ns, self._core.add, ns, messages, session_time=session_time, session_id=session_id,
            progress=progress, metadata=metadata,
        )

    async def check_add(
        self,
        messages: Messages,
        *,
        session_time: datetime | str | None = None,
        session_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> None:
        # quick (no store, no model): run where it is called, not queued behind other work
        self._core.check_add(messages, session_time=session_time, session_id=session_id, metadata=metadata)

    async def set_person(
        self,
        name: str | None,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> None:
        ns = namespace_of(namespace, user_id, agent_id, run_id)
        await self._lanes.write(ns, self._core.set_person, ns, name)

    async def person(
        self,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> str | None:
        ns = namespace_of(namespace, user_id, agent_id, run_id)
        return await self._lanes.read(self._core.person, ns)

    async def update(
        self,
        unit_id: str,
        text: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        session_time: datetime | str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> AddResult:
        ns = namespace_of(namespace, user_id, agent_id, run_id)
        return await self._lanes.write(
            ns, self._core.update, ns, unit_id, text, session_time=session_time, metadata=metadata
        )

    async def history(
        self,
        unit_id: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> builtins.list[Version]:
        ns = namespace_of(namespace, user_id, agent_id, run_id)
        return await self._lanes.read(self._reads.history, ns, unit_id)

    async def delete(
        self,
        unit_id: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> None:
        ns = self.sync._to_forget(namespace, user_id, agent_id, run_id)
        await self._lanes.write(ns, self._core.delete, ns, unit_id)

    async def delete_all(
        self,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> int:
        ns = self.sync._to_forget(namespace, user_id, agent_id, run_id)
        return await self._lanes.write(ns, self._core.delete_all, ns)

    async def flush_erasure(self, timeout: float | None = None) -> bool:
        import anyio

        return await anyio.to_thread.run_sync(self._core.flush_erasure, timeout)

    # -- read --------------------------------------------------------------------------------
    async def search(
        self,
        query: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        limit: int | None = None,
        recipe: str | RecallRecipe | None = None,
        question_time: datetime | str | None = None,
        filters: SearchFilter | Mapping[str, Any] | None = None,
    ) -> Recall:
        ns = namespace_of(namespace, user_id, agent_id, run_id)
        return await self._lanes.search(
            self._reads.search, ns, query, pooled=_recall, limit=limit, recipe=recipe,
            question_time=question_time, filters=parse_filters(filters),
        )

    async def search_json(
        self,
        query: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        limit: int | None = None,
        recipe: str | RecallRecipe | None = None,
        question_time: datetime | str | None = None,
        filters: SearchFilter | Mapping[str, Any] | None = None,
    ) -> str:
        ns = namespace_of(namespace, user_id, agent_id, run_id)
        return await self._lanes.search(
            self._reads.search_json, ns, query, pooled=str, limit=limit, recipe=recipe,
            question_time=question_time, filters=parse_filters(filters),
        )

    async def answer(
        self,
        question: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        recipe: str | RecallRecipe | None = None,
        question_time: datetime | str | None = None,
    ) -> Answer:
        ns = namespace_of(namespace, user_id, agent_id, run_id)
        return await self._lanes.read(
            self._reads.answer, ns, question, recipe=recipe, question_time=question_time
        )

    async def get(
        self,
        unit_id: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> MemoryUnit:
        ns = namespace_of(namespace, user_id, agent_id, run_id)
        return await self._lanes.read(self._reads.get, ns, unit_id)

    async def list(
        self,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        limit: int | None = None,
        offset: int = 0,
    ) -> builtins.list[MemoryUnit]:
        ns = namespace_of(namespace, user_id, agent_id, run_id)
        return await self._lanes.read(self._reads.list, ns, limit=limit, offset=offset)

    async def count(
        self,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> int:
        ns = namespace_of(namespace, user_id, agent_id, run_id)
        return await self._lanes.read(self._reads.count, ns)

    async def edges(
        self,
        unit_id: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> builtins.list[Edge]:
        ns = namespace_of(namespace, user_id, agent_id, run_id)
        return await self._lanes.read(self._reads.edges, ns, unit_id)

    async def namespaces(self) -> builtins.list[str]:
        return await self._lanes.read(self._reads.namespaces)

    async def check_namespace(
        self,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> str:
        ns = namespace_of(namespace, user_id, agent_id, run_id)
        return await self._lanes.read(self._reads.check_namespace, ns)

    async def neighbourhood(
        self,
        ids: Sequence[str],
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        hops: int = 1,
        max_nodes: int | None = None,
    ) -> Neighbourhood:
        ns = namespace_of(namespace, user_id, agent_id, run_id)
        return await self._lanes.browse(self._reads.neighbourhood, ns, ids, hops=hops, max_nodes=max_nodes)

    async def timeline(
        self,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        start: datetime | str | None = None,
        end: datetime | str | None = None,
        bins: int = 40,
        limit: int = 200,
        offset: int = 0,
    ) -> Timeline:
        ns = namespace_of(namespace, user_id, agent_id, run_id)
        return await self._lanes.browse(
            self._reads.timeline, ns, start=start, end=end, bins=bins, limit=limit, offset=offset
        )

    # -- portability -------------------------------------------------------------------------
    async def export_lines(
        self,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> ExportLines:
        only = _only(namespace, user_id, agent_id, run_id)
        return ExportLines(self._reads.export_lines(only), self._lanes)

    async def import_lines(
        self,
        lines: Iterable[str] | bytes,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> int:
        into = _only(namespace, user_id, agent_id, run_id)
        return await self._lanes.write(into, self._core.import_lines, lines, into=into)

    async def export_jsonl(self, path: str | Path, *, namespace: str | None = None) -> int:
        return await self._lanes.read(self._reads.export_file, Path(path), namespace)

    async def import_jsonl(self, path: str | Path) -> int:
        return await self._lanes.write(None, self._core.import_file, Path(path))

    async def copy_to(
        self, target: str, *, sample: int = 20, progress: Callable[[str], None] | None = None
    ) -> Migration:
        return await self._lanes.read(self._core.copy_to, target, sample=sample, progress=progress)

    async def close(self) -> None:
        """Stop taking work (a call whose store closes under it ends in ShuttingDownError), stop
        the search workers, release the store."""
        import anyio

        await anyio.to_thread.run_sync(self._lanes.close)
        await anyio.to_thread.run_sync(self._core.close)
        if self._reader is not None:
            await anyio.to_thread.run_sync(self._reader.close)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


def _settings(store: object, env: Mapping[str, str] | None, given: dict[str, Any]) -> Settings:
    """The settings ``open`` builds: ``store`` and ``given``, the rest from ``env``."""
    if isinstance(store, Path):
        store = str(store)
    if not isinstance(store, str):
        raise ConfigurationError(
            f"store must be a path or URL string, got {type(store).__name__}: e.g. "
            'Memory.open("memory.db") or Memory.open("memory://")'
        )
    return Settings.from_env(env, store=store, **given)


def _recall(text: str) -> Recall:
    return Recall.from_model(RecallModel.model_validate_json(text))


def _only(
    namespace: str | None, user_id: str | None, agent_id: str | None, run_id: str | None
) -> str | None:
    """The namespace the ids name, or None when none is given (every namespace)."""
    if user_of(namespace, user_id) is None and agent_id is None and run_id is None:
        return None
    return namespace_of(namespace, user_id, agent_id, run_id)
