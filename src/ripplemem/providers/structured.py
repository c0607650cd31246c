"""Structured output: ask a chat model for JSON matching a pydantic model, and repair on failure.

:func:`complete_structured` sends the model's JSON schema, pulls the JSON out of the reply
(code fences and surrounding prose are tolerated), validates it, and on failure re-asks with the
validation error quoted, up to ``max_repairs`` times. Provider errors propagate unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from pydantic import BaseModel, ValidationError

from ripplemem.errors import InvalidModelOutputError
from ripplemem.providers.base import ChatMessage, ChatModel

T = TypeVar("T", bound=BaseModel)

_FENCE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\r?\n?(.*?)```", re.DOTALL)
_ERROR_CHARS = 1500


@dataclass(frozen=True, slots=True)
class Structured(Generic[T]):
    """A validated reply: the value, tokens summed over all attempts, attempts made, raw text."""

    value: T
    tokens: int
    attempts: int
    raw: str


def extract_json(text: str) -> str:
    """The JSON part of a reply: the first fenced block, else the outermost ``{...}``."""
    fenced = _FENCE.search(text)
    if fenced:
        return fenced.group(1).strip()
    start, end = text.find("{"), text.rfind("}")
    if start != -1 and end > start:
        return text[start : end + 1]
    return text.strip()


def _describe(error: ValidationError) -> str:
    text = str(error)
    return text if len(text) <= _ERROR_CHARS else text[:_ERROR_CHARS] + "..."


def _repair_request(error: str) -> str:
    return (
        "Your previous reply could not be used. The validation error was:\n"
        f"{error}\n"
        "Reply again with the corrected JSON only: one JSON object that matches the schema, "
        "with no prose and no code fences."
    )


def complete_structured(
    chat: ChatModel,
    messages: Sequence[ChatMessage],
    response_model: type[T],
    *,
    max_repairs: int = 2,
    temperature: float = 0.0,
    max_tokens: int | None = None,
) -> Structured[T]:
    """Ask ``chat`` for a ``response_model`` instance; re-ask up to ``max_repairs`` times, each
    reply capped at ``max_tokens`` (None: the provider's default).

    Raises :class:`InvalidModelOutputError` when no attempt validates.
    """
    schema = response_model.model_json_schema()
    conversation = list(messages)
    tokens = 0
    last_error = "no attempt made"
    attempts = 0
    for attempts in range(1, max(0, max_repairs) + 2):
        result = chat.complete(
            conversation, json_schema=schema, temperature=temperature, max_tokens=max_tokens
        )
        tokens += result.total_tokens
        try:
            value = response_model.model_validate_json(extract_json(result.text))
        except ValidationError as error:
            last_error = _describe(error)
            conversation += [
                ChatMessage(role="assistant", content=result.text),
                ChatMessage(role="user", content=_repair_request(last_error)),
            ]
            continue
        return Structured(value=value, tokens=tokens, attempts=attempts, raw=result.text)
    raise InvalidModelOutputError(
        f"Model {chat.name!r} returned no valid {response_model.__name__} in {attempts} "
        f"attempt(s); last error: {last_error}. Use a stronger model, set LLMSettings.json_mode "
        "to 'json_schema' (or 'json_object') if the endpoint supports it, or raise max_repairs."
    )
