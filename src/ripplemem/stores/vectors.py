"""A per-namespace dense vector index: exact search, with an HNSW cache above a size threshold.

Rows live in a growable float32 matrix (capacity doubles, so inserting stays flat in cost).
Below ``ann_threshold`` live vectors, search is an exact dot product + ``argpartition``.
From ``ann_threshold`` on, a faiss ``IndexHNSWFlat`` (inner product) mirrors the matrix row for
row and is updated incrementally on add; its results are re-scored exactly from the matrix.
Deletes are tombstones skipped at search time (over-fetching); once tombstones exceed 10 % of
the rows the matrix is compacted and the HNSW graph rebuilt.

The HNSW graph is a rebuildable cache: :meth:`VectorIndex.snapshot` hands it out (the graph
serialised without its vectors, with the row -> sequence-number map it reflects) and
:meth:`VectorIndex.restore` reattaches it to the vectors of the source of truth, adding what is
new and tombstoning what is gone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ripplemem.blas import single_threaded_blas

__all__ = ["AnnSnapshot", "VectorIndex"]

HNSW_M = 16
HNSW_EF_CONSTRUCTION = 100
HNSW_EF_SEARCH = 128
TOMBSTONE_LIMIT = 0.10
_INITIAL_CAPACITY = 64

@dataclass(frozen=True, slots=True)
class AnnSnapshot:
    """A serialised HNSW graph; ``seqs[row]`` is the sequence number of each row (-1: deleted)."""

    blob: bytes
    seqs: np.ndarray  # int64, one per HNSW label
    count: int  # live vectors it reflects


class VectorIndex:
    """Dense vectors of one namespace. Not thread-safe: the owning store holds the lock."""

    def __init__(self, dim: int, *, ann_threshold: int | None = 50_000) -> None:
        if dim <= 0:
            raise ValueError(f"vector dimension must be positive, got {dim}")
        self.dim = dim
        self.ann_threshold = ann_threshold
        self._matrix = np.zeros((_INITIAL_CAPACITY, dim), dtype=np.float32)
        self._seqs = np.full(_INITIAL_CAPACITY, -1, dtype=np.int64)
        self._alive = np.zeros(_INITIAL_CAPACITY, dtype=bool)
        self._ids: list[str | None] = []
        self._rows: dict[str, int] = {}
        self._size = 0
        self._dead = 0
        self._next_seq = 0
        self._ann: Any = None
        self._ann_storage: Any = None  # vectors of an adopted graph (faiss does not own them)
        self.ann_changed = False  # the HNSW graph changed (or went) since the last snapshot
        self.ann_rebuilt = False  # ... and was built from scratch since then
        self.ann_origin: str | None = None  # "built" here, or "cache" (adopted from a snapshot)

    # --- state -----------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._rows)

    def __contains__(self, unit_id: object) -> bool:
        return unit_id in self._rows

    @property
    def ann_active(self) -> bool:
        return self._ann is not None

    @property
    def tombstones(self) -> int:
        return self._dead

    def stats(self) -> dict[str, object]:
        """Vectors, tombstones, and how search runs: "exact", or "hnsw" (built / cache)."""
        return {
            "vectors": len(self._rows),
            "tombstones": self._dead,
            "search": "hnsw" if self._ann is not None else "exact",
            "ann_origin": self.ann_origin,
        }

    # --- writes ----------------------------------------------------------------------------

    def add(
        self, ids: Sequence[str], vectors: np.ndarray, seqs: Sequence[int] | None = None
    ) -> None:
        """Append vectors (rows of ``vectors``, L2-normalised) under new ids."""
        vectors = np.ascontiguousarray(vectors, dtype=np.float32).reshape(-1, self.dim)
        if len(ids) != len(vectors):
            raise ValueError(f"{len(ids)} ids for {len(vectors)} vectors")
        if not len(ids):
            return
        if seqs is None:
            seqs = range(self._next_seq, self._next_seq + len(ids))
        if len(set(ids)) != len(ids):
            raise ValueError("the same vector id appears twice in one add")
        for unit_id in ids:
            if unit_id in self._rows:
                raise ValueError(f"vector id {unit_id!r} is already indexed")
        start, end = self._size, self._size + len(ids)
        self._reserve(end)
        self._matrix[start:end] = vectors
        self._seqs[start:end] = np.asarray(seqs, dtype=np.int64)
        self._alive[start:end] = True
        self._next_seq = max(self._next_seq, int(self._seqs[start:end].max()) + 1)
        for offset, unit_id in enumerate(ids):
            self._ids.append(unit_id)
            self._rows[unit_id] = start + offset
        self._size = end
        if self._ann is not None:
            self._ann.add(self._matrix[start:end])
            self.ann_changed = True
        elif self.ann_threshold is not None and len(self._rows) >= self.ann_threshold:
            self._compact()
            self._build_ann()

    def remove(self, ids: Iterable[str]) -> int:
        """Tombstone the given ids; returns how many were indexed."""
        removed = 0
        for unit_id in ids:
            row = self._rows.pop(unit_id, None)
            if row is None:
                continue
            self._ids[row] = None
            self._alive[row] = False
            self._dead += 1
            removed += 1
        if removed and self._dead > TOMBSTONE_LIMIT * self._size:
            self._compact()
            self._reconcile_ann()
        return removed

    # --- reads -----------------------------------------------------------------------------

    def search(self, vector: np.ndarray, k: int) -> list[tuple[str, float]]:
        """The ``k`` nearest live vectors by cosine (the query is normalised), best first."""
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        if query.shape[0] != self.dim:
            raise ValueError(f"query vector has {query.shape[0]} dimensions, index has {self.dim}")
        norm = float(np.linalg.norm(query))
        if not np.isfinite(norm) or norm == 0.0:
            raise ValueError("query vector is zero or not finite")
        query = query / np.float32(norm)
        k = min(k, len(self._rows))
        if k <= 0:
            return []
        rows = self._ann_rows(query, k) if self._ann is not None else self._exact_rows(query, k)
        scores = self._matrix[rows] @ query
        order = np.argsort(-scores, kind="stable")[:k]
        return [(self._ids[int(rows[i])], float(scores[i])) for i in order]  # type: ignore[misc]

    def _exact_rows(self, query: np.ndarray, k: int) -> np.ndarray:
        with single_threaded_blas():
            scores = self._matrix[: self._size] @ query
        if self._dead:
            scores[~self._alive[: self._size]] = -np.inf
        if k >= self._size:
            return np.arange(self._size)[self._alive[: self._size]]
        return np.argpartition(-scores, k - 1)[:k]

    def _ann_rows(self, query: np.ndarray, k: int) -> np.ndarray:
        import faiss

        fetch = min(self._size, max(2 * k, k + 16))
        while True:
            params = faiss.SearchParametersHNSW(efSearch=max(HNSW_EF_SEARCH, fetch))
            _, labels = self._ann.search(query[None, :], fetch, params=params)
            found = labels[0][labels[0] >= 0]
            found = found[self._alive[found]]
            if len(found) >= k or fetch >= self._size:
                return found
            fetch = min(self._size, fetch * 4)

    # --- the HNSW cache ----------------------------------------------------------------------

    def snapshot(self) -> AnnSnapshot | None:
        """The serialised HNSW graph and the row map it reflects; None when search is exact."""
        if self._ann is None:
            return None
        import faiss

        writer = faiss.VectorIOWriter()  # the graph only: the vectors live in the store
        faiss.write_index(self._ann, writer, faiss.IO_FLAG_SKIP_STORAGE)
        blob = faiss.vector_to_array(writer.data).tobytes()
        seqs = np.where(self._alive[: self._size], self._seqs[: self._size], -1)
        return AnnSnapshot(blob=blob, seqs=seqs.astype(np.int64), count=len(self._rows))

    @classmethod
    def restore(
        cls,
        dim: int,
        ids: Sequence[str],
        seqs: Sequence[int],
        vectors: np.ndarray,
        snapshot: AnnSnapshot | None,
        *,
        ann_threshold: int | None = 50_000,
    ) -> VectorIndex:
        """Rebuild from the source of truth, reusing ``snapshot`` when it still fits."""
        index = cls(dim, ann_threshold=ann_threshold)
        vectors = np.ascontiguousarray(vectors, dtype=np.float32).reshape(-1, dim)
        if snapshot is not None and ann_threshold is not None and len(ids) >= ann_threshold:
            if index._adopt(ids, seqs, vectors, snapshot):
                return index
            index = cls(dim, ann_threshold=ann_threshold)
        index.add(ids, vectors, seqs)
        index.ann_changed = index.ann_active or snapshot is not None  # write or drop the cache
        return index

    def _adopt(
        self, ids: Sequence[str], seqs: Sequence[int], vectors: np.ndarray, snapshot: AnnSnapshot
    ) -> bool:
        import faiss

        reader = faiss.VectorIOReader()
        faiss.copy_array_to_vector(np.frombuffer(snapshot.blob, dtype=np.uint8), reader.data)
        try:
            ann = faiss.read_index(reader, faiss.IO_FLAG_SKIP_STORAGE)
        except RuntimeError:
            return False
        rows = len(snapshot.seqs)
        if not isinstance(ann, faiss.IndexHNSWFlat) or ann.d != self.dim or ann.ntotal != rows:
            return False
        # Rows are matched by sequence number, never reused, so a row's vector cannot have
        # changed; rows deleted since the snapshot keep a zero vector until compaction.
        position = {int(seq): i for i, seq in enumerate(seqs)}
        mapped = np.fromiter((position.get(int(s), -1) for s in snapshot.seqs), np.int64, rows)
        alive = mapped >= 0
        self._reserve(rows)
        self._matrix[:rows][alive] = vectors[mapped[alive]]
        storage = faiss.IndexFlatIP(self.dim)
        storage.add(self._matrix[:rows])
        ann.storage, ann.own_fields = storage, False
        self._ann_storage = storage  # keeps the storage alive as long as the graph
        self._seqs[:rows] = np.where(alive, snapshot.seqs, -1)
        self._alive[:rows] = alive
        self._ids = [ids[p] if p >= 0 else None for p in mapped.tolist()]
        self._rows = {unit_id: row for row, unit_id in enumerate(self._ids) if unit_id is not None}
        self._size, self._dead = rows, rows - len(self._rows)
        self._next_seq = int(max(np.max(snapshot.seqs, initial=-1), max(seqs, default=-1))) + 1
        self._ann = ann
        self.ann_changed = False
        self.ann_origin = "cache"
        known = set(self._rows)
        new = [i for i, unit_id in enumerate(ids) if unit_id not in known]
        if new:
            self.add([ids[i] for i in new], vectors[new], [seqs[i] for i in new])
        if self._dead > TOMBSTONE_LIMIT * self._size:
            self._compact()
            self._reconcile_ann()
        return True

    # --- internals ---------------------------------------------------------------------------

    def _reserve(self, rows: int) -> None:
        capacity = len(self._matrix)
        if rows <= capacity:
            return
        while capacity < rows:
            capacity *= 2
        matrix = np.zeros((capacity, self.dim), dtype=np.float32)
        matrix[: self._size] = self._matrix[: self._size]
        seqs = np.full(capacity, -1, dtype=np.int64)
        seqs[: self._size] = self._seqs[: self._size]
        alive = np.zeros(capacity, dtype=bool)
        alive[: self._size] = self._alive[: self._size]
        self._matrix, self._seqs, self._alive = matrix, seqs, alive

    def _compact(self) -> None:
        if not self._dead:
            return
        keep = np.flatnonzero(self._alive[: self._size])
        n = len(keep)
        self._matrix[:n] = self._matrix[keep]
        self._seqs[:n] = self._seqs[keep]
        self._alive[:n] = True
        self._alive[n : self._size] = False
        self._seqs[n : self._size] = -1
        self._ids = [self._ids[int(row)] for row in keep]
        self._rows = {unit_id: row for row, unit_id in enumerate(self._ids)}  # type: ignore[misc]
        self._size, self._dead = n, 0
        if self._ann is not None:  # row numbers changed: the graph no longer matches
            self._ann = self._ann_storage = None
            self.ann_origin = None
            self.ann_changed = True

    def _reconcile_ann(self) -> None:
        above = self.ann_threshold is not None and len(self._rows) >= self.ann_threshold
        if above and self._ann is None:
            self._build_ann()

    def _build_ann(self) -> None:
        import faiss

        ann = faiss.IndexHNSWFlat(self.dim, HNSW_M, faiss.METRIC_INNER_PRODUCT)
        ann.hnsw.efConstruction = HNSW_EF_CONSTRUCTION
        ann.hnsw.efSearch = HNSW_EF_SEARCH
        if self._size:
            ann.add(self._matrix[: self._size])
        self._ann, self._ann_storage = ann, None
        self.ann_changed = True
        self.ann_rebuilt = True
        self.ann_origin = "built"
