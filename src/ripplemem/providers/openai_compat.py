"""Clients for any OpenAI-compatible endpoint: chat completions and embeddings.

The *model* (API format) is this module; the *provider* (base URL, key, vendor quirks such as
``json_mode``) is data in :class:`~ripplemem.settings.LLMSettings`. Timeouts, connection errors,
429 and 5xx are retried with exponential backoff; other 4xx fail at once.
"""

from __future__ import annotations

import email.utils
import json
import logging
import re
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Self

import httpx
import numpy as np

from ripplemem.errors import (
    ConfigurationError,
    InvalidInputError,
    ProviderError,
    ProviderUnavailableError,
)
from ripplemem.providers.base import ChatMessage, ChatResult, InputType
from ripplemem.settings import LLMSettings

log = logging.getLogger(__name__)
JSON_MODES = ("json_schema", "json_object", "none")
MAX_RETRY_AFTER_S = 30.0
_SNIPPET_CHARS = 300


def _snippet(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _SNIPPET_CHARS else text[:_SNIPPET_CHARS] + "..."


def retry_after_seconds(value: str | None) -> float | None:
    """Seconds from a Retry-After header (delta-seconds or HTTP date), capped at 30 s."""
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            moment = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        seconds = (moment - datetime.now(UTC)).total_seconds()
    return min(max(seconds, 0.0), MAX_RETRY_AFTER_S)


class _RetryingPoster:
    """POSTs JSON and returns the decoded body, retrying transient failures."""

    def __init__(
        self,
        client: httpx.Client,
        *,
        headers: dict[str, str],
        max_retries: int,
        backoff_s: float,
    ) -> None:
        self.client = client
        self.headers = headers
        self.max_retries = max(0, max_retries)
        self.backoff_s = backoff_s

    def post(self, url: str, body: dict[str, Any]) -> dict[str, Any]:
        attempts = self.max_retries + 1
        last_cause = "no attempt made"
        last_error: Exception | None = None
        for attempt in range(attempts):
            wait = min(self.backoff_s * (2**attempt), MAX_RETRY_AFTER_S)
            try:
                response = self.client.post(url, json=body, headers=self.headers)
            except httpx.TimeoutException as error:
                last_cause, last_error = f"timed out ({type(error).__name__})", error
            except httpx.TransportError as error:
                last_cause, last_error = (
                    f"connection failed ({type(error).__name__}: {error})",
                    error,
                )
            else:
                status = response.status_code
                if status < 400:
                    return self._decode(url, response)
                last_cause = f"HTTP {status}: {_snippet(response.text)}"
                last_error = None
                if status == 429:
                    retry_after = retry_after_seconds(response.headers.get("retry-after"))
                    wait = wait if retry_after is None else retry_after
                elif status < 500:
                    raise ProviderError(
                        f"POST {url} was rejected with HTTP {status}: {_snippet(response.text)}. "
                        "Check the model name, the request parameters and the API key."
                    )
            if attempt + 1 < attempts:
                log.warning(
                    "POST %s: attempt %d of %d failed (%s); retrying in %.1f s",
                    url, attempt + 1, attempts, last_cause, wait,
                )
                time.sleep(wait)
        raise ProviderUnavailableError(
            f"POST {url} failed after {attempts} attempt(s); last: {last_cause}. Check that the "
            "base URL is right and the server is up, that the API key is valid, and the rate "
            "limit or quota of the account (or raise LLMSettings.max_retries / timeout_s)."
        ) from last_error

    @staticmethod
    def _decode(url: str, response: httpx.Response) -> dict[str, Any]:
        try:
            data = response.json()
        except ValueError as error:
            raise ProviderError(
                f"POST {url} returned HTTP {response.status_code} with a body that is not JSON: "
                f"{_snippet(response.text)}. Check that the base URL ends at the API root (…/v1)."
            ) from error
        if not isinstance(data, dict):
            raise ProviderError(
                f"POST {url} returned JSON that is not an object: {_snippet(response.text)}"
            )
        return data


def _auth_headers(api_key: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {api_key}"} if api_key else {}


def _schema_name(schema: dict[str, Any]) -> str:
    title = str(schema.get("title") or "response")
    name = re.sub(r"[^A-Za-z0-9_-]", "_", title)[:64]
    return name or "response"


class OpenAICompatibleChat:
    """:class:`~ripplemem.providers.base.ChatModel` over ``POST {base_url}/chat/completions``.

    ``transport`` lets tests and users route requests elsewhere (e.g. ``httpx.MockTransport``);
    ``backoff_s`` is the first retry wait, doubled on each retry. Use as a context manager or
    call :meth:`close` to release the connection pool.
    """

    def __init__(
        self,
        settings: LLMSettings,
        *,
        transport: httpx.BaseTransport | None = None,
        backoff_s: float = 0.5,
    ) -> None:
        self.settings = settings
        self.name = settings.model
        self.url = settings.base_url.rstrip("/") + "/chat/completions"
        self.timeout_s = settings.resolved_timeout_s()
        self._client = httpx.Client(transport=transport, timeout=self.timeout_s)
        key = settings.api_key.get_secret_value() if settings.api_key is not None else None
        self._poster = _RetryingPoster(
            self._client,
            headers=_auth_headers(key),
            max_retries=settings.max_retries,
            backoff_s=backoff_s,
        )

    def __repr__(self) -> str:
        return f"OpenAICompatibleChat(model={self.name!r}, url={self.url!r})"

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self._client.close()

    def request_body(
        self,
        messages: Sequence[ChatMessage],
        *,
        json_schema: dict | None = None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
    ) -> dict[str, Any]:
        """The JSON body :meth:`complete` sends (useful for logging and debugging)."""
        body: dict[str, Any] = {
            "model": self.settings.model,
            "messages": [{"role": m.role, "content": m.content} for m in messages],
            "temperature": temperature,
        }
        if max_tokens is not None:
            body["max_tokens"] = max_tokens
        if json_schema is not None:
            if self.settings.json_mode == "json_schema":
                body["response_format"] = {
                    "type": "json_schema",
                    "json_schema": {
                        "name": _schema_name(json_schema),
                        "schema": json_schema,
                        "strict": False,
                    },
                }
            elif self.settings.json_mode == "json_object":
                body["response_format"] = {"type": "json_object"}
        return body

    def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        json_schema: dict | None = None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
    ) -> ChatResult:
        """One chat completion; see the module docstring for retries and errors."""
        if not messages:
            raise InvalidInputError("complete() needs at least one message")
        body = self.request_body(
            messages, json_schema=json_schema, temperature=temperature, max_tokens=max_tokens
        )
        data = self._poster.post(self.url, body)
        try:
            choice = data["choices"][0]
            message = choice["message"]
        except (KeyError, IndexError, TypeError) as error:
            raise ProviderError(
                f"POST {self.url} returned no choices[0].message: {_snippet(json.dumps(data))}. "
                "Check that the endpoint speaks the OpenAI chat-completions protocol."
            ) from error
        content = message.get("content") if isinstance(message, dict) else None
        usage = data.get("usage") or {}
        finish = choice.get("finish_reason") if isinstance(choice, dict) else None
        return ChatResult(
            text=content if isinstance(content, str) else "",
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            model=str(data.get("model") or self.settings.model),
            finish_reason=finish if isinstance(finish, str) else None,
        )


class OpenAICompatibleEmbedder:
    """:class:`~ripplemem.providers.base.Embedder` over ``POST {base_url}/embeddings``.

    Vectors are L2-normalised to float32 and must have ``dim`` components. ``input_type`` is
    accepted and ignored (the OpenAI embeddings API has no such field).
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        dim: int,
        api_key: str | None = None,
        transport: httpx.BaseTransport | None = None,
        *,
        timeout_s: float = 60.0,
        max_retries: int = 3,
        backoff_s: float = 0.5,
        batch_size: int = 256,
    ) -> None:
        if dim < 1:
            raise ConfigurationError("dim must be a positive number of vector components")
        if batch_size < 1:
            raise ConfigurationError("batch_size must be at least 1")
        self.name = model
        self.dim = dim
        self.semantic_edge_threshold: float | None = None  # not calibrated for remote models
        self.batch_size = batch_size
        self.url = base_url.rstrip("/") + "/embeddings"
        self._client = httpx.Client(transport=transport, timeout=timeout_s)
        self._poster = _RetryingPoster(
            self._client,
            headers=_auth_headers(api_key),
            max_retries=max_retries,
            backoff_s=backoff_s,
        )

    def __repr__(self) -> str:
        return f"OpenAICompatibleEmbedder(model={self.name!r}, dim={self.dim}, url={self.url!r})"

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self._client.close()

    def embed(self, texts: Sequence[str], *, input_type: InputType = "document") -> np.ndarray:
        """Embed ``texts`` into a float32 array of shape (len(texts), dim)."""
        del input_type
        if isinstance(texts, str):
            raise InvalidInputError("embed() takes a sequence of texts; wrap one text in a list")
        items = list(texts)
        out = np.zeros((len(items), self.dim), dtype=np.float32)
        for start in range(0, len(items), self.batch_size):
            chunk = items[start : start + self.batch_size]
            out[start : start + len(chunk)] = self._embed_chunk(chunk)
        return out

    def _embed_chunk(self, texts: list[str]) -> np.ndarray:
        data = self._poster.post(self.url, {"model": self.name, "input": texts})
        try:
            rows = sorted(data["data"], key=lambda row: row["index"])
            matrix = np.asarray([row["embedding"] for row in rows], dtype=np.float32)
        except (KeyError, TypeError, ValueError) as error:
            raise ProviderError(
                f"POST {self.url} returned no usable data[].embedding: "
                f"{_snippet(json.dumps(data))}. Check that the endpoint speaks the OpenAI "
                "embeddings protocol."
            ) from error
        if matrix.ndim != 2 or matrix.shape[0] != len(texts):
            raise ProviderError(
                f"POST {self.url} returned {matrix.shape[0] if matrix.ndim else 0} vectors for "
                f"{len(texts)} texts. Check the endpoint and the model {self.name!r}."
            )
        if matrix.shape[1] != self.dim:
            raise ConfigurationError(
                f"Embedding model {self.name!r} at {self.url} returns {matrix.shape[1]}-d vectors "
                f"but dim={self.dim} was configured; set dim={matrix.shape[1]} (a store built "
                "with another dimension needs re-embedding)."
            )
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return matrix / np.maximum(norms, 1e-12)
