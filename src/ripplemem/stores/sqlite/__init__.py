"""The SQLite backend: one file, WAL, numbered migrations, FTS5 lexical search."""

from ripplemem.stores.sqlite.store import SQLiteStore

__all__ = ["SQLiteStore"]
