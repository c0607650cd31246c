"""API keys of the service: what a key may reach. The secret itself is never stored."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class ApiKey:
    """A key bound to namespaces.

    ``id`` is public (shown by ``ripplemem keys list``); ``secret_hash`` is the SHA-256 of the
    secret the holder sends. ``admin`` keys may use every namespace; ``read_only`` keys may not
    write or delete.
    """

    id: str
    secret_hash: str
    namespaces: tuple[str, ...]
    created_at: datetime
    read_only: bool = False
    admin: bool = False
    label: str = ""
    revoked_at: datetime | None = None

    @property
    def active(self) -> bool:
        return self.revoked_at is None

    def allows(self, namespace: str) -> bool:
        """True when this key may use ``namespace`` (an admin key may use any)."""
        return self.active and (self.admin or namespace in self.namespaces)
