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
key against ``<user>`` only, so a key for ``alex`` may use every agent and run of ``alex``, named
with ``agent_id`` / ``run_id`` or in full as the units report it (``namespace="alex/run:r1"``:
:func:`lies_within`).

Only ``None`` means "not given": an id that is empty or only spaces is refused
(:class:`~ripplemem.errors.InvalidInputError`), never read as the default, so a blank form field
cannot put one user's memories in a namespace others share. A delete
(:func:`namespace_to_forget`) also reaches a namespace a store holds under a name these rules
refuse (one an older import wrote): what is stored can always be deleted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ripplemem.errors import ConfigurationError, InvalidInputError
from ripplemem.write.input_checks import MAX_NAMESPACE_CHARS, check_text

__all__ = [
    "DEFAULT_NAMESPACE",
    "MAX_NAMESPACE_CHARS",
    "lies_within",
    "namespace_of",
    "namespace_to_forget",
    "scoped",
    "user_of",
]

DEFAULT_NAMESPACE = "default"


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
    return namespace or user_id


def scoped(user: str, agent_id: str | None = None, run_id: str | None = None) -> str:
    """``user`` narrowed by ``agent_id`` and ``run_id``; each may not hold a '/'."""
    parts = [user]
    for kind, value in (("agent", agent_id), ("run", run_id)):
        if value is None:
            continue
        value = _part(value, f"{kind}_id")
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


def lies_within(namespace: str, scope: str) -> bool:
    """True when ``namespace`` is ``scope`` or ``scope`` narrowed by agents and runs
    (``alex/run:r1`` and ``alex/agent:p/run:r1`` lie within ``alex``; ``alexa``, ``alex/bob`` and
    ``bob/run:r1`` do not): what ``agent_id`` and ``run_id`` reach from ``scope``, written in full."""
    if namespace == scope:
        return True
    if not namespace.startswith(scope + "/"):
        return False
    rest = namespace[len(scope) + 1 :].split("/")
    return all(part.startswith(("agent:", "run:")) and len(part) > part.index(":") + 1 for part in rest)


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


def namespace_to_forget(
    namespace: str | None,
    user_id: str | None,
    agent_id: str | None,
    run_id: str | None,
    *,
    held: Callable[[], Iterable[str]],
) -> str:
    """The namespace a delete works in: :func:`namespace_of`'s, except when the one id given
    (``namespace`` or ``user_id``, no agent or run) is, exactly as written, a namespace the store
    holds (``held()``) that these rules refuse or would change (over the length limit, holding a
    NUL, spaces at its ends): then that one, so a namespace an older import wrote can be
    deleted."""
    given = {value for value in (namespace, user_id) if value is not None}
    exact = next(iter(given)) if len(given) == 1 and agent_id is None and run_id is None else None
    try:
        resolved = namespace_of(namespace, user_id, agent_id, run_id)
    except InvalidInputError:
        if isinstance(exact, str) and exact in set(held()):
            return exact
        raise
    if isinstance(exact, str) and exact != resolved and exact in set(held()):
        return exact
    return resolved


def _part(value: object, what: str) -> str:
    """An id as given, without the spaces at its ends; a blank one is refused."""
    text = check_text(value, what).strip()
    if not text:
        raise InvalidInputError(
            f"{what} is empty: give an id, or leave it out for the default"
        )
    return text
