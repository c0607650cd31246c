"""What callers send to each verb (one model per verb, shared by REST and MCP), and the service's
own responses (errors, jobs, health).

Records travel in their one JSON form (:mod:`ripplemem.records.wire`); the verbs' arguments are
here. Every verb takes the caller's ids: ``namespace`` (REST) or ``user_id`` (its synonym, mem0's
name), narrowed by ``agent_id`` and ``run_id`` (:mod:`ripplemem.core.identity`); a key bound to
one namespace needs none of them. Together with the wire models they make ``/openapi.json`` and
the MCP tools' schemas.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Annotated, Any, Literal, Self, get_args

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from ripplemem.core.neighbourhood import MAX_NODES
from ripplemem.records.roles import TIME_KEYS
from ripplemem.records.wire import AddResultModel, EdgeModel, UnitModel

__all__ = [
    "MAX_NESTING",
    "AddRequest",
    "AnswerRequest",
    "ErrorBody",
    "ErrorModel",
    "GraphModel",
    "GraphRequest",
    "HealthModel",
    "Ids",
    "IdsQuery",
    "JobModel",
    "ListRequest",
    "MessageModel",
    "PersonModel",
    "PersonRequest",
    "SearchRequest",
    "TimelineModel",
    "TimelineRequest",
    "UnitRequest",
    "UpdateRequest",
]

#: how deep a JSON object a request carries (metadata, filters) may nest objects and lists
MAX_NESTING = 32


def nesting_refused(what: str) -> str:
    """The message for JSON nested too deep; ``what`` says what nests how deep."""
    return (
        f"{what}: objects and lists may nest at most {MAX_NESTING} levels deep (metadata and "
        "filters are labels, not documents)"
    )


def _shallow(value: dict[str, Any]) -> dict[str, Any]:
    """``value`` if it nests at most :data:`MAX_NESTING` levels, else ValueError."""
    reached: list[tuple[dict[str, Any] | list[Any], int]] = [(value, 1)]
    while reached:
        item, depth = reached.pop()
        if depth > MAX_NESTING:
            raise ValueError(nesting_refused(f"this object nests over {MAX_NESTING} levels"))
        children = item.values() if isinstance(item, dict) else item
        reached.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return value


#: a JSON object of the caller's, nested at most MAX_NESTING levels deep
JsonObject = Annotated[dict[str, Any], AfterValidator(_shallow)]


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Ids(_Request):
    """Whose memories: every field may be left out when the key holds one namespace."""

    namespace: str | None = Field(
        default=None, max_length=200,
        description="Which namespace (user id); may be left out when the key holds only one.",
    )
    user_id: str | None = Field(
        default=None, max_length=200,
        description="The user the memories are about: a synonym of namespace (leave it out to "
        "use the key's own namespace).",
    )
    agent_id: str | None = Field(
        default=None, max_length=100,
        description="Narrows the user's memories to one agent's: namespace <user>/agent:<agent_id>.",
    )
    run_id: str | None = Field(
        default=None, max_length=100,
        description="Narrows them to one run (session of work): namespace .../run:<run_id>.",
    )


class IdsQuery(Ids):
    """The ids as query parameters (parameters a route does not know are ignored)."""

    model_config = ConfigDict(extra="ignore")


class MessageModel(_Request):
    """One chat message: ``{role, content}`` (OpenAI style) or ``{speaker, text}``."""

    role: str | None = Field(default=None, max_length=200, examples=["user"])
    name: str | None = Field(default=None, max_length=200, description="the speaker's name")
    speaker: str | None = Field(default=None, max_length=200)
    content: str | None = Field(default=None, examples=["I adopted a dog named Rex in Lisbon."])
    text: str | None = None
    turn_id: str | None = Field(default=None, max_length=200)
    caption: str | None = Field(default=None, description="a shared image's caption")
    metadata: JsonObject | None = Field(
        default=None, description="this message's own metadata (a JSON object; its keys win)"
    )


class AddRequest(Ids):
    messages: list[MessageModel] | None = Field(
        default=None, min_length=1,
        description="The session's messages, [{role, content}, ...]; or give one fact as text instead.",
    )
    text: str | None = Field(
        default=None, min_length=1, max_length=20_000,
        description="One fact in plain words, remembered as a message of the user (instead of messages).",
        examples=["I adopted a dog named Rex in Lisbon."],
    )
    session_time: str | None = Field(
        default=None, max_length=100, description="when the session took place (ISO 8601)",
        examples=["2024-05-08T13:56"],
    )
    session_id: str | None = Field(
        default=None, max_length=200,
        description="the session's id (default: derived from its messages, so re-adding them is a no-op)",
    )
    metadata: JsonObject | None = Field(
        default=None,
        description="a JSON object stored with every memory of this add (search filters read it)",
        examples=[{"topic": "pets"}],
    )

    @model_validator(mode="after")
    def _one_input(self) -> Self:
        if (self.messages is None) == (self.text is None):
            raise ValueError("give either messages (a list of {role, content}) or text, not both or neither")
        return self

    def conversation(self) -> list[dict] | str:
        """What ``add`` takes: the messages as dicts, or the plain text."""
        if self.text is not None:
            return self.text
        return [m.model_dump(exclude_none=True) for m in self.messages or ()]


class UnitRequest(Ids):
    unit_id: str = Field(max_length=200, description="a memory unit id")


class UpdateRequest(UnitRequest):
    text: str = Field(
        min_length=1, max_length=20_000, description="the fact as it is now, in plain words",
        examples=["I moved to Bristol."],
    )
    session_time: str | None = Field(
        default=None, max_length=100,
        description="when it was said (ISO 8601; default: one second after the newest memory of the "
        "namespace); not before the memory it replaces was said (else 422)",
    )
    metadata: JsonObject | None = Field(
        default=None,
        description="a JSON object merged into the old memory's metadata, which the new memory keeps "
        "(its keys override the old ones)",
        examples=[{"source": "email"}],
    )


class SearchRequest(Ids):
    query: str = Field(
        min_length=1, max_length=4_000, description="what to recall memories for: a question or a topic",
        examples=["What is my dog called?"],
    )
    limit: int | None = Field(default=None, ge=1, le=200, description="evidence budget (units)")
    recipe: str | None = Field(default=None, max_length=100, description="ripple, asso, bm25, ...")
    question_time: str | None = Field(
        default=None, max_length=100,
        description="when the question is asked (ISO 8601); grounds words like 'last week'",
    )
    filters: JsonObject | None = Field(
        default=None,
        description="keep to the memories that match, before any ranking cut: metadata values "
        '({"topic": "food"}, {"topic": ["food", "travel"]} for any of them), "speaker", and '
        '"after" / "before" (when it was said, ISO 8601), combined with AND',
        examples=[{"topic": "pets", "after": "2024-01-01"}],
    )


class PersonRequest(Ids):
    name: str | None = Field(
        max_length=200, description="the person's name; null forgets it", examples=["Alex"]
    )


class PersonModel(BaseModel):
    """The person behind a namespace: the speaker of its role-style user messages."""

    namespace: str
    name: str | None = Field(description="null when the namespace names no person")


class AnswerRequest(Ids):
    question: str = Field(
        min_length=1, max_length=4_000, description="the question to answer from memory",
        examples=["Where did I adopt my dog?"],
    )
    recipe: str | None = Field(
        default=None, max_length=100, description="the recall recipe: ripple, asso, bm25, ..."
    )
    question_time: str | None = Field(
        default=None, max_length=100,
        description="when the question is asked (ISO 8601); grounds words like 'last week'",
    )


class ListRequest(Ids):
    limit: int = Field(default=50, ge=1, le=1000, description="how many memories at most")
    offset: int = Field(default=0, ge=0, le=100_000_000, description="how many to skip first")


class GraphRequest(Ids):
    ids: list[Annotated[str, Field(max_length=200)]] = Field(
        min_length=1, max_length=MAX_NODES, description="the seed units (e.g. a search's evidence)"
    )
    hops: int = Field(default=1, ge=0, le=2, description="how many edges away from a seed to go")
    max_nodes: int = Field(default=MAX_NODES, ge=1, le=MAX_NODES, description="at most this many units")


class TimelineRequest(Ids):
    start: str | None = Field(
        default=None, max_length=40, description="ISO 8601 local time, e.g. 2024-05-08T00:00:00"
    )
    end: str | None = Field(
        default=None, max_length=40, description="ISO 8601 local time, e.g. 2024-05-09T00:00:00"
    )
    bins: int = Field(default=40, ge=1, le=200)
    limit: int = Field(default=200, ge=1, le=1000)
    offset: int = Field(default=0, ge=0, le=100_000_000)


class _Response(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ErrorBody(_Response):
    type: str = Field(description="the error's class, e.g. UnknownUnitError, PermissionDeniedError")
    message: str
    details: list[dict] | None = Field(default=None, description="per-field problems (422)")


class ErrorModel(_Response):
    """Every error response: what went wrong and what to do next."""

    error: ErrorBody


class JobModel(_Response):
    """A background add (``POST /v1/memories?wait=false``)."""

    id: str
    namespace: str
    status: Literal["queued", "running", "done", "failed"]
    created_at: datetime
    started_at: datetime | None = None
    finished_at: datetime | None = None
    result: AddResultModel | None = None
    error: ErrorBody | None = None


class HealthModel(_Response):
    status: Literal["ok"]
    version: str
    backend: str = Field(description="the store's kind: sqlite, memory, postgresql, ...")
    auth: bool = Field(description="false when the server runs with --no-auth")
    jobs_pending: int
    search_processes: int = Field(description="worker processes answering searches (0: threads)")
    ready: bool = Field(
        description="the models are loaded and every search worker is warm (/readyz: 200)"
    )


class GraphNodeModel(_Response):
    unit: UnitModel
    hop: int = Field(description="edges from the nearest seed (0: a seed)")


class GraphModel(_Response):
    """A bounded neighbourhood: units, and every edge between two of them (once)."""

    namespace: str
    nodes: list[GraphNodeModel]
    edges: list[EdgeModel]
    truncated: bool = Field(description="true when max_nodes left reachable units out")


class TimelineUnitModel(_Response):
    unit: UnitModel
    start: datetime
    end: datetime
    basis: Literal["span", "said"] = Field(
        description="span: the unit's own time span; said: no span, placed on the day it was said"
    )


class TimelineBinModel(_Response):
    start: datetime
    end: datetime
    count: int


class TimelineModel(_Response):
    namespace: str
    total: int = Field(description="units in the namespace")
    undated: int = Field(description="units with neither a time span nor a session time")
    first: datetime | None
    last: datetime | None
    bins: list[TimelineBinModel]
    in_window: int = Field(description="dated units between start and end")
    units: list[TimelineUnitModel] = Field(description="the window's units, earliest first")
    limit: int
    offset: int


def unknown_field(model: type[BaseModel] | None, loc: Sequence[str | int]) -> str:
    """What to say of a field ``loc`` (``body``, then the path to it) the request body ``model``
    does not have: the fields there are, and where a time goes when it names one (a message has
    none of its own: the request's ``session_time``)."""
    fields = _fields_at(model, list(loc[1:-1])) if model is not None and loc[:1] == ("body",) else None
    takes_time = model is not None and "session_time" in model.model_fields
    said = "not a field here" + (time_hint(loc, "the request") if takes_time or "messages" in loc else "")
    if fields:
        said += "; the fields are " + ", ".join(repr(field) for field in fields)
    return said


def time_hint(loc: Sequence[str | int], whose: str) -> str:
    """What to add when the unknown field at ``loc`` names a time (:data:`TIME_KEYS`): where the
    messages' time goes (``whose`` session_time), else nothing."""
    if str(loc[-1]) not in TIME_KEYS:
        return ""
    return f" (the messages' time is {whose}'s session_time, ISO 8601 such as '2024-03-02T18:30')"


def _fields_at(model: type[BaseModel], path: list[str | int]) -> list[str] | None:
    """The fields of the model found at ``path`` (field names and list indexes) inside ``model``."""
    current: Any = model
    for part in path:
        if isinstance(part, int) or (isinstance(part, str) and part.isdigit()):
            continue  # an item of a list: its model is the list's
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return None
        field = current.model_fields.get(str(part))
        if field is None:
            return None
        current = _model_in(field.annotation)
    if isinstance(current, type) and issubclass(current, BaseModel):
        return [name for name, field in current.model_fields.items() if not field.exclude]
    return None


def _model_in(annotation: Any) -> Any:
    """The model an annotation holds (``list[MessageModel] | None``: MessageModel), or it."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for argument in get_args(annotation):
        found = _model_in(argument)
        if isinstance(found, type) and issubclass(found, BaseModel):
            return found
    return annotation
