"""Erasing what deletes leave in the WAL, without waiting on readers.

``PRAGMA secure_delete=ON`` zeroes the cells and pages a delete frees, but in WAL mode those
zeroed pages are new frames of the WAL: the older frames, holding the deleted text, stay in the
``-wal`` file until a checkpoint copies the WAL into the database and truncates it. A truncating
checkpoint must wait for every reader using the WAL (a reader that began before the delete can
still read the deleted rows: their bytes cannot go while it reads).

So a delete never waits for readers. After its commit, :meth:`Erasure.after_delete` tries the
checkpoint once without waiting (``busy_timeout`` 0: what it cannot do now it leaves, as a
passive checkpoint would). If a reader was in the way, a background thread of the store retries
on a connection of its own every :data:`RETRY_S`, waiting at most :data:`READER_WAIT_S` each time
(while it waits it holds the file's writer lock, so a writer waits at most that long), until a
checkpoint truncates the WAL. :meth:`Erasure.wait` (``Memory.flush_erasure``) waits for it.
"""

from __future__ import annotations

import logging
import sqlite3
import threading

__all__ = ["READER_WAIT_S", "RETRY_S", "Erasure"]

log = logging.getLogger(__name__)

#: how long one background checkpoint waits for readers to leave the WAL (writers wait meanwhile)
READER_WAIT_S = 0.05
#: pause between background attempts
RETRY_S = 0.1


def truncate_wal(db: sqlite3.Connection, wait_s: float, restore_ms: int | None = None) -> bool:
    """One ``wal_checkpoint(TRUNCATE)`` waiting at most ``wait_s`` for readers and writers;
    True when the WAL was copied and emptied. ``restore_ms`` resets the busy timeout after."""
    db.execute(f"PRAGMA busy_timeout={int(wait_s * 1000)}")
    try:
        busy, _, _ = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    except sqlite3.Error as error:  # the delete is committed; only the erasure waits
        log.info("checkpoint: %s", error)
        busy = 1
    finally:
        if restore_ms is not None:
            db.execute(f"PRAGMA busy_timeout={restore_ms}")
    return not busy


class Erasure:
    """The pending erasure of one SQLite file; thread-safe."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._changed = threading.Condition()
        self._requested = 0  # deletes whose erasure was asked for
        self._erased = 0  # ... and those a truncating checkpoint has covered
        self._thread: threading.Thread | None = None
        self._closed = False

    @property
    def pending(self) -> bool:
        with self._changed:
            return self._erased < self._requested

    def after_delete(self, db: sqlite3.Connection, busy_timeout_ms: int) -> bool:
        """After a deleting commit on ``db``: erase now if no reader is in the way (no wait),
        else leave it to the background thread. True when erased now."""
        with self._changed:
            self._requested += 1
            target = self._requested
        if truncate_wal(db, 0.0, restore_ms=busy_timeout_ms):
            self._done(target)
            return True
        log.info(
            "%s: a reader holds the WAL; deleted text is erased once it ends its read "
            "(Memory.flush_erasure waits for it)",
            self.path,
        )
        with self._changed:
            if self._thread is None and not self._closed:
                self._thread = threading.Thread(
                    target=self._run, name="ripplemem-erasure", daemon=True
                )
                self._thread.start()
        return False

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until every delete so far is erased from the files; False at ``timeout``."""
        with self._changed:
            target = self._requested
            self._changed.wait_for(lambda: self._erased >= target or self._closed, timeout)
            return self._erased >= target

    def close(self, db: sqlite3.Connection | None = None) -> None:
        """Stop the background thread (one last attempt on ``db`` first)."""
        if db is not None and self.pending:
            with self._changed:
                target = self._requested
            if truncate_wal(db, READER_WAIT_S):
                self._done(target)
        with self._changed:
            self._closed = True
            thread = self._thread
            self._changed.notify_all()
        if thread is not None:
            thread.join(timeout=5)
        if self.pending:
            log.warning(
                "%s closed while a reader held the WAL: deleted text stays in %s-wal until "
                "the next checkpoint (the next open or delete, or when the last connection closes)",
                self.path,
                self.path,
            )

    def _done(self, target: int) -> None:
        with self._changed:
            self._erased = max(self._erased, target)
            self._changed.notify_all()

    def _run(self) -> None:
        try:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as error:
            log.warning("%s: cannot open a connection to erase deleted text: %s", self.path, error)
            with self._changed:
                self._thread = None
            return
        try:
            while True:
                with self._changed:
                    if self._closed or self._erased >= self._requested:
                        self._thread = None
                        return
                    target = self._requested
                if truncate_wal(db, READER_WAIT_S):
                    self._done(target)
                    continue
                with self._changed:
                    self._changed.wait(RETRY_S)
        finally:
            db.close()
