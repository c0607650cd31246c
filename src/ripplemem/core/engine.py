"""The core: every verb of ripplemem, once, for one store, a namespace at a time.

:class:`Core` is the one implementation the faces share: ``Memory`` calls it directly,
``AsyncMemory`` runs it in worker threads under :class:`~ripplemem.core.lanes.Lanes`, and the
service, the MCP tools, the command line and the viewer reach it only through those two. Each
verb takes the namespace first (already resolved by :mod:`ripplemem.core.identity`) and keeps the
policies every face shares:

* **Empty namespaces are not errors.** A namespace exists once a memory was added to it. Until
  then ``search`` returns no evidence and the trace note :data:`EMPTY_NOTE`, ``list`` an empty
  page, ``count`` and ``delete_all`` 0, ``export`` only the meta line. An id is
  :class:`~ripplemem.errors.UnknownUnitError` in an empty namespace as in a full one; ``answer``
  needs memories to answer from and is :class:`~ripplemem.errors.UnknownNamespaceError`.
* **Messages name only the caller's namespace**: "no memory 'u1' in namespace 'alex'" reads the
  same whether the id exists in another namespace or nowhere, and no message lists the
  namespaces a store holds (the service's tenants never learn of each other).
* Input is checked at this edge (query text, recipe, limit, times) before any model runs.
"""

from __future__ import annotations

import builtins
import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ripplemem.components import Components, build_components
from ripplemem.conversation_input import ROLE_NAMES, offset_of, parse_time, to_conversation
from ripplemem.core.keys import Keys, key_store_of
from ripplemem.errors import (
    DELETE_NAMESPACE,
    NO_LLM,
    ConfigurationError,
    InvalidInputError,
    LLMNotConfiguredError,
    UnknownNamespaceError,
    UnknownUnitError,
)
from ripplemem.providers.base import ChatModel, Embedder
from ripplemem.read.empty import EMPTY_NOTE
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
from ripplemem.records.filters import SearchFilter, parse_filters
from ripplemem.settings import Settings
from ripplemem.stores.base import MemoryStore
from ripplemem.write.input_checks import (
    check_count,
    check_metadata,
    check_page,
    check_person_name,
    check_query,
    check_text,
    clean_time,
)
from ripplemem.write.pipeline import WritePipeline

if TYPE_CHECKING:
    from ripplemem.core.copy import Migration
    from ripplemem.core.neighbourhood import Neighbourhood
    from ripplemem.core.timeline import Timeline

__all__ = ["EMPTY_NOTE", "Core", "Messages", "Progress"]

log = logging.getLogger("ripplemem.memory")


def _asked_at(question_time: datetime | str | None) -> datetime | None:
    """When a question is asked, on the asker's clock: a time given with a UTC offset is read
    there, as a message's session time is, so its "yesterday" is the asker's (a naive time, or
    one in UTC, as given)."""
    when = parse_time(question_time, what="question_time")
    offset = offset_of(question_time)
    return when + offset if when is not None and offset else when

#: the speaker of a namespace's role-style user messages while it names no person
UNNAMED = ROLE_NAMES["user"]

#: what ``add`` takes: messages (dicts), one plain string (one message of the user), a Session
#: or a whole Conversation
Messages = Sequence[Mapping[str, Any]] | Conversation | Session | str
Progress = Callable[[int, int], None]


class Core:
    """Every verb over one store; the namespace comes first in each."""

    def __init__(
        self,
        settings: Settings,
        *,
        store: MemoryStore | None = None,
        embedder: Embedder | None = None,
        chat: ChatModel | None = None,
    ) -> None:
        self.settings = settings
        self.parts: Components = build_components(settings, store=store, embedder=embedder, chat=chat)
        self._writer = WritePipeline(
            self.parts.store, self.parts.embedder, self.parts.extractor, settings.write,
            clue_writer=self.parts.clue_writer, statements=self.parts.statements,
            judge=self.parts.update_judge, day_first=settings.day_first,
        )
        self.keys = Keys(key_store_of(self.parts.store), where=self.parts.store.url)
        self._warm = threading.Lock()
        self._warmed = False

    @property
    def store(self) -> MemoryStore:
        return self.parts.store

    @property
    def backend(self) -> str:
        """The store's kind: ``sqlite``, ``postgresql``, ``memory``, ..."""
        from ripplemem.stores.registry import scheme_of

        return scheme_of(self.store.url)

    @property
    def answers(self) -> bool:
        """True when an LLM is configured, so ``answer`` works."""
        return self.parts.chat is not None

    # -- write -------------------------------------------------------------------------------
    def add(
        self,
        namespace: str,
        messages: Messages,
        *,
        session_time: datetime | str | None = None,
        session_id: str | None = None,
        progress: Progress | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> AddResult:
        conversation = to_conversation(
            _messages(messages), session_time=session_time, session_id=session_id,
            metadata=metadata, person=self.store.person(namespace),
        )
        return self._writer.ingest(conversation, namespace, progress=progress)

    def check_add(
        self,
        messages: Messages,
        *,
        session_time: datetime | str | None = None,
        session_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> None:
        """The InvalidInputError ``add`` would raise for this input before any work (its texts,
        times, metadata and sizes), or nothing; it reads no store and runs no model."""
        conversation = to_conversation(
            _messages(messages), session_time=session_time, session_id=session_id,
            metadata=metadata,
        )
        self._writer.check(conversation)

    def set_person(self, namespace: str, name: str | None) -> None:
        """Name the person behind ``namespace`` (the speaker of its role-style ``user``
        messages). Refused when its memories say another name for that person: a rename or a
        forgetting once it holds memories, a first name once its unnamed person said some (as
        "User"); either would make two people of one."""
        if name is not None:
            name = check_person_name(name)
        current = self.store.person(namespace)
        if (name or UNNAMED) == (current or UNNAMED):  # the same speaker: nobody is split
            self.store.set_person(namespace, name)
            return
        if current is None and self._said_unnamed(namespace):
            raise ConfigurationError(
                f"namespace {namespace!r} holds memories its person said before being named, as "
                f"{UNNAMED!r}; naming it {name!r} would make two people of one (those memories "
                f"say {UNNAMED!r}, new ones would say {name!r}). Leave the person unnamed, or "
                f"{DELETE_NAMESPACE}, name the person, and add the messages again"
            )
        if current is not None and self.store.count(namespace):
            change = (
                f"forgetting it would make two people of one (its memories say {current!r}, "
                f"new ones would say {UNNAMED!r})"
                if name is None
                else f"renaming it {name!r} would make two people of one (its memories say "
                f"{current!r})"
            )
            raise ConfigurationError(
                f"namespace {namespace!r} names its person {current!r}; {change}. Keep "
                f"{current!r}, or {DELETE_NAMESPACE} first"
            )
        self.store.set_person(namespace, name)

    def _said_unnamed(self, namespace: str) -> bool:
        """Whether a memory of ``namespace`` was said by its person before it was named."""
        return bool(self.store.select_units(namespace, SearchFilter(speakers=(UNNAMED,))))

    def person(self, namespace: str) -> str | None:
        return self.store.person(namespace)

    def update(
        self,
        namespace: str,
        unit_id: str,
        text: str,
        *,
        session_time: datetime | str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> AddResult:
        """One write block, a retry is a no-op, the time given or inherited, the old unit's
        metadata kept under ``metadata`` (:mod:`ripplemem.write.update`)."""
        from ripplemem.write.update import update_unit

        when = parse_time(session_time, what="session_time")
        given = check_metadata(metadata, "the update's metadata")
        return update_unit(
            self._writer, self.get(namespace, unit_id), text, when, metadata=given,
            offset=offset_of(session_time),
        )

    def delete(self, namespace: str, unit_id: str) -> None:
        from ripplemem.write.forget import ClueRewriter, forget_unit

        rewriter = ClueRewriter(self.store, self.parts.embedder, self.parts.clue_writer)
        if not forget_unit(self.store, rewriter, namespace, check_text(unit_id, "the unit id")):
            raise _no_unit(namespace, unit_id)

    def delete_all(self, namespace: str) -> int:
        return self.store.delete_namespace(namespace)

    def flush_erasure(self, timeout: float | None = None) -> bool:
        """Wait until no deleted unit's text or vector is left in the store's files (a delete
        returns without waiting for other connections' readers); False at ``timeout`` seconds."""
        return self.store.flush_erasure(timeout)

    def import_lines(self, lines: Iterable[str] | bytes, *, into: str | None = None) -> int:
        """Import an export's lines (or its bytes): into their own namespaces, or all into
        ``into`` (then they must hold one namespace); all of them or nothing."""
        from ripplemem.portability import import_lines

        return import_lines(self.store, self.parts.embedder, lines, into=into)

    # -- read --------------------------------------------------------------------------------
    def search(
        self,
        namespace: str,
        query: str,
        *,
        limit: int | None = None,
        recipe: str | RecallRecipe | None = None,
        question_time: datetime | str | None = None,
        filters: SearchFilter | Mapping[str, Any] | None = None,
    ) -> Recall:
        from ripplemem.read.pipeline import recall

        query = check_query(query, self.settings.max_query_chars)
        if not query.strip():
            raise InvalidInputError("the query is empty: give the text to recall memories for")
        where = parse_filters(filters)
        chosen = self.recipe(recipe, limit)
        when = _asked_at(question_time)
        # the models load before any stage's timer (loading is not a search stage); an empty
        # namespace answers at once without them
        loading = self.warm_up() if self.store.count(namespace) else 0.0
        found = recall(  # an empty namespace: no evidence and the note EMPTY_NOTE
            query,
            store=self.store,
            namespace=namespace,
            embedder=self.parts.embedder,
            recipe=chosen,
            planner=self.parts.planner,
            recognizer=self.parts.recognizer,
            reference_time=when,
            where=where,
            statements=self.parts.statements,
            day_first=self.settings.day_first,
        )
        if loading:
            found.trace.notes.append(
                f"the models were loaded first ({loading:.1f} s, in no stage's time)"
            )
        return found

    def search_json(self, namespace: str, query: str, **options: Any) -> str:
        """:meth:`search`'s recall as its JSON text (:class:`~ripplemem.records.wire.RecallModel`)."""
        return self.search(namespace, query, **options).to_model().model_dump_json()

    def answer(
        self,
        namespace: str,
        question: str,
        *,
        recipe: str | RecallRecipe | None = None,
        question_time: datetime | str | None = None,
    ) -> Answer:
        from ripplemem.read.answering import compose_answer

        chat = self.parts.chat
        if chat is None:
            raise LLMNotConfiguredError(NO_LLM)
        when = _asked_at(question_time)
        found = self.search(namespace, question, recipe=recipe, question_time=when)
        if not found.evidence and EMPTY_NOTE in found.trace.notes:
            raise UnknownNamespaceError(
                f"namespace {namespace!r} holds no memory yet: add memories before asking"
            )
        composed = compose_answer(chat, question, found.evidence, when)
        planner_tokens = sum(p.tokens for p in found.trace.plans)
        return Answer(
            composed.text, found.evidence[: composed.shown], composed.tokens + planner_tokens,
            chat.name, composed.citations,
        )

    def get(self, namespace: str, unit_id: str) -> MemoryUnit:
        units = self.store.get_units(namespace, [check_text(unit_id, "the unit id")])
        if not units:
            raise _no_unit(namespace, unit_id)
        return units[0]

    def list(self, namespace: str, *, limit: int | None = None, offset: int = 0) -> builtins.list[MemoryUnit]:
        check_page(limit, offset)
        return self.store.list_units(namespace, limit=limit, offset=offset)

    def count(self, namespace: str) -> int:
        return self.store.count(namespace)

    def edges(self, namespace: str, unit_id: str) -> builtins.list[Edge]:
        self.get(namespace, unit_id)
        return self.store.edges_of(namespace, unit_id)

    def history(self, namespace: str, unit_id: str) -> builtins.list[Version]:
        from ripplemem.write.supersede import chain_of

        return chain_of(self.store, self.get(namespace, unit_id))

    def namespaces(self) -> builtins.list[str]:
        return self.store.namespaces()

    def check_namespace(self, namespace: str) -> str:
        """``namespace``, or UnknownNamespaceError when it holds no memory yet."""
        if not self.store.count(namespace):
            raise UnknownNamespaceError(f"namespace {namespace!r} holds no memory yet")
        return namespace

    def export_lines(self, namespace: str | None) -> Iterator[str]:
        """The export of ``namespace`` (None: every namespace) as JSON lines, read as taken."""
        from ripplemem.portability import export_lines

        return export_lines(self.store, self.parts.embedder, namespace)

    def export_file(self, path: Path, namespace: str | None) -> int:
        """Write the export to ``path``; the number of units written."""
        from ripplemem.portability import export_jsonl

        return export_jsonl(self.store, self.parts.embedder, path, namespace)

    def import_file(self, path: Path) -> int:
        """Import the export file at ``path`` (its namespaces are kept); the units added."""
        from ripplemem.portability import import_jsonl

        return import_jsonl(self.store, self.parts.embedder, path)

    def neighbourhood(
        self, namespace: str, ids: Sequence[str], *, hops: int = 1, max_nodes: int | None = None
    ) -> Neighbourhood:
        from ripplemem.core.neighbourhood import MAX_NODES, neighbourhood

        if isinstance(ids, str | bytes) or not isinstance(ids, Sequence):
            raise InvalidInputError(
                f"ids must be a list of unit ids, got {type(ids).__name__}: e.g. [unit.id]"
            )
        seeds = [check_text(unit_id, "a unit id of ids") for unit_id in ids]
        check_count(hops, "hops", 0)
        if max_nodes is not None:
            check_count(max_nodes, "max_nodes", 1)  # more than MAX_NODES is MAX_NODES
        return neighbourhood(self.store, namespace, seeds, hops=hops, max_nodes=max_nodes or MAX_NODES)

    def timeline(
        self,
        namespace: str,
        *,
        start: datetime | str | None = None,
        end: datetime | str | None = None,
        bins: int = 40,
        limit: int = 200,
        offset: int = 0,
    ) -> Timeline:
        from ripplemem.core.timeline import MAX_BINS, timeline

        check_count(bins, "bins", 1, MAX_BINS)
        check_count(limit, "limit", 1)
        check_count(offset, "offset", 0)
        low, high = _moment(start, "start"), _moment(end, "end")
        if low is not None and high is not None and low > high:
            raise InvalidInputError(
                f"start {low.isoformat()} is after end {high.isoformat()}: give the earlier time as start"
            )
        return timeline(self.store, namespace, start=low, end=high, bins=bins, limit=limit, offset=offset)

    # -- the store as a whole ------------------------------------------------------------------
    def copy_to(
        self, target: str, *, sample: int = 20, progress: Callable[[str], None] | None = None
    ) -> Migration:
        from contextlib import closing

        from ripplemem.core.copy import copy_and_verify
        from ripplemem.stores.registry import open_store

        with closing(open_store(target)) as copy:
            return copy_and_verify(self.store, copy, sample=sample, progress=progress)

    def warm_up(self) -> float:
        """Load the models now (the embedder, the entity recogniser, the time parser), not
        inside the first call's stages; the seconds it took (0.0 once they are loaded)."""
        from ripplemem.grounding.ground_time import ground_times

        if self._warmed:
            return 0.0
        with self._warm:
            if self._warmed:
                return 0.0
            started = time.perf_counter()
            self.parts.embedder.embed(["warm up"], input_type="query")
            self.parts.recognizer.find(["warm up"], learn=False)
            ground_times("warm up yesterday", datetime(2024, 1, 1))
            self._warmed = True
            return time.perf_counter() - started

    def close(self) -> None:
        """Release the store and the loaded entity pipeline. Never raises (a failure is logged):
        a ``with`` block's result, or the error it raised, is never replaced by one from
        closing."""
        try:
            self.store.close()
        except Exception as error:  # noqa: BLE001 - closing must not hide a result
            log.warning("closing the store failed: %s", error)
        # the loaded entity pipeline serves the next Memory of the process at once, even while
        # something (a web framework's cache of endpoints) keeps this one from being collected
        self.parts.recognizer.release()

    # -- checks --------------------------------------------------------------------------------
    def recipe(self, recipe: str | RecallRecipe | None, limit: int | None = None) -> RecallRecipe:
        """The recipe a search uses: by name (or the settings' one), with ``limit`` as its budget."""
        from ripplemem.read.asso.weights import with_settings_weights

        if recipe is not None and not isinstance(recipe, str | RecallRecipe):
            raise InvalidInputError(
                f"recipe must be a recipe name or a RecallRecipe, got {type(recipe).__name__}"
            )
        if limit is not None:
            check_count(limit, "limit", 1)
        chosen = recipe if isinstance(recipe, RecallRecipe) else get_recipe(recipe or self.settings.recipe)
        chosen = with_settings_weights(chosen, self.settings)  # asso: the fitted weights, if named
        return chosen.with_(budget=limit) if limit else chosen


def _messages(messages: Messages) -> Sequence[Mapping[str, Any]] | Conversation | Session:
    """What ``add`` was given, one plain string as one message of the user."""
    if isinstance(messages, str):
        return [{"role": "user", "content": messages}]
    return messages


def _no_unit(namespace: str, unit_id: str) -> UnknownUnitError:
    return UnknownUnitError(f"no memory {unit_id!r} in namespace {namespace!r}")


def _moment(value: datetime | str | None, name: str) -> datetime | None:
    """A timeline bound: an ISO 8601 time, an offset converted to UTC as ``add`` converts it;
    blank: no bound."""
    if not isinstance(value, str):
        return parse_time(value, what=name)  # a datetime, None, or a type it names
    if not value.strip():
        return None
    try:
        moment = datetime.fromisoformat(value.strip())
    except ValueError:
        raise InvalidInputError(
            f"{name}={value!r} is not an ISO 8601 time: write it as 2024-05-08 or 2024-05-08T13:56"
        ) from None
    return clean_time(moment, name)
