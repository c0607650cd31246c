"""SQLiteKeyStore: the service's API keys in the store's own file (migration 7)."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from datetime import datetime

from ripplemem.errors import InvalidInputError
from ripplemem.records.keys import ApiKey
from ripplemem.stores.keys_base import check_key
from ripplemem.stores.sqlite.failures import translate_public_methods

__all__ = ["TABLE", "SQLiteKeyStore"]

TABLE = """CREATE TABLE api_key (
    id TEXT PRIMARY KEY,
    secret_hash TEXT NOT NULL UNIQUE,
    namespaces TEXT NOT NULL,
    read_only INTEGER NOT NULL,
    admin INTEGER NOT NULL,
    label TEXT NOT NULL,
    created_at TEXT NOT NULL,
    revoked_at TEXT
)"""
_COLUMNS = "id, secret_hash, namespaces, read_only, admin, label, created_at, revoked_at"

Transaction = Callable[[], AbstractContextManager[sqlite3.Connection]]


@translate_public_methods
class SQLiteKeyStore:
    """A :class:`~ripplemem.stores.keys_base.KeyStore` over the store's connection."""

    path = "the store"  # the owning SQLiteStore's file, named in errors

    def __init__(
        self,
        db: sqlite3.Connection,
        lock: threading.RLock,
        transaction: Transaction,
        check_open: Callable[[], None],
    ) -> None:
        self._db, self._lock, self._transaction, self._check_open = db, lock, transaction, check_open

    def add_key(self, key: ApiKey) -> None:
        check_key(key)
        with self._lock, self._transaction() as db:
            try:
                db.execute(
                    f"INSERT INTO api_key ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        key.id,
                        key.secret_hash,
                        json.dumps(list(key.namespaces)),
                        int(key.read_only),
                        int(key.admin),
                        key.label,
                        key.created_at.isoformat(),
                        key.revoked_at.isoformat() if key.revoked_at else None,
                    ),
                )
            except sqlite3.IntegrityError as error:
                raise InvalidInputError(
                    f"a key with id {key.id!r} or the same secret exists"
                ) from error

    def key_by_hash(self, secret_hash: str) -> ApiKey | None:
        rows = list(self._rows("WHERE secret_hash = ?", (secret_hash,)))
        return rows[0] if rows else None

    def list_keys(self) -> list[ApiKey]:
        return list(self._rows("ORDER BY created_at, id", ()))

    def revoke_key(self, key_id: str, at: datetime) -> bool:
        with self._lock, self._transaction() as db:
            changed = db.execute(
                "UPDATE api_key SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                (at.isoformat(), key_id),
            ).rowcount
        return changed == 1

    def _rows(self, where: str, params: tuple) -> Iterator[ApiKey]:
        with self._lock:
            self._check_open()
            found = self._db.execute(f"SELECT {_COLUMNS} FROM api_key {where}", params).fetchall()
        for kid, digest, namespaces, read_only, admin, label, created, revoked in found:
            yield ApiKey(
                id=kid,
                secret_hash=digest,
                namespaces=tuple(json.loads(namespaces)),
                created_at=datetime.fromisoformat(created),
                read_only=bool(read_only),
                admin=bool(admin),
                label=label,
                revoked_at=datetime.fromisoformat(revoked) if revoked else None,
            )
