"""Loading a namespace's vectors, and the cached HNSW graph kept beside them."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

import numpy as np

from ripplemem.stores.sqlite import rows
from ripplemem.stores.vectors import AnnSnapshot, VectorIndex

__all__ = ["load_index", "save_snapshot"]


def load_index(
    db: sqlite3.Connection, namespace: str, dim: int, ann_threshold: int | None
) -> VectorIndex | None:
    """The namespace's vector index from the ``vector`` rows, reusing the cached graph."""
    data = db.execute(
        "SELECT seq, id, blob FROM vector WHERE namespace = ? ORDER BY seq", (namespace,)
    ).fetchall()
    if not data:
        return None
    cached = db.execute(
        "SELECT row_seqs, index_blob, vector_count FROM ann_cache WHERE namespace = ?",
        (namespace,),
    ).fetchone()
    snapshot = None
    if cached is not None:
        seqs = np.frombuffer(cached[0], dtype=np.int64)
        snapshot = AnnSnapshot(blob=cached[1], seqs=seqs, count=int(cached[2]))
    return VectorIndex.restore(
        dim,
        [row[1] for row in data],
        [row[0] for row in data],
        rows.vectors_from_blobs([row[2] for row in data], dim),
        snapshot,
        ann_threshold=ann_threshold,
    )


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
