"""Structured output: ask a chat model for JSON matching a pydantic model, bounded, and repair.

:func:`complete_structured` sends the model's JSON schema (or a narrower one the caller built),
a ``max_tokens`` sized to that schema (:func:`output_token_budget`), pulls the JSON out of the
reply (code fences and surrounding prose are tolerated), validates it, and on failure re-asks
with the validation error quoted, up to ``max_repairs`` times. A reply cut off at ``max_tokens``
(``finish_reason == "length"``) is not re-asked — a longer prompt cannot fix it — but raised as
:class:`~ripplemem.errors.TruncatedOutputError`, so the caller asks for less (a smaller window,
fewer items). Every repair is logged with its reason. Provider errors propagate unchanged.

Every schema the library has a model fill is bounded: lists carry ``maxItems`` and strings
``maxLength`` (:class:`MaxItems`, :class:`MaxLength`), so an endpoint that enforces the schema as
a grammar cannot loop inside an array, and the token budget is finite.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, GetCoreSchemaHandler, GetJsonSchemaHandler, ValidationError
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import core_schema

from ripplemem.errors import InvalidModelOutputError, TruncatedOutputError
from ripplemem.providers.base import ChatMessage, ChatModel, ChatResult

T = TypeVar("T", bound=BaseModel)
log = logging.getLogger(__name__)

_FENCE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\r?\n?(.*?)```", re.DOTALL)
_ERROR_CHARS = 1500
#: characters per token when sizing a reply: JSON of English text runs ~3.5-4 characters per
#: token in BPE vocabularies; 3 leaves headroom
CHARS_PER_TOKEN = 3.0
#: what an unbounded string or list is assumed to cost (a schema should not have one)
_UNBOUNDED_STRING_CHARS = 200
_UNBOUNDED_ITEMS = 8
_SCALAR_TOKENS = 4
_MIN_BUDGET = 16


@dataclass(frozen=True, slots=True)
class _Bound:
    """An annotation that writes ``keyword: limit`` into the JSON schema and clips longer values
    (an endpoint that does not enforce the schema may send more)."""

    limit: int

    keyword = ""

    def clip(self, value: Any) -> Any:
        return value[: self.limit] if isinstance(value, str | list) else value

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(self.clip, handler(source))

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        value = handler(schema)
        target = value
        if "anyOf" in value:  # str | None: bound the string branch
            target = next((v for v in value["anyOf"] if v.get("type") != "null"), value)
        target[self.keyword] = self.limit
        return value


@dataclass(frozen=True, slots=True)
class MaxItems(_Bound):
    """A list annotation: ``maxItems`` in the schema; a longer list keeps its first items."""

    keyword = "maxItems"


@dataclass(frozen=True, slots=True)
class MaxLength(_Bound):
    """A string annotation: ``maxLength`` in the schema; a longer string is cut there."""

    keyword = "maxLength"


class MeteredChat:
    """A chat model that counts the tokens of every call made through it (failed and repaired
    attempts included): ``prompt_tokens``, ``completion_tokens``, ``calls``."""

    def __init__(self, chat: ChatModel) -> None:
        self.chat = chat
        self.name = chat.name
        self.prompt_tokens = self.completion_tokens = self.calls = 0

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def complete(self, messages: Sequence[ChatMessage], **options: Any) -> ChatResult:
        result = self.chat.complete(messages, **options)
        self.calls += 1
        self.prompt_tokens += result.prompt_tokens
        self.completion_tokens += result.completion_tokens
        return result


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


def output_token_budget(schema: dict[str, Any]) -> int:
    """The most tokens a compact JSON reply matching ``schema`` can take (an upper estimate).

    Strings count ``maxLength`` / :data:`CHARS_PER_TOKEN` plus quotes, lists ``maxItems`` times
    their item plus separators, objects every property's name and value. ``$ref`` is followed
    into ``$defs``; ``anyOf`` takes its costliest branch.
    """
    definitions = schema.get("$defs", {})

    def cost(node: Any, depth: int = 0) -> float:
        if not isinstance(node, dict) or depth > 20:
            return _SCALAR_TOKENS
        if "$ref" in node:
            return cost(definitions.get(node["$ref"].rsplit("/", 1)[-1], {}), depth + 1)
        if "anyOf" in node:
            return max((cost(option, depth + 1) for option in node["anyOf"]), default=1.0)
        kind = node.get("type")
        if kind == "string":
            chars = node.get("maxLength", _UNBOUNDED_STRING_CHARS)
            return 2 + chars / CHARS_PER_TOKEN
        if kind == "array":
            items = node.get("maxItems", _UNBOUNDED_ITEMS)
            return 2 + items * (1 + cost(node.get("items", {}), depth + 1))
        if kind == "object" or "properties" in node:
            total = 2.0
            for name, value in node.get("properties", {}).items():
                total += 2 + len(name) / CHARS_PER_TOKEN + cost(value, depth + 1)
            return total
        return _SCALAR_TOKENS

    return max(_MIN_BUDGET, math.ceil(cost(schema)))


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
    schema: dict[str, Any] | None = None,
    max_tokens: int | None = None,
) -> Structured[T]:
    """Ask ``chat`` for a ``response_model`` instance; re-ask up to ``max_repairs`` times, each
    reply capped at ``max_tokens`` (None: the provider's default).

    ``schema`` is the JSON schema sent (default: the model's own; pass a narrower one, e.g. with
    a smaller ``maxItems``, when the prompt asks for less); ``max_tokens`` defaults to
    :func:`output_token_budget` of it. Raises :class:`TruncatedOutputError` when a reply stops at
    ``max_tokens`` without valid JSON, and :class:`InvalidModelOutputError` when no attempt
    validates.
    """
    sent = schema if schema is not None else response_model.model_json_schema()
    cap = max_tokens if max_tokens is not None else output_token_budget(sent)
    conversation = list(messages)
    tokens = 0
    last_error = "no attempt made"
    last_raw = ""
    attempts = 0
    for attempts in range(1, max(0, max_repairs) + 2):
        result = chat.complete(
            conversation, json_schema=sent, temperature=temperature, max_tokens=cap
        )
        tokens += result.total_tokens
        try:
            value = response_model.model_validate_json(extract_json(result.text))
        except ValidationError as error:
            last_error, last_raw = _describe(error), result.text
            if result.finish_reason == "length":
                raise TruncatedOutputError(
                    f"Model {chat.name!r} stopped at max_tokens={cap} before its "
                    f"{response_model.__name__} JSON was complete (attempt {attempts}); ask for "
                    "less: a smaller window or fewer items.",
                    raw=result.text, tokens=tokens,
                ) from error
            if attempts <= max_repairs:
                log.warning(
                    "%s from %s failed validation (attempt %d of %d); re-asking: %s",
                    response_model.__name__, chat.name, attempts, max_repairs + 1,
                    " ".join(last_error.split())[:200],
                )
            conversation += [
                ChatMessage(role="assistant", content=result.text),
                ChatMessage(role="user", content=_repair_request(last_error)),
            ]
            continue
        return Structured(value=value, tokens=tokens, attempts=attempts, raw=result.text)
    raise InvalidModelOutputError(
        f"Model {chat.name!r} returned no valid {response_model.__name__} in {attempts} "
        f"attempt(s); last error: {last_error}. Use a stronger model, set LLMSettings.json_mode "
        "to 'json_schema' (or 'json_object') if the endpoint supports it, or raise max_repairs.",
        raw=last_raw, tokens=tokens,
    )
