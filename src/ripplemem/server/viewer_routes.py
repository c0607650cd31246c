"""The memory viewer: its page at ``/ui`` and what the key may do.

The page and its assets (``server/ui/``: plain HTML, CSS and JavaScript, shipped in the package)
need no key; everything they show comes from ``/v1`` with the key the user entered, checked
as every ``/v1`` request is. The viewer's own JSON, under ``/v1/viewer``:

* ``GET /v1/viewer/whoami``: what the key may do (its namespaces, read-only or not), here;
* ``POST /v1/viewer/graph``: a bounded neighbourhood of some units, and
  ``GET /v1/viewer/timeline``: the namespace's units by time span, both verbs of
  :mod:`ripplemem.server.verbs` (the core's ``neighbourhood`` and ``timeline``).
"""

from __future__ import annotations

import functools
from importlib import resources

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from ripplemem.server.errors import NotFoundError
from ripplemem.server.routes import Caller, Memory, _errors, _json

__all__ = ["ui_router", "viewer_router"]

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


@viewer_router.get("/whoami", response_model=WhoAmIModel, summary="What this key may do")
async def whoami(request: Request, memory: Memory, access: Caller) -> Response:
    namespaces = list(access.namespaces)
    if access.any_namespace:
        namespaces = await memory.namespaces()
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
