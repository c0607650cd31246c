"""The memory viewer: its page at ``/ui`` and the JSON it needs beyond ``/v1``.

The page and its assets (``server/ui/``: plain HTML, CSS and JavaScript, shipped in the package)
need no key; everything they show comes from ``/v1`` with the key the user entered, checked
as every ``/v1`` request is. The viewer's own JSON, under ``/v1/viewer``:

* ``GET /v1/viewer/whoami``: what the key may do (its namespaces, read-only or not);
* ``POST /v1/viewer/graph``: a bounded neighbourhood of some units (:mod:`.neighbourhood`);
* ``GET /v1/viewer/timeline``: the namespace's units by time span (:mod:`.timeline`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import datetime
from importlib import resources
from typing import Annotated, Literal, TypeVar

import anyio
from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from ripplemem.errors import InvalidInputError
from ripplemem.records.wire import EdgeModel, UnitModel
from ripplemem.server.errors import NotFoundError
from ripplemem.server.neighbourhood import MAX_NODES, neighbourhood
from ripplemem.server.routes import Caller, NamespaceQuery, Service, _errors, _json
from ripplemem.server.timeline import timeline

__all__ = ["ui_router", "viewer_router"]

T = TypeVar("T")

viewer_router = APIRouter(prefix="/v1/viewer", responses=_errors(401, 403, 413, 422, 503))
ui_router = APIRouter(include_in_schema=False)

#: the files of server/ui/ the page may load, with their media types
ASSETS = {
    "viewer.js": "text/javascript; charset=utf-8",
    "viewer.css": "text/css; charset=utf-8",
    "favicon.svg": "image/svg+xml",
}
#: the page runs only its own script and talks only to this server
PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WhoAmIModel(_Model):
    """What the caller's key may do."""

    auth: bool = Field(description="false when the server runs with --no-auth")
    namespaces: list[str] = Field(
        description="the namespaces the key holds; for an admin key (or --no-auth) every namespace "
        "that holds memories"
    )
    any_namespace: bool = Field(description="an admin key (or --no-auth): may name any namespace")
    read_only: bool = Field(description="true: may search and read, not add or delete")
    default_namespace: str | None = Field(
        default=None, description="the namespace used when a request names none"
    )
    key_id: str | None = None


class GraphRequest(_Model):
    ids: list[Annotated[str, Field(max_length=200)]] = Field(
        min_length=1, max_length=MAX_NODES, description="the seed units (e.g. a search's evidence)"
    )
    hops: int = Field(default=1, ge=0, le=2, description="how many edges away from a seed to go")
    max_nodes: int = Field(default=MAX_NODES, ge=1, le=MAX_NODES, description="at most this many units")
    namespace: str | None = Field(default=None, max_length=200)


class GraphNodeModel(_Model):
    unit: UnitModel
    hop: int = Field(description="edges from the nearest seed (0: a seed)")


class GraphModel(_Model):
    """A bounded neighbourhood: units, and every edge between two of them (once)."""

    namespace: str
    nodes: list[GraphNodeModel]
    edges: list[EdgeModel]
    truncated: bool = Field(description="true when max_nodes left reachable units out")


class TimelineUnitModel(_Model):
    id: str
    restatement: str
    start: datetime
    end: datetime
    basis: Literal["span", "said"] = Field(
        description="span: the unit's own time span; said: no span, placed on the day it was said"
    )


class TimelineBinModel(_Model):
    start: datetime
    end: datetime
    count: int


class TimelineModel(_Model):
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


async def _read(request: Request, function: Callable[..., T], *args, **kwargs) -> T:
    """Run store reads in a worker thread; the viewer's reads share two threads."""
    limiter = getattr(request.app.state, "viewer_limiter", None)
    if limiter is None:
        limiter = request.app.state.viewer_limiter = anyio.CapacityLimiter(2)
    return await anyio.to_thread.run_sync(functools.partial(function, *args, **kwargs), limiter=limiter)


@viewer_router.get("/whoami", response_model=WhoAmIModel, summary="What this key may do")
async def whoami(request: Request, service: Service, access: Caller) -> Response:
    namespaces = list(access.namespaces)
    if access.any_namespace:
        namespaces = await _read(request, service.reader.store.namespaces)
    default = access.fallback or (
        access.namespaces[0] if len(access.namespaces) == 1 and not access.any_namespace else None
    )
    return _json(
        WhoAmIModel(
            auth=not request.app.state.gate.open,
            namespaces=namespaces,
            any_namespace=access.any_namespace,
            read_only=access.read_only,
            default_namespace=default,
            key_id=access.key_id,
        )
    )


@viewer_router.post("/graph", response_model=GraphModel, summary="A bounded neighbourhood of some units")
async def graph(request: Request, body: GraphRequest, service: Service, access: Caller) -> Response:
    namespace = access.namespace(body.namespace)
    found = await _read(
        request, neighbourhood, service.reader.store, namespace, body.ids,
        hops=body.hops, max_nodes=body.max_nodes,
    )
    return _json(
        GraphModel(
            namespace=namespace,
            nodes=[
                GraphNodeModel(unit=u.to_model(with_vector=False), hop=found.hops[u.id])
                for u in found.units
            ],
            edges=[
                EdgeModel(namespace=e.namespace, src=e.src, dst=e.dst, kind=e.kind, weight=e.weight)
                for e in found.edges
            ],
            truncated=found.truncated,
        )
    )


TimeQuery = Annotated[
    str | None, Query(max_length=40, description="ISO 8601 local time, e.g. 2024-05-08T00:00:00")
]


@viewer_router.get("/timeline", response_model=TimelineModel, summary="The namespace's units in time")
async def get_timeline(
    request: Request,
    service: Service,
    access: Caller,
    namespace: NamespaceQuery = None,
    start: TimeQuery = None,
    end: TimeQuery = None,
    bins: Annotated[int, Query(ge=1, le=200)] = 40,
    limit: Annotated[int, Query(ge=1, le=1000)] = 200,
    offset: Annotated[int, Query(ge=0, le=100_000_000)] = 0,
) -> Response:
    target = access.namespace(namespace)
    low, high = _moment(start, "start"), _moment(end, "end")
    found = await _read(
        request, timeline, service.reader.store, target,
        start=low, end=high, bins=bins, limit=limit, offset=offset,
    )
    return _json(
        TimelineModel(
            namespace=target,
            total=found.total,
            undated=found.undated,
            first=found.first,
            last=found.last,
            bins=[TimelineBinModel(start=b.start, end=b.end, count=b.count) for b in found.bins],
            in_window=found.in_window,
            units=[
                TimelineUnitModel(id=u.id, restatement=u.restatement, start=u.start, end=u.end,
                                  basis=u.basis)  # type: ignore[arg-type]
                for u in found.units
            ],
            limit=limit,
            offset=offset,
        )
    )


def _moment(text: str | None, name: str) -> datetime | None:
    if text is None or not text.strip():
        return None
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise InvalidInputError(
            f"{name}={text!r} is not an ISO 8601 time: write it as 2024-05-08 or 2024-05-08T13:56"
        ) from None
    return moment.replace(tzinfo=None)


# -- the page ---------------------------------------------------------------------------------
@ui_router.get("/ui")
async def page() -> Response:
    return Response(_asset("index.html"), media_type="text/html; charset=utf-8", headers=PAGE_HEADERS)


@ui_router.get("/ui/{name}")
async def asset(name: str) -> Response:
    if name not in ASSETS:
        raise NotFoundError(f"the viewer has no file {name!r}: open /ui")
    return Response(_asset(name), media_type=ASSETS[name], headers=PAGE_HEADERS)


@functools.cache
def _asset(name: str) -> bytes:
    return resources.files("ripplemem.server").joinpath("ui", name).read_bytes()
