"""``ripplemem bench knn``: namespace-filtered kNN on PostgreSQL, recall against exact search.

    ripplemem bench knn postgresql://... --locomo ../shared/data/locomo/locomo_dev.json \
        --json knn.json

``--units`` units (100,000) spread evenly over ``--namespaces`` namespaces (100) are written
into a PostgresStore whose ``ann_threshold`` is below the namespace size, so every namespace is
searched through its own HNSW index (the store's design: one partial index per large namespace).
For comparison the same vectors go into one table with a single HNSW index over all namespaces,
searched with a namespace filter and ``hnsw.iterative_scan = strict_order``. Each of ``--queries``
queries asks one random namespace for its ``--k`` nearest units; recall@k is measured against
exact search (numpy over the namespace's vectors).

Vectors: the LoCoMo utterances of ``--locomo`` embedded with the default embedder (a pool of real
sentence vectors); each unit is a pool vector plus Gaussian noise of norm ``--noise``,
re-normalised, and each query another such draw. Schemas ``knn_store`` and ``knn_global`` of the
server are dropped first.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import psycopg

from ripplemem.errors import InvalidInputError
from ripplemem.records import MemoryUnit
from ripplemem.stores import open_store
from ripplemem.stores.postgres.adapt import register
from ripplemem_bench.measure import git_commit, loadavg, machine_info
from ripplemem_bench.results.base import Machine
from ripplemem_bench.results.knn import KnnDesign, KnnResult

__all__ = ["run_knn_bench"]

CREATED = datetime(2024, 1, 1)


def pool_vectors(locomo: Path) -> np.ndarray:
    from ripplemem import Settings
    from ripplemem.providers import make_embedder

    texts = []
    for sample in json.loads(locomo.read_text(encoding="utf-8")):
        for key, turns in sample["conversation"].items():
            if key.startswith("session_") and isinstance(turns, list):
                texts += [turn["text"] for turn in turns if turn.get("text")]
    return np.asarray(make_embedder(Settings().embedder).embed(texts), dtype=np.float32)


def noisy(pool: np.ndarray, rng: np.random.Generator, n: int, noise: float) -> np.ndarray:
    base = pool[rng.integers(len(pool), size=n)]
    jitter = rng.standard_normal(base.shape).astype(np.float32)
    jitter *= noise / np.linalg.norm(jitter, axis=1, keepdims=True)
    vectors = base + jitter
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def with_schema(url: str, schema: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}schema={schema}"


def exact_top(vectors: np.ndarray, members: np.ndarray, query: np.ndarray, k: int) -> set[int]:
    scores = vectors[members] @ query
    return set(members[np.argsort(-scores)[:k]].tolist())


def summary(recalls: list[float], seconds: list[float], load_and_build_s: float) -> KnnDesign:
    return KnnDesign(
        recall_mean=float(np.mean(recalls)),
        recall_min=float(np.min(recalls)),
        queries_below_90=int(sum(r < 0.9 for r in recalls)),
        p50_ms=float(np.percentile(seconds, 50) * 1000),
        p95_ms=float(np.percentile(seconds, 95) * 1000),
        load_and_build_s=load_and_build_s,
    )


@dataclass(frozen=True, slots=True)
class Workload:
    """The units' vectors spread over namespaces, the queries and their exact answers."""

    vectors: np.ndarray
    namespace_of: np.ndarray
    asked_vectors: np.ndarray
    asked: np.ndarray  # the namespace each query asks
    exact: list[set[int]]
    pool: int  # real sentence vectors the units are drawn around
    embed_s: float

    @classmethod
    def build(cls, locomo: Path, units: int, namespaces: int, queries: int, k: int,
              noise: float, seed: int) -> Workload:
        rng = np.random.default_rng(seed)
        started = time.perf_counter()
        pool = pool_vectors(locomo)
        embed_s = time.perf_counter() - started
        vectors = noisy(pool, rng, units, noise)
        namespace_of = np.arange(units) % namespaces
        asked_vectors = noisy(pool, rng, queries, noise)
        asked = rng.integers(namespaces, size=queries)
        members = {n: np.flatnonzero(namespace_of == n) for n in range(namespaces)}
        exact = [exact_top(vectors, members[n], q, k) for q, n in zip(asked_vectors, asked)]
        return cls(vectors, namespace_of, asked_vectors, asked, exact, len(pool), embed_s)


def _server(url: str) -> tuple[str, str | None]:
    """(PostgreSQL version, pgvector version); the benchmark's schemas dropped first."""
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("DROP SCHEMA IF EXISTS knn_store CASCADE")
        db.execute("DROP SCHEMA IF EXISTS knn_global CASCADE")
        row = db.execute("SHOW server_version").fetchone()
        server = row[0] if row else "unknown"
        pgvector = db.execute(
            "SELECT extversion FROM pg_extension WHERE extname = 'vector'"
        ).fetchone()
    return server, pgvector[0] if pgvector else None


def _store_design(url: str, work: Workload, namespaces: int, k: int) -> KnnDesign:
    """The store's design: a partial HNSW index per namespace past ``ann_threshold``."""
    per_namespace = len(work.vectors) // namespaces
    store = open_store(with_schema(url, "knn_store"), ann_threshold=per_namespace // 2)
    started = time.perf_counter()
    for n in range(namespaces):
        store.add_units([
            MemoryUnit(f"u{i}", f"ns{n}", f"unit {i}", work.vectors[i], (), (), None, "s", (), None,
                       CREATED)
            for i in np.flatnonzero(work.namespace_of == n)
        ])
    load_s = time.perf_counter() - started
    recalls, seconds = [], []
    for query, n, truth in zip(work.asked_vectors, work.asked, work.exact):
        began = time.perf_counter()
        (hits,) = store.search_dense_many(f"ns{n}", query[None, :], k)
        seconds.append(time.perf_counter() - began)
        recalls.append(len({int(h[1:]) for h, _ in hits} & truth) / k)
    store.close()
    return summary(recalls, seconds, load_s)


def run_knn_bench(
    url: str,
    locomo: Path,
    *,
    units: int = 100_000,
    namespaces: int = 100,
    queries: int = 300,
    k: int = 10,
    noise: float = 0.4,
    seed: int = 0,
    global_index: bool = True,
) -> KnnResult:
    """Run the benchmark against the server at ``url``; see the module docstring."""
    if units < namespaces or namespaces < 1 or queries < 1 or k < 1:
        raise InvalidInputError("units >= namespaces >= 1, queries >= 1 and k >= 1 are needed")
    work = Workload.build(locomo, units, namespaces, queries, k, noise, seed)
    load_before = loadavg()
    server, pgvector = _server(url)
    result = KnnResult(
        benchmark="knn", date=datetime.now(UTC).isoformat(timespec="seconds"),
        commit=git_commit(), units=units, namespaces=namespaces, k=k, queries=queries,
        server=server, pgvector=pgvector, pool_sentences=work.pool, embed_s=work.embed_s,
        store_partial_indexes=_store_design(url, work, namespaces, k),
    )
    if global_index:
        result.global_index_iterative_scan = _global_index(url, work, k)
    result.machine = Machine.model_validate(
        {**machine_info(), "loadavg_start": load_before, "loadavg_end": loadavg()}
    )
    return result


def _global_index(url: str, work: Workload, k: int) -> KnnDesign:
    """One HNSW index over all namespaces, searched with a filter and an iterative scan."""
    vectors, namespace_of = work.vectors, work.namespace_of
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("CREATE SCHEMA knn_global")
        db.execute("SET search_path TO knn_global, public")
        register(db)
        db.execute(
            "CREATE TABLE item (namespace text COLLATE \"C\", id bigint, "
            f"embedding vector({vectors.shape[1]}))"
        )
        started = time.perf_counter()
        with db.cursor() as cursor, cursor.copy(
            "COPY item (namespace, id, embedding) FROM STDIN WITH (FORMAT BINARY)"
        ) as copy:
            copy.set_types(["text", "int8", "vector"])
            for i in range(len(vectors)):
                copy.write_row((f"ns{namespace_of[i]}", i, vectors[i]))
        db.execute("SET maintenance_work_mem = '1GB'")
        db.execute("CREATE INDEX ON item USING hnsw (embedding vector_ip_ops)")
        build_s = time.perf_counter() - started
        db.execute("SET hnsw.iterative_scan = strict_order")
        db.execute("SET hnsw.ef_search = 128")
        db.execute("SET hnsw.max_scan_tuples = 100000")
        recalls, seconds = [], []
        for query, n, truth in zip(work.asked_vectors, work.asked, work.exact):
            began = time.perf_counter()
            found = db.execute(
                "SELECT id FROM item WHERE (namespace || '') = %s "
                "ORDER BY embedding <#> %s LIMIT %s",
                (f"ns{n}", query, k),
            ).fetchall()
            seconds.append(time.perf_counter() - began)
            recalls.append(len({row[0] for row in found} & truth) / k)
        db.execute("DROP SCHEMA knn_global CASCADE")
    return summary(recalls, seconds, build_s)
