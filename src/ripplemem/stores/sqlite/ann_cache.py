"""Loading a namespace's vectors, and the cached HNSW graph kept beside them."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

import numpy as np

from ripplemem.stores.sqlite import rows
from ripplemem.stores.vectors import AnnSnapshot, VectorIndex

__all__ = ["catch_up", "load_index", "save_snapshot"]


def load_index(
    db: sqlite3.Connection, namespace: str, dim: int, ann_threshold: int | None
) -> VectorIndex | None:
    """The namespace's vector index from the ``vector`` rows, reusing the cached graph.

    Rows are streamed into one float32 array (no list of a million blobs held at once). Outside
    a write, the reads share one snapshot, so another process's write between them (a server's
    search workers read while it writes) cannot change the count under the loop.
    """
    own = not db.in_transaction
    if own:
        db.execute("BEGIN")
    try:
        loaded = _vectors(db, namespace, dim)
        if loaded is None:
            return None
        ids, seqs, vectors = loaded
        cached = db.execute(
            "SELECT row_seqs, index_blob, vector_count FROM ann_cache WHERE namespace = ?",
            (namespace,),
        ).fetchone()
    finally:
        if own:
            db.execute("COMMIT")
    snapshot = None
    if cached is not None:
        rows_seqs = np.frombuffer(cached[0], dtype=np.int64)
        snapshot = AnnSnapshot(blob=cached[1], seqs=rows_seqs, count=int(cached[2]))
    return VectorIndex.restore(dim, ids, seqs, vectors, snapshot, ann_threshold=ann_threshold)


def catch_up(db: sqlite3.Connection, namespace: str, index: VectorIndex) -> bool:
    """Append the rows another connection added since ``index`` was loaded; False if it cannot.

    Rows only ever get larger sequence numbers, so the new rows are those past ``index.next_seq``.
    When the namespace's row count is not the index's plus the new rows, some indexed row was
    deleted elsewhere: the caller reloads the whole index instead. Read in one snapshot.
    """
    own = not db.in_transaction
    if own:
        db.execute("BEGIN")
    try:
        (count,) = db.execute(
            "SELECT count(*) FROM vector WHERE namespace = ?", (namespace,)
        ).fetchone()
        fresh = db.execute(
            "SELECT seq, id, blob FROM vector WHERE namespace = ? AND seq >= ? ORDER BY seq",
            (namespace, index.next_seq),
        ).fetchall()
    finally:
        if own:
            db.execute("COMMIT")
    if count != len(index) + len(fresh) or any(row[1] in index for row in fresh):
        return False
    if fresh:
        vectors = rows.vectors_from_blobs([row[2] for row in fresh], index.dim)
        index.add([row[1] for row in fresh], vectors, [row[0] for row in fresh])
    return True


def _vectors(
    db: sqlite3.Connection, namespace: str, dim: int
) -> tuple[list[str], list[int], np.ndarray] | None:
    (count,) = db.execute("SELECT count(*) FROM vector WHERE namespace = ?", (namespace,)).fetchone()
    if not count:
        return None
    vectors = np.empty((count, dim), dtype=np.float32)
    ids: list[str] = []
    seqs: list[int] = []
    cursor = db.execute(
        "SELECT seq, id, blob FROM vector WHERE namespace = ? ORDER BY seq", (namespace,)
    )
    while batch := cursor.fetchmany(4096):
        start = len(ids)
        vectors[start : start + len(batch)] = rows.vectors_from_blobs([r[2] for r in batch], dim)
        seqs.extend(r[0] for r in batch)
        ids.extend(r[1] for r in batch)
    return ids, seqs, vectors[: len(ids)]


def save_snapshot(db: sqlite3.Connection, namespace: str, snapshot: AnnSnapshot | None) -> None:
    """Write (or, for None, drop) the namespace's cached graph."""
    if snapshot is None:
        db.execute("DELETE FROM ann_cache WHERE namespace = ?", (namespace,))
        return
    db.execute(
        "INSERT OR REPLACE INTO ann_cache "
        "(namespace, vector_count, row_seqs, index_blob, updated_at) VALUES (?, ?, ?, ?, ?)",
        (
            namespace,
            snapshot.count,
            snapshot.seqs.astype(np.int64).tobytes(),
            snapshot.blob,
            datetime.now(UTC).isoformat(timespec="seconds"),
        ),
    )
