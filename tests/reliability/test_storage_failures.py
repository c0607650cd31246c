"""Storage failures give distinct, true errors that say whether the data is safe: a read-only
file, a damaged or truncated one, a full disk, a held lock. Each failure runs against a real
file (a child process without root rights, or with a file size limit, where needed), and the
store is checked intact afterwards."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ripplemem.errors import (
    StoreCorruptError,
    StoreError,
    StoreFullError,
    StoreLockedError,
    StoreReadOnlyError,
)
from ripplemem.stores.sqlite import SQLiteStore
from ripplemem.testing.builders import make_unit

UNITS = 40


def _filled(path: Path, count: int = UNITS) -> Path:
    with SQLiteStore(path) as store:
        store.add_units([make_unit(f"u{i}", restatement=f"memory number {i} " * 20) for i in range(count)])
    return path


def _child(code: str, *, wrapper: tuple[str, ...] = ()) -> dict:
    """Run ``code`` in a child process (under ``wrapper``); it prints one JSON line, read here."""
    run = subprocess.run(
        [*wrapper, sys.executable, "-c", CHILD_PRELUDE + textwrap.dedent(code)], check=False, capture_output=True,
        text=True, timeout=120, cwd="/",
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


CHILD_PRELUDE = """
import json, sys
from ripplemem.stores.sqlite import SQLiteStore
from ripplemem.testing.builders import make_unit
def report(error):
    print(json.dumps({"error": type(error).__name__, "message": str(error)}))
"""


def _intact(path: Path, count: int = UNITS) -> None:
    with SQLiteStore(path) as store:
        assert store.count("ns") == count
        assert len(store.get_units("ns", [f"u{i}" for i in range(count)])) == count
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def _read_only(folder: Path, how: str) -> tuple[str, ...]:
    """The command prefix under which ``folder`` cannot be written."""
    if os.geteuid() != 0:
        return ()  # the permission bits bind an ordinary user
    if how == "permissions":  # root without the capabilities that override permission bits
        return ("setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--")
    # a read-only bind mount of the folder, in a mount namespace of the child's own
    return ("unshare", "--mount", "sh", "-c",
            'mount --bind "$0" "$0" && mount -o remount,ro,bind "$0" "$0" && exec "$@"', str(folder))


@pytest.mark.parametrize("how", ["permissions", "read-only file system"])
def test_a_read_only_store_refuses_writes_saying_the_data_is_safe(tmp_path, how):
    """A read-only file in a writable folder opens and reads; a read-only folder cannot hold
    the -wal and -shm files SQLite needs, so the open is refused, with the same error."""
    path = _filled(tmp_path / "memory.db")
    os.chmod(path, 0o444)
    if how == "read-only file system":
        os.chmod(tmp_path, 0o555)
    try:
        found = _child(f"""
        read = None
        try:
            store = SQLiteStore({str(path)!r})
            read = store.count("ns")
            store.add_units([make_unit("new")])
        except Exception as error:
            print(json.dumps({{"error": type(error).__name__, "message": str(error), "read": read}}))
        else:
            print(json.dumps({{"error": None}}))
        """, wrapper=_read_only(tmp_path, how))
    finally:
        os.chmod(tmp_path, 0o755)
        os.chmod(path, 0o644)
    assert found["error"] == "StoreReadOnlyError", found
    assert "data is safe" in found["message"] and "writable" in found["message"]
    assert found["read"] == (UNITS if how == "permissions" else None)
    _intact(path)


@pytest.mark.parametrize("damage", ["truncated", "overwritten"])
def test_a_damaged_file_is_called_damaged_not_an_invitation_to_start_over(tmp_path, damage):
    path = _filled(tmp_path / "memory.db", 400)
    data = bytearray(path.read_bytes())
    if damage == "truncated":
        data = data[: len(data) // 3]
    else:
        data[8192:40960] = os.urandom(32768)
    path.write_bytes(bytes(data))
    with (
        pytest.raises(StoreCorruptError, match="damaged or truncated.*Keep a copy.*recover") as caught,
        SQLiteStore(path) as store,
    ):
        store.list_units("ns")
    assert "new path" not in str(caught.value)
    assert path.read_bytes() == bytes(data)  # nothing was changed


def test_a_file_that_is_no_database_is_left_alone(tmp_path):
    path = tmp_path / "notes.db"
    path.write_text("my notes, not a store\n" * 50)
    with pytest.raises(StoreError, match="not a SQLite database.*left as it is"):
        SQLiteStore(path)
    assert path.read_text() == "my notes, not a store\n" * 50


def test_a_full_disk_rolls_the_write_back_and_keeps_what_was_stored(tmp_path):
    """A real full disk: a 1 MB tmpfs in the child's own mount namespace (as root), else a file
    size limit (RLIMIT_FSIZE, which SQLite sees as an I/O error rather than a full disk)."""
    path = _filled(tmp_path / "memory.db")
    disk, out = tmp_path / "disk", tmp_path / "out"
    disk.mkdir()
    out.mkdir()
    root = os.geteuid() == 0
    wrapper = (
        ("unshare", "--mount", "sh", "-c", 'mount -t tmpfs -o size=1m tmpfs "$0" && exec "$@"', str(disk))
        if root else ()
    )
    found = _child(f"""
    import os, resource, shutil, signal
    shutil.copy({str(path)!r}, {str(disk / "memory.db")!r})
    store = SQLiteStore({str(disk / "memory.db")!r})
    if not {root}:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024 * 1024, 1024 * 1024))
    try:
        for batch in range(20):
            store.add_units([make_unit(f"big{{batch}}-{{i}}", restatement="x " * 4000) for i in range(50)])
    except Exception as error:
        found = {{"error": type(error).__name__, "message": str(error)}}
    else:
        found = {{"error": None}}
    store.close()  # never raises
    for name in ("memory.db", "memory.db-wal"):
        if os.path.exists(os.path.join({str(disk)!r}, name)):
            shutil.copy(os.path.join({str(disk)!r}, name), os.path.join({str(out)!r}, name))
    found["batches"] = batch
    print(json.dumps(found))
    """, wrapper=wrapper)
    assert found["error"] == ("StoreFullError" if root else "StoreError"), found
    assert "rolled back" in found["message"] and "safe" in found["message"]
    with SQLiteStore(out / "memory.db") as store:  # the batches before the failing one stayed
        assert store.count("ns") == UNITS + 50 * found["batches"]
    with sqlite3.connect(out / "memory.db") as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_held_lock_is_reported_as_such_and_nothing_is_written(tmp_path):
    path = _filled(tmp_path / "memory.db")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with SQLiteStore(path, write_wait_s=0.2) as store, pytest.raises(StoreLockedError, match="repeat the call"):
            store.add_units([make_unit("new")])
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    _intact(path)


def test_close_never_raises_over_a_result(tmp_path):
    path = _filled(tmp_path / "memory.db")
    store = SQLiteStore(path)
    assert store.count("ns") == UNITS
    store._db.close()  # the connection is gone under the store (as after an I/O failure)
    store.close()  # logs, does not raise
    with pytest.raises(StoreError, match="closed"):
        store.count("ns")


def test_storage_errors_are_store_errors_of_distinct_kinds():
    kinds = {StoreReadOnlyError, StoreCorruptError, StoreFullError, StoreLockedError}
    assert all(issubclass(kind, StoreError) for kind in kinds) and len(kinds) == 4
