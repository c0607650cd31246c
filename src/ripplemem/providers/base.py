"""Provider seams: a chat model and an embedder, each a small Protocol.

The *model* (API format) is kept apart from the *provider* (endpoint, key): an
:class:`~ripplemem.providers.openai_compat.OpenAICompatibleChat` talks to any base URL.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

import numpy as np

InputType = Literal["query", "document"]


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of shape (n, dim).

    ``semantic_edge_threshold`` is the cosine above which two units of this embedder are linked
    by a semantic edge, when it was calibrated for the model; None leaves the paper's 0.85.
    An embedder whose vector of a text depends on the other texts of the same call (activations
    quantised per batch) says so with an attribute ``batch_dependent = True``; the read path then
    embeds the texts whose vectors it keeps one per call. An embedder trained on some languages
    only names them with an attribute ``languages`` (ISO 639-1 codes, as
    :func:`ripplemem.language.language_of` gives them; none: any language); for a question in
    another language the read path rests rho's alignment on the lexical view
    (``recipe.rank.lexical_alignment_other_language``)."""

    @property
    def name(self) -> str: ...
    @property
    def dim(self) -> int: ...
    @property
    def semantic_edge_threshold(self) -> float | None: ...

    def embed(self, texts: Sequence[str], *, input_type: InputType = "document") -> np.ndarray: ...


@dataclass(frozen=True, slots=True)
class ChatMessage:
    role: Literal["system", "user", "assistant"]
    content: str


@dataclass(frozen=True, slots=True)
class ChatResult:
    """One reply. ``finish_reason`` is the endpoint's (``"stop"``; ``"length"``: the reply hit
    ``max_tokens``), None when the endpoint gave none."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    model: str = ""
    finish_reason: str | None = None

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@runtime_checkable
class ChatModel(Protocol):
    """One chat-completion call. ``json_schema`` asks for structured JSON output."""

    name: str

    def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        json_schema: dict | None = None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
    ) -> ChatResult: ...
