"""Where a store location points, for what must not create a store where none is: a command that
only reads, the source of a migration. Opening a SQLite location creates its file; these checks
come first."""

from __future__ import annotations

from ripplemem.errors import ConfigurationError
from ripplemem.stores.registry import sqlite_path

__all__ = ["missing_store", "refuse_missing"]


def missing_store(location: str) -> str | None:
    """The path of the SQLite store ``location`` names when no file is there, else None (a file
    that is there, a store in memory, a server's store)."""
    path = sqlite_path(location)
    if path is None or path.exists():
        return None
    return str(path)


def refuse_missing(location: str, what: str) -> None:
    """ConfigurationError when ``location`` names a SQLite store that does not exist; ``what``
    says why none is created (e.g. "this command only reads and creates none")."""
    missing = missing_store(location)
    if missing is not None:
        raise ConfigurationError(f"no store at {missing}: {what}; check the path")
