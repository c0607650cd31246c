"""The ASGI app: REST under ``/v1``, MCP at ``/mcp``, the viewer at ``/ui``, ``/healthz``,
``/openapi.json`` and its pages ``/docs`` and ``/redoc`` (:mod:`ripplemem.server.api_docs`).

:func:`create_app` takes a ready :class:`~ripplemem.memory.Memory` (tests pass one built on any
store and embedder); ``ripplemem serve`` builds it from the store URL and the ``RIPPLEMEM_*``
settings. Every route and tool runs the verbs of one :class:`~ripplemem.memory.AsyncMemory` over
it, whose :class:`~ripplemem.core.lanes.Lanes` the server's options set. On shutdown (SIGTERM) the app stops taking requests, lets in-flight requests and every
queued background add finish (up to ``drain_timeout_s``), then closes the store. A request still
running after that is cut (503) if it has not handed a write to a worker thread yet, so nothing
of it is stored; one that has is let finish and answers as it would have (:class:`CutShort
<ripplemem.server.gate.CutShort>`), and the store closes after it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import partial
from types import SimpleNamespace

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.routing import Route

from ripplemem import __version__
from ripplemem.core.jobs import job_store_of
from ripplemem.core.lanes import Lanes
from ripplemem.errors import ConfigurationError, InvalidInputError, RippleMemError
from ripplemem.extensions import reader_of, warm_up
from ripplemem.memory import AsyncMemory, Memory
from ripplemem.server.access import Access
from ripplemem.server.api_docs import add_api_docs
from ripplemem.server.budget import RequestBudget
from ripplemem.server.errors import error_body
from ripplemem.server.gate import (
    STATE_ACCESS,
    STATE_NAMESPACE,
    BodyLimit,
    CutShort,
    Gate,
    LoopbackHosts,
    McpGate,
    SameOrigin,
    Writes,
    error_response,
)
from ripplemem.server.jobs import JobBoard
from ripplemem.server.routes import health_router, job_runner, router, verb_router
from ripplemem.server.schemas import ErrorBody, ErrorModel, nesting_refused, unknown_field
from ripplemem.server.viewer_routes import ui_router, viewer_router

__all__ = ["DEFAULT_BUDGET_S", "LOOPBACK_HOSTS", "ServerOptions", "create_app", "is_loopback"]

log = logging.getLogger("ripplemem.server")

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
#: the default per-request budget, in seconds of CPU (``ripplemem serve --request-budget``)
DEFAULT_BUDGET_S = 10.0

DESCRIPTION = """Long-term memory for LLM agents over HTTP.

Every `/v1` request carries `Authorization: Bearer <key>` (create keys with `ripplemem keys create`).
A key is bound to namespaces: a key with one namespace needs no `namespace` field; a request for a
namespace the key does not hold gets 403. Errors are `{"error": {"type", "message"}}`.
MCP (Streamable HTTP) is served at `/mcp` with the same keys."""


def is_loopback(host: str) -> bool:
    import ipaddress

    if host in LOOPBACK_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class ServerOptions:
    """How the server behaves under load; the defaults suit a small machine."""

    def __init__(
        self,
        *,
        max_body_bytes: int = 4 * 1024 * 1024,
        max_import_bytes: int = 256 * 1024 * 1024,
        read_threads: int = 4,
        write_threads: int = 2,
        max_pending_jobs: int = 1_000,
        drain_timeout_s: float = 120.0,
        host: str = "127.0.0.1",
        mcp: bool = True,
        search_processes: int = 0,
        announce: Callable[[str], None] | None = None,
        request_budget_s: float | None = DEFAULT_BUDGET_S,
        separate_reader: bool = True,
        job_lease_s: float = 30.0,
    ) -> None:
        self.max_body_bytes, self.max_import_bytes = max_body_bytes, max_import_bytes
        self.read_threads, self.write_threads = read_threads, write_threads
        self.max_pending_jobs, self.drain_timeout_s = max_pending_jobs, drain_timeout_s
        self.host, self.mcp = host, mcp
        #: worker processes for searches (0: threads of the server process); they open the
        #: store of ``memory.settings`` with its embedder, so only for a Memory built from settings
        self.search_processes = search_processes
        #: told (one line each) when the models start loading and when the server is ready
        self.announce = announce
        #: CPU seconds an add, update, search or answer may take (None or 0: no budget;
        #: :mod:`ripplemem.server.budget`)
        self.request_budget_s = request_budget_s
        #: reads through a second Memory over the same SQLite file, so they never queue behind
        #: a write block (the price: that Memory's caches and models, about a search worker's)
        self.separate_reader = separate_reader
        #: how long a stopped server's background jobs wait before another server over the
        #: same store runs them (PostgreSQL; :mod:`ripplemem.server.jobs`)
        self.job_lease_s = job_lease_s


def create_app(
    memory: Memory, *, auth: bool = True, options: ServerOptions | None = None
) -> FastAPI:
    """The service over ``memory``; ``auth=False`` lets every caller in, and only when
    ``options.host`` is a loopback address (else a ConfigurationError)."""
    options = options or ServerOptions()
    if not auth and not is_loopback(options.host):
        raise ConfigurationError(
            f"--no-auth is accepted only on a loopback address (127.0.0.1, ::1), not "
            f"{options.host!r}: create keys with `ripplemem keys create` instead"
        )
    if auth and not memory.keys.available:
        memory.keys.list()  # raises the ConfigurationError that says what to do
    pool = None
    if options.search_processes:
        from ripplemem.server.search_pool import SearchPool

        pool = SearchPool(
            memory.settings, options.search_processes, shared=memory.store.capabilities.shared,
            budget_s=options.request_budget_s,
        )
    lanes = Lanes(read_threads=options.read_threads, write_threads=options.write_threads, searcher=pool)
    reader = reader_of(memory) if options.separate_reader else None
    verbs = AsyncMemory(over=memory, lanes=lanes, reader=reader)
    budget = RequestBudget(options.request_budget_s)
    job_store, shared_jobs = job_store_of(memory.store)
    jobs = JobBoard(
        job_store, job_runner(SimpleNamespace(memory=verbs, lanes=lanes, budget=budget)),
        shared=shared_jobs, max_pending=options.max_pending_jobs, lease_s=options.job_lease_s,
    )
    gate = Gate((reader or memory).keys if auth else None)  # key checks never wait on a write
    mcp_server = _mcp(verbs, budget) if options.mcp else None

    writes = Writes()  # the requests a stop lets finish: their write reached a worker thread
    say = options.announce or (lambda line: None)

    def warm() -> None:
        """Load the models of the server's own process; then it is ready."""
        started = time.perf_counter()
        try:
            warm_up(memory)
            if reader is not None:  # the reads' own Memory: its first search loads nothing
                warm_up(reader)
        except Exception as error:  # the server stays live and says why it is not ready
            log.error("loading the models failed; the server is not ready", exc_info=error)
            say(f"loading the models failed ({type(error).__name__}: {error}); not ready")
            return
        app.state.ready = True
        say(f"ready in {time.perf_counter() - started:.1f} s: the models are loaded")

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        import anyio

        if pool is not None:  # before serving: a worker is never stopped while it starts
            say(f"starting {pool.processes} search workers (each loads the models)")
            await anyio.to_thread.run_sync(pool.warm_up)
        say("loading the models (embedder, entity recogniser); /healthz answers now, /readyz "
            "once they are loaded")
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(partial(anyio.to_thread.run_sync, warm, abandon_on_cancel=True))
            tasks.start_soon(jobs.tend)  # the job leases, and the jobs of stopped servers
            if mcp_server is None:
                yield
                await writes.settled()
            else:
                async with mcp_server.session_manager.run():
                    yield
                    await writes.settled()  # an MCP write answers through the session manager
            if not await jobs.drain(options.drain_timeout_s):
                log.warning("background adds still running after %.0f s: stopping",
                            options.drain_timeout_s)
            tasks.cancel_scope.cancel()  # a warm-up still running at shutdown is not waited for
        await verbs.close()

    app = FastAPI(
        title="ripplemem",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        docs_url=None,  # FastAPI's own pages load Swagger UI from a CDN: ours are local
        redoc_url=None,
        # no redirect from "/v1/memories/" to "/v1/memories": a DELETE with an empty id would be
        # sent on to the route that deletes the whole namespace by a client that follows it
        redirect_slashes=False,
    )
    add_api_docs(app)
    app.state.memory, app.state.lanes, app.state.jobs, app.state.gate = verbs, lanes, jobs, gate
    app.state.budget = budget
    app.state.declared_query = {}  # (path, method) -> its query parameters (server/query.py)
    app.state.backend = memory.backend
    app.state.search_processes = 0 if pool is None else pool.processes
    app.state.ready = False  # live at once, ready once the models are loaded (warm())
    app.include_router(health_router)
    app.include_router(router)
    app.include_router(verb_router())
    app.include_router(viewer_router)
    app.include_router(ui_router)
    if mcp_server is not None:
        app.router.routes.append(
            Route("/mcp", endpoint=McpGate(_mcp_endpoint(mcp_server), gate), methods=None)
        )
    _handle_errors(app)
    _local_times(app)
    if gate.open:  # no key to steal: refuse pages that rebind a hostname to this machine, and
        app.add_middleware(SameOrigin)  # writes sent by another site's page
        app.add_middleware(LoopbackHosts)
    app.add_middleware(
        BodyLimit, limit=options.max_body_bytes, limits={"/v1/import": options.max_import_bytes}
    )
    app.add_middleware(CutShort, writes=writes)  # outermost
    return app


def _mcp(memory: AsyncMemory, budget: RequestBudget):
    from ripplemem.server.mcp_tools import build_mcp

    def tenant(ctx) -> tuple[Access, str]:
        state = ctx.request_context.request.state
        return getattr(state, STATE_ACCESS), getattr(state, STATE_NAMESPACE)

    return build_mcp(memory, tenant, budget)


def _mcp_endpoint(mcp_server):
    """The SDK's Streamable HTTP handler, mounted at /mcp of our app."""
    from mcp.server.transport_security import TransportSecuritySettings

    starlette_app = mcp_server.streamable_http_app(
        streamable_http_path="/mcp",
        stateless_http=True,
        json_response=True,
        max_request_body_size=64 * 1024 * 1024,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    route = next(r for r in starlette_app.routes if getattr(r, "path", None) == "/mcp")
    return route.app


#: the records' datetimes are local times of the dialogue's own clock, written without an offset,
#: which OpenAPI's "date-time" (RFC 3339) would not accept
LOCAL_TIME = {
    "type": "string",
    "pattern": r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$",
    "description": "ISO 8601 local time without an offset (the dialogue's own clock)",
    "examples": ["2024-05-08T13:56:00"],
}


def _local_times(app: FastAPI) -> None:
    """Document the records' naive datetimes as what they are."""
    build = app.openapi

    def openapi() -> dict:
        if app.openapi_schema is None:
            app.openapi_schema = _replace_date_times(build())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def _replace_date_times(node):
    if isinstance(node, dict):
        if node.get("type") == "string" and node.get("format") == "date-time":
            title = {"title": node["title"]} if "title" in node else {}
            return {**LOCAL_TIME, **title}
        return {key: _replace_date_times(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_replace_date_times(item) for item in node]
    return node


def _is_json(content_type: str | None) -> bool:
    """True for ``application/json`` and ``application/...+json`` (FastAPI reads only those)."""
    if content_type is None:
        return False
    kind = content_type.partition(";")[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))


def _allowed_methods(request: Request) -> str:
    """Every method some route serves at this path (Starlette names only the first route's)."""
    from starlette.routing import Match

    methods: set[str] = set()
    for route in request.app.router.routes:
        match, _ = route.matches(request.scope)  # PARTIAL: the path matches, the method not
        if match != Match.NONE and getattr(route, "methods", None):
            methods |= set(route.methods) - {"HEAD"}
    return ", ".join(sorted(methods))


def _body_model(request: Request) -> type[BaseModel] | None:
    """The model of the body the request's route takes (None: none, or not a model)."""
    route = request.scope.get("route")
    field = getattr(route, "body_field", None)
    info = getattr(field, "field_info", None)
    model = getattr(info, "annotation", None)
    return model if isinstance(model, type) and issubclass(model, BaseModel) else None


def _handle_errors(app: FastAPI) -> None:
    @app.exception_handler(RippleMemError)
    async def library_error(request: Request, error: RippleMemError) -> Response:
        return error_response(error)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> Response:
        kind = request.headers.get("content-type")
        if not _is_json(kind) and any(item.get("loc", ())[:1] == ("body",) for item in error.errors()):
            given = f"is {kind!r}" if kind is not None else "is missing"
            return error_response(InvalidInputError(
                f"the body of this request is JSON: send it with Content-Type: application/json "
                f"(this request's Content-Type {given})"
            ))
        body_model = _body_model(request)
        details = [
            {"loc": [str(part) for part in item.get("loc", ())],
             "msg": (
                 unknown_field(body_model, tuple(item.get("loc", ()))) if item.get("type") == "extra_forbidden"
                 else str(item.get("msg", "")).removeprefix("Value error, ")
             ),
             "type": str(item.get("type", ""))}
            for item in error.errors()
        ]
        summary = "; ".join(f"{'.'.join(d['loc'])}: {d['msg']}" for d in details[:5])
        body = ErrorModel(
            error=ErrorBody(type="InvalidInputError", message=f"invalid request: {summary}", details=details)
        )
        return Response(body.model_dump_json(), status_code=422, media_type="application/json")

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> Response:
        if error.status_code == 400 and isinstance(error.__cause__, RecursionError):
            refused = nesting_refused("the request body nests its JSON too deep to read")
            return error_response(InvalidInputError(refused))
        if error.status_code == 400:  # FastAPI could not decode the body (not UTF-8 JSON)
            return error_response(
                InvalidInputError(f"the request body cannot be read ({error.detail}): send UTF-8 JSON")
            )
        kind = {404: "NotFound", 405: "MethodNotAllowed", 413: "BodyTooLargeError"}.get(
            error.status_code, "HTTPError"
        )
        body = ErrorModel(error=ErrorBody(type=kind, message=str(error.detail)))
        headers = dict(getattr(error, "headers", None) or {})
        if error.status_code == 405:
            headers["Allow"] = _allowed_methods(request)
        return Response(
            body.model_dump_json(exclude_none=True),
            status_code=error.status_code,
            media_type="application/json",
            headers=headers or None,
        )

    @app.exception_handler(Exception)
    async def unexpected(request: Request, error: Exception) -> Response:
        return Response(
            error_body(error).model_dump_json(exclude_none=True), status_code=500,
            media_type="application/json",
        )
