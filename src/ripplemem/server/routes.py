"""The REST routes under ``/v1``: one line of work each, the service does the rest."""

from __future__ import annotations

import json
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request, Security
from fastapi.responses import FileResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel
from starlette.background import BackgroundTask

from ripplemem import __version__
from ripplemem.records.wire import AddResultModel, AnswerModel, EdgeModel, RecallModel, UnitModel
from ripplemem.server.access import Access
from ripplemem.server.errors import NotFoundError
from ripplemem.server.jobs import Job
from ripplemem.server.schemas import (
    AddRequest,
    AnswerRequest,
    CountModel,
    EdgesModel,
    ErrorBody,
    ErrorModel,
    HealthModel,
    HistoryModel,
    JobModel,
    SearchRequest,
    UnitPageModel,
    UpdateRequest,
    VersionModel,
)
from ripplemem.server.service import MemoryService

__all__ = ["answer_router", "health_router", "router"]

JSONL = "application/x-ndjson"
bearer = HTTPBearer(
    auto_error=False, description="an API key from `ripplemem keys create` (rmk_...)"
)


def _errors(*statuses: int) -> dict:
    return {status: {"model": ErrorModel} for status in statuses}


def service_of(request: Request) -> MemoryService:
    return request.app.state.service


async def caller(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Security(bearer)],
) -> Access:
    header = f"Bearer {credentials.credentials}" if credentials else request.headers.get("authorization")
    return await request.app.state.gate.access(header)


Service = Annotated[MemoryService, Depends(service_of)]
Caller = Annotated[Access, Depends(caller)]
NamespaceQuery = Annotated[
    str | None,
    Query(max_length=200, description="which namespace; may be left out when the key holds one"),
]
UnitId = Annotated[str, Path(max_length=200, description="a memory unit id")]

router = APIRouter(prefix="/v1", responses=_errors(401, 403, 413, 422, 503))
answer_router = APIRouter(prefix="/v1", responses=_errors(401, 403, 404, 413, 422, 502, 503))
health_router = APIRouter()


def _json(model: BaseModel, status: int = 200) -> Response:
    return Response(model.model_dump_json(), status_code=status, media_type="application/json")


@router.post(
    "/memories",
    response_model=AddResultModel,
    responses={202: {"model": JobModel, "description": "queued (wait=false)"}},
    summary="Add a conversation session",
)
async def add_memories(
    body: AddRequest,
    service: Service,
    access: Caller,
    wait: Annotated[bool, Query(description="false: answer 202 with a job at once")] = True,
) -> Response:
    access.check_write()
    namespace = access.namespace(body.namespace)
    messages = [m.model_dump(exclude_none=True) for m in body.messages]
    if not wait:
        job = service.add_later(
            namespace, messages, session_time=body.session_time, session_id=body.session_id
        )
        return _json(job_model(job), 202)
    result = await service.add(
        namespace, messages, session_time=body.session_time, session_id=body.session_id
    )
    return _json(result.to_model())


@router.get("/jobs/{job_id}", response_model=JobModel, responses=_errors(404), summary="A background add")
async def get_job(
    job_id: Annotated[str, Path(max_length=100)], service: Service, access: Caller
) -> Response:
    job = service.jobs.get(job_id)
    if job is None or not access.may_use(job.namespace):
        raise NotFoundError(f"no job {job_id!r} (jobs are kept in memory until the server stops)")
    return _json(job_model(job))


@router.post("/search", response_model=RecallModel, summary="Recall the evidence for a query")
async def search(body: SearchRequest, service: Service, access: Caller) -> Response:
    namespace = access.namespace(body.namespace)
    found = await service.search_json(
        namespace, body.query, limit=body.limit, recipe=body.recipe, question_time=body.question_time
    )
    return Response(found, media_type="application/json")


@router.get("/memories", response_model=UnitPageModel, summary="List memories, oldest first")
async def list_memories(
    service: Service,
    access: Caller,
    namespace: NamespaceQuery = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 50,
    offset: Annotated[int, Query(ge=0, le=100_000_000)] = 0,
) -> Response:
    units, total = await service.list(access.namespace(namespace), limit=limit, offset=offset)
    page = UnitPageModel(
        memories=[u.to_model(with_vector=False) for u in units], total=total, limit=limit, offset=offset
    )
    return _json(page)


@router.get(
    "/memories/{unit_id}", response_model=UnitModel, responses=_errors(404), summary="One memory"
)
async def get_memory(
    unit_id: UnitId, service: Service, access: Caller, namespace: NamespaceQuery = None
) -> Response:
    unit = await service.get(access.namespace(namespace), unit_id)
    return _json(unit.to_model(with_vector=False))


@router.get(
    "/memories/{unit_id}/edges",
    response_model=EdgesModel,
    responses=_errors(404),
    summary="A memory's edges",
)
async def get_edges(
    unit_id: UnitId, service: Service, access: Caller, namespace: NamespaceQuery = None
) -> Response:
    edges = await service.edges(access.namespace(namespace), unit_id)
    models = [
        EdgeModel(namespace=e.namespace, src=e.src, dst=e.dst, kind=e.kind, weight=e.weight)
        for e in edges
    ]
    return _json(EdgesModel(unit_id=unit_id, edges=models))


@router.get(
    "/memories/{unit_id}/history",
    response_model=HistoryModel,
    responses=_errors(404),
    summary="A memory's supersession chain, earliest first",
)
async def get_history(
    unit_id: UnitId, service: Service, access: Caller, namespace: NamespaceQuery = None
) -> Response:
    versions = await service.history(access.namespace(namespace), unit_id)
    models = [
        VersionModel(
            unit=v.unit.to_model(with_vector=False), superseded_by=v.superseded_by,
            valid_until=v.valid_until,
        )
        for v in versions
    ]
    return _json(HistoryModel(unit_id=unit_id, versions=models))


@router.post(
    "/memories/{unit_id}/update",
    response_model=AddResultModel,
    responses=_errors(404),
    summary="Write a new memory that supersedes this one",
)
async def update_memory(unit_id: UnitId, body: UpdateRequest, service: Service, access: Caller) -> Response:
    access.check_write()
    result = await service.update(
        access.namespace(body.namespace), unit_id, body.text, session_time=body.session_time
    )
    return _json(result.to_model())


@router.delete(
    "/memories/{unit_id}",
    response_model=CountModel,
    responses=_errors(404),
    summary="Delete one memory and its edges",
)
async def delete_memory(
    unit_id: UnitId, service: Service, access: Caller, namespace: NamespaceQuery = None
) -> Response:
    access.check_write()
    await service.delete(access.namespace(namespace), unit_id)
    return _json(CountModel(count=1))


@router.delete(
    "/memories", response_model=CountModel, summary="Delete every memory of the namespace"
)
async def delete_all(service: Service, access: Caller, namespace: NamespaceQuery = None) -> Response:
    access.check_write()
    return _json(CountModel(count=await service.delete_all(access.namespace(namespace))))


@router.get(
    "/export",
    response_class=Response,
    responses={200: {"content": {JSONL: {"schema": {"type": "string"}}},
                     "description": "a meta line, then the namespace's units (with vectors) and edges"}},
    summary="Export the namespace as JSONL",
)
async def export(service: Service, access: Caller, namespace: NamespaceQuery = None) -> Response:
    path = await service.export_jsonl(access.namespace(namespace))
    return FileResponse(
        path, media_type=JSONL, filename="ripplemem-export.jsonl",
        background=BackgroundTask(path.unlink, missing_ok=True),
    )


@router.post(
    "/import",
    response_model=CountModel,
    openapi_extra={
        "requestBody": {
            "required": True,
            "description": "an export (GET /v1/export); its units go into this request's namespace",
            "content": {JSONL: {"schema": {"type": "string"}}},
        }
    },
    summary="Import a JSONL export into the namespace",
)
async def import_jsonl(
    request: Request, service: Service, access: Caller, namespace: NamespaceQuery = None
) -> Response:
    access.check_write()
    target = access.namespace(namespace)
    imported = await service.import_jsonl(target, await request.body())
    return _json(CountModel(count=imported))


@answer_router.post("/answer", response_model=AnswerModel, summary="Answer a question with the LLM")
async def answer(body: AnswerRequest, service: Service, access: Caller) -> Response:
    namespace = access.namespace(body.namespace)
    result = await service.answer(
        namespace, body.question, recipe=body.recipe, question_time=body.question_time
    )
    return Response(json.dumps(result.to_json()), media_type="application/json")


@health_router.get("/healthz", response_model=HealthModel, summary="Liveness, no key needed")
async def healthz(request: Request) -> Response:
    service: MemoryService = request.app.state.service
    health = HealthModel(
        status="ok",
        version=__version__,
        backend=request.app.state.backend,
        auth=not request.app.state.gate.open,
        jobs_pending=service.jobs.pending,
        search_processes=service.search_processes,
    )
    return _json(health)


def job_model(job: Job) -> JobModel:
    error = ErrorBody(type=job.error_type, message=job.error_message or "") if job.error_type else None
    return JobModel(
        id=job.id,
        namespace=job.namespace,
        status=job.status,
        created_at=job.created_at,
        started_at=job.started_at,
        finished_at=job.finished_at,
        result=job.result.to_model() if job.result else None,
        error=error,
    )
