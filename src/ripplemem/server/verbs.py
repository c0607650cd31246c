"""The verbs the service offers, in one list that the REST routes and the MCP tools are both
built from (:mod:`.routes`, :mod:`.mcp_tools`).

A verb is its arguments (one model, :mod:`.schemas`), what it answers (a wire model of
:mod:`ripplemem.records.wire`), one line over :class:`~ripplemem.AsyncMemory`, and where it is
served: a REST method and path, an MCP tool name, or both. Offering a new verb is one entry
here (plus the core verb it calls, and its line in ``docs/service.md``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from mcp.types import ToolAnnotations
from pydantic import BaseModel

from ripplemem.memory import AsyncMemory
from ripplemem.records import MemoryUnit
from ripplemem.records.wire import (
    AddResultModel,
    AnswerModel,
    CountModel,
    EdgesModel,
    HistoryModel,
    RecallModel,
    UnitModel,
    UnitPageModel,
)
from ripplemem.server.schemas import (
    AddRequest,
    AnswerRequest,
    GraphModel,
    GraphNodeModel,
    GraphRequest,
    Ids,
    ListRequest,
    PersonModel,
    PersonRequest,
    SearchRequest,
    TimelineBinModel,
    TimelineModel,
    TimelineRequest,
    TimelineUnitModel,
    UnitRequest,
    UpdateRequest,
)

__all__ = ["VERBS", "Result", "Verb"]

#: a verb's answer: its wire model, or that model's JSON text (a search from a worker process)
Result = BaseModel | str
Run = Callable[[AsyncMemory, str, Any], Awaitable[Result]]

READS = ToolAnnotations(read_only_hint=True, open_world_hint=False)
WRITES = ToolAnnotations(destructive_hint=False, open_world_hint=False)
DELETES = ToolAnnotations(destructive_hint=True, open_world_hint=False)


@dataclass(frozen=True)
class Verb:
    """One verb of the service: its arguments, its answer and where it is served."""

    name: str
    summary: str
    arguments: type[Ids]
    result: type[BaseModel]
    run: Run
    #: a write: refused for read-only keys
    writes: bool = False
    #: REST: method and path (path parameters are fields of ``arguments``)
    method: str | None = None
    path: str | None = None
    #: REST statuses beyond the ones every /v1 route has
    statuses: tuple[int, ...] = ()
    #: REST: ``?wait=false`` queues it as a background job (202)
    background: bool = False
    #: MCP: the tool's name and what it tells the model
    tool: str | None = None
    description: str = ""
    annotations: ToolAnnotations = field(default_factory=lambda: READS)
    #: MCP: defaults that differ from REST's (a model's context is short)
    tool_defaults: dict[str, Any] = field(default_factory=dict)
    #: its cost grows with what the caller sends: it runs under the per-request CPU budget
    #: (:mod:`ripplemem.server.budget`)
    bounded: bool = False
    #: the characters of text it brings, checked against the budget before any work
    size: Callable[[Any], int] | None = None
    #: the checks of its input that need no work, run before it is queued (``wait=false``), so
    #: a call the waited path refuses is refused the same way at once, not as a failed job
    check: Callable[[AsyncMemory, Any], Awaitable[None]] | None = None


def _add_size(a: AddRequest) -> int:
    if a.text is not None:
        return len(a.text)
    return sum(len(m.content or "") + len(m.text or "") + len(m.caption or "") for m in a.messages or ())


def _update_size(a: UpdateRequest) -> int:
    return len(a.text)


def _unit(unit: MemoryUnit) -> UnitModel:
    return unit.to_model(with_vector=False)


async def _add(memory: AsyncMemory, ns: str, a: AddRequest) -> Result:
    added = await memory.add(
        a.conversation(), namespace=ns, session_time=a.session_time, session_id=a.session_id,
        metadata=a.metadata,
    )
    return added.to_model()


async def _check_add(memory: AsyncMemory, a: AddRequest) -> None:
    await memory.check_add(
        a.conversation(), session_time=a.session_time, session_id=a.session_id, metadata=a.metadata
    )


async def _search(memory: AsyncMemory, ns: str, a: SearchRequest) -> Result:
    return await memory.search_json(
        a.query, namespace=ns, limit=a.limit, recipe=a.recipe, question_time=a.question_time,
        filters=a.filters,
    )


async def _answer(memory: AsyncMemory, ns: str, a: AnswerRequest) -> Result:
    answered = await memory.answer(a.question, namespace=ns, recipe=a.recipe, question_time=a.question_time)
    return answered.to_model()


async def _get(memory: AsyncMemory, ns: str, a: UnitRequest) -> Result:
    return _unit(await memory.get(a.unit_id, namespace=ns))


async def _list(memory: AsyncMemory, ns: str, a: ListRequest) -> Result:
    units = await memory.list(namespace=ns, limit=a.limit, offset=a.offset)
    return UnitPageModel.of(units, await memory.count(namespace=ns), a.limit, a.offset)


async def _edges(memory: AsyncMemory, ns: str, a: UnitRequest) -> Result:
    edges = await memory.edges(a.unit_id, namespace=ns)
    return EdgesModel(unit_id=a.unit_id, edges=[e.to_model() for e in edges])


async def _history(memory: AsyncMemory, ns: str, a: UnitRequest) -> Result:
    versions = await memory.history(a.unit_id, namespace=ns)
    return HistoryModel(unit_id=a.unit_id, versions=[v.to_model() for v in versions])


async def _update(memory: AsyncMemory, ns: str, a: UpdateRequest) -> Result:
    updated = await memory.update(
        a.unit_id, a.text, namespace=ns, session_time=a.session_time, metadata=a.metadata
    )
    return updated.to_model()


async def _delete(memory: AsyncMemory, ns: str, a: UnitRequest) -> Result:
    await memory.delete(a.unit_id, namespace=ns)
    return CountModel(count=1)


async def _delete_all(memory: AsyncMemory, ns: str, a: Ids) -> Result:
    return CountModel(count=await memory.delete_all(namespace=ns))


async def _person(memory: AsyncMemory, ns: str, a: Ids) -> Result:
    return PersonModel(namespace=ns, name=await memory.person(namespace=ns))


async def _set_person(memory: AsyncMemory, ns: str, a: PersonRequest) -> Result:
    await memory.set_person(a.name, namespace=ns)
    return PersonModel(namespace=ns, name=await memory.person(namespace=ns))


async def _graph(memory: AsyncMemory, ns: str, a: GraphRequest) -> Result:
    found = await memory.neighbourhood(a.ids, namespace=ns, hops=a.hops, max_nodes=a.max_nodes)
    nodes = [GraphNodeModel(unit=_unit(u), hop=found.hops[u.id]) for u in found.units]
    return GraphModel(
        namespace=ns, nodes=nodes, edges=[e.to_model() for e in found.edges], truncated=found.truncated
    )


async def _timeline(memory: AsyncMemory, ns: str, a: TimelineRequest) -> Result:
    found = await memory.timeline(
        namespace=ns, start=a.start, end=a.end, bins=a.bins, limit=a.limit, offset=a.offset
    )
    return TimelineModel(
        namespace=ns, total=found.total, undated=found.undated, first=found.first, last=found.last,
        bins=[TimelineBinModel(start=b.start, end=b.end, count=b.count) for b in found.bins],
        in_window=found.in_window, limit=a.limit, offset=a.offset,
        units=[
            TimelineUnitModel(unit=_unit(u.unit), start=u.start, end=u.end, basis=u.basis)
            for u in found.units
        ],
    )


VERBS: tuple[Verb, ...] = (
    Verb(
        "add", "Add a conversation session", AddRequest, AddResultModel, _add, writes=True,
        method="POST", path="/v1/memories", background=True, bounded=True, size=_add_size,
        check=_check_add,
        tool="add_memory", annotations=WRITES,
        description="Remember the messages of a conversation session ([{role, content}, ...]), or "
        "one fact as text. session_time is when it took place (ISO 8601). metadata (a JSON "
        "object) is stored with the memories, for search filters. Adding the same messages "
        "again is a no-op.",
    ),
    Verb(
        "search", "Recall the evidence for a query", SearchRequest, RecallModel, _search,
        method="POST", path="/v1/search", bounded=True,
        tool="search_memories", tool_defaults={"limit": 10},
        description="Recall the memories that bear on the query, best first, with the trace of how "
        "they were found. question_time (ISO 8601) grounds words like 'last week'. filters keep "
        "to memories whose metadata, speaker or time match, e.g. {\"topic\": \"food\"}, "
        "{\"speaker\": \"Alex\"}, {\"after\": \"2026-03-01\"}. A user with no memories yet "
        "gets an empty list.",
    ),
    Verb(
        "get", "One memory", UnitRequest, UnitModel, _get, method="GET",
        path="/v1/memories/{unit_id}", statuses=(404,), tool="get_memory",
        description="One memory by its id.",
    ),
    Verb(
        "list", "List memories in the order stored", ListRequest, UnitPageModel, _list, method="GET",
        path="/v1/memories", tool="list_memories",
        description="Memories in the order they were stored (not by session_time), a page at a time.",
    ),
    Verb(
        "edges", "A memory's edges", UnitRequest, EdgesModel, _edges, method="GET",
        path="/v1/memories/{unit_id}/edges", statuses=(404,),
    ),
    Verb(
        "history", "A memory's supersession chain, oldest value first", UnitRequest, HistoryModel,
        _history, method="GET", path="/v1/memories/{unit_id}/history", statuses=(404,),
        tool="memory_history",
        description="The versions of a fact: the memories this one replaced or was replaced by, "
        "oldest value first (each after the memory it replaced), each with superseded_by and "
        "valid_until.",
    ),
    Verb(
        "update", "Write a new memory that supersedes this one", UpdateRequest, AddResultModel,
        _update, writes=True, method="POST", path="/v1/memories/{unit_id}/update", statuses=(404,),
        bounded=True, size=_update_size,
        tool="update_memory", annotations=WRITES,
        description="Record that a fact changed: text (e.g. 'I moved to Bristol') becomes a new "
        "memory that supersedes memory unit_id; both are kept. A text that states nothing (e.g. "
        "'yes') is refused.",
    ),
    Verb(
        "delete", "Delete one memory and its edges", UnitRequest, CountModel, _delete, writes=True,
        method="DELETE", path="/v1/memories/{unit_id}", statuses=(404,),
        tool="delete_memory", annotations=DELETES,
        description="Forget one memory (and its links) by id.",
    ),
    Verb(
        "delete_all", "Delete every memory of the namespace", Ids, CountModel, _delete_all,
        writes=True, method="DELETE", path="/v1/memories",
        tool="delete_all_memories", annotations=DELETES,
        description="Forget every memory of this user. It cannot be undone.",
    ),
    Verb(
        "person", "The person behind the namespace", Ids, PersonModel, _person,
        method="GET", path="/v1/person",
    ),
    Verb(
        "set_person", "Name the person behind the namespace", PersonRequest, PersonModel,
        _set_person, writes=True, method="PUT", path="/v1/person",
    ),
    Verb(
        "answer", "Answer a question with the LLM", AnswerRequest, AnswerModel, _answer,
        method="POST", path="/v1/answer", statuses=(404, 502), bounded=True,
        tool="answer", annotations=ToolAnnotations(read_only_hint=True, open_world_hint=True),
        description="Answer a question from memory with the server's LLM, citing the memories "
        "used. Without an LLM configured it says how to configure one; search_memories works "
        "without.",
    ),
    Verb(
        "neighbourhood", "A bounded neighbourhood of some units", GraphRequest, GraphModel, _graph,
        method="POST", path="/v1/viewer/graph",
    ),
    Verb(
        "timeline", "The namespace's units in time", TimelineRequest, TimelineModel, _timeline,
        method="GET", path="/v1/viewer/timeline",
    ),
)
