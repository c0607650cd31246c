"""Who is calling and which namespace a request may use: the tenant comes from the key alone.

:class:`Access` is what authentication yields: the caller's key (or open access under
``--no-auth``, or the fixed namespace of ``ripplemem mcp``). :meth:`Access.namespace` turns the
namespace a request names (or does not name) into the one it may use:

* a key bound to one namespace needs no ``namespace``; naming another one is refused (an agent
  or run of its own, written in full as the units report it, ``alex/run:r1``, is its own);
* a key bound to several must name one of them;
* an admin key (and open access) may name any, and must name one (open access: ``default``);
* ``ripplemem mcp --namespace NS`` has no key: it serves NS alone, and says so when refusing.

A refusal never says whether the other namespace exists or holds anything. :meth:`Access.resolve`
applies the identity rule (:mod:`ripplemem.core.identity`): the key is checked against the user
(``namespace`` or ``user_id``), which ``agent_id`` and ``run_id`` then narrow.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ripplemem.core.identity import lies_within, scoped, user_of
from ripplemem.errors import UsageError
from ripplemem.records.keys import ApiKey

__all__ = [
    "Access",
    "AuthenticationError",
    "NamespaceRequiredError",
    "PermissionDeniedError",
]


class AuthenticationError(UsageError):
    """No key, or a key that is unknown or revoked (HTTP 401)."""


class PermissionDeniedError(UsageError):
    """The key may not do this: another namespace, or a write with a read-only key (HTTP 403)."""


class NamespaceRequiredError(UsageError):
    """The key holds several namespaces and the request named none (HTTP 422)."""


class CallerIds(Protocol):
    """The ids a request names (every verb's arguments have them)."""

    namespace: str | None
    user_id: str | None
    agent_id: str | None
    run_id: str | None


@dataclass(frozen=True, slots=True)
class Access:
    """The rights of one caller."""

    namespaces: tuple[str, ...] = ()
    any_namespace: bool = False
    read_only: bool = False
    key_id: str | None = None
    #: what an open caller gets when it names no namespace (``--no-auth``)
    fallback: str | None = None
    #: no key: the command line gave the one namespace (``ripplemem mcp --namespace``), so a
    #: refusal names what the server serves rather than a key
    pinned: bool = False

    @classmethod
    def of_key(cls, key: ApiKey) -> Access:
        return cls(
            namespaces=tuple(key.namespaces),
            any_namespace=key.admin,
            read_only=key.read_only,
            key_id=key.id,
        )

    @classmethod
    def open(cls, *, default: str = "default") -> Access:
        """Everything, for a server started with ``--no-auth`` on a loopback address."""
        return cls(any_namespace=True, fallback=default)

    @classmethod
    def fixed(cls, namespace: str, *, read_only: bool = False) -> Access:
        """One namespace, for ``ripplemem mcp --namespace NS``."""
        return cls(namespaces=(namespace,), read_only=read_only, pinned=True)

    def namespace(self, requested: str | None) -> str:
        """The namespace this request uses, or PermissionDeniedError / NamespaceRequiredError."""
        if requested is not None and not requested.strip():
            requested = None
        if requested is None:
            if len(self.namespaces) == 1 and not self.any_namespace:
                return self.namespaces[0]
            if self.fallback is not None:
                return self.fallback
            if self.any_namespace:
                raise NamespaceRequiredError(
                    "this key may use any namespace: name one (the namespace field or parameter)"
                )
            raise NamespaceRequiredError(
                "this key holds several namespaces; name one of: " + ", ".join(self.namespaces)
            )
        if self.may_use(requested):
            return requested
        if self.pinned:
            raise PermissionDeniedError(
                f"this server serves only namespace {self.namespaces[0]!r} (--namespace)"
            )
        raise PermissionDeniedError("this key may not use that namespace")

    def resolve(self, ids: CallerIds, *, default: str | None = None) -> str:
        """The namespace a request with these ids works in: the user it names (checked as
        :meth:`namespace` does; ``default``, already checked, when it names none) narrowed by
        its agent and run."""
        user = user_of(ids.namespace, ids.user_id)
        base = default if user is None and default is not None else self.namespace(user)
        return scoped(base, ids.agent_id, ids.run_id)

    def may_use(self, namespace: str) -> bool:
        """True when this caller may use ``namespace``: one of its own, or one of them narrowed by
        agents and runs (:func:`~ripplemem.core.identity.lies_within`)."""
        return self.any_namespace or any(lies_within(namespace, own) for own in self.namespaces)

    def check_write(self) -> None:
        if self.read_only and self.pinned:
            raise PermissionDeniedError("this server is read-only (--read-only)")
        if self.read_only:
            raise PermissionDeniedError("this key is read-only: it may search and read, not write")
