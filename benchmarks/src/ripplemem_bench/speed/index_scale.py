"""``bench scale --index-only``: the dense index alone, grown to the largest size.

The whole-store run pays SQLite and linking per unit; this isolates the dense index
(:class:`~ripplemem.stores.vectors.VectorIndex`) at the largest size: add cost per vector by
segment (the graph grows incrementally, so no segment holds a full build), search p50 / p95 (one
query, and batches of 50 as the linker asks), recall@k against exact search over the same
vectors, the index's resident memory and the peak RSS of the process. Vectors as in
:func:`~ripplemem_bench.speed.scale.run_scale_bench`: mixes of two pool sentences of the same
activity plus noise.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from ripplemem_bench.measure import (
    Progress,
    git_commit,
    loadavg,
    machine_info,
    percentile,
    rss_peak_mb,
)
from ripplemem_bench.results.base import Machine
from ripplemem_bench.results.index import IndexScaleResult, IndexSegment, IndexSettings
from ripplemem_bench.speed.synthetic import SyntheticMemories

if TYPE_CHECKING:
    from ripplemem.providers import Embedder

__all__ = ["run_index_scale"]

EXACT_CHUNK = 50_000  # vectors scored at once by the exact search
MANY = 50  # queries per batch, as the linker asks


@dataclass(frozen=True, slots=True)
class IndexVectors:
    """Vector ``i`` of the stream: depends only on (seed, the batch start) and the pool."""

    base: np.ndarray  # the pool's real embeddings
    same_topic: list[np.ndarray]  # per pool row: the rows of the same activity
    noise: float
    seed: int

    @classmethod
    def build(cls, embedder: Embedder, pool: int, noise: float, seed: int) -> IndexVectors:
        items = SyntheticMemories(seed).take(0, pool)
        base = np.asarray(embedder.embed([m.unit.restatement for m in items]), dtype=np.float32)
        topics = np.asarray([m.topic for m in items])
        return cls(base, [np.flatnonzero(topics == t) for t in topics], noise, seed)

    def __call__(self, start: int, stop: int) -> np.ndarray:
        rng = np.random.default_rng((self.seed, start))
        a = rng.integers(len(self.base), size=stop - start)
        b = np.asarray([self.same_topic[i][rng.integers(len(self.same_topic[i]))] for i in a])
        w = rng.uniform(0.5, 1.0, size=(stop - start, 1)).astype(np.float32)
        mixed = w * self.base[a] + (1 - w) * self.base[b]
        mixed /= np.linalg.norm(mixed, axis=1, keepdims=True)
        jitter = rng.standard_normal(mixed.shape).astype(np.float32)
        jitter *= self.noise / np.linalg.norm(jitter, axis=1, keepdims=True)
        out = mixed + jitter
        return out / np.linalg.norm(out, axis=1, keepdims=True)

    def exactly(self, start: int, stop: int, batch: int) -> np.ndarray:
        """The vectors ``start..stop`` exactly as the index got them (generated per ``batch``)."""
        return np.concatenate([self(s, min(stop, s + batch)) for s in range(start, stop, batch)])


def _grow(
    index: Any, vectors: IndexVectors, size: int, batch: int, progress: Progress | None
) -> list[IndexSegment]:
    """Add the vectors batch by batch; a segment row at 10k, 20k, 50k, 100k, ... and ``size``."""
    marks = sorted({m * 10**e for e in range(4, 7) for m in (1, 2, 5)} | {size})
    segments, done = [], 0
    for mark in (m for m in marks if m <= size):
        start, seconds, slowest = done, 0.0, 0.0
        while done < mark:
            stop = min(done + batch, mark)
            chunk = vectors(done, stop)
            started = time.perf_counter()
            index.add([f"v{i}" for i in range(done, stop)], chunk)
            elapsed = time.perf_counter() - started
            seconds, slowest = seconds + elapsed, max(slowest, elapsed / (stop - done))
            done = stop
            if progress is not None and done % 20_000 == 0:
                progress(f"index: {done:,} vectors", done, size)
        segments.append(IndexSegment(
            units=mark, start=start, add_ms_per_vector=seconds * 1000 / max(1, mark - start),
            slowest_batch_ms_per_vector=slowest * 1000, search=index.stats()["search"],
            resident_mb=index.resident_bytes() / 2**20, rss_peak_mb=rss_peak_mb(),
            loadavg=loadavg(),
        ))
    return segments


def _timed_searches(
    index: Any, asked: np.ndarray, k: int
) -> tuple[list[float], list[float], list[list[tuple[str, float]]]]:
    """(ms per single search, ms per query in batches of 50, the hits of each single search)."""
    single, found = [], []
    for query in asked:
        started = time.perf_counter()
        found.append(index.search(query, k))
        single.append((time.perf_counter() - started) * 1000)
    many = []
    for start in range(0, len(asked), MANY):
        chunk = asked[start : start + MANY]
        started = time.perf_counter()
        index.search_many(chunk, 21)
        many.append((time.perf_counter() - started) * 1000 / len(chunk))
    return single, many, found


def _exact_recall(
    vectors: IndexVectors, size: int, batch: int, asked: np.ndarray, found: list, k: int
) -> float:
    """Recall@k of the index's hits against exact top-k over the same vectors (regenerated
    chunk by chunk: the index keeps no float32 copy)."""
    queries = len(asked)
    best = np.full((queries, k), -np.inf, dtype=np.float32)
    best_ids = np.zeros((queries, k), dtype=np.int64)
    for start in range(0, size, EXACT_CHUNK):
        stop = min(size, start + EXACT_CHUNK)
        scores = vectors.exactly(start, stop, batch) @ asked.T  # rows x queries
        both = np.concatenate([best, scores.T], axis=1)
        ids = np.concatenate([best_ids, np.arange(start, stop)[None, :].repeat(queries, 0)], 1)
        top = np.argsort(-both, axis=1)[:, :k]
        best, best_ids = np.take_along_axis(both, top, 1), np.take_along_axis(ids, top, 1)
    hits = [len({f"v{i}" for i in best_ids[q]} & {hit for hit, _ in found[q]}) / k
            for q in range(queries)]
    return float(np.mean(hits))


def run_index_scale(
    size: int = 1_000_000,
    *,
    pool: int = 2_000,
    noise: float = 0.4,
    batch: int = 1_000,
    queries: int = 200,
    k: int = 10,
    seed: int = 0,
    embedder: Embedder | None = None,
    progress: Progress | None = None,
) -> IndexScaleResult:
    """Grow one vector index to ``size`` vectors on its own; see the module docstring."""
    from ripplemem.stores.vectors import VectorIndex

    if embedder is None:
        from ripplemem import Settings
        from ripplemem.providers import make_embedder

        embedder = make_embedder(Settings().embedder)
    load_start = loadavg()
    vectors = IndexVectors.build(embedder, pool, noise, seed)
    index = VectorIndex(vectors.base.shape[1])
    segments = _grow(index, vectors, size, batch, progress)
    asked = vectors(size + 1, size + 1 + queries)  # fresh points from the same distribution
    single, many, found = _timed_searches(index, asked, k)
    machine = Machine.model_validate(
        {**machine_info(), "loadavg_start": load_start, "loadavg_end": loadavg()}
    )
    return IndexScaleResult(
        benchmark="scale_index", date=datetime.now(UTC).isoformat(timespec="seconds"),
        commit=git_commit(), machine=machine, embedder=embedder.name, llm=None,
        settings=_settings(size, int(vectors.base.shape[1]), batch, queries, k, seed),
        vectors=(f"pool of {pool} real embeddings; vector i = a mix w*a + (1-w)*b (w uniform in "
                 "0.5..1) of two pool sentences of the same activity plus Gaussian noise of norm "
                 f"{noise}, re-normalised"),
        segments=segments, search_p50_ms=percentile(single, 50),
        search_p95_ms=percentile(single, 95), search_many_ms_per_query_p50=percentile(many, 50),
        recall_at_k=_exact_recall(vectors, size, batch, asked, found, k),
        stats=index.stats(), rss_peak_mb=rss_peak_mb(),
    )


def _settings(size: int, dim: int, batch: int, queries: int, k: int, seed: int) -> IndexSettings:
    from ripplemem.stores.hnsw import HNSW_EF_CONSTRUCTION, HNSW_EF_SEARCH, HNSW_M
    from ripplemem.stores.vectors import ANN_START, ANN_THRESHOLD

    return IndexSettings(
        size=size, dim=dim, batch=batch, queries=queries, k=k, seed=seed, ann_start=ANN_START,
        ann_threshold=ANN_THRESHOLD,
        index=(f"faiss IndexHNSWSQ fp16, M {HNSW_M}, efConstruction {HNSW_EF_CONSTRUCTION}, "
               f"efSearch {HNSW_EF_SEARCH}"),
    )
