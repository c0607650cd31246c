"""The REST routes under ``/v1``: each verb of :data:`~ripplemem.server.verbs.VERBS` becomes a
route (:func:`verb_router`); the few routes that are not a memory verb (jobs, export, import,
health) are written out below. The core does the work.

A verb's path parameters are fields of its arguments; the other fields are the JSON body
(``POST``, ``PUT``) or query parameters (``GET``, ``DELETE``). The caller's ids (``namespace``,
``user_id``, ``agent_id``, ``run_id``) are query parameters of every route, a body's route too:
there they count as the body's fields would, and one given differently in both is refused.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request, Security
from fastapi.responses import Response, StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, create_model

from ripplemem import __version__
from ripplemem.errors import InvalidInputError
from ripplemem.memory import AsyncMemory
from ripplemem.records.jobs import Job
from ripplemem.records.wire import CountModel
from ripplemem.server.access import Access
from ripplemem.server.errors import NotFoundError
from ripplemem.server.jobs import Runner
from ripplemem.server.query import check_query
from ripplemem.server.schemas import ErrorBody, ErrorModel, HealthModel, IdsQuery, JobModel
from ripplemem.server.verbs import VERBS, Result, Verb

__all__ = ["health_router", "job_runner", "router", "verb_router"]

JSONL = "application/x-ndjson"
#: what an import's body may be sent as: none of them is a type a web page may send to another
#: site without a CORS preflight (which this server never grants)
IMPORT_TYPES = (JSONL, "application/jsonl", "application/json")
bearer = HTTPBearer(
    auto_error=False, description="an API key from `ripplemem keys create` (rmk_...)"
)


def _errors(*statuses: int) -> dict:
    return {status: {"model": ErrorModel} for status in statuses}


def memory_of(request: Request) -> AsyncMemory:
    return request.app.state.memory


async def caller(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Security(bearer)],
) -> Access:
    header = f"Bearer {credentials.credentials}" if credentials else request.headers.get("authorization")
    access = await request.app.state.gate.access(header)
    check_query(request)  # after the key: a caller without one learns nothing of the routes
    return access


Memory = Annotated[AsyncMemory, Depends(memory_of)]
Caller = Annotated[Access, Depends(caller)]
NamespaceQuery = Annotated[
    str | None,
    Query(max_length=200, description="which namespace; may be left out when the key holds one"),
]

ROUTE_ERRORS = _errors(401, 403, 413, 422, 503)
router = APIRouter(prefix="/v1", responses=ROUTE_ERRORS)
health_router = APIRouter()


def _json(model: BaseModel, status: int = 200) -> Response:
    return Response(model.model_dump_json(), status_code=status, media_type="application/json")


def _respond(result: Result) -> Response:
    if isinstance(result, str):  # already the wire model's JSON text
        return Response(result, media_type="application/json")
    return _json(result)


# -- the verbs -----------------------------------------------------------------------------------
def verb_router() -> APIRouter:
    """A route for each verb served over REST (``answer`` too without an LLM: it then answers
    422 LLMNotConfiguredError, saying how to configure one)."""
    routes = APIRouter(responses=ROUTE_ERRORS)
    for verb in VERBS:
        if verb.path is None:
            continue
        extra: dict[int | str, dict[str, Any]] = {**_errors(*verb.statuses)}
        if verb.background:
            extra[202] = {"model": JobModel, "description": "queued (wait=false)"}
        routes.add_api_route(
            verb.path, _endpoint(verb), methods=[verb.method or "GET"], response_model=verb.result,
            summary=verb.summary, responses=extra, name=verb.name,
        )
    return routes


def _endpoint(verb: Verb):
    """The route function of ``verb``: its signature tells FastAPI where each argument is."""
    assert verb.path is not None
    in_path = re.findall(r"{(\w+)}", verb.path)
    rest = _without(verb.arguments, in_path, query=verb.method in ("GET", "DELETE"))
    params = [
        inspect.Parameter("request", inspect.Parameter.KEYWORD_ONLY, annotation=Request),
        inspect.Parameter("access", inspect.Parameter.KEYWORD_ONLY, annotation=Caller),
    ]
    for name in in_path:
        description = verb.arguments.model_fields[name].description
        params.append(inspect.Parameter(
            name, inspect.Parameter.KEYWORD_ONLY,
            annotation=Annotated[str, Path(max_length=200, description=description)],
        ))
    if rest is not None:
        where = Annotated[rest, Query()] if verb.method in ("GET", "DELETE") else rest
        params.append(inspect.Parameter("given", inspect.Parameter.KEYWORD_ONLY, annotation=where))
    if verb.method not in ("GET", "DELETE"):  # the ids in the query of a route with a body
        params.append(inspect.Parameter(
            "query_ids", inspect.Parameter.KEYWORD_ONLY, annotation=Annotated[IdsQuery, Query()]
        ))
    if verb.background:
        params.append(inspect.Parameter(
            "wait", inspect.Parameter.KEYWORD_ONLY, default=True,
            annotation=Annotated[bool, Query(description="false: answer 202 with a job at once")],
        ))

    async def endpoint(request: Request, access: Access, **values: Any) -> Response:
        given = values.pop("given", None)
        wait = values.pop("wait", True)
        query_ids = values.pop("query_ids", None)
        fields = given.model_dump(exclude_unset=True) if given is not None else {}
        if query_ids is not None:
            fields = _with_query_ids(fields, query_ids)
        arguments = verb.arguments.model_validate({**fields, **values})
        if verb.writes:
            access.check_write()
        namespace = access.resolve(arguments)
        memory: AsyncMemory = request.app.state.memory
        budget = request.app.state.budget
        if not wait:
            if verb.size is not None:
                budget.admit(verb.size(arguments))  # too large for the budget: 413, no job
            if verb.check is not None:
                await verb.check(memory, arguments)  # what the waited call would refuse: no job
            return _json(job_model(await _queue(request, verb, namespace, arguments)), 202)
        return _respond(await budget.run_verb(verb, memory, namespace, arguments))

    endpoint.__signature__ = inspect.Signature(params, return_annotation=Response)  # type: ignore[attr-defined]
    endpoint.__name__ = f"{verb.name}_route"
    return endpoint


def _with_query_ids(fields: dict[str, Any], query: IdsQuery) -> dict[str, Any]:
    """The body's ``fields`` with the ids the query names; an id given differently in the
    query and the body is an InvalidInputError naming both (a blank one is given too, and
    refused as the library refuses it: never read as the key's namespace)."""
    merged = dict(fields)
    for name, value in query.model_dump(exclude_none=True).items():
        said = fields.get(name)
        if said is None:
            merged[name] = value
        elif str(said).strip() != value.strip():
            raise InvalidInputError(
                f"{name} is {value!r} in the query and {said!r} in the body: give it in one "
                "place (or the same in both)"
            )
    return merged


def _without(model: type[BaseModel], names: list[str], *, query: bool) -> type[BaseModel] | None:
    """``model`` without the fields ``names`` (path parameters); None when nothing is left.
    Query parameters a route does not know are ignored, as before; a body must hold no others."""
    if not names and not query:
        return model
    kept = {name: (f.annotation, f) for name, f in model.model_fields.items() if name not in names}
    if not kept:
        return None
    config = ConfigDict(extra="ignore" if query else "forbid")
    suffix = "Query" if query else "Body"
    return create_model(f"{model.__name__}{suffix}", __config__=config, **kept)  # type: ignore[call-overload]


async def _queue(request: Request, verb: Verb, namespace: str, arguments: BaseModel) -> Job:
    """Store the verb call as a background job and run it (in the namespace's turn, like a
    waited one); any server over the store can answer for it."""
    board = request.app.state.jobs
    return await board.submit(namespace, verb.name, arguments.model_dump_json(exclude_unset=True))


def job_runner(state: Any) -> Runner:
    """How the app's job board runs a job: its verb over ``state.memory``, in the namespace's
    write turn, under the request budget."""
    by_name = {verb.name: verb for verb in VERBS if verb.background}

    async def run(job: Job, started: Callable[[], Awaitable[None]]) -> Result:
        verb = by_name.get(job.verb)
        if verb is None:  # queued by a server of another version
            raise InvalidInputError(
                f"this server cannot run a background {job.verb!r}: send it to a server of the "
                "version that queued it, or send it again"
            )
        arguments = verb.arguments.model_validate_json(job.arguments)
        async with state.lanes.turn(job.namespace):
            await started()
            return await state.budget.run_verb(verb, state.memory, job.namespace, arguments)

    return run


# -- what is not a memory verb -------------------------------------------------------------------
@router.get("/jobs/{job_id}", response_model=JobModel, responses=_errors(404), summary="A background add")
async def get_job(job_id: Annotated[str, Path(max_length=100)], request: Request, access: Caller) -> Response:
    board = request.app.state.jobs
    job = await board.get(job_id)
    if job is None or not access.may_use(job.namespace):
        kept = "in the store" if board.shared else "in this server's memory until it stops"
        raise NotFoundError(f"no job {job_id!r} (finished jobs are kept a day, {kept})")
    return _json(job_model(job))


@router.get(
    "/export",
    response_class=Response,
    responses={200: {"content": {JSONL: {"schema": {"type": "string"}}},
                     "description": "a meta line, then the namespace's units (with vectors) and edges"}},
    summary="Export the namespace as JSONL",
)
async def export(memory: Memory, access: Caller, ids: Annotated[IdsQuery, Query()]) -> Response:
    lines = await memory.export_lines(namespace=access.resolve(ids))
    return StreamingResponse(
        (line + "\n" async for line in lines), media_type=JSONL,
        headers={"Content-Disposition": 'attachment; filename="ripplemem-export.jsonl"'},
    )


@router.post(
    "/import",
    response_model=CountModel,
    openapi_extra={
        "requestBody": {
            "required": True,
            "description": "an export (GET /v1/export); its units go into this request's namespace",
            "content": {kind: {"schema": {"type": "string"}} for kind in IMPORT_TYPES},
        }
    },
    summary="Import a JSONL export into the namespace",
)
async def import_lines(
    request: Request, memory: Memory, access: Caller, ids: Annotated[IdsQuery, Query()]
) -> Response:
    access.check_write()
    target = access.resolve(ids)
    kind = request.headers.get("content-type")
    if kind is None or kind.partition(";")[0].strip().lower() not in IMPORT_TYPES:
        given = f"is {kind!r}" if kind is not None else "is none"
        raise InvalidInputError(
            f"send the export with Content-Type: {JSONL} (or application/jsonl, "
            f"application/json); this request's Content-Type {given}"
        )
    return _json(CountModel(count=await memory.import_lines(await request.body(), namespace=target)))


@health_router.get("/healthz", response_model=HealthModel, summary="Liveness, no key needed")
async def healthz(request: Request) -> Response:
    """200 as soon as the server takes requests; ``ready`` says whether the models are loaded."""
    return _json(_health(request))


@health_router.get(
    "/readyz", response_model=HealthModel, responses={503: {"model": ErrorModel}},
    summary="Readiness, no key needed: 200 once the models are loaded",
)
async def readyz(request: Request) -> Response:
    """200 once the models are loaded and every search worker is warm, 503 until then."""
    health = _health(request)
    if health.ready:
        return _json(health)
    body = ErrorModel(error=ErrorBody(
        type="NotReadyError",
        message="the server is loading its models (and warming its search workers); requests "
        "are taken meanwhile but the first ones wait for them; /readyz answers 200 when done",
    ))
    return Response(body.model_dump_json(exclude_none=True), status_code=503,
                    media_type="application/json")


def _health(request: Request) -> HealthModel:
    state = request.app.state
    return HealthModel(
        status="ok",
        version=__version__,
        backend=state.backend,
        auth=not state.gate.open,
        jobs_pending=state.jobs.pending,
        search_processes=state.search_processes,
        ready=state.ready,
    )


def job_model(job: Job) -> JobModel:
    error = ErrorBody(type=job.error_type, message=job.error_message or "") if job.error_type else None
    return JobModel(
        id=job.id,
        namespace=job.namespace,
        status=job.status,
        created_at=job.created_at,
        started_at=job.started_at,
        finished_at=job.finished_at,
        result=None if job.result is None else json.loads(job.result),
        error=error,
    )
