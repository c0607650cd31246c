"""The MCP face: a tool for each verb of :data:`~ripplemem.server.verbs.VERBS` that has one, over
the same :class:`~ripplemem.AsyncMemory` as the REST routes, answering the same wire models.

A tool's arguments are its verb's, without ``namespace``: ``tenant(ctx)`` gives the caller's
rights and namespace, from the request's key (HTTP: the gate in front of ``/mcp`` resolved it)
or from the command line (``ripplemem mcp``). ``user_id`` may name another namespace the key
holds; ``agent_id`` and ``run_id`` narrow it (:mod:`ripplemem.core.identity`). Library errors
and invalid arguments reach the client as tool errors in plain words.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel, Field, ValidationError

from ripplemem import __version__
from ripplemem.errors import RippleMemError
from ripplemem.memory import AsyncMemory
from ripplemem.server.access import Access
from ripplemem.server.budget import RequestBudget
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


def build_mcp(memory: AsyncMemory, tenant: Tenant, budget: RequestBudget | None = None) -> MCPServer:
    """An MCPServer with the memory tools; ``answer`` only when an LLM is configured; the
    bounded verbs run under ``budget`` (the server's per-request budget)."""
    budget = budget or RequestBudget(None)
    server = MCPServer(
        "ripplemem", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING"
    )
    for verb in VERBS:
        if verb.tool is None or (verb.needs_llm and not memory.can_answer):
            continue
        server.add_tool(
            _tool(verb, memory, tenant, budget), name=verb.tool, description=verb.description,
            annotations=verb.annotations, structured_output=True,
        )
    return server


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
            raise ToolError(f"{type(error).__name__}: {error}") from error
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


def _plain(error: ValidationError) -> str:
    """A pydantic error in a sentence: which argument, and what is wrong with it."""
    parts = []
    for item in error.errors()[:3]:
        message = str(item.get("msg", "invalid")).removeprefix("Value error, ")
        where = ".".join(str(part) for part in item.get("loc", ()))
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts)
