"""What stands in front of the routes: the key check and the request body limit.

:class:`Gate` turns an ``Authorization: Bearer <key>`` header into an
:class:`~ripplemem.server.access.Access` (HTTP 401 without a valid key). :class:`McpGate` does the
same in front of ``/mcp`` and also resolves the namespace there (the ``namespace`` query parameter
or its synonym ``user_id``, or the ``RippleMem-Namespace`` header; a key with one namespace needs
none), leaving both in the request state for the tools; ``agent_id`` and ``run_id`` are the
tools' arguments, refused on the URL. :class:`BodyLimit` refuses bodies over the limit with 413.
:class:`LoopbackHosts` (``--no-auth`` only) refuses requests whose ``Host`` is not this machine's,
so a web page cannot rebind a hostname to the keyless server, and :class:`SameOrigin` (the same)
refuses writes whose ``Origin`` is another site, so no page the user visits can write to it.
"""

from __future__ import annotations

import asyncio
import contextlib

import anyio
from starlette.datastructures import Headers, QueryParams
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ripplemem.core.identity import user_of
from ripplemem.core.keys import Keys
from ripplemem.core.lanes import WriteWatch, watching_writes
from ripplemem.errors import InvalidInputError, RippleMemError, ShuttingDownError
from ripplemem.server.access import Access, AuthenticationError, PermissionDeniedError
from ripplemem.server.errors import BodyTooLargeError, error_body, status_of
from ripplemem.server.query import check_query_names

__all__ = [
    "NAMESPACE_HEADER",
    "BodyLimit",
    "CutShort",
    "Gate",
    "LoopbackHosts",
    "McpGate",
    "SameOrigin",
    "Writes",
    "error_response",
]

NAMESPACE_HEADER = "ripplemem-namespace"
#: where McpGate leaves the caller for the tools (``request.state``)
STATE_ACCESS, STATE_NAMESPACE = "ripplemem_access", "ripplemem_namespace"
#: the query parameters of the /mcp URL (agent_id and run_id only to be refused in plain words)
MCP_QUERY = dict.fromkeys(("namespace", "user_id", "agent_id", "run_id"), False)


def error_response(error: Exception, *, status: int | None = None) -> Response:
    return Response(
        error_body(error).model_dump_json(exclude_none=True),
        status_code=status or status_of(error),
        media_type="application/json",
        headers={"WWW-Authenticate": "Bearer"} if isinstance(error, AuthenticationError) else None,
    )


class Gate:
    """Keys to rights; ``keys=None`` lets every caller in (``--no-auth``)."""

    def __init__(self, keys: Keys | None, *, open_namespace: str = "default") -> None:
        self.keys = keys
        self.open_namespace = open_namespace

    @property
    def open(self) -> bool:
        return self.keys is None

    async def access(self, authorization: str | None) -> Access:
        if self.keys is None:
            return Access.open(default=self.open_namespace)
        if not authorization:
            raise AuthenticationError(
                "no API key: send 'Authorization: Bearer <key>' (create one with `ripplemem keys create`)"
            )
        scheme, _, secret = authorization.strip().partition(" ")
        if scheme.lower() != "bearer" or not secret.strip():
            raise AuthenticationError("the Authorization header must be 'Bearer <key>'")
        key = await anyio.to_thread.run_sync(self.keys.find, secret.strip())
        if key is None:
            raise AuthenticationError("the API key is unknown or revoked")
        return Access.of_key(key)


class McpGate:
    """ASGI wrapper of the MCP app: the key and the namespace, checked before any MCP message."""

    def __init__(self, app: ASGIApp, gate: Gate) -> None:
        self.app, self.gate = app, gate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        try:
            access = await self.gate.access(headers.get("authorization"))
            query = QueryParams(scope.get("query_string", b""))
            check_query_names(query, MCP_QUERY)
            for name in ("agent_id", "run_id"):
                if name in query:
                    raise InvalidInputError(
                        f"{name} is an argument of the tools, not of the /mcp URL: give it in "
                        "each tool call (the URL names the namespace: ?namespace= or ?user_id=)"
                    )
            # a given id counts even when blank: user_of refuses it rather than the key's
            # namespace standing in for it
            named = query["namespace"] if "namespace" in query else headers.get(NAMESPACE_HEADER)
            namespace = access.namespace(user_of(named, query.get("user_id")))
        except RippleMemError as error:  # every refusal is a JSON error
            await error_response(error)(scope, receive, send)
            return
        state = scope.setdefault("state", {})
        state[STATE_ACCESS], state[STATE_NAMESPACE] = access, namespace
        await self.app(scope, receive, send)


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes (``limits`` per path prefix) with a 413."""

    def __init__(self, app: ASGIApp, limit: int, limits: dict[str, int] | None = None) -> None:
        self.app, self.limit, self.limits = app, limit, limits or {}

    def _limit(self, path: str) -> int:
        for prefix, limit in self.limits.items():
            if path.startswith(prefix):
                return limit
        return self.limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self._limit(scope.get("path", ""))
        too_large = BodyTooLargeError(
            f"the request body is over this server's limit of {limit} bytes "
            "(send less at once, or start the server with a larger limit)"
        )
        declared = Headers(scope=scope).get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await error_response(too_large)(scope, receive, send)
            return
        seen = 0
        started = False

        async def counting_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:  # raised into the app's body parsing: its handler answers 413
                    raise HTTPException(413, detail=str(too_large))
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except HTTPException as error:
            if error.status_code != 413 or started:
                raise
            await error_response(too_large)(scope, receive, send)


class LoopbackHosts:
    """Refuse (400, JSON) requests whose ``Host`` header names anything but this machine."""

    HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]", "::1"})

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            host = Headers(scope=scope).get("host", "")
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if name not in self.HOSTS:
                error = InvalidInputError(
                    "this server runs without keys and answers only requests addressed to "
                    "127.0.0.1, localhost or [::1]"
                )
                await error_response(error, status=400)(scope, receive, send)
                return
        await self.app(scope, receive, send)


class SameOrigin:
    """Refuse (403, JSON) a state-changing request (any method but GET, HEAD and OPTIONS) sent
    by another site's page: its ``Origin`` header is present and is not this server's own (the
    scheme, host and port the request was addressed to, ``Host``). A keyless server's writes
    are open to any page the user visits otherwise (a ``text/plain`` or form POST needs no CORS
    preflight); scripts and command-line clients send no ``Origin`` and pass."""

    SAFE = frozenset({"GET", "HEAD", "OPTIONS"})

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("method", "GET") not in self.SAFE:
            headers = Headers(scope=scope)
            origin = headers.get("origin")
            own = f"http://{headers.get('host', '')}"
            if origin is not None and not _same_origin(origin, own):
                error = PermissionDeniedError(
                    "this server runs without keys (--no-auth), so it takes no writes from "
                    f"another site's pages: this request comes from {origin!r}, not {own!r}; "
                    "send it without an Origin header (a script, curl), or from this server's "
                    "own pages"
                )
                await error_response(error)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _same_origin(origin: str, own: str) -> bool:
    """True when ``origin`` names the host and port of ``own`` (http or https)."""
    scheme, _, netloc = origin.strip().lower().partition("://")
    return scheme in ("http", "https") and netloc == own.lower().partition("://")[2]


class Writes:
    """The requests in flight that handed a write to a worker thread: a stopping server waits
    for them (:meth:`settled`) before it leaves the MCP session manager and closes the store."""

    def __init__(self) -> None:
        self._running: dict[asyncio.Task[None], WriteWatch] = {}

    def track(self, task: asyncio.Task[None], watch: WriteWatch) -> None:
        self._running[task] = watch
        task.add_done_callback(self._forget)

    def _forget(self, task: asyncio.Task[None]) -> None:
        self._running.pop(task, None)

    async def settled(self) -> None:
        """Return once no request that began a write is still running."""
        while begun := [t for t, watch in self._running.items() if watch.begun and not t.done()]:
            await asyncio.wait(begun)


class CutShort:
    """The app's outermost middleware: what a request still running when the server stops
    (SIGTERM, past the drain timeout: uvicorn cancels its task) answers.

    The request runs in a task of its own. Cancelled before it handed a write to a worker
    thread (:func:`~ripplemem.core.lanes.watching_writes`), it is cut and answers a JSON 503
    ``ShuttingDownError`` (rather than the ASGI server's plain-text 500): nothing of it was
    stored (an MCP tool waiting for its turn is cancelled with its request's transport).
    Cancelled after, its write's fate is already decided in its thread, so it is not cut: it
    runs on and answers what it would have (the add's 200 once committed, or its error), and
    the app's shutdown waits for it (:class:`Writes`)."""

    def __init__(self, app: ASGIApp, writes: Writes) -> None:
        self.app, self.writes = app, writes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        with watching_writes() as watch:
            request = asyncio.ensure_future(self.app(scope, receive, tracking_send))
        self.writes.track(request, watch)
        try:
            await asyncio.shield(request)
        except asyncio.CancelledError:
            if not watch.begun:
                request.cancel()
            await _finished(request)
            if watch.begun:
                request.result()  # its own failure, if any, is answered as without the stop
            elif not started:
                error = ShuttingDownError(
                    "the server stopped before this request finished and stored nothing of it; "
                    "send it again once the server is back"
                )
                await error_response(error)(scope, receive, send)
            raise


async def _finished(task: asyncio.Task[None]) -> None:
    """Wait until ``task`` is done, whatever it ends with, through any cancellation."""
    while not task.done():
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait({task})
