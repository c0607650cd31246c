"""SQLite failures as true store errors: what happened, whether the data is safe, what to do.

SQLite reports a read-only file, a damaged one, a full disk and a held lock with distinct result
codes (``sqlite3.Error.sqlite_errorcode``); :func:`store_error` turns each into its
:class:`~ripplemem.errors.StoreError` subclass. A write is one transaction, so a failed write
changes nothing: what was committed before it is intact (except with a damaged file, where the
damage may predate the call).
"""

from __future__ import annotations

import functools
import os
import sqlite3
from collections.abc import Callable
from typing import Any, TypeVar

from ripplemem.errors import (
    StoreCorruptError,
    StoreError,
    StoreFullError,
    StoreLockedError,
    StoreReadOnlyError,
)

T = TypeVar("T")

# primary result codes (the low byte of an extended code): https://sqlite.org/rescode.html
_PERM, _BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = (
    3, 5, 6, 8, 10, 11, 13, 14, 26,
)
HEADER = b"SQLite format 3\x00"


def _primary(error: sqlite3.Error) -> int | None:
    """The primary result code of ``error`` (None when SQLite gave none)."""
    code = getattr(error, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


def busy(error: sqlite3.Error) -> bool:
    """Whether ``error`` says another connection holds a lock (SQLITE_BUSY or SQLITE_LOCKED)."""
    return _primary(error) in (_BUSY, _LOCKED)


def store_error(error: sqlite3.Error, path: str, doing: str) -> StoreError:
    """The StoreError for ``error``, raised while ``doing`` (e.g. "write to", "read") ``path``."""
    primary = _primary(error)
    text = str(error)
    if primary == _CANTOPEN and os.path.isdir(path):
        return StoreError(
            f"cannot open {path}: {path} is a folder, not a store file (a SQLite store is one "
            f"file); give a file in it as the store, e.g. {os.path.join(path, 'memory.db')}; "
            "nothing was changed"
        )
    if primary in (_READONLY, _PERM) or "readonly" in text or (
        primary == _CANTOPEN and _not_writable(path)
    ):
        return StoreReadOnlyError(
            f"cannot {doing} {path}: the file, its folder or its file system is read-only "
            f"({text}). Your data is safe: nothing was changed. Make the file and its folder "
            "writable (SQLite writes the -wal and -shm files beside it), or copy the store "
            "somewhere writable"
        )
    if primary in (_CORRUPT, _NOTADB) or "malformed" in text:
        return corrupt(path, text)
    if primary == _FULL:
        return StoreFullError(
            f"cannot {doing} {path}: the disk (or this process's file size limit) is full "
            f"({text}). The failing write was rolled back; what was stored before is safe. "
            "Free space (or raise the limit) and repeat the call"
        )
    if primary in (_BUSY, _LOCKED):
        return StoreLockedError(
            f"cannot {doing} {path}: another connection held its lock too long ({text}). "
            "Nothing was changed; repeat the call when the other writer is done"
        )
    if primary == _CANTOPEN:
        return StoreError(
            f"cannot open {path} ({text}): check that its folder exists and is writable; "
            "nothing was changed"
        )
    if primary == _IOERR:
        return StoreError(
            f"cannot {doing} {path}: the operating system failed a read or write ({text}; a "
            "file size limit shows this way too). A failed write is rolled back, so what was "
            "stored before is safe; check the disk and the process's limits, then repeat the call"
        )
    return StoreError(
        f"could not {doing} {path} ({text}); a failed write is rolled back, so what was "
        "stored before is unchanged"
    )


def _not_writable(path: str) -> bool:
    """True when ``path`` exists but it or its folder cannot be written (permissions or a
    read-only file system)."""
    folder = os.path.dirname(os.path.abspath(path))
    return os.path.exists(path) and not (os.access(path, os.W_OK) and os.access(folder, os.W_OK))


def corrupt(path: str, text: str) -> StoreCorruptError:
    return StoreCorruptError(
        f"{path} is damaged or truncated ({text}); this call changed nothing. Keep a copy "
        "of the file (with its -wal file) before anything else, then restore a backup, or "
        f"salvage what is readable: sqlite3 {path} .recover | sqlite3 recovered.db"
    )


def not_a_store(path: str, error: sqlite3.Error) -> StoreError:
    """The error for a file SQLite will not read: damaged if it starts as a SQLite file does;
    an error of another kind (read-only, locked) as :func:`store_error` says."""
    primary = _primary(error)
    if primary is not None and primary not in (_CORRUPT, _NOTADB):
        return store_error(error, path, "open")
    try:
        with open(path, "rb") as file:
            head = file.read(len(HEADER))
    except OSError:
        head = b""
    if head == HEADER:
        return corrupt(path, str(error))
    return StoreError(
        f"{path} is not a SQLite database, so not a ripplemem store, and was left as it is: "
        "check the path (a new store is created only at a path where no file exists)"
    )


def translated(path_of: Callable[[Any], str], doing: str) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """A method decorator: sqlite3 errors leave it as :func:`store_error`'s StoreErrors."""

    def decorate(method: Callable[..., T]) -> Callable[..., T]:
        @functools.wraps(method)
        def wrapper(self: Any, *args: Any, **kwargs: Any) -> T:
            try:
                return method(self, *args, **kwargs)
            except sqlite3.Error as error:
                raise store_error(error, path_of(self), doing) from error

        return wrapper

    return decorate


def translate_public_methods(cls: type[T], doing: str = "use") -> type[T]:
    """Class decorator: every public method of ``cls`` raises StoreErrors, never sqlite3's."""
    for name, member in list(vars(cls).items()):
        if name.startswith("_") or not callable(member) or name == "write":
            continue
        setattr(cls, name, translated(lambda self: getattr(self, "path", "the store"), doing)(member))
    return cls
