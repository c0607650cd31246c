"""The ``Memory`` facade: mem0-style verbs that delegate to the write and read pipelines.

``AsyncMemory`` offers the same verbs, with the same signatures, as coroutines; the work is CPU-
and database-bound, so it runs the synchronous core in a worker thread rather than pretending to
be non-blocking.
"""

from __future__ import annotations

import asyncio
import builtins
import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, Self

from ripplemem.components import Components, build_components
from ripplemem.conversation_input import parse_time, to_conversation
from ripplemem.errors import (
    ConfigurationError,
    InvalidInputError,
    UnknownNamespaceError,
    UnknownUnitError,
)
from ripplemem.providers.base import ChatModel, Embedder
from ripplemem.read.asso.weights import with_settings_weights
from ripplemem.recipes import RecallRecipe, get_recipe
from ripplemem.records import (
    AddResult,
    Answer,
    Conversation,
    Edge,
    MemoryUnit,
    Recall,
    Session,
    Version,
)
from ripplemem.settings import Settings
from ripplemem.stores.base import MemoryStore
from ripplemem.write.forget import ClueRewriter, forget_unit
from ripplemem.write.input_checks import check_page, check_query, check_text
from ripplemem.write.pipeline import WritePipeline

log = logging.getLogger(__name__)
Messages = Sequence[Mapping[str, Any]] | Conversation | Session
Progress = Callable[[int, int], None]


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
        self.settings = settings or Settings()
        self.parts: Components = build_components(
            self.settings, store=store, embedder=embedder, chat=chat
        )
        self._writer = WritePipeline(
            self.parts.store, self.parts.embedder, self.parts.extractor, self.settings.write,
            clue_writer=self.parts.clue_writer, parse=self.parts.recognizer.parse,
        )

    @classmethod
    def open(cls, store: str | Path, **settings: Any) -> Memory:
        """A memory over the store at ``store`` (a path or URL); ``settings`` as :class:`Settings`."""
        return cls(Settings(store=str(store), **settings))

    @property
    def store(self) -> MemoryStore:
        return self.parts.store

    # -- write -------------------------------------------------------------------------------
    def add(
        self,
        messages: Messages,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        session_time: datetime | str | None = None,
        session_id: str | None = None,
        progress: Progress | None = None,
    ) -> AddResult:
        conversation = to_conversation(messages, session_time=session_time, session_id=session_id)
        return self._writer.ingest(conversation, _namespace(namespace, user_id), progress=progress)

    def update(
        self,
        unit_id: str,
        text: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        session_time: datetime | str | None = None,
    ) -> AddResult:
        """Write ``text`` as a new memory that supersedes unit ``unit_id`` (both are kept; the old
        one gets ``superseded_by`` and ``valid_until`` in :meth:`history` and search evidence).
        One write block; a retry is a no-op; without ``session_time`` it is said one second after
        the latest version of the unit's chain (:mod:`ripplemem.write.update`)."""
        from ripplemem.write.update import update_unit

        old = self.get(unit_id, namespace=_namespace(namespace, user_id))
        return update_unit(self._writer, old, text, parse_time(session_time, what="session_time"))

    def history(
        self, unit_id: str, *, namespace: str | None = None, user_id: str | None = None
    ) -> builtins.list[Version]:
        """The supersession chain ``unit_id`` belongs to, earliest first (a unit nothing
        replaced and that replaced nothing is a chain of one)."""
        from ripplemem.write.supersede import chain_of

        ns = _namespace(namespace, user_id)
        return chain_of(self.parts.store, self.get(unit_id, namespace=ns))

    # -- read --------------------------------------------------------------------------------
    def search(
        self,
        query: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        limit: int | None = None,
        recipe: str | RecallRecipe | None = None,
        question_time: datetime | str | None = None,
    ) -> Recall:
        from ripplemem.read.pipeline import recall

        query = check_query(query, self.settings.max_query_chars)
        ns = self._known(_namespace(namespace, user_id))
        chosen = self._recipe(recipe, limit)
        return recall(
            query,
            store=self.parts.store,
            namespace=ns,
            embedder=self.parts.embedder,
            recipe=chosen,
            planner=self.parts.planner,
            recognizer=self.parts.recognizer,
            reference_time=parse_time(question_time, what="question_time"),
        )

    def answer(
        self,
        question: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        recipe: str | RecallRecipe | None = None,
        question_time: datetime | str | None = None,
    ) -> Answer:
        from ripplemem.read.prompts.answering import answer_messages

        chat = self.parts.chat
        if chat is None:
            raise ConfigurationError(
                "answer() needs an LLM: set Settings(llm=LLMSettings(base_url=..., model=...)) "
                "or RIPPLEMEM_LLM_BASE_URL / RIPPLEMEM_LLM_MODEL; search() works without one"
            )
        when = parse_time(question_time, what="question_time")
        found = self.search(
            question, namespace=namespace, user_id=user_id, recipe=recipe, question_time=when
        )
        result = chat.complete(answer_messages(question, found.evidence, when))
        planner_tokens = sum(p.tokens for p in found.trace.plans)
        return Answer(result.text.strip(), found.evidence, result.total_tokens + planner_tokens, chat.name)

    def get(self, unit_id: str, *, namespace: str | None = None, user_id: str | None = None) -> MemoryUnit:
        ns = _namespace(namespace, user_id)
        units = self.parts.store.get_units(ns, [unit_id])
        if not units:
            raise UnknownUnitError(f"no unit {unit_id!r} in namespace {ns!r}; {self._unit_hint(ns)}")
        return units[0]

    def list(
        self, *, namespace: str | None = None, user_id: str | None = None,
        limit: int | None = None, offset: int = 0,
    ) -> builtins.list[MemoryUnit]:
        check_page(limit, offset)
        return self.parts.store.list_units(_namespace(namespace, user_id), limit=limit, offset=offset)

    def edges(self, unit_id: str, *, namespace: str | None = None, user_id: str | None = None) -> builtins.list[Edge]:
        ns = _namespace(namespace, user_id)
        self.get(unit_id, namespace=ns)
        return self.parts.store.edges_of(ns, unit_id)

    def namespaces(self) -> builtins.list[str]:
        return self.parts.store.namespaces()

    # -- delete ------------------------------------------------------------------------------
    def delete(self, unit_id: str, *, namespace: str | None = None, user_id: str | None = None) -> None:
        ns = _namespace(namespace, user_id)
        rewriter = ClueRewriter(self.parts.store, self.parts.embedder, self.parts.clue_writer)
        if not forget_unit(self.parts.store, rewriter, ns, unit_id):
            raise UnknownUnitError(
                f"no unit {unit_id!r} in namespace {ns!r}; nothing was deleted; {self._unit_hint(ns)}"
            )

    def delete_all(self, *, namespace: str | None = None, user_id: str | None = None) -> int:
        return self.parts.store.delete_namespace(_namespace(namespace, user_id))

    def flush_erasure(self, timeout: float | None = None) -> bool:
        """Wait until no deleted unit's text or vector is left in the store's files (a delete
        returns without waiting for other connections' readers); False at ``timeout`` seconds."""
        return self.parts.store.flush_erasure(timeout)

    # -- portability -------------------------------------------------------------------------
    def export_jsonl(self, path: str | Path, *, namespace: str | None = None) -> int:
        from ripplemem.portability import export_jsonl

        return export_jsonl(self.parts.store, self.parts.embedder, Path(path), namespace)

    def import_jsonl(self, path: str | Path) -> int:
        from ripplemem.portability import import_jsonl

        return import_jsonl(self.parts.store, self.parts.embedder, Path(path))

    def close(self) -> None:
        """Release the store. Never raises (a failure is logged): a ``with`` block's result, or
        the error it raised, is never replaced by one from closing."""
        try:
            self.parts.store.close()
        except Exception as error:  # noqa: BLE001 - closing must not hide a result
            log.warning("closing the store failed: %s", error)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- helpers -----------------------------------------------------------------------------
    def _known(self, namespace: str) -> str:
        if self.parts.store.count(namespace) == 0:
            raise UnknownNamespaceError(f"namespace {namespace!r} {self._empty_hint()}")
        return namespace

    def check_namespace(self, *, namespace: str | None = None, user_id: str | None = None) -> str:
        """The namespace, or UnknownNamespaceError naming the known ones when it holds nothing."""
        return self._known(_namespace(namespace, user_id))

    @staticmethod
    def _empty_hint() -> str:
        # other namespaces are never named: an error may reach a caller who may not know them
        return "holds no memory; check the name, or add memories to it first"

    def _unit_hint(self, namespace: str) -> str:
        if self.parts.store.count(namespace):
            return "list ids with `ripplemem list`"
        return f"the namespace {self._empty_hint()}"

    def _recipe(self, recipe: str | RecallRecipe | None, limit: int | None) -> RecallRecipe:
        if recipe is not None and not isinstance(recipe, str | RecallRecipe):
            raise InvalidInputError(
                f"recipe must be a recipe name or a RecallRecipe, got {type(recipe).__name__}"
            )
        if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 1):
            raise InvalidInputError(f"limit must be a whole number >= 1, got {limit!r}")
        chosen = recipe if isinstance(recipe, RecallRecipe) else get_recipe(recipe or self.settings.recipe)
        chosen = with_settings_weights(chosen, self.settings)  # asso: the fitted weights, if named
        return chosen.with_(budget=limit) if limit else chosen


def _namespace(namespace: str | None, user_id: str | None) -> str:
    if namespace and user_id and namespace != user_id:
        raise ConfigurationError("give either namespace or user_id, not two different values")
    chosen = namespace or user_id or "default"
    return check_text(chosen, "the namespace" if namespace else "user_id")


class AsyncMemory:
    """The same verbs as :class:`Memory`, with the same signatures, as coroutines (each runs the
    synchronous verb in a worker thread). ``tests/facade/test_async_parity.py`` keeps the two in
    step."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        store: MemoryStore | None = None,
        embedder: Embedder | None = None,
        chat: ChatModel | None = None,
    ) -> None:
        self.sync = Memory(settings, store=store, embedder=embedder, chat=chat)

    @classmethod
    def open(cls, store: str | Path, **settings: Any) -> AsyncMemory:
        """A memory over the store at ``store`` (a path or URL); ``settings`` as :class:`Settings`."""
        return cls(Settings(store=str(store), **settings))

    @property
    def settings(self) -> Settings:
        return self.sync.settings

    @property
    def store(self) -> MemoryStore:
        return self.sync.store

    async def add(
        self,
        messages: Messages,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        session_time: datetime | str | None = None,
        session_id: str | None = None,
        progress: Progress | None = None,
    ) -> AddResult:
        return await asyncio.to_thread(
            self.sync.add, messages, namespace=namespace, user_id=user_id,
            session_time=session_time, session_id=session_id, progress=progress,
        )

    async def update(
        self,
        unit_id: str,
        text: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        session_time: datetime | str | None = None,
    ) -> AddResult:
        return await asyncio.to_thread(
            self.sync.update, unit_id, text, namespace=namespace, user_id=user_id,
            session_time=session_time,
        )

    async def history(
        self, unit_id: str, *, namespace: str | None = None, user_id: str | None = None
    ) -> builtins.list[Version]:
        return await asyncio.to_thread(self.sync.history, unit_id, namespace=namespace, user_id=user_id)

    async def search(
        self,
        query: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        limit: int | None = None,
        recipe: str | RecallRecipe | None = None,
        question_time: datetime | str | None = None,
    ) -> Recall:
        return await asyncio.to_thread(
            self.sync.search, query, namespace=namespace, user_id=user_id, limit=limit,
            recipe=recipe, question_time=question_time,
        )

    async def answer(
        self,
        question: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        recipe: str | RecallRecipe | None = None,
        question_time: datetime | str | None = None,
    ) -> Answer:
        return await asyncio.to_thread(
            self.sync.answer, question, namespace=namespace, user_id=user_id, recipe=recipe,
            question_time=question_time,
        )

    async def get(
        self, unit_id: str, *, namespace: str | None = None, user_id: str | None = None
    ) -> MemoryUnit:
        return await asyncio.to_thread(self.sync.get, unit_id, namespace=namespace, user_id=user_id)

    async def list(
        self, *, namespace: str | None = None, user_id: str | None = None,
        limit: int | None = None, offset: int = 0,
    ) -> builtins.list[MemoryUnit]:
        return await asyncio.to_thread(
            self.sync.list, namespace=namespace, user_id=user_id, limit=limit, offset=offset
        )

    async def edges(
        self, unit_id: str, *, namespace: str | None = None, user_id: str | None = None
    ) -> builtins.list[Edge]:
        return await asyncio.to_thread(self.sync.edges, unit_id, namespace=namespace, user_id=user_id)

    async def namespaces(self) -> builtins.list[str]:
        return await asyncio.to_thread(self.sync.namespaces)

    async def check_namespace(
        self, *, namespace: str | None = None, user_id: str | None = None
    ) -> str:
        return await asyncio.to_thread(self.sync.check_namespace, namespace=namespace, user_id=user_id)

    async def delete(
        self, unit_id: str, *, namespace: str | None = None, user_id: str | None = None
    ) -> None:
        await asyncio.to_thread(self.sync.delete, unit_id, namespace=namespace, user_id=user_id)

    async def delete_all(self, *, namespace: str | None = None, user_id: str | None = None) -> int:
        return await asyncio.to_thread(self.sync.delete_all, namespace=namespace, user_id=user_id)

    async def flush_erasure(self, timeout: float | None = None) -> bool:
        return await asyncio.to_thread(self.sync.flush_erasure, timeout)

    async def export_jsonl(self, path: str | Path, *, namespace: str | None = None) -> int:
        return await asyncio.to_thread(self.sync.export_jsonl, path, namespace=namespace)

    async def import_jsonl(self, path: str | Path) -> int:
        return await asyncio.to_thread(self.sync.import_jsonl, path)

    async def close(self) -> None:
        await asyncio.to_thread(self.sync.close)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
