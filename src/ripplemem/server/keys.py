"""API keys: made, checked and revoked here; stored hashed in the store (``store.keys``).

A secret is ``rmk_`` followed by 43 URL-safe characters (256 random bits). Only its SHA-256 is
stored, so a lost secret cannot be recovered: revoke the key and create another. The key id
(``key_`` and 8 hex digits) is public: ``ripplemem keys list`` shows it and ``keys revoke`` takes it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from datetime import datetime

from ripplemem.errors import InvalidInputError
from ripplemem.records.keys import ApiKey
from ripplemem.stores.keys_base import KeyStore

__all__ = ["SECRET_PREFIX", "create_key", "find_key", "hash_secret", "revoke_key"]

SECRET_PREFIX = "rmk_"


def hash_secret(secret: str) -> str:
    """The stored form of a secret: its SHA-256, in hex."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def create_key(
    keys: KeyStore,
    namespaces: Sequence[str],
    *,
    read_only: bool = False,
    admin: bool = False,
    label: str = "",
    now: datetime | None = None,
) -> tuple[ApiKey, str]:
    """Store a new key and return it with its secret (shown once, never stored)."""
    wanted = tuple(dict.fromkeys(ns.strip() for ns in namespaces))
    if any(not ns for ns in wanted):
        raise InvalidInputError("a namespace name cannot be empty")
    secret = SECRET_PREFIX + secrets.token_urlsafe(32)
    key = ApiKey(
        id=f"key_{secrets.token_hex(4)}",
        secret_hash=hash_secret(secret),
        namespaces=wanted,
        created_at=(now or datetime.now()).replace(microsecond=0),
        read_only=read_only,
        admin=admin,
        label=label,
    )
    keys.add_key(key)
    return key, secret


def find_key(keys: KeyStore, secret: str) -> ApiKey | None:
    """The active key whose secret this is, or None (unknown, malformed or revoked)."""
    if not secret.startswith(SECRET_PREFIX) or len(secret) > 200:
        return None
    digest = hash_secret(secret)
    key = keys.key_by_hash(digest)
    if key is None or not key.active or not hmac.compare_digest(key.secret_hash, digest):
        return None
    return key


def revoke_key(keys: KeyStore, key_id: str, *, now: datetime | None = None) -> None:
    """Revoke a key by id; an unknown or already revoked id is an InvalidInputError."""
    if not keys.revoke_key(key_id, (now or datetime.now()).replace(microsecond=0)):
        known = {k.id: k for k in keys.list_keys()}
        if key_id in known:
            raise InvalidInputError(f"key {key_id!r} was already revoked")
        raise InvalidInputError(f"no key {key_id!r}; list the ids with `ripplemem keys list`")
