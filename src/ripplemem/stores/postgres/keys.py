"""PostgresKeyStore: the service's API keys in the store's ``api_key`` table."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

import psycopg

from ripplemem.errors import InvalidInputError
from ripplemem.records.keys import ApiKey
from ripplemem.stores.keys_base import check_key

__all__ = ["PostgresKeyStore"]

_COLUMNS = "id, secret_hash, namespaces, read_only, admin, label, created_at, revoked_at"
Transaction = Callable[[Sequence[str]], AbstractContextManager[psycopg.Connection]]
Read = Callable[[Callable[[psycopg.Connection], Any]], Any]


class PostgresKeyStore:
    """A :class:`~ripplemem.stores.keys_base.KeyStore` over the store's connections."""

    def __init__(self, transaction: Transaction, read: Read) -> None:
        self._transaction, self._read = transaction, read

    def add_key(self, key: ApiKey) -> None:
        check_key(key)
        with self._transaction([]) as db:
            added = db.execute(
                f"INSERT INTO api_key ({_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) "
                "ON CONFLICT DO NOTHING",
                (
                    key.id,
                    key.secret_hash,
                    list(key.namespaces),
                    key.read_only,
                    key.admin,
                    key.label,
                    key.created_at.isoformat(),
                    key.revoked_at.isoformat() if key.revoked_at else None,
                ),
            ).rowcount
            if added != 1:  # the id or the hash is taken (both are unique keys)
                raise InvalidInputError(f"a key with id {key.id!r} or the same secret exists")

    def key_by_hash(self, secret_hash: str) -> ApiKey | None:
        rows = self._rows("WHERE secret_hash = %s", (secret_hash,))
        return rows[0] if rows else None

    def list_keys(self) -> list[ApiKey]:
        return self._rows("ORDER BY created_at, id", ())

    def revoke_key(self, key_id: str, at: datetime) -> bool:
        with self._transaction([]) as db:
            changed = db.execute(
                "UPDATE api_key SET revoked_at = %s WHERE id = %s AND revoked_at IS NULL",
                (at.isoformat(), key_id),
            ).rowcount
        return changed == 1

    def _rows(self, where: str, params: tuple) -> list[ApiKey]:
        sql = f"SELECT {_COLUMNS} FROM api_key {where}"
        found = self._read(lambda db: db.execute(sql, params).fetchall())
        return [
            ApiKey(
                id=kid,
                secret_hash=digest,
                namespaces=tuple(namespaces),
                created_at=datetime.fromisoformat(created),
                read_only=bool(read_only),
                admin=bool(admin),
                label=label,
                revoked_at=datetime.fromisoformat(revoked) if revoked else None,
            )
            for kid, digest, namespaces, read_only, admin, label, created, revoked in found
        ]
