"""Where a store location points, for what must not create a store where none is: a command that
only reads, the source of a migration. Opening a SQLite location creates its file, opening a
PostgreSQL one its schema and tables; these checks come first and create nothing."""

from __future__ import annotations

from ripplemem.errors import ConfigurationError
from ripplemem.stores.registry import redact, scheme_of, sqlite_path

__all__ = ["missing_store", "refuse_missing"]


def missing_store(location: str) -> str | None:
    """``location`` as shown to a user (a path; a URL without its password) when it names no
    store: a SQLite file that is not there, a PostgreSQL schema without a ripplemem store's
    tables. None when a store is there, or for a store in memory or another backend's."""
    if scheme_of(location) == "postgresql":
        from ripplemem.stores.postgres import holds_store

        return None if holds_store(location) else redact(location)
    path = sqlite_path(location)
    if path is None or path.exists():
        return None
    return str(path)


def refuse_missing(location: str, what: str) -> None:
    """ConfigurationError when ``location`` names no store (:func:`missing_store`); ``what``
    says why none is created (e.g. "this command only reads and creates none")."""
    missing = missing_store(location)
    if missing is not None:
        check = "the URL's database and schema" if "://" in missing else "the path"
        raise ConfigurationError(f"no store at {missing}: {what}; check {check}")
