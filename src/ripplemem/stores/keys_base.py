"""The key seam: the service's API keys, kept in the store beside the memories they guard.

Implementations: :class:`InMemoryKeyStore` (held by :class:`~ripplemem.stores.memory.InMemoryStore`)
and :class:`ripplemem.stores.sqlite.keys.SQLiteKeyStore` (a table of the store's own file).

Contract notes:

* Keys are found by the hash of their secret (``key_by_hash``); the secret is never stored.
* ``add_key`` refuses an id or a hash that is already stored.
* ``revoke_key`` marks a key revoked (``revoked_at``), it is not deleted: ``key_by_hash`` still
  returns it, so a caller can tell a revoked key from an unknown one. Revoking twice keeps the
  first time and returns False.
* ``list_keys`` returns every key, oldest first.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import datetime
from typing import Protocol, runtime_checkable

from ripplemem.errors import InvalidInputError
from ripplemem.records.keys import ApiKey

__all__ = ["InMemoryKeyStore", "KeyStore", "check_key"]


@runtime_checkable
class KeyStore(Protocol):
    def add_key(self, key: ApiKey) -> None: ...
    def key_by_hash(self, secret_hash: str) -> ApiKey | None: ...
    def list_keys(self) -> list[ApiKey]: ...
    def revoke_key(self, key_id: str, at: datetime) -> bool: ...


def check_key(key: ApiKey) -> ApiKey:
    """Refuse a key that could never be used or found (checked before any write)."""
    if not isinstance(key, ApiKey):
        raise InvalidInputError(f"add_key takes an ApiKey, got {type(key).__name__}")
    if not key.id or not key.secret_hash:
        raise InvalidInputError("an API key needs an id and the hash of its secret")
    if not key.admin and not key.namespaces:
        raise InvalidInputError(
            f"key {key.id!r} names no namespace; bind it to at least one (or make it admin)"
        )
    if any(not isinstance(ns, str) or not ns for ns in key.namespaces):
        raise InvalidInputError(f"key {key.id!r}: namespaces must be non-empty strings")
    return key


class InMemoryKeyStore:
    """The reference :class:`KeyStore`, in a dict, under the owning store's lock."""

    def __init__(self, lock: threading.RLock | None = None) -> None:
        self._lock = lock or threading.RLock()
        self._keys: dict[str, ApiKey] = {}

    def add_key(self, key: ApiKey) -> None:
        check_key(key)
        with self._lock:
            if key.id in self._keys or any(
                k.secret_hash == key.secret_hash for k in self._keys.values()
            ):
                raise InvalidInputError(f"a key with id {key.id!r} or the same secret exists")
            self._keys[key.id] = key

    def key_by_hash(self, secret_hash: str) -> ApiKey | None:
        with self._lock:
            return next((k for k in self._keys.values() if k.secret_hash == secret_hash), None)

    def list_keys(self) -> list[ApiKey]:
        with self._lock:
            return list(self._keys.values())

    def revoke_key(self, key_id: str, at: datetime) -> bool:
        with self._lock:
            key = self._keys.get(key_id)
            if key is None or key.revoked_at is not None:
                return False
            self._keys[key_id] = replace(key, revoked_at=at)
            return True
