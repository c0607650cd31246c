"""The SQLite backend: one file, WAL, numbered migrations, bounded BM25 over namespace-first postings."""

from ripplemem.stores.sqlite.store import SQLiteStore

__all__ = ["SQLiteStore"]
