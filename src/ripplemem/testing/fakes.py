"""In-process test doubles for the provider seams: an embedder and a chat model."""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ripplemem.errors import ProviderUnavailableError
from ripplemem.providers.base import ChatMessage, ChatResult, InputType

__all__ = ["ChatCall", "FakeEmbedder", "ScriptedChatModel"]

_WORD = re.compile(r"\w+")


class FakeEmbedder:
    """Deterministic hashed bag-of-words vectors: each word adds a signed unit at a hashed
    position, so texts sharing words are similar and the same text always gets the same vector.
    No model, no download; ``calls`` counts ``embed`` calls and ``texts`` the texts embedded."""

    def __init__(
        self, dim: int = 384, *, name: str = "fake-bow", semantic_edge_threshold: float = 0.75
    ) -> None:
        if dim < 8:
            raise ValueError("FakeEmbedder needs dim >= 8")
        self.name, self.dim = name, dim
        self.semantic_edge_threshold: float | None = semantic_edge_threshold
        self.calls = 0
        self.texts = 0
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str], *, input_type: InputType = "document") -> np.ndarray:
        with self._lock:
            self.calls += 1
            self.texts += len(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            words = _WORD.findall(text.casefold()) or ["<empty>"]
            for word in words:
                digest = hashlib.blake2b(word.encode(), digest_size=8).digest()
                index = int.from_bytes(digest[:4], "little") % self.dim
                out[row, index] += 1.0 if digest[4] & 1 else -1.0
            # a small text-specific component keeps different texts from being identical
            digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
            out[row, int.from_bytes(digest[:4], "little") % self.dim] += 0.1
            norm = float(np.linalg.norm(out[row]))
            out[row] = out[row] / norm if norm else 1.0 / np.sqrt(self.dim)
        return out


@dataclass(frozen=True, slots=True)
class ChatCall:
    """One call the scripted model received."""

    messages: tuple[ChatMessage, ...]
    json_schema: dict | None


Responder = Callable[[Sequence[ChatMessage], dict | None], str]


class ScriptedChatModel:
    """A :class:`~ripplemem.providers.base.ChatModel` that answers from a script, in process.

    ``replies`` are used in order: a string is returned as the text, a dict or list as its JSON,
    an exception instance is raised (e.g. ``ProviderUnavailableError(...)``). When they run out,
    ``responder(messages, json_schema)`` answers; without one, the call fails with
    :class:`~ripplemem.errors.ProviderUnavailableError` ("script exhausted"). Tokens are estimated
    as words; every call is kept in ``calls``.
    """

    def __init__(
        self,
        replies: Iterable[str | dict | list | BaseException] = (),
        *,
        responder: Responder | None = None,
        name: str = "scripted",
    ) -> None:
        self.name = name
        self._replies: deque[str | dict | list | BaseException] = deque(replies)
        self.responder = responder
        self.calls: list[ChatCall] = []
        self._lock = threading.Lock()

    def enqueue(self, *replies: str | dict | list | BaseException) -> None:
        with self._lock:
            self._replies.extend(replies)

    def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        json_schema: dict | None = None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
    ) -> ChatResult:
        with self._lock:
            self.calls.append(ChatCall(tuple(messages), json_schema))
            reply: Any = self._replies.popleft() if self._replies else None
        if reply is None:
            if self.responder is None:
                raise ProviderUnavailableError(f"{self.name}: script exhausted (no reply left)")
            reply = self.responder(messages, json_schema)
        if isinstance(reply, BaseException):
            raise reply
        text = reply if isinstance(reply, str) else json.dumps(reply)
        prompt = sum(len(m.content.split()) for m in messages)
        return ChatResult(text, prompt, len(text.split()), self.name)
