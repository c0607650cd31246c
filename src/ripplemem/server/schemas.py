"""Request and response bodies of the REST API that the record wire forms do not cover.

Records travel in their one JSON form (:mod:`ripplemem.records.wire`); these models wrap them
(pages, jobs, counts) and describe what callers send. Together they make ``/openapi.json``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ripplemem.records.wire import AddResultModel, EdgeModel, UnitModel

__all__ = [
    "AddRequest",
    "AnswerRequest",
    "CountModel",
    "EdgesModel",
    "ErrorBody",
    "ErrorModel",
    "HealthModel",
    "JobModel",
    "MessageModel",
    "SearchRequest",
    "UnitPageModel",
]

NAMESPACE_FIELD = Field(
    default=None,
    max_length=200,
    description="Which namespace (user id); may be left out when the key holds only one.",
)


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MessageModel(_Request):
    """One chat message: ``{role, content}`` (OpenAI style) or ``{speaker, text}``."""

    role: str | None = Field(default=None, max_length=200, examples=["user"])
    name: str | None = Field(default=None, max_length=200, description="the speaker's name")
    speaker: str | None = Field(default=None, max_length=200)
    content: str | None = Field(default=None, examples=["I adopted a dog named Rex in Lisbon."])
    text: str | None = None
    turn_id: str | None = Field(default=None, max_length=200)
    caption: str | None = Field(default=None, description="a shared image's caption")


class AddRequest(_Request):
    messages: list[MessageModel] = Field(min_length=1)
    session_time: str | None = Field(
        default=None, max_length=100, description="when the session took place (ISO 8601)",
        examples=["2024-05-08T13:56"],
    )
    session_id: str | None = Field(default=None, max_length=200)
    namespace: str | None = NAMESPACE_FIELD


class UpdateRequest(_Request):
    text: str = Field(min_length=1, max_length=20_000, examples=["I moved to Bristol."])
    session_time: str | None = Field(
        default=None, max_length=100, description="when it was said (ISO 8601; default: now)"
    )
    namespace: str | None = NAMESPACE_FIELD


class SearchRequest(_Request):
    query: str = Field(min_length=1, max_length=4_000)
    limit: int | None = Field(default=None, ge=1, le=200, description="evidence budget (units)")
    recipe: str | None = Field(default=None, max_length=100, description="ripple, asso, bm25, ...")
    question_time: str | None = Field(
        default=None, max_length=100, description="when the question is asked (ISO 8601)"
    )
    namespace: str | None = NAMESPACE_FIELD


class AnswerRequest(_Request):
    question: str = Field(min_length=1, max_length=4_000)
    recipe: str | None = Field(default=None, max_length=100)
    question_time: str | None = Field(default=None, max_length=100)
    namespace: str | None = NAMESPACE_FIELD


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


class UnitPageModel(_Response):
    memories: list[UnitModel]
    total: int = Field(description="units in the namespace")
    limit: int
    offset: int


class EdgesModel(_Response):
    unit_id: str
    edges: list[EdgeModel]


class VersionModel(_Response):
    unit: UnitModel
    superseded_by: str | None = Field(description="the unit that replaced this one's value")
    valid_until: datetime | None = Field(description="when the successor was said")


class HistoryModel(_Response):
    """A supersession chain, earliest first."""

    unit_id: str
    versions: list[VersionModel]


class CountModel(_Response):
    """How many units a delete removed or an import added."""

    count: int


class HealthModel(_Response):
    status: Literal["ok"]
    version: str
    backend: str = Field(description="the store's kind: sqlite, memory, postgresql, ...")
    auth: bool = Field(description="false when the server runs with --no-auth")
    jobs_pending: int
    search_processes: int = Field(description="worker processes answering searches (0: threads)")
