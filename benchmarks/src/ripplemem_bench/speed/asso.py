"""Speed of the AssoMem parts: PPR on a local subgraph, and the clue-graph update per session.

* :func:`ppr_speed`: a synthetic local subgraph shaped like a recall's — ``nodes`` utterances
  attached to ``clues`` clue nodes, plus ``links`` utterance links per node — and the time of
  :func:`~ripplemem.read.asso.importance.personalized_pagerank` on it (target: <= 10 ms at
  2,000 nodes), apart from the time to assemble the sparse matrix.
* :func:`clue_update_speed`: a store grown to each size (synthetic clustered vectors, one
  session per 20 units, the clue graph built as the write pipeline builds it), then the time of
  :meth:`~ripplemem.write.clues.ClueGraphBuilder.build` for one more session. Clue texts are
  embedded by a hashing embedder, so the numbers are the graph's own cost, not the model's.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import datetime

import numpy as np
from scipy import sparse

from ripplemem.read.asso.importance import personalized_pagerank
from ripplemem.records import MemoryUnit
from ripplemem.stores import MemoryStore
from ripplemem.testing import scripted_embedding
from ripplemem_bench.measure import percentile
from ripplemem_bench.results.asso import ClueUpdate, PprTiming

DIM = 384
SESSION_UNITS = 20
_WHEN = datetime(2024, 1, 1)


class HashingEmbedder:
    """Deterministic unit vectors from text hashes: no model, so timings are the graph's."""

    name = "hashing"
    dim = DIM
    semantic_edge_threshold: float | None = None  # the paper's 0.85

    def embed(self, texts: Sequence[str], *, input_type: str = "document") -> np.ndarray:
        return np.stack([scripted_embedding(t, self.dim) for t in texts]) if texts else np.zeros((0, DIM))


def synthetic_subgraph(
    nodes: int, clues: int, links: int, rng: np.random.Generator
) -> tuple[sparse.csr_matrix, np.ndarray]:
    """A weighted symmetric adjacency over ``nodes`` utterances + ``clues`` clue nodes, and a
    teleport vector (random cosines on utterances, 0 on clues)."""
    size = nodes + clues
    owner = nodes + rng.integers(0, clues, nodes)
    src = np.concatenate([np.arange(nodes), rng.integers(0, nodes, nodes * links // 2)])
    dst = np.concatenate([owner, rng.integers(0, nodes, nodes * links // 2)])
    weight = rng.uniform(0.3, 1.0, src.size)
    keep = src != dst
    src, dst, weight = src[keep], dst[keep], weight[keep]
    rows, cols = np.concatenate([src, dst]), np.concatenate([dst, src])
    adjacency = sparse.csr_matrix((np.concatenate([weight, weight]), (rows, cols)), shape=(size, size))
    teleport = np.concatenate([rng.uniform(-0.1, 0.8, nodes), np.zeros(clues)])
    return adjacency, teleport


def ppr_speed(
    nodes: int = 2000, clues: int = 10, links: int = 5, repeats: int = 50, seed: int = 0
) -> PprTiming:
    """PPR p50 / p95 on ``repeats`` synthetic subgraphs, apart from assembling their matrices."""
    rng = np.random.default_rng(seed)
    assembly: list[float] = []
    solve: list[float] = []
    for _ in range(repeats):
        started = time.perf_counter()
        adjacency, teleport = synthetic_subgraph(nodes, clues, links, rng)
        assembly.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        personalized_pagerank(adjacency, teleport)
        solve.append((time.perf_counter() - started) * 1000)
    return PprTiming(
        nodes=nodes + clues, edges=int(adjacency.nnz // 2), repeats=repeats,
        ppr_ms_p50=percentile(solve, 50), ppr_ms_p95=percentile(solve, 95),
        assembly_ms_p50=percentile(assembly, 50),
    )


def _session(
    index: int, centres: np.ndarray, rng: np.random.Generator, namespace: str
) -> list[MemoryUnit]:
    centre = centres[index % len(centres)]
    vectors = centre + 0.35 * rng.standard_normal((SESSION_UNITS, centres.shape[1])) / np.sqrt(DIM)
    vectors = (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)
    return [
        MemoryUnit(
            id=f"u{index}-{i}", namespace=namespace, restatement=f"topic {index % len(centres)} item {i}",
            vector=vectors[i], participants=(), locations=(), time_span=None,
            episode_id=f"s{index}", turn_ids=(f"s{index}:{i}",), session_time=_WHEN,
            created_at=_WHEN, keywords=(f"topic{index % len(centres)}",),
        )
        for i in range(SESSION_UNITS)
    ]


def clue_update_speed(
    store: MemoryStore, sizes: Sequence[int], *, topics: int = 200, probes: int = 5, seed: int = 0
) -> list[ClueUpdate]:
    """Grow ``store`` through ``sizes`` (units); at each, time the graph update of new sessions."""
    from ripplemem import WriteSettings
    from ripplemem.write.clues import ClueGraphBuilder, KeyphraseClues

    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((topics, DIM)).astype(np.float32)
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    embedder = HashingEmbedder()
    store.check_embedder(embedder.name, embedder.dim)
    builder = ClueGraphBuilder(store, store.clues, embedder, KeyphraseClues(), WriteSettings())
    namespace, added, rows = "speed", 0, []
    for size in sizes:
        while store.count(namespace) < size:
            units = _session(added, centres, rng, namespace)
            store.add_units(units)
            builder.build(units)
            added += 1
        timings = []
        for _ in range(probes):
            units = _session(added, centres, rng, namespace)
            store.add_units(units)
            started = time.perf_counter()
            builder.build(units)
            timings.append((time.perf_counter() - started) * 1000)
            added += 1
        rows.append(ClueUpdate(
            units=store.count(namespace), clues=store.clues.clue_count(namespace),
            session_units=SESSION_UNITS, update_ms_p50=percentile(timings, 50),
            update_ms_max=max(timings),
        ))
    return rows
