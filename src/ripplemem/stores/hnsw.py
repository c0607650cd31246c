"""The faiss HNSW graph behind :class:`~ripplemem.stores.vectors.VectorIndex`: its parameters,
construction, one-thread calls, and (de)serialisation without its vectors.

The graph is ``IndexHNSWSQ`` (inner product, vectors stored as float16). It is a rebuildable
cache: :func:`graph_bytes` writes the graph *without* its vector storage (the vectors live in the
store), :func:`graph_from_bytes` reads it back and :func:`attach_vectors` gives it its vectors.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

HNSW_M = 16
#: The insert beam. Measured at 100k vectors of the speed benchmark's stream (faiss, fp16, one
#: thread): 100 -> 64 halves the insert (0.30 -> 0.16 ms per vector; it was the largest single
#: insert cost) for read recall@10 99.70 -> 99.65 % (efSearch 128) and 99.8 -> 99.5 % of the
#: linker's near neighbours found (beam 64). Graphs read from a cache grow with it too.
HNSW_EF_CONSTRUCTION = 64
HNSW_EF_SEARCH = 128
#: The beam of a *near-only* search (``min_score``: the linker wants only neighbours above its edge
#: threshold). Close neighbours are found early in the beam: on the speed benchmark's stream
#: (100k vectors) every edge-worthy neighbour found with 128 is found with 64, at 0.13 instead of
#: 0.22 ms per query; 2k-10k vectors: all found, 0.04-0.06 ms vs 0.07-0.30 ms exact.
HNSW_EF_NEAR = 64


@dataclass(frozen=True, slots=True)
class AnnSnapshot:
    """A serialised HNSW graph; ``seqs[row]`` is the sequence number of each row (-1: deleted)."""

    blob: bytes
    seqs: np.ndarray  # int64, one per HNSW label
    count: int  # live vectors it reflects


@contextmanager
def faiss_single_thread() -> Iterator[Any]:
    """faiss on one OpenMP thread for our small calls (spinning threads fight the embedder)."""
    import faiss

    before = faiss.omp_get_max_threads()
    faiss.omp_set_num_threads(1)
    try:
        yield faiss
    finally:
        faiss.omp_set_num_threads(before)


def new_graph(dim: int) -> Any:
    import faiss

    ann = faiss.IndexHNSWSQ(
        dim, faiss.ScalarQuantizer.QT_fp16, HNSW_M, faiss.METRIC_INNER_PRODUCT  # type: ignore[arg-type]
    )
    ann.hnsw.efConstruction = HNSW_EF_CONSTRUCTION
    ann.hnsw.efSearch = HNSW_EF_SEARCH
    return ann


def graph_resident_bytes(rows: int, dim: int) -> int:
    """Approximate memory of a graph of ``rows`` vectors: fp16 rows plus links."""
    return int(rows * (2 * dim + 4 * 2 * HNSW_M * 1.07 + 16))


def graph_bytes(ann: Any) -> bytes:
    """The graph serialised without its vector storage."""
    import faiss

    writer = faiss.VectorIOWriter()
    faiss.write_index(ann, writer, faiss.IO_FLAG_SKIP_STORAGE)
    return faiss.vector_to_array(writer.data).tobytes()


def graph_from_bytes(blob: bytes, dim: int, rows: int) -> Any | None:
    """The graph of :func:`graph_bytes`, or None when the blob is not a ``dim``-d graph of
    ``rows`` rows (a damaged or foreign cache is rebuilt, never trusted)."""
    import faiss

    reader = faiss.VectorIOReader()
    faiss.copy_array_to_vector(np.frombuffer(blob, dtype=np.uint8), reader.data)
    try:
        ann = faiss.read_index(reader, faiss.IO_FLAG_SKIP_STORAGE)
    except RuntimeError:
        return None
    if not isinstance(ann, faiss.IndexHNSWSQ) or ann.d != dim or ann.ntotal != rows:
        return None
    ann.hnsw.efSearch = HNSW_EF_SEARCH
    ann.hnsw.efConstruction = HNSW_EF_CONSTRUCTION
    return ann


def attach_vectors(ann: Any, matrix: np.ndarray) -> Any:
    """Give a read graph its float16 vector storage; returns the storage, which the caller must
    keep alive as long as the graph (faiss does not own it)."""
    import faiss

    storage = faiss.IndexScalarQuantizer(
        ann.d, faiss.ScalarQuantizer.QT_fp16, faiss.METRIC_INNER_PRODUCT
    )
    storage.add(matrix)
    ann.storage, ann.own_fields = storage, False
    return storage


def stored_rows(ann: Any, rows: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Decode the graph's float16 copies of ``rows`` into ``out`` (float32), in chunks."""
    with faiss_single_thread():
        for start in range(0, len(rows), 65_536):
            part = np.asarray(rows[start : start + 65_536], dtype=np.int64)
            out[start : start + len(part)] = ann.storage.reconstruct_batch(part)
    return out
