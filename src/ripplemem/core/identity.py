"""Who a call is about: the one rule that turns ``user_id``, ``agent_id`` and ``run_id`` (mem0's
names) or a ``namespace`` into the namespace every verb works in.

    namespace = <user>[/agent:<agent_id>][/run:<run_id>]

``<user>`` is ``namespace`` or ``user_id`` (synonyms; two different values are refused), else
the face's default: ``"default"`` for the library and the command line, the key's namespace for
the service (REST and MCP) and the ``--namespace`` of ``ripplemem mcp``. ``agent_id`` and
``run_id`` narrow it: ``user_id="alex"`` is ``alex``, ``user_id="alex", agent_id="planner"`` is
``alex/agent:planner``, ``agent_id="planner", run_id="r1"`` alone is
``default/agent:planner/run:r1``. Memories of one namespace never show in another: a search
with ``user_id="alex"`` does not see ``alex/agent:planner``'s memories. The service checks the
key against ``<user>`` only, so a key for ``alex`` may use every agent and run of ``alex``.
"""

from __future__ import annotations

from ripplemem.errors import ConfigurationError, InvalidInputError
from ripplemem.write.input_checks import check_text

__all__ = ["DEFAULT_NAMESPACE", "MAX_NAMESPACE_CHARS", "namespace_of", "scoped", "user_of", "user_part"]

DEFAULT_NAMESPACE = "default"
MAX_NAMESPACE_CHARS = 200


def user_of(namespace: str | None, user_id: str | None) -> str | None:
    """``namespace`` or ``user_id`` (one of them, or the same value twice), or None."""
    if namespace is not None:
        namespace = _part(namespace, "namespace")
    if user_id is not None:
        user_id = _part(user_id, "user_id")
    if namespace and user_id and namespace != user_id:
        raise ConfigurationError(
            f"give either namespace or user_id, not two different values ({namespace!r} and {user_id!r})"
        )
    return namespace or user_id or None


def scoped(user: str, agent_id: str | None = None, run_id: str | None = None) -> str:
    """``user`` narrowed by ``agent_id`` and ``run_id``; each may not hold a '/'."""
    parts = [user]
    for kind, value in (("agent", agent_id), ("run", run_id)):
        if value is None:
            continue
        value = _part(value, f"{kind}_id")
        if not value:
            continue
        if "/" in value:
            raise InvalidInputError(f"{kind}_id {value!r} holds a '/': use an id without one")
        parts.append(f"{kind}:{value}")
    name = "/".join(parts)
    if len(name) > MAX_NAMESPACE_CHARS:
        raise InvalidInputError(
            f"the namespace {name[:40]!r}... is {len(name)} characters, over the limit of "
            f"{MAX_NAMESPACE_CHARS}: use shorter ids"
        )
    return name


def user_part(namespace: str) -> str:
    """The ``<user>`` a namespace was narrowed from (``alex/agent:planner/run:r1`` -> ``alex``)."""
    parts = namespace.split("/")
    while len(parts) > 1 and parts[-1].startswith(("agent:", "run:")):
        parts.pop()
    return "/".join(parts)


def namespace_of(
    namespace: str | None = None,
    user_id: str | None = None,
    agent_id: str | None = None,
    run_id: str | None = None,
    *,
    default: str = DEFAULT_NAMESPACE,
) -> str:
    """The namespace a call with these ids works in (the rule in this module's docstring)."""
    return scoped(user_of(namespace, user_id) or default, agent_id, run_id)


def _part(value: object, what: str) -> str:
    return check_text(value, what).strip()
