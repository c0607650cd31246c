"""The result of ``bench knn``: namespace-filtered kNN on PostgreSQL against exact search."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ripplemem_bench.results.base import Facts, Record

__all__ = ["KnnDesign", "KnnResult"]


class KnnDesign(Record):
    """One index design: recall@k against exact search, latency, the time to load and index."""

    recall_mean: float
    recall_min: float
    queries_below_90: int = Field(alias="queries_below_0.9")
    p50_ms: float
    p95_ms: float
    load_and_build_s: float = 0.0


class KnnResult(Facts):
    benchmark: Literal["knn"]
    units: int
    namespaces: int
    k: int
    queries: int
    server: str | None = None
    pgvector: str | None = None
    pool_sentences: int = 0
    embed_s: float = 0.0
    store_partial_indexes: KnnDesign
    global_index_iterative_scan: KnnDesign | None = None
