"""Open a store from a path: the one place a location string becomes a backend."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ripplemem.errors import StoreError
from ripplemem.stores.base import MemoryStore

__all__ = ["open_store"]


def open_store(path: str | Path | None, **options: Any) -> MemoryStore:
    """``None`` or ``":memory:"`` -> :class:`InMemoryStore`; any other path -> :class:`SQLiteStore`.

    ``options`` go to the store's constructor (e.g. ``ann_threshold``). Missing parent folders
    of a SQLite path are created.
    """
    if path is None or str(path) == ":memory:":
        from ripplemem.stores.memory import InMemoryStore

        return InMemoryStore(**options)
    from ripplemem.stores.sqlite import SQLiteStore

    target = Path(path).expanduser()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StoreError(
            f"cannot create the folder {target.parent} for the store ({error}); "
            "choose a writable path"
        ) from error
    return SQLiteStore(target, **options)
