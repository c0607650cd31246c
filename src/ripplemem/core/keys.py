"""API keys: made, checked and revoked here; stored hashed in the store's key store.

A key store is not part of the memory store seam: a backend offers one as its ``keys`` attribute
(SQLite and PostgreSQL do, in the same database), found by :func:`key_store_of`. Over a backend
without one, every key verb raises :class:`~ripplemem.errors.ConfigurationError`.

A secret is ``rmk_`` followed by 43 URL-safe characters (256 random bits). Only its SHA-256 is
stored, so a lost secret cannot be recovered: revoke the key and create another. The key id
(``key_`` and 8 hex digits) is public: ``ripplemem keys list`` shows it and ``keys revoke`` takes it.
:class:`Keys` is what ``Memory.keys`` gives: these verbs over the store's keys.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime

from ripplemem.core.identity import parts_of
from ripplemem.errors import ConfigurationError, InvalidInputError
from ripplemem.records.keys import ApiKey
from ripplemem.stores.base import MemoryStore
from ripplemem.stores.keys_base import KeyStore

__all__ = [
    "SECRET_PREFIX",
    "Keys",
    "create_key",
    "find_key",
    "hash_secret",
    "key_store_of",
    "open_keys",
    "revoke_key",
]

SECRET_PREFIX = "rmk_"


def key_store_of(store: MemoryStore) -> KeyStore | None:
    """The key store a backend offers beside ``store`` (its ``keys``), or None."""
    keys = getattr(store, "keys", None)
    return keys if isinstance(keys, KeyStore) else None


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
    for namespace in wanted:
        parts_of(namespace, "the key's namespace")
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


class Keys:
    """The key verbs over one key store (``Memory.keys``)."""

    def __init__(self, store: KeyStore | None, *, where: str = "this store") -> None:
        self._keys, self._where = store, where

    @property
    def available(self) -> bool:
        """True when the store keeps keys (else every verb raises ConfigurationError)."""
        return self._keys is not None

    @property
    def _store(self) -> KeyStore:
        if self._keys is None:
            raise ConfigurationError(
                f"{self._where} keeps no API keys (its backend offers no key store): keep them in "
                "a SQLite or PostgreSQL store, or serve this one with --no-auth on a loopback "
                "address"
            )
        return self._keys

    def create(
        self,
        namespaces: Sequence[str] = (),
        *,
        read_only: bool = False,
        admin: bool = False,
        label: str = "",
    ) -> tuple[ApiKey, str]:
        """A new key bound to ``namespaces`` (or every one: ``admin``) and its secret, shown once."""
        if not namespaces and not admin:
            raise InvalidInputError("name at least one namespace for the key (or make it admin)")
        return create_key(self._store, namespaces, read_only=read_only, admin=admin, label=label)

    def list(self) -> list[ApiKey]:
        """Every key, oldest first (revoked ones too, with ``revoked_at``)."""
        return self._store.list_keys()

    def revoke(self, key_id: str) -> None:
        revoke_key(self._store, key_id)

    def find(self, secret: str) -> ApiKey | None:
        """The active key of ``secret``, or None."""
        return find_key(self._store, secret)

    def add(self, key: ApiKey) -> None:
        """Store a key as it is (``copy_to`` carries keys across stores)."""
        self._store.add_key(key)


@contextmanager
def open_keys(location: str | None, *, existing: bool = False) -> Iterator[Keys]:
    """The keys of the store at ``location`` (a path or URL), without loading any model; the
    store is closed when the block ends. ``existing``: only read them, so a SQLite file that is
    not there is refused (ConfigurationError), not created."""
    from ripplemem.stores.registry import open_store

    if existing and location is not None:
        from ripplemem.core.location import refuse_missing

        refuse_missing(location, "this command only reads and creates none")
    store = open_store(location)
    try:
        yield Keys(key_store_of(store), where=store.url)
    finally:
        store.close()
