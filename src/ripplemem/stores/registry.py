"""Open a store from a location: the one place a location string becomes a backend.

A location is a path (a SQLite file) or a URL whose scheme names a backend::

    memory.db, ./data/alex.db, /abs/path/memory.db             -> SQLiteStore
    sqlite:///data/alex.db, sqlite:////abs/path/memory.db      -> SQLiteStore (as SQLAlchemy:
                                                                  three slashes and a path
                                                                  relative to the working
                                                                  folder, four for an absolute)
    memory://  (or ":memory:")                                 -> InMemoryStore (gone on close)
    postgresql://user@host/db  (postgres:// too)               -> the PostgreSQL store

Backends are found by scheme in the ``ripplemem.stores`` entry-point group, so a package can add
one by declaring, in its ``pyproject.toml``::

    [project.entry-points."ripplemem.stores"]
    mydb = "mypackage.store:open_mydb"      # open_mydb(url: str, **options) -> MemoryStore

:func:`register_store` does the same in-process (tests, applications). Openers import their
backend lazily: nothing heavy loads until a store of that kind is opened.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ripplemem.errors import ConfigurationError, StoreError
from ripplemem.stores.base import MemoryStore

__all__ = [
    "StoreOpener",
    "known_schemes",
    "open_store",
    "redact",
    "register_store",
    "scheme_of",
    "sqlite_path",
]

StoreOpener = Callable[..., MemoryStore]
ENTRY_POINT_GROUP = "ripplemem.stores"
#: schemes that name another scheme's backend
ALIASES = {"postgres": "postgresql", "postgresql+psycopg": "postgresql"}

_registered: dict[str, StoreOpener] = {}


def register_store(scheme: str, opener: StoreOpener, *, replace: bool = False) -> None:
    """Make ``open_store("<scheme>://...")`` call ``opener(url, **options)``."""
    scheme = scheme.lower()
    if scheme in _registered and not replace:
        raise ConfigurationError(
            f"a store backend for {scheme!r} is already registered; pass replace=True to override it"
        )
    _registered[scheme] = opener


def known_schemes() -> list[str]:
    """Every scheme a location may use: built in, registered in-process or by entry points."""
    plugged = (ep.name for ep in entry_points(group=ENTRY_POINT_GROUP))
    return sorted({*_BUILT_IN, *_registered, *plugged})


def scheme_of(location: str | Path) -> str:
    """The backend scheme of a location: ``sqlite`` for a plain path."""
    text = str(location)
    if text == ":memory:":
        return "memory"
    if "://" not in text:
        return "sqlite"
    scheme = text.split("://", 1)[0].lower()
    return ALIASES.get(scheme, scheme)


def sqlite_path(location: str | Path) -> Path | None:
    """The file a SQLite location names, None for another backend's. A plain path is that path;
    a URL reads as SQLAlchemy's: ``sqlite:///memory.db`` is ``memory.db`` in the working folder,
    ``sqlite:////srv/memory.db`` is ``/srv/memory.db``."""
    text = str(location)
    if scheme_of(text) != "sqlite":
        return None
    if "://" not in text:
        if text.lower().startswith("sqlite:"):  # "sqlite:memory.db" would be a file of that name
            raise ConfigurationError(
                f"{text!r} is neither a path nor a URL: write sqlite:///{text[7:].lstrip('/')} (a "
                "path relative to the working folder) or the path alone"
            )
        return Path(text).expanduser()
    rest = text.split("://", 1)[1]
    if "?" in rest:  # "sqlite:///memory.db?mode=ro" would be a file of that name
        raise ConfigurationError(
            f"{text!r} gives options ({rest.split('?', 1)[1]!r}), which a ripplemem store URL does "
            "not take: give the file alone (a store is opened for reading and writing)"
        )
    if rest and not rest.startswith("/"):
        raise ConfigurationError(
            f"{text!r} names a host, which a SQLite file has not: write sqlite:///{rest} (a path "
            f"relative to the working folder) or sqlite:////{rest} (an absolute path)"
        )
    if not rest[1:]:  # sqlite:// (SQLAlchemy's database in memory: here memory://) or sqlite:///
        raise ConfigurationError(
            "sqlite:/// needs a path: sqlite:///memory.db (in the working folder) or "
            "sqlite:////srv/memory.db (absolute)"
        )
    return Path(rest[1:]).expanduser()


def open_store(location: str | Path | None = None, **options: Any) -> MemoryStore:
    """Open (creating when needed) the store at ``location``; None means ``memory://``.

    ``options`` go to the backend (e.g. ``ann_threshold``, ``lexical_budget``).
    """
    text = "memory://" if location is None else str(location)
    if not text.strip():
        raise ConfigurationError(
            "the store location is empty; give a file path (memory.db) or a URL "
            "(memory://, postgresql://...)"
        )
    scheme = scheme_of(text)
    return _opener(scheme, text)(text, **options)


def redact(url: str) -> str:
    """``url`` without a password, for messages and logs."""
    if "://" not in url:
        return url
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    netloc = f"{parts.username}:***@{host}" if parts.username else host
    return urlunsplit(parts._replace(netloc=netloc))


def _opener(scheme: str, location: str) -> StoreOpener:
    if scheme in _registered:
        return _registered[scheme]
    if scheme in _BUILT_IN:
        return _BUILT_IN[scheme]
    found = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == scheme]
    if not found:
        raise ConfigurationError(
            f"no store backend for {scheme!r} (in {redact(location)!r}); known: "
            f"{', '.join(known_schemes())}. Give a file path for SQLite, memory:// for a store "
            "in memory, or install the package that provides this backend"
        )
    try:
        return found[0].load()
    except ImportError as error:
        raise StoreError(
            f"the {scheme!r} store backend could not be loaded ({error}); "
            f"install its extra, e.g. pip install 'ripplemem[{scheme}]'"
        ) from error


def open_memory(location: str = "memory://", **options: Any) -> MemoryStore:
    """The ``memory://`` opener."""
    from ripplemem.stores.memory import InMemoryStore

    return InMemoryStore(**options)


def open_sqlite(location: str | Path, **options: Any) -> MemoryStore:
    """The ``sqlite`` opener: a plain path or a ``sqlite:///`` URL (:func:`sqlite_path`). Missing
    parent folders are made."""
    from ripplemem.stores.sqlite import SQLiteStore

    target = sqlite_path(location)
    if target is None:
        raise ConfigurationError(f"{redact(str(location))!r} is not a SQLite location")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StoreError(
            f"cannot create the folder {target.parent} for the store ({error}); "
            "choose a writable path"
        ) from error
    return SQLiteStore(target, **options)


_BUILT_IN: dict[str, StoreOpener] = {"memory": open_memory, "sqlite": open_sqlite}
