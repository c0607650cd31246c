"""Who a call is about: the one rule that turns ``user_id``, ``agent_id`` and ``run_id`` (mem0's
names) or a ``namespace`` into the namespace every verb works in.

    namespace = <user>[/agent:<agent_id>][/run:<run_id>]

``<user>`` is ``namespace`` or ``user_id`` (synonyms; two different values are refused), else
the face's default: ``"default"`` for the library and the command line, the key's namespace for
the service (REST and MCP) and the ``--namespace`` of ``ripplemem mcp``. ``agent_id`` and
``run_id`` narrow it: ``user_id="alex"`` is ``alex``, ``user_id="alex", agent_id="planner"`` is
``alex/agent:planner``, ``agent_id="planner", run_id="r1"`` alone is
``default/agent:planner/run:r1``. ``<user>`` may hold a ``/`` (``ripplemem ingest --split`` writes
``<user>/<conversation id>``), but no part of it starts with ``agent:`` or ``run:``: those are the
agent and the run, in that order, each at most once and with an id (:func:`parts_of`). A
``namespace`` written in full (``alex/run:r1``, as units report it) may be given with the same
``agent_id`` / ``run_id`` again; one that names another agent or run, or a run where the agent
would follow it, is refused (:class:`~ripplemem.errors.InvalidInputError`) rather than nested. Memories of one namespace never show in another: a search
with ``user_id="alex"`` does not see ``alex/agent:planner``'s memories. The service checks the
key against ``<user>`` only, so a key for ``alex`` may use every agent and run of ``alex``, named
with ``agent_id`` / ``run_id`` or in full as the units report it (``namespace="alex/run:r1"``:
:func:`lies_within`).

Every id is taken in Unicode's composed form (NFC), so "zoë" typed with "ë" or with "e" and a
combining mark is one namespace. Only ``None`` means "not given": an id that is empty or only spaces is refused
(:class:`~ripplemem.errors.InvalidInputError`), never read as the default, so a blank form field
cannot put one user's memories in a namespace others share. A delete
(:func:`namespace_to_forget`) also reaches a namespace a store holds under a name these rules
refuse (one an older import wrote): what is stored can always be deleted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ripplemem.errors import ConfigurationError, InvalidInputError
from ripplemem.write.input_checks import MAX_NAMESPACE_CHARS, check_text, composed

__all__ = [
    "DEFAULT_NAMESPACE",
    "MAX_NAMESPACE_CHARS",
    "lies_within",
    "namespace_of",
    "namespace_to_forget",
    "parts_of",
    "scoped",
    "user_of",
]

DEFAULT_NAMESPACE = "default"
GRAMMAR = "<user>[/agent:<agent_id>][/run:<run_id>]"
_KINDS = ("agent", "run")


def user_of(namespace: str | None, user_id: str | None) -> str | None:
    """``namespace`` or ``user_id`` (one of them, or the same value twice), or None; a value
    outside the grammar (:func:`parts_of`) is refused."""
    if namespace is not None:
        namespace = _part(namespace, "namespace")
        parts_of(namespace, "namespace")
    if user_id is not None:
        user_id = _part(user_id, "user_id")
        parts_of(user_id, "user_id")
    if namespace and user_id and namespace != user_id:
        raise ConfigurationError(
            f"give either namespace or user_id, not two different values ({namespace!r} and {user_id!r})"
        )
    return namespace or user_id


def parts_of(namespace: str, what: str = "namespace") -> tuple[str, str | None, str | None]:
    """The user, agent and run of a namespace written in full (``alex/agent:p/run:r1`` is
    ``("alex", "p", "r1")``); InvalidInputError, saying what to write, outside the grammar."""
    segments = namespace.split("/")
    first = next((i for i, part in enumerate(segments) if part.startswith(_prefixes())), len(segments))
    user = "/".join(segments[:first])
    if not user:
        raise InvalidInputError(
            f"{what} {namespace!r} names no user before its agent or run: write it as "
            f"{GRAMMAR} (e.g. {DEFAULT_NAMESPACE + '/' + namespace!r})"
        )
    named: dict[str, str] = {}
    for part in segments[first:]:
        kind, _, value = part.partition(":")
        if kind not in _KINDS:
            raise InvalidInputError(
                f"{what} {namespace!r} has {part!r} after its agent or run: a namespace is "
                f"{GRAMMAR}, so nothing but the run may follow the agent, and nothing the run"
            )
        if not value.strip():
            raise InvalidInputError(
                f"{what} {namespace!r} has an empty {kind} id ({part!r}): give the id, or leave "
                f"the {kind} out"
            )
        if kind in named or (kind == "agent" and "run" in named):
            raise InvalidInputError(
                f"{what} {namespace!r} is outside the grammar {GRAMMAR}: at most one agent, "
                "then at most one run, in that order"
            )
        named[kind] = value
    return user, named.get("agent"), named.get("run")


def scoped(user: str, agent_id: str | None = None, run_id: str | None = None) -> str:
    """``user`` narrowed by ``agent_id`` and ``run_id``; each may not hold a '/'. ``user`` may
    be a namespace written in full: an agent or run it names already is kept when the same id is
    given again, and any other combination (another agent or run, an agent after its run) is
    refused, never nested."""
    base, agent, run = parts_of(user)
    given = {}
    for kind, value in (("agent", agent_id), ("run", run_id)):
        if value is None:
            continue
        value = _part(value, f"{kind}_id")
        if "/" in value:
            raise InvalidInputError(f"{kind}_id {value!r} holds a '/': use an id without one")
        given[kind] = value
    if "agent" in given and given["agent"] != agent:
        if agent is not None:
            raise InvalidInputError(
                f"namespace {user!r} already names agent {agent!r}, and agent_id is "
                f"{given['agent']!r}: a namespace has one agent ({GRAMMAR}); give the agent once"
            )
        if run is not None:
            raise InvalidInputError(
                f"namespace {user!r} already names run {run!r}, and the agent comes before the "
                f"run ({GRAMMAR}): give namespace {_join(base, given['agent'], run)!r}, or "
                f"{base!r} with agent_id and run_id"
            )
        agent = given["agent"]
    if "run" in given and given["run"] != run:
        if run is not None:
            raise InvalidInputError(
                f"namespace {user!r} already names run {run!r}, and run_id is "
                f"{given['run']!r}: a namespace has one run ({GRAMMAR}); give the run once"
            )
        run = given["run"]
    name = _join(base, agent, run)
    if len(name) > MAX_NAMESPACE_CHARS:
        raise InvalidInputError(
            f"the namespace {name[:40]!r}... is {len(name)} characters, over the limit of "
            f"{MAX_NAMESPACE_CHARS}: use shorter ids"
        )
    return name


def _join(user: str, agent: str | None, run: str | None) -> str:
    parts = [user]
    parts += [f"agent:{agent}"] if agent is not None else []
    parts += [f"run:{run}"] if run is not None else []
    return "/".join(parts)


def _prefixes() -> tuple[str, ...]:
    return tuple(f"{kind}:" for kind in _KINDS)


def lies_within(namespace: str, scope: str) -> bool:
    """True when ``namespace`` is ``scope`` or ``scope`` narrowed by agents and runs
    (``alex/run:r1`` and ``alex/agent:p/run:r1`` lie within ``alex``; ``alexa``, ``alex/bob`` and
    ``bob/run:r1`` do not): what ``agent_id`` and ``run_id`` reach from ``scope``, written in full."""
    if namespace == scope:
        return True
    try:
        user, agent, run = parts_of(namespace)
        own_user, own_agent, own_run = parts_of(scope)
    except InvalidInputError:
        return False
    return (
        user == own_user
        and own_agent in (None, agent)
        and own_run in (None, run)
        and (own_run is None or own_agent == agent)
    )


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
    """An id as given, without the spaces at its ends and in Unicode's composed form (NFC: "zoë"
    is one id however its "ë" was typed); a blank one is refused."""
    text = composed(check_text(value, what).strip())
    if not text:
        raise InvalidInputError(
            f"{what} is empty: give an id, or leave it out for the default"
        )
    return text
