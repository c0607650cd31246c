"""A per-namespace dense vector index: exact search below a size threshold, HNSW above it.

Below ``ann_threshold`` live vectors, search is exact: rows live in a growable float32 matrix
(capacity doubles, so appending stays flat in cost) and a query is one dot product +
``argpartition``; :meth:`VectorIndex.search_many` answers a batch of queries with one matrix
product (the linker asks for every unit of an insert batch at once).

The HNSW graph (faiss ``IndexHNSWSQ``, inner product, vectors stored as float16) grows
*incrementally* from ``ann_start`` (:data:`ANN_START` vectors, or the threshold if lower) on: each
add inserts its own rows plus up to :data:`CATCH_UP` rows of the backlog per new row, so no add
ever builds the whole graph at once and the graph is complete long before search needs it. From
``ann_threshold`` on, once the graph holds every row, search switches to it and the float32 matrix
is released: the vectors then live only in the graph's float16 storage (768 bytes per 384-d
vector instead of 1,536 + 768), and the scores are the graph's inner products (float16 vectors:
cosines within ~1e-3).

A *near-only* search (``min_score``: only hits scoring at least that are wanted, as when the
linker looks for edge candidates) uses the graph as soon as it holds every row, even below the
threshold, with the smaller beam :data:`~ripplemem.stores.hnsw.HNSW_EF_NEAR`: neighbours that
close are the ones a graph search finds first, and an exact scan's cost grows with the store.

Deletes are tombstones skipped at search time (over-fetching); once tombstones exceed 10 % of the
rows the rows are compacted and the graph rebuilt (row numbers changed). A running sum of the live
vectors makes :meth:`VectorIndex.centroid` (the query-centring mean) O(dim) at any size.

The HNSW graph (its faiss side is :mod:`ripplemem.stores.hnsw`) is a rebuildable cache:
:meth:`VectorIndex.snapshot` hands it out (the graph serialised without its vectors, with the
row -> sequence-number map it reflects) and :meth:`VectorIndex.restore` reattaches it to the
vectors of the source of truth, adding what is new and tombstoning what is gone.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ripplemem.stores.hnsw import (
    HNSW_EF_NEAR,
    HNSW_EF_SEARCH,
    AnnSnapshot,
    attach_vectors,
    faiss_single_thread,
    graph_bytes,
    graph_from_bytes,
    graph_resident_bytes,
    new_graph,
    stored_rows,
)
from ripplemem.stores.vector_search import exact_top_k, graph_top_k, normalised_queries

__all__ = ["ANN_START", "ANN_THRESHOLD", "AnnSnapshot", "VectorIndex"]

#: Live vectors from which search uses the HNSW graph (exact below: best recall).
ANN_THRESHOLD = 20_000
#: Vectors from which the graph grows (incrementally), so it is complete at the threshold.
ANN_START = 1_000
#: Backlog rows inserted into a growing graph per new row.
CATCH_UP = 4
TOMBSTONE_LIMIT = 0.10
_INITIAL_CAPACITY = 64


class VectorIndex:
    """Dense vectors of one namespace. Not thread-safe: the owning store holds the lock."""

    def __init__(self, dim: int, *, ann_threshold: int | None = ANN_THRESHOLD) -> None:
        if dim <= 0:
            raise ValueError(f"vector dimension must be positive, got {dim}")
        self.dim = dim
        self.ann_threshold = ann_threshold
        self.ann_start = None if ann_threshold is None else min(ann_threshold, ANN_START)
        # the exact rows; None once the graph serves search (the vectors then live in the graph)
        self._matrix: np.ndarray | None = np.zeros((_INITIAL_CAPACITY, dim), dtype=np.float32)
        self._seqs = np.full(_INITIAL_CAPACITY, -1, dtype=np.int64)
        self._alive = np.zeros(_INITIAL_CAPACITY, dtype=bool)
        self._ids: list[str | None] = []
        self._rows: dict[str, int] = {}
        self._size = 0
        self._dead = 0
        self._next_seq = 0
        self._sum = np.zeros(dim, dtype=np.float64)  # of the live vectors: see centroid()
        self._ann: Any = None
        self._ann_storage: Any = None  # vectors of an adopted graph (faiss does not own them)
        self.ann_changed = False  # the HNSW graph changed (or went) since the last snapshot
        self.ann_rebuilt = False  # ... and was built from scratch since then
        self.ann_origin: str | None = None  # "built" here, or "cache" (adopted from a snapshot)
        self.graph_add_seconds = 0.0  # wall time spent inserting rows into the graph by add()

    # --- state -----------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._rows)

    def __contains__(self, unit_id: object) -> bool:
        return unit_id in self._rows

    @property
    def ann_active(self) -> bool:
        """An HNSW graph exists (growing, or serving search)."""
        return self._ann is not None

    @property
    def ann_serving(self) -> bool:
        """Search runs on the HNSW graph (the exact matrix is released)."""
        return self._matrix is None

    @property
    def tombstones(self) -> int:
        return self._dead

    @property
    def next_seq(self) -> int:
        """One past the largest row sequence number indexed so far (0 when empty)."""
        return self._next_seq

    def stats(self) -> dict[str, object]:
        """Vectors, tombstones, how search runs ("exact" or "hnsw") and the graph's state."""
        return {
            "vectors": len(self._rows),
            "tombstones": self._dead,
            "search": "hnsw" if self.ann_serving else "exact",
            "ann_origin": self.ann_origin,
            "graph_rows": 0 if self._ann is None else int(self._ann.ntotal),
            "resident_mb": self.resident_bytes() / 2**20,
            "graph_add_s": self.graph_add_seconds,
        }

    def resident_bytes(self) -> int:
        """Bytes of the vectors and graph held in memory (approximate for the graph)."""
        total = self._seqs.nbytes + self._alive.nbytes
        if self._matrix is not None:
            total += self._matrix.nbytes
        if self._ann is not None:
            total += graph_resident_bytes(int(self._ann.ntotal), self.dim)
        return int(total)

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
        if self._matrix is not None:
            self._matrix[start:end] = vectors
        self._seqs[start:end] = np.asarray(seqs, dtype=np.int64)
        self._alive[start:end] = True
        self._sum += vectors.sum(axis=0, dtype=np.float64)
        self._next_seq = max(self._next_seq, int(self._seqs[start:end].max()) + 1)
        for offset, unit_id in enumerate(ids):
            self._ids.append(unit_id)
            self._rows[unit_id] = start + offset
        self._size = end
        if self._ann is None and self.ann_start is not None and len(self._rows) >= self.ann_start:
            self._ann, self._ann_storage = new_graph(self.dim), None
            self.ann_rebuilt = True
            self.ann_origin = "built"
        if self._ann is not None:
            started = time.perf_counter()
            if self._matrix is None:  # the graph holds every row already
                with faiss_single_thread():
                    self._ann.add(vectors)
            else:
                self._grow_graph(len(ids) * (1 + CATCH_UP))
            self.graph_add_seconds += time.perf_counter() - started
            self.ann_changed = True
        self._maybe_serve_from_graph()

    def remove(self, ids: Iterable[str]) -> int:
        """Tombstone the given ids; returns how many were indexed."""
        removed = 0
        for unit_id in ids:
            row = self._rows.pop(unit_id, None)
            if row is None:
                continue
            self._sum -= self._row_vector(row)
            self._ids[row] = None
            self._alive[row] = False
            self._dead += 1
            removed += 1
        if removed and self._dead > TOMBSTONE_LIMIT * self._size:
            self._compact()
            self._reconcile_ann()
        return removed

    # --- reads -----------------------------------------------------------------------------

    def centroid(self) -> np.ndarray | None:
        """The mean of the live vectors (float32, not normalised); None when there are none."""
        if not self._rows:
            return None
        return (self._sum / len(self._rows)).astype(np.float32)

    def search(self, vector: np.ndarray, k: int) -> list[tuple[str, float]]:
        """The ``k`` nearest live vectors by cosine (the query is normalised), best first."""
        query = np.asarray(vector, dtype=np.float32).reshape(1, -1)
        return self.search_many(query, k)[0]

    def search_many(
        self, vectors: np.ndarray, k: int, *, min_score: float | None = None
    ) -> list[list[tuple[str, float]]]:
        """:meth:`search` for each row of ``vectors``, as one matrix product (or graph call).

        With ``min_score`` only hits scoring at least that are returned, and a complete graph
        answers (beam :data:`HNSW_EF_NEAR`) even below the threshold: see the module notes.
        """
        queries = normalised_queries(vectors, self.dim)
        k = min(k, len(self._rows))
        if k <= 0 or not len(queries):
            return [[] for _ in range(len(queries))]
        graph_complete = self._ann is not None and int(self._ann.ntotal) == self._size
        if self._matrix is None or (min_score is not None and graph_complete):
            ef = HNSW_EF_SEARCH if min_score is None else HNSW_EF_NEAR
            found = graph_top_k(
                self._ann, self._size, self._alive, self._ids, queries, k, ef, min_score=min_score
            )
        else:
            matrix = self._matrix[: self._size]
            found = exact_top_k(matrix, self._alive, self._ids, queries, k, tombstones=self._dead)
        if min_score is None:
            return found
        return [[hit for hit in hits if hit[1] >= min_score] for hits in found]

    def search_within(
        self, vectors: np.ndarray, k: int, ids: Iterable[str]
    ) -> list[list[tuple[str, float]]]:
        """:meth:`search_many` restricted to ``ids`` before the cut: the exact top ``k`` of those
        ids (cosines from the exact rows, or the graph's float16 rows once it serves search).
        Costs one product over the allowed rows: a search filter's units."""
        queries = normalised_queries(vectors, self.dim)
        rows = np.fromiter(
            sorted(self._rows[i] for i in ids if i in self._rows), dtype=np.int64
        )
        if k <= 0 or not len(rows) or not len(queries):
            return [[] for _ in range(len(queries))]
        if self._matrix is not None:
            matrix = self._matrix[rows]
        else:
            matrix = stored_rows(self._ann, rows, np.zeros((len(rows), self.dim), np.float32))
        alive = np.ones(len(rows), dtype=bool)
        return exact_top_k(
            matrix, alive, [self._ids[int(r)] for r in rows], queries, min(k, len(rows)),
            tombstones=0,
        )

    def seq_by_id(self, ids: Iterable[str]) -> dict[str, int]:
        """Each indexed id of ``ids`` with its row sequence number."""
        rows = self._rows
        found = [i for i in ids if i in rows]
        # one fancy index for them all (a numpy scalar read per id costs ~1 us)
        return dict(zip(found, self._seqs[[rows[i] for i in found]].tolist(), strict=True))

    def exact_vectors(self, ids: Iterable[str]) -> dict[str, np.ndarray] | None:
        """Each indexed id of ``ids`` with a copy of its float32 row, the very vector it was
        added with, while the exact matrix holds the rows; None once the graph serves search
        (its rows are float16)."""
        if self._matrix is None:
            return None
        rows = [(i, self._rows[i]) for i in ids if i in self._rows]
        if not rows:
            return {}
        vectors = self._matrix[[row for _, row in rows]]  # fancy indexing: one copy of them all
        return {unit_id: vectors[offset] for offset, (unit_id, _) in enumerate(rows)}

    # --- the HNSW cache ----------------------------------------------------------------------

    def snapshot(self) -> AnnSnapshot | None:
        """The serialised HNSW graph and the row map it reflects; None when there is none."""
        if self._ann is None:
            return None
        blob = graph_bytes(self._ann)  # the graph only: the vectors live in the store
        rows = int(self._ann.ntotal)
        seqs = np.where(self._alive[:rows], self._seqs[:rows], -1).astype(np.int64)
        return AnnSnapshot(blob=blob, seqs=seqs, count=int(np.count_nonzero(seqs >= 0)))

    @classmethod
    def restore(
        cls,
        dim: int,
        ids: Sequence[str],
        seqs: Sequence[int],
        vectors: np.ndarray,
        snapshot: AnnSnapshot | None,
        *,
        ann_threshold: int | None = ANN_THRESHOLD,
    ) -> VectorIndex:
        """Rebuild from the source of truth, reusing ``snapshot`` when it still fits."""
        index = cls(dim, ann_threshold=ann_threshold)
        vectors = np.ascontiguousarray(vectors, dtype=np.float32).reshape(-1, dim)
        if snapshot is not None and index.ann_start is not None and len(ids) >= index.ann_start:
            if index._adopt(ids, seqs, vectors, snapshot):
                return index
            index = cls(dim, ann_threshold=ann_threshold)
        # Below the threshold search is exact: the graph is not built here but grows again with
        # the next adds (catching up), so reopening a mid-sized store costs no faiss work.
        start, index.ann_start = index.ann_start, None
        index.add(ids, vectors, seqs)
        index.ann_start = start
        if ann_threshold is not None and len(index) >= ann_threshold:
            index._build_ann()
            index._maybe_serve_from_graph()
        index.ann_changed = index.ann_active or snapshot is not None  # write or drop the cache
        return index

    def _adopt(
        self, ids: Sequence[str], seqs: Sequence[int], vectors: np.ndarray, snapshot: AnnSnapshot
    ) -> bool:
        rows = len(snapshot.seqs)
        ann = graph_from_bytes(snapshot.blob, self.dim, rows)
        if ann is None:
            return False
        # Rows are matched by sequence number, never reused, so a row's vector cannot have
        # changed; rows deleted since the snapshot keep a zero vector until compaction.
        position = {int(seq): i for i, seq in enumerate(seqs)}
        mapped = np.fromiter((position.get(int(s), -1) for s in snapshot.seqs), np.int64, rows)
        alive = mapped >= 0
        if rows == len(vectors) and np.array_equal(mapped, np.arange(rows)):
            self._matrix = vectors  # the usual case: nothing changed since, no copy needed
            self._seqs = np.full(rows, -1, dtype=np.int64)
            self._alive = np.zeros(rows, dtype=bool)
        else:
            self._reserve(rows)
            assert self._matrix is not None
            self._matrix[:rows][alive] = vectors[mapped[alive]]
        self._ann_storage = attach_vectors(ann, self._matrix[:rows])  # alive as long as ann
        self._seqs[:rows] = np.where(alive, snapshot.seqs, -1)
        self._alive[:rows] = alive
        self._ids = [ids[p] if p >= 0 else None for p in mapped.tolist()]
        self._rows = {unit_id: row for row, unit_id in enumerate(self._ids) if unit_id is not None}
        self._size, self._dead = rows, rows - len(self._rows)
        self._next_seq = int(max(np.max(snapshot.seqs, initial=-1), max(seqs, default=-1))) + 1
        self._sum = self._matrix[:rows][alive].sum(axis=0, dtype=np.float64)
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
        self._maybe_serve_from_graph()
        return True

    # --- internals ---------------------------------------------------------------------------

    def _row_vector(self, row: int) -> np.ndarray:
        """The vector of ``row``: from the exact matrix, else the graph's (float16) storage."""
        if self._matrix is not None:
            return self._matrix[row].astype(np.float64)
        out = np.zeros((1, self.dim), dtype=np.float32)
        return stored_rows(self._ann, np.array([row]), out)[0].astype(np.float64)

    def _reserve(self, rows: int) -> None:
        capacity = len(self._seqs)
        if rows <= capacity:
            return
        while capacity < rows:
            capacity *= 2
        if self._matrix is not None:
            matrix = np.zeros((capacity, self.dim), dtype=np.float32)
            matrix[: self._size] = self._matrix[: self._size]
            self._matrix = matrix
        seqs = np.full(capacity, -1, dtype=np.int64)
        seqs[: self._size] = self._seqs[: self._size]
        alive = np.zeros(capacity, dtype=bool)
        alive[: self._size] = self._alive[: self._size]
        self._seqs, self._alive = seqs, alive

    def _grow_graph(self, budget: int) -> None:
        """Insert up to ``budget`` rows the graph does not hold yet, oldest first."""
        assert self._matrix is not None and self._ann is not None
        done = int(self._ann.ntotal)
        stop = min(self._size, done + budget)
        if stop > done:
            with faiss_single_thread():
                self._ann.add(self._matrix[done:stop])

    def _maybe_serve_from_graph(self) -> None:
        """From the threshold on, once the graph holds every row, search it and drop the matrix."""
        if (
            self._matrix is not None
            and self._ann is not None
            and self.ann_threshold is not None
            and len(self._rows) >= self.ann_threshold
            and int(self._ann.ntotal) == self._size
        ):
            self._matrix = None

    def _compact(self) -> None:
        if not self._dead:
            return
        keep = np.flatnonzero(self._alive[: self._size])
        n = len(keep)
        if self._matrix is None:  # the vectors live in the graph: take them back out
            matrix = np.zeros((len(self._seqs), self.dim), dtype=np.float32)
            self._matrix = stored_rows(self._ann, keep, matrix)
        else:
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
        if self.ann_start is not None and len(self._rows) >= self.ann_start and self._ann is None:
            self._build_ann()
        self._maybe_serve_from_graph()

    def _build_ann(self) -> None:
        assert self._matrix is not None
        ann = new_graph(self.dim)
        if self._size:
            with faiss_single_thread():
                ann.add(self._matrix[: self._size])
        self._ann, self._ann_storage = ann, None
        self.ann_changed = True
        self.ann_rebuilt = True
        self.ann_origin = "built"
