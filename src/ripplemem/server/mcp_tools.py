"""The MCP face of the service: memory tools over the same :class:`MemoryService`.

The namespace is never a tool argument: ``tenant(ctx)`` gives it, from the request's key (HTTP:
the gate in front of ``/mcp`` resolved it) or from the command line (``ripplemem mcp``).
Library errors reach the client as tool errors carrying their message.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from datetime import datetime
from typing import TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

from ripplemem import __version__
from ripplemem.errors import RippleMemError
from ripplemem.records import Evidence, MemoryUnit, Recall
from ripplemem.server.access import Access
from ripplemem.server.schemas import MessageModel
from ripplemem.server.service import MemoryService

__all__ = ["INSTRUCTIONS", "Tenant", "build_mcp"]

#: (ctx) -> (the caller's rights, the namespace its calls use)
Tenant = Callable[[Context], tuple[Access, str]]
T = TypeVar("T")

INSTRUCTIONS = (
    "Long-term memory of past conversations. Call search_memories before answering a question "
    "that may depend on earlier sessions; call add_memory with the new messages of a session to "
    "remember them. Each memory is a self-contained restatement with its people, places and time."
)


class MemoryItem(BaseModel):
    """One memory: its restatement and cues (and, from a search, its score and views)."""

    id: str
    text: str
    score: float | None = None
    views: list[str] = Field(default_factory=list)
    participants: list[str] = Field(default_factory=list)
    locations: list[str] = Field(default_factory=list)
    time_span: list[datetime] | None = Field(default=None, description="[start, end]")
    session_time: datetime | None = None
    session_id: str = ""
    superseded_by: str | None = Field(default=None, description="the memory that replaced this one")
    valid_until: datetime | None = Field(default=None, description="when it was replaced")


class TraceSummary(BaseModel):
    """How the recall went, in short."""

    recipe: str
    initial_hits: dict[str, int] = Field(description="units each view found before expansion")
    anchors: list[str] = Field(default_factory=list)
    expansions: int = 0
    stop_reason: str = ""
    milliseconds: float = 0.0
    notes: list[str] = Field(default_factory=list)


class SearchResult(BaseModel):
    memories: list[MemoryItem]
    trace: TraceSummary


class AddSummary(BaseModel):
    added: list[MemoryItem]
    skipped: int = Field(description="memories already stored")
    edges: int
    seconds: float


class MemoryPage(BaseModel):
    memories: list[MemoryItem]
    total: int
    offset: int


class MemoryHistory(BaseModel):
    """A memory's versions, earliest first; each but the last was replaced by the next."""

    versions: list[MemoryItem]


class DeleteSummary(BaseModel):
    deleted: int


class AnswerResult(BaseModel):
    """The answer, the memories it cites ([n] numbers into ``memories``), and whether it cites
    none (``uncited``: it may rest on nothing recalled)."""

    answer: str
    citations: list[int]
    cited: list[MemoryItem]
    uncited: bool
    memories: list[MemoryItem]
    tokens: int
    model: str


def build_mcp(service: MemoryService, tenant: Tenant) -> MCPServer:
    """An MCPServer with the memory tools; ``answer`` only when an LLM is configured."""
    server = MCPServer(
        "ripplemem", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING"
    )
    reading = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    @server.tool(annotations=ToolAnnotations(destructive_hint=False, open_world_hint=False))
    async def add_memory(
        messages: list[MessageModel], ctx: Context, session_time: str | None = None
    ) -> AddSummary:
        """Remember the messages of a conversation session ([{role, content}, ...]);
        session_time is when it took place (ISO 8601). Adding the same messages again is a no-op."""
        access, namespace = tenant(ctx)
        messages_json = [m.model_dump(exclude_none=True) for m in messages]
        result = await _tool(
            service.add(namespace, messages_json, session_time=session_time), writer=access
        )
        return AddSummary(
            added=[_item(u) for u in result.units], skipped=result.skipped, edges=result.edges,
            seconds=round(result.seconds, 3),
        )

    @server.tool(annotations=reading)
    async def search_memories(
        query: str, ctx: Context, limit: int = 10, question_time: str | None = None
    ) -> SearchResult:
        """Recall the memories that bear on the query, best first, with a short trace of how
        they were found. question_time (ISO 8601) grounds words like 'last week'."""
        _, namespace = tenant(ctx)
        recall = await _tool(service.search(
            namespace, query, limit=max(1, min(limit, 100)), question_time=question_time
        ))
        return SearchResult(memories=[_found(e) for e in recall.evidence], trace=_summary(recall))

    @server.tool(annotations=reading)
    async def get_memory(memory_id: str, ctx: Context) -> MemoryItem:
        """One memory by id."""
        _, namespace = tenant(ctx)
        return _item(await _tool(service.get(namespace, memory_id)))

    @server.tool(annotations=reading)
    async def list_memories(ctx: Context, limit: int = 50, offset: int = 0) -> MemoryPage:
        """Memories in the order they were stored, a page at a time."""
        _, namespace = tenant(ctx)
        units, total = await _tool(
            service.list(namespace, limit=max(1, min(limit, 500)), offset=max(0, offset))
        )
        return MemoryPage(memories=[_item(u) for u in units], total=total, offset=max(0, offset))

    @server.tool(annotations=reading)
    async def memory_history(memory_id: str, ctx: Context) -> MemoryHistory:
        """The versions of a fact: the memories this one replaced or was replaced by, earliest
        first, each with superseded_by and valid_until."""
        _, namespace = tenant(ctx)
        versions = await _tool(service.history(namespace, memory_id))
        items = []
        for version in versions:
            item = _item(version.unit)
            item.superseded_by, item.valid_until = version.superseded_by, version.valid_until
            items.append(item)
        return MemoryHistory(versions=items)

    @server.tool(annotations=ToolAnnotations(destructive_hint=False, open_world_hint=False))
    async def update_memory(
        memory_id: str, text: str, ctx: Context, session_time: str | None = None
    ) -> AddSummary:
        """Record that a fact changed: text (e.g. 'I moved to Bristol') becomes a new memory that
        supersedes memory_id; both are kept."""
        access, namespace = tenant(ctx)
        result = await _tool(
            service.update(namespace, memory_id, text, session_time=session_time), writer=access
        )
        return AddSummary(
            added=[_item(u) for u in result.units], skipped=result.skipped, edges=result.edges,
            seconds=round(result.seconds, 3),
        )

    @server.tool(annotations=ToolAnnotations(destructive_hint=True, open_world_hint=False))
    async def delete_memory(memory_id: str, ctx: Context) -> DeleteSummary:
        """Forget one memory (and its links) by id."""
        access, namespace = tenant(ctx)
        await _tool(service.delete(namespace, memory_id), writer=access)
        return DeleteSummary(deleted=1)

    @server.tool(annotations=ToolAnnotations(destructive_hint=True, open_world_hint=False))
    async def delete_all_memories(ctx: Context) -> DeleteSummary:
        """Forget every memory of this user. It cannot be undone."""
        access, namespace = tenant(ctx)
        return DeleteSummary(deleted=await _tool(service.delete_all(namespace), writer=access))

    if service.answers:

        @server.tool(annotations=ToolAnnotations(read_only_hint=True, open_world_hint=True))
        async def answer(question: str, ctx: Context, question_time: str | None = None) -> AnswerResult:
            """Answer a question from memory with the configured LLM, citing the memories used."""
            _, namespace = tenant(ctx)
            result = await _tool(service.answer(namespace, question, question_time=question_time))
            return AnswerResult(
                answer=result.text, citations=list(result.citations),
                cited=[_found(e) for e in result.cited], uncited=result.uncited,
                memories=[_found(e) for e in result.evidence],
                tokens=result.tokens, model=result.model,
            )

    return server


async def _tool(work: Coroutine[object, object, T], *, writer: Access | None = None) -> T:
    """Run a service call (for a ``writer``, once it may write); a library error becomes a tool
    error with its message."""
    try:
        if writer is not None:
            try:
                writer.check_write()
            except RippleMemError:
                work.close()
                raise
        return await work
    except RippleMemError as error:
        raise ToolError(f"{type(error).__name__}: {error}") from error


def _item(unit: MemoryUnit) -> MemoryItem:
    span = [unit.time_span.start, unit.time_span.end] if unit.time_span else None
    return MemoryItem(
        id=unit.id, text=unit.restatement, participants=list(unit.participants),
        locations=list(unit.locations), time_span=span, session_time=unit.session_time,
        session_id=unit.episode_id,
    )


def _found(evidence: Evidence) -> MemoryItem:
    item = _item(evidence.unit)
    item.score, item.views = round(float(evidence.score), 6), list(evidence.views)
    item.superseded_by, item.valid_until = evidence.superseded_by, evidence.valid_until
    return item


def _summary(recall: Recall) -> TraceSummary:
    trace = recall.trace
    plan = trace.plans[-1] if trace.plans else None
    return TraceSummary(
        recipe=trace.recipe,
        initial_hits={view: len(hits) for view, hits in trace.initial.items()},
        anchors=list(plan.anchors) if plan else [],
        expansions=len(trace.expansions),
        stop_reason=plan.stop_reason if plan else "",
        milliseconds=round(trace.timings_ms.get("total", 0.0), 2),
        notes=list(trace.notes),
    )
