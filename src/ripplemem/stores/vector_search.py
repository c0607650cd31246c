"""The two search kernels of :class:`~ripplemem.stores.vectors.VectorIndex`: exact and HNSW.

Both take the index's row state (``ids[row]``, None once deleted; ``alive[row]``) and return, per
query, up to ``k`` live ``(id, cosine)`` hits, best first. They hold no state of their own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from ripplemem.blas import single_threaded_blas
from ripplemem.stores.hnsw import faiss_single_thread

__all__ = ["exact_top_k", "graph_top_k", "normalised_queries"]

Hits = list[list[tuple[str, float]]]


def normalised_queries(vectors: np.ndarray, dim: int) -> np.ndarray:
    """Query rows as unit-length float32 (ValueError on a wrong width, a zero or a NaN row)."""
    queries = np.asarray(vectors, dtype=np.float32)
    if queries.ndim != 2 or queries.shape[1] != dim:
        got = queries.shape[-1] if queries.ndim else 0
        raise ValueError(f"query vector has {got} dimensions, index has {dim}")
    norms = np.linalg.norm(queries, axis=1)
    if not np.all(np.isfinite(norms)) or np.any(norms == 0.0):
        raise ValueError("query vector is zero or not finite")
    return np.ascontiguousarray(queries / norms[:, None].astype(np.float32))


def exact_top_k(
    matrix: np.ndarray,
    alive: np.ndarray,
    ids: Sequence[str | None],
    queries: np.ndarray,
    k: int,
    *,
    tombstones: int,
) -> Hits:
    """One matrix product over the ``len(matrix)`` rows, then ``argpartition`` per query."""
    size = len(matrix)
    with single_threaded_blas():
        # one query: a matrix-vector product (BLAS's gemv; as a one-column matrix product,
        # single-threaded OpenBLAS takes about twice as long)
        scores = (matrix @ queries[0])[:, None] if len(queries) == 1 else matrix @ queries.T  # rows x queries
    if tombstones:
        scores[~alive[:size]] = -np.inf
    if k >= size:
        top = np.broadcast_to(np.arange(size)[:, None], scores.shape)
    else:
        top = np.argpartition(-scores, k - 1, axis=0)[:k]
    out = []
    for column in range(len(queries)):
        rows = top[:, column]
        found = scores[rows, column]
        order = np.argsort(-found, kind="stable")[:k]
        out.append(
            [
                (cast(str, ids[int(rows[i])]), float(found[i]))  # alive rows have ids
                for i in order
                if found[i] > -np.inf
            ]
        )
    return out


def graph_top_k(
    ann: Any,
    size: int,
    alive: np.ndarray,
    ids: Sequence[str | None],
    queries: np.ndarray,
    k: int,
    ef: int,
    *,
    min_score: float | None = None,
) -> Hits:
    """A beam search of width ``max(ef, fetch)``; a query whose beam holds too many tombstones
    searches again, four times wider, until ``k`` live hits (or every row) are in it.

    With ``min_score`` (a near-only search: hits below it are dropped by the caller) a beam that
    already reaches below ``min_score`` is not widened: every hit that can pass is in it. Without
    this, a query among many deleted copies (content deleted and written again) searched wider
    and wider for live hits that could only score too low.
    """
    fetch = min(size, max(2 * k, k + 16))
    out: Hits = []
    with faiss_single_thread() as faiss:
        params = faiss.SearchParametersHNSW(efSearch=max(ef, fetch))
        scores, labels = ann.search(queries, fetch, params=params)
        for i in range(len(queries)):
            row_scores, row_labels, wide = scores[i], labels[i], fetch
            while True:
                keep = row_labels >= 0
                keep[keep] = alive[row_labels[keep]]
                if keep.sum() >= k or wide >= size:
                    break
                if min_score is not None and _reaches_below(row_scores, row_labels, min_score):
                    break
                wide = min(size, wide * 4)  # many tombstones nearby: look further
                params = faiss.SearchParametersHNSW(efSearch=max(ef, wide))
                s, lab = ann.search(queries[i : i + 1], wide, params=params)
                row_scores, row_labels = s[0], lab[0]
            hits = [
                (ids[int(label)], float(score))
                for label, score in zip(row_labels[keep], row_scores[keep])
            ]
            hits.sort(key=lambda hit: -hit[1])
            out.append(hits[:k])  # type: ignore[arg-type]
    return out


def _reaches_below(scores: np.ndarray, labels: np.ndarray, min_score: float) -> bool:
    """Whether a beam holds a row (live or deleted) scoring below ``min_score``."""
    found = labels >= 0
    return bool(found.any()) and float(scores[found].min()) < min_score
