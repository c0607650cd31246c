"""A real local HTTP server that speaks the OpenAI protocol with scripted answers.

Shipped inside the package (like ``httpx.MockTransport``) so users and tests exercise the real
client over real sockets, with no patching::

    with ScriptedOpenAIServer([Reply.status(429, retry_after=0), Reply.text("hi")]) as server:
        chat = OpenAICompatibleChat(server.llm_settings())
        assert chat.complete([ChatMessage("user", "hello")]).text == "hi"

Chat completions answer from a FIFO of :class:`Reply` values, then from ``responder(request)``,
else with HTTP 500 ("script exhausted"). Besides plain text and JSON, a reply can be cut off at
``max_tokens`` (:meth:`Reply.truncated`), loop inside an array until the request's ``max_tokens``
as small models do (:meth:`Reply.loop`), or copy a message of the prompt, e.g. its worked example
(:meth:`Reply.echo`). Embeddings answer with deterministic hash-based unit
vectors (:func:`scripted_embedding`) unless ``embedding_replies`` scripts another answer first. Every request is recorded.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any, Literal

import numpy as np

from ripplemem.settings import LLMSettings
from ripplemem.testing.loopback import LoopbackServer

ReplyKind = Literal["content", "status", "delay", "loop", "echo"]
MALFORMED_JSON = '{"answer": "unfinished", "items": [1, 2,'
#: the length a loop runs to when the request sends no max_tokens
LOOP_CAP_TOKENS = 4096


@dataclass(frozen=True, slots=True)
class Reply:
    """One scripted answer. Build it with the class methods, not the constructor."""

    kind: ReplyKind
    content: str = ""
    status_code: int = 200
    retry_after: float | None = None
    body: str | dict | None = None
    seconds: float = 0.0
    then: Reply | None = None
    usage: tuple[int, int] | None = None  # (prompt_tokens, completion_tokens); None = estimate
    finish_reason: str = "stop"
    repeat: str = ""  # a loop's repeated part
    echo_index: int = -1  # which request message an echo copies

    @classmethod
    def text(cls, content: str, *, usage: tuple[int, int] | None = None) -> Reply:
        """An assistant message with this text."""
        return cls(kind="content", content=content, usage=usage)

    @classmethod
    def json(cls, value: Any, *, usage: tuple[int, int] | None = None) -> Reply:
        """An assistant message whose text is ``value`` serialised as JSON."""
        return cls(kind="content", content=json.dumps(value), usage=usage)

    @classmethod
    def malformed(cls, *, usage: tuple[int, int] | None = None) -> Reply:
        """An assistant message whose text is truncated, unparseable JSON."""
        return cls(kind="content", content=MALFORMED_JSON, usage=usage)

    @classmethod
    def truncated(cls, content: str, *, usage: tuple[int, int] | None = None) -> Reply:
        """An assistant message with this text and ``finish_reason: "length"`` (cut off)."""
        return cls(kind="content", content=content, usage=usage, finish_reason="length")

    @classmethod
    def loop(cls, prefix: str, repeat: str) -> Reply:
        """``prefix`` then ``repeat`` again and again until the request's ``max_tokens`` (or
        :data:`LOOP_CAP_TOKENS` without one), cut off there: ``finish_reason: "length"``. What a
        small model does inside an unbounded array."""
        return cls(kind="loop", content=prefix, repeat=repeat or " ", finish_reason="length")

    @classmethod
    def echo(cls, index: int = -1, *, role: str | None = "assistant") -> Reply:
        """Copy the text of one of the request's messages: the ``index``-th message with
        ``role`` (default: the last assistant message, i.e. a worked example sent as its own
        exchange); ``role=None`` counts every message."""
        return cls(kind="echo", content=role or "", echo_index=index)

    @classmethod
    def status(
        cls, code: int, retry_after: float | None = None, body: str | dict | None = None
    ) -> Reply:
        """An HTTP error (or any status) with an optional Retry-After header and body."""
        return cls(kind="status", status_code=code, retry_after=retry_after, body=body)

    @classmethod
    def delay(cls, seconds: float, then: Reply) -> Reply:
        """Sleep ``seconds`` before answering with ``then`` (to trigger client timeouts)."""
        return cls(kind="delay", seconds=seconds, then=then)


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]  # names in lower case
    body: dict[str, Any] = field(default_factory=dict)


def estimate_tokens(text: str) -> int:
    """The server's token estimate: a quarter of the characters, at least 1 for non-empty text."""
    return max(1, len(text) // 4) if text else 0


def scripted_embedding(text: str, dim: int) -> np.ndarray:
    """The deterministic unit vector the server returns for ``text``."""
    seed = int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big")
    vector = np.random.default_rng(seed).standard_normal(dim)
    return (vector / np.linalg.norm(vector)).astype(np.float32)


def _headers(handler: BaseHTTPRequestHandler) -> dict[str, str]:
    return {name.lower(): value for name, value in handler.headers.items()}


def _json_bytes(value: Any) -> bytes:
    return json.dumps(value).encode("utf-8")


def _error_body(message: str, code: int) -> dict[str, Any]:
    return {"error": {"message": message, "type": "scripted_error", "code": code}}


class ScriptedOpenAIServer(LoopbackServer):
    """OpenAI-protocol server on ``127.0.0.1`` (random port) in a daemon thread.

    Endpoints: ``POST /v1/chat/completions``, ``POST /v1/embeddings``, ``GET /v1/models``.
    If ``api_key`` is set, requests without ``Authorization: Bearer <api_key>`` get HTTP 401.
    """

    def __init__(
        self,
        replies: Iterable[Reply] = (),
        *,
        responder: Callable[[dict[str, Any]], Reply] | None = None,
        embedding_replies: Iterable[Reply] = (),
        dim: int = 384,
        model: str = "scripted-model",
        api_key: str | None = None,
    ) -> None:
        self.responder = responder
        self.dim = dim
        self.model = model
        self.api_key = api_key
        self._replies: deque[Reply] = deque(replies)
        self._embedding_replies: deque[Reply] = deque(embedding_replies)
        self._recorded: list[RecordedRequest] = []
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        super().__init__()

    def handler(self) -> type[BaseHTTPRequestHandler]:
        return type("ScriptedHandler", (_Handler,), {"scripted": self})

    def llm_settings(self, **overrides: Any) -> LLMSettings:
        """:class:`LLMSettings` pointing at this server (key, model and base URL filled in)."""
        values: dict[str, Any] = {
            "base_url": self.base_url,
            "model": self.model,
            "api_key": self.api_key,
        }
        values.update(overrides)
        return LLMSettings(**values)

    def enqueue(self, *replies: Reply) -> None:
        """Append chat-completion replies to the FIFO."""
        with self._lock:
            self._replies.extend(replies)

    def enqueue_embeddings(self, *replies: Reply) -> None:
        """Append replies for ``/v1/embeddings`` to its FIFO.

        Status and delay replies behave as for chat; a content reply (``text``, ``json``,
        ``malformed``) is sent verbatim as the response body, e.g. to script a wrong dimension.
        """
        with self._lock:
            self._embedding_replies.extend(replies)

    @property
    def pending(self) -> int:
        """Chat replies still queued."""
        with self._lock:
            return len(self._replies)

    @property
    def requests(self) -> list[dict[str, Any]]:
        """The JSON bodies of every request received, in order (a copy)."""
        with self._lock:
            return [record.body for record in self._recorded]

    @property
    def recorded(self) -> list[RecordedRequest]:
        """Every request with its method, path and headers (a copy)."""
        with self._lock:
            return list(self._recorded)

    def _record(self, record: RecordedRequest) -> None:
        with self._lock:
            self._recorded.append(record)

    def _next_chat_reply(self, body: dict[str, Any]) -> Reply | None:
        with self._lock:
            if self._replies:
                return self._replies.popleft()
        return self.responder(body) if self.responder is not None else None

    def _next_embedding_reply(self) -> Reply | None:
        with self._lock:
            return self._embedding_replies.popleft() if self._embedding_replies else None

    def chat_completion(self, body: dict[str, Any], reply: Reply) -> dict[str, Any]:
        messages = body.get("messages") or []
        prompt = " ".join(str(m.get("content", "")) for m in messages if isinstance(m, dict))
        reply = _materialise(reply, body)
        prompt_tokens, completion_tokens = reply.usage or (
            estimate_tokens(prompt),
            estimate_tokens(reply.content),
        )
        return {
            "id": f"chatcmpl-scripted-{next(self._ids)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": str(body.get("model") or self.model),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": reply.content},
                    "finish_reason": reply.finish_reason,
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }

    def embeddings(self, body: dict[str, Any]) -> dict[str, Any]:
        raw = body.get("input", [])
        texts = [raw] if isinstance(raw, str) else [str(item) for item in raw]
        data = [
            {
                "object": "embedding",
                "index": i,
                "embedding": scripted_embedding(t, self.dim).tolist(),
            }
            for i, t in enumerate(texts)
        ]
        tokens = sum(estimate_tokens(t) for t in texts)
        return {
            "object": "list",
            "data": data,
            "model": str(body.get("model") or self.model),
            "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
        }

    def models(self) -> dict[str, Any]:
        return {
            "object": "list",
            "data": [{"id": self.model, "object": "model", "created": 0, "owned_by": "ripplemem"}],
        }


def _materialise(reply: Reply, body: dict[str, Any]) -> Reply:
    """A loop or echo reply turned into the content it stands for, given the request."""
    if reply.kind == "loop":
        cap = body.get("max_tokens") or LOOP_CAP_TOKENS
        text = reply.content
        while estimate_tokens(text) < cap:
            text += reply.repeat
        while text and estimate_tokens(text) > cap:
            text = text[:-1]
        return Reply(kind="content", content=text, usage=reply.usage, finish_reason="length")
    if reply.kind == "echo":
        messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
        chosen = [m for m in messages if not reply.content or m.get("role") == reply.content]
        try:
            text = str(chosen[reply.echo_index].get("content", ""))
        except IndexError:
            text = ""
        return Reply(kind="content", content=text, usage=reply.usage)
    return reply


class _Handler(BaseHTTPRequestHandler):
    """Routes one request to the owning :class:`ScriptedOpenAIServer`."""

    scripted: ScriptedOpenAIServer  # set on the per-server subclass
    server_version = "ScriptedOpenAIServer/1"

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the default per-request stderr logging."""

    def do_GET(self) -> None:
        self._safely(self._get)

    def do_POST(self) -> None:
        self._safely(self._post)

    def _safely(self, action: Callable[[], None]) -> None:
        try:
            action()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (e.g. its timeout fired during a scripted delay)

    def _get(self) -> None:
        self.scripted._record(RecordedRequest("GET", self.path, _headers(self)))
        if not self._authorised():
            return
        if self.path.rstrip("/") == "/v1/models":
            self._send_json(200, self.scripted.models())
        else:
            self._send_json(404, _error_body(f"no route for GET {self.path}", 404))

    def _post(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = None
        record_body = (
            body if isinstance(body, dict) else {"_unparsed": raw.decode("utf-8", "replace")}
        )
        self.scripted._record(RecordedRequest("POST", self.path, _headers(self), record_body))
        if not self._authorised():
            return
        if not isinstance(body, dict):
            self._send_json(400, _error_body("request body is not a JSON object", 400))
            return
        route = self.path.rstrip("/")
        if route == "/v1/chat/completions":
            try:
                reply = self.scripted._next_chat_reply(body)
            except Exception as error:  # noqa: BLE001 - a responder bug is reported to the client
                message = f"responder raised {type(error).__name__}: {error}"
                self._send_json(500, _error_body(message, 500))
                return
            if reply is None:
                message = (
                    "script exhausted: no scripted Reply left for POST /v1/chat/completions and no "
                    "responder; enqueue more Reply values or pass responder="
                )
                self._send_json(500, _error_body(message, 500))
                return
            self._answer(reply, lambda r: _json_bytes(self.scripted.chat_completion(body, r)))
        elif route == "/v1/embeddings":
            reply = self.scripted._next_embedding_reply()
            if reply is None:
                self._send_json(200, self.scripted.embeddings(body))
            else:
                self._answer(reply, lambda r: r.content.encode("utf-8"))  # scripted raw body
        else:
            self._send_json(404, _error_body(f"no route for POST {self.path}", 404))

    def _answer(self, reply: Reply, content_body: Callable[[Reply], bytes]) -> None:
        while reply.kind == "delay" and reply.then is not None:
            time.sleep(reply.seconds)
            reply = reply.then
        if reply.kind == "status":
            headers = {}
            if reply.retry_after is not None:
                headers["Retry-After"] = f"{reply.retry_after:g}"
            body = reply.body
            if body is None:
                body = _error_body(f"scripted HTTP {reply.status_code}", reply.status_code)
            if isinstance(body, str):
                self._send(reply.status_code, body.encode("utf-8"), "text/plain", headers)
            else:
                self._send_json(reply.status_code, body, headers)
        else:
            self._send(200, content_body(reply), "application/json", {})

    def _authorised(self) -> bool:
        expected = self.scripted.api_key
        if expected is None or self.headers.get("Authorization") == f"Bearer {expected}":
            return True
        self._send_json(
            401, _error_body("missing or wrong API key (Authorization: Bearer ...)", 401)
        )
        return False

    def _send_json(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        self._send(status, _json_bytes(body), "application/json", headers or {})

    def _send(
        self, status: int, payload: bytes, content_type: str, headers: dict[str, str]
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(payload)
