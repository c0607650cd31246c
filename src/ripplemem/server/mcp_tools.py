"""The MCP face: a tool for each verb of :data:`~ripplemem.server.verbs.VERBS` that has one, over
the same :class:`~ripplemem.AsyncMemory` as the REST routes, answering the same wire models.

A tool's arguments are its verb's, without ``namespace``: ``tenant(ctx)`` gives the caller's
rights and namespace, from the request's key (HTTP: the gate in front of ``/mcp`` resolved it)
or from the command line (``ripplemem mcp``). ``user_id`` may name another namespace the key
holds; ``agent_id`` and ``run_id`` narrow it (:mod:`ripplemem.core.identity`). Library errors
and invalid arguments reach the client as tool errors in plain words. A tool takes only its own
arguments (its input schema says ``additionalProperties: false``): any other, ``namespace`` too,
is refused by name, as a REST body's unknown field is.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Callable
from functools import partial
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.mcpserver.tools.base import Tool
from mcp.types import CallToolResult, InputRequiredResult
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ripplemem import __version__
from ripplemem.errors import RippleMemError, said_on
from ripplemem.memory import AsyncMemory
from ripplemem.server.access import Access
from ripplemem.server.budget import RequestBudget
from ripplemem.server.schemas import time_hint
from ripplemem.server.verbs import VERBS, Verb

__all__ = ["INSTRUCTIONS", "Tenant", "build_mcp"]

#: (ctx) -> (the caller's rights, the namespace its calls use)
Tenant = Callable[[Context], tuple[Access, str]]

INSTRUCTIONS = (
    "Long-term memory of past conversations. Call search_memories before answering a question "
    "that may depend on earlier sessions; call add_memory with the new messages of a session to "
    "remember them. Each memory is a self-contained restatement with its people, places and time."
)
#: arguments of a verb that a tool does not take (the tenant comes from the connection)
HIDDEN = {"namespace"}
#: what to write instead, for arguments a model often gets wrong
HINTS = {"messages": "give a list of {role, content} messages, or one fact in plain words as text"}


class MemoryServer(MCPServer):
    """The SDK's server, whose tool errors are one line in plain words, the error's type first
    (``FilterError: ...``): arguments that fail a tool's input schema are an
    ``InvalidInputError`` naming the argument (not the SDK's pydantic dump; one the tool does
    not take, with the ones it does), and the SDK's ``Error executing tool <name>:`` prefix is
    left out."""

    def __init__(self, tenant: Tenant, tools: list[Tool]) -> None:
        super().__init__(
            "ripplemem", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING",
            tools=tools,
        )
        self.tenant = tenant
        #: each tool's arguments, for the error that names one it does not take
        self.takes = {tool.name: tuple(tool.parameters.get("properties", ())) for tool in tools}

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context | None = None
    ) -> CallToolResult | InputRequiredResult:
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            raise
        except ToolError as error:
            cause = error.__cause__
            if isinstance(cause, ValidationError):
                unknown = partial(self._unknown, name, context)
                raise ToolError(f"InvalidInputError: {_plain(cause, unknown)}") from cause
            if isinstance(cause, ToolError):  # the tool's own words, without the SDK's prefix
                raise ToolError(str(cause)) from cause.__cause__
            raise

    def _unknown(self, tool: str, context: Context | None, argument: str) -> str:
        """What to say of ``argument``, which ``tool`` does not take."""
        if argument not in HIDDEN:
            return f"{argument} is not an argument of {tool} (it takes {', '.join(self.takes[tool])})"
        access = None
        if context is not None:
            with contextlib.suppress(ValueError, AttributeError):  # no request: say it generally
                access, _ = self.tenant(context)
        if access is not None and access.pinned:
            return (
                f"{argument} is not an argument of these tools: this server serves only namespace "
                f"{access.namespaces[0]!r} (--namespace); agent_id and run_id narrow it"
            )
        if access is not None and access.fallback is not None:
            return (
                f"{argument} is not an argument of these tools: this server runs without keys, "
                "and the namespace comes from ?namespace= on the /mcp URL or the "
                f"RippleMem-Namespace header ({access.fallback!r} without them); user_id names "
                "another, and agent_id and run_id narrow it"
            )
        return (
            f"{argument} is not an argument of these tools: a key's namespace comes from the key "
            "(or from ?namespace= on the /mcp URL, or the RippleMem-Namespace header); user_id "
            "names another namespace the key holds, and agent_id and run_id narrow it"
        )


def build_mcp(memory: AsyncMemory, tenant: Tenant, budget: RequestBudget | None = None) -> MCPServer:
    """An MCPServer with the memory tools (``answer`` without an LLM says how to configure one);
    the bounded verbs run under ``budget`` (the server's per-request budget)."""
    budget = budget or RequestBudget(None)
    tools = [
        _strict(Tool.from_function(
            _tool(verb, memory, tenant, budget), name=verb.tool, description=verb.description,
            annotations=verb.annotations, structured_output=True,
        ))
        for verb in VERBS
        if verb.tool is not None
    ]
    return MemoryServer(tenant, tools)


def _strict(tool: Tool) -> Tool:
    """``tool`` refusing arguments it does not take, its input schema saying so
    (``additionalProperties: false``), as the SDK's own argument model does not."""
    loose = tool.fn_metadata.arg_model

    class Strict(loose):  # type: ignore[valid-type, misc]
        model_config = ConfigDict(extra="forbid", title=loose.__name__)

    tool.fn_metadata.arg_model = Strict
    tool.parameters = Strict.model_json_schema(by_alias=True)
    return tool


def _tool(verb: Verb, memory: AsyncMemory, tenant: Tenant, budget: RequestBudget) -> Callable[..., Any]:
    """The tool function of ``verb``: its signature is the verb's arguments (so the SDK derives
    the input schema from them) and the context."""
    params = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default)
        for name, annotation, default in _arguments(verb)
    ]
    params.append(inspect.Parameter("ctx", inspect.Parameter.KEYWORD_ONLY, annotation=Context))

    async def tool(ctx: Context, **given: Any) -> BaseModel:
        access, namespace = tenant(ctx)
        try:
            if verb.writes:
                access.check_write()
            arguments = verb.arguments.model_validate(given)
            namespace = access.resolve(arguments, default=namespace)
            result = await budget.run_verb(verb, memory, namespace, arguments)
        except RippleMemError as error:
            raise ToolError(f"{type(error).__name__}: {said_on(str(error), 'mcp')}") from error
        except ValidationError as error:
            raise ToolError(f"InvalidInputError: {_plain(error)}") from None
        return verb.result.model_validate_json(result) if isinstance(result, str) else result

    tool.__signature__ = inspect.Signature(params, return_annotation=verb.result)  # type: ignore[attr-defined]
    tool.__annotations__ = {"ctx": Context, "return": verb.result}
    tool.__name__ = verb.tool or verb.name
    return tool


def _arguments(verb: Verb) -> list[tuple[str, Any, Any]]:
    """(name, annotation, default) of each argument a tool takes."""
    found = []
    for name, field in verb.arguments.model_fields.items():
        if name in HIDDEN:
            continue
        described = Field(description=field.description)
        annotation = Annotated[(field.annotation, *field.metadata, described)]  # type: ignore[name-defined]
        if name in verb.tool_defaults:
            default = verb.tool_defaults[name]
        elif field.is_required():
            default = inspect.Parameter.empty
        else:
            default = field.default
        found.append((name, annotation, default))
    return found


def _plain(error: ValidationError, unknown: Callable[[str], str] | None = None) -> str:
    """A pydantic error in a sentence: which argument, and what is wrong with it; ``unknown``
    says what to say of an argument the tool does not take."""
    parts = []
    for item in error.errors()[:3]:
        loc = item.get("loc", ())
        where = ".".join(str(part) for part in loc)
        kind = item.get("type")
        if kind == "missing":
            parts.append(f"{where} is required")
        elif kind == "extra_forbidden" and len(loc) == 1 and unknown is not None:
            parts.append(unknown(where))
        elif kind == "extra_forbidden":
            hint = time_hint(loc, "the add") if "messages" in loc else ""
            parts.append(f"{where} is not a field this tool knows{hint}")
        else:
            message = str(item.get("msg", "invalid")).removeprefix("Value error, ")
            hint = f"; {HINTS[where]}" if where in HINTS else ""
            parts.append(f"{where}: {message}{hint}" if where else message)
    return "; ".join(parts)
