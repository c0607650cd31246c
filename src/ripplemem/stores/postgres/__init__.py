"""The PostgreSQL backend: pgvector ``vector(dim)`` columns, namespace-first tables, one
transaction per ``write()`` block with per-namespace advisory locks.

Opened by URL (``postgresql://user:password@host:5432/database``, ``postgres://`` too); install
with ``pip install 'ripplemem[postgres]'``. Nothing here imports psycopg until a store is opened.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

from ripplemem.errors import StoreError

if TYPE_CHECKING:
    from ripplemem.stores.postgres.store import PostgresStore

__all__ = ["PostgresStore", "holds_store", "open_postgres"]


def open_postgres(location: str, **options: Any) -> PostgresStore:
    """The ``postgresql`` opener (entry point ``ripplemem.stores``)."""
    return _store_module().PostgresStore(location, **options)


def holds_store(location: str) -> bool:
    """Whether the schema the ``postgresql://`` URL ``location`` names holds a ripplemem store;
    nothing is created to find out (a command that only reads asks this first)."""
    return bool(_store_module().holds_store(location))


def _store_module() -> ModuleType:
    try:
        from ripplemem.stores.postgres import store
    except ImportError as error:
        raise StoreError(
            f"the PostgreSQL store needs psycopg, psycopg-pool and pgvector ({error}); "
            "install them with: pip install 'ripplemem[postgres]'"
        ) from error
    return store


def __getattr__(name: str) -> Any:
    if name == "PostgresStore":
        from ripplemem.stores.postgres.store import PostgresStore

        return PostgresStore
    raise AttributeError(name)
