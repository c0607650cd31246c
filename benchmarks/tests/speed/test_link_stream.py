"""The linker on a synthetic stream (the speed benchmark's units): SQLite and memory stores agree."""

from __future__ import annotations

import numpy as np

from ripplemem import WriteSettings
from ripplemem.stores.memory import InMemoryStore
from ripplemem.stores.sqlite import SQLiteStore
from ripplemem.write.link import Linker
from ripplemem_bench.speed.growth import PoolVectors
from ripplemem_bench.speed.synthetic import SyntheticMemories

NS = "ns"


def all_edges(store, ids):
    return sorted((e.src, e.kind, e.dst, e.weight) for i in ids for e in store.edges_of(NS, i))


def test_sqlite_and_memory_stores_link_a_synthetic_stream_alike(tmp_path):
    """Batches of 50 synthetic units, caps full and edges evicted: both backends, same graph."""
    memories = SyntheticMemories(0, namespace=NS)
    pool = np.random.default_rng(2).standard_normal((100, 16)).astype(np.float32)
    pool /= np.linalg.norm(pool, axis=1, keepdims=True)
    vectors = PoolVectors.of_pool(pool, memories, noise=0.3, seed=0)
    units = [m.unit.with_vector(vectors.vector(i, m)) for i, m in enumerate(memories.take(0, 600))]
    graphs, reports = [], []
    for store in (InMemoryStore(), SQLiteStore(tmp_path / "stream.db")):
        linker = Linker(store, WriteSettings(semantic_threshold=0.8))
        done = []
        for start in range(0, len(units), 50):
            store.add_units(units[start : start + 50])
            done.append(linker.link(units[start : start + 50]))
        reports.append((sum(r.added for r in done), sum(r.evicted for r in done)))
        graphs.append(all_edges(store, [u.id for u in units]))
        store.close()
    assert reports[0] == reports[1] and reports[0][1] > 0
    assert graphs[0] == graphs[1]
