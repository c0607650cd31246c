"""VectorIndex on its own: exact search, growth, tombstones, the HNSW switch and its snapshot."""

from __future__ import annotations

import numpy as np
import pytest

from ripplemem.stores.vectors import ANN_START, AnnSnapshot, VectorIndex

from . import unit_vectors


def names(n: int, start: int = 0) -> list[str]:
    return [f"v{i}" for i in range(start, start + n)]


def test_exact_search_returns_the_true_top_k() -> None:
    matrix = unit_vectors(500, seed=1, dim=32)
    index = VectorIndex(32, ann_threshold=None)
    for start in range(0, 500, 7):  # many small appends grow the matrix by doubling
        index.add(names(len(matrix[start : start + 7]), start), matrix[start : start + 7])
    query = unit_vectors(1, seed=2, dim=32)[0]
    expected = np.argsort(-(matrix @ query))[:15]
    result = index.search(query, 15)
    assert [r for r, _ in result] == [f"v{i}" for i in expected]
    np.testing.assert_allclose([s for _, s in result], (matrix @ query)[expected], rtol=1e-5)
    assert len(index) == 500 and "v499" in index and index.stats()["search"] == "exact"


def test_tombstones_are_skipped_then_compacted() -> None:
    matrix = unit_vectors(100, seed=3, dim=16)
    index = VectorIndex(16, ann_threshold=None)
    index.add(names(100), matrix)
    assert index.remove(["v0", "v1", "nope"]) == 2
    assert index.tombstones == 2
    found = [r for r, _ in index.search(matrix[0], 100)]
    assert len(found) == 98 and "v0" not in found and "v1" not in found
    index.remove(names(9, start=2))  # 11 tombstones > 10 % of 100 rows
    assert index.tombstones == 0 and len(index) == 89
    assert index.search(matrix[50], 1)[0][0] == "v50"
    index.add(["v0"], matrix[:1])  # a removed id can come back
    assert index.search(matrix[0], 1)[0][0] == "v0"


def test_duplicate_ids_and_wrong_dimensions_are_refused() -> None:
    index = VectorIndex(8)
    index.add(["a"], unit_vectors(1, dim=8))
    with pytest.raises(ValueError, match="already indexed"):
        index.add(["a"], unit_vectors(1, dim=8))
    with pytest.raises(ValueError, match="twice"):
        index.add(["b", "b"], unit_vectors(2, dim=8))
    assert len(index) == 1
    with pytest.raises(ValueError, match="dimensions"):
        index.search(unit_vectors(1, dim=4)[0], 1)


def test_hnsw_switches_on_at_the_threshold_and_snapshots_restore() -> None:
    matrix = unit_vectors(400, seed=4, dim=48)
    index = VectorIndex(48, ann_threshold=250)
    index.add(names(200), matrix[:200])
    assert not index.ann_active
    index.add(names(200, start=200), matrix[200:])
    assert index.ann_active and index.ann_origin == "built"
    query = unit_vectors(1, seed=5, dim=48)[0]
    expected = {f"v{i}" for i in np.argsort(-(matrix @ query))[:10]}
    assert len(expected & {r for r, _ in index.search(query, 10)}) >= 9

    index.remove(["v7", "v8"])
    snapshot = index.snapshot()
    assert snapshot is not None and snapshot.count == 398 and len(snapshot.seqs) == 400
    alive = [i for i in range(400) if i not in (7, 8)]
    restored = VectorIndex.restore(
        48, [f"v{i}" for i in alive], alive, matrix[alive], snapshot, ann_threshold=250
    )
    assert restored.ann_origin == "cache" and len(restored) == 398
    assert restored.search(query, 10) == index.search(query, 10)


def test_a_snapshot_holds_the_graph_but_not_the_vectors() -> None:
    matrix = unit_vectors(150, seed=12)  # 384-d: 1,536 bytes per vector
    index = VectorIndex(matrix.shape[1], ann_threshold=100)
    index.add(names(150), matrix)
    snapshot = index.snapshot()
    assert snapshot is not None and len(snapshot.blob) < matrix.nbytes / 4


def test_a_snapshot_that_does_not_fit_is_rebuilt() -> None:
    matrix = unit_vectors(300, seed=6, dim=24)
    index = VectorIndex(24, ann_threshold=100)
    index.add(names(300), matrix)
    snapshot = index.snapshot()
    assert snapshot is not None
    short = AnnSnapshot(blob=snapshot.blob, seqs=snapshot.seqs[:-1], count=299)
    rebuilt = VectorIndex.restore(24, names(300), range(300), matrix, short, ann_threshold=100)
    assert rebuilt.ann_origin == "built" and rebuilt.search(matrix[5], 1)[0][0] == "v5"
    broken = AnnSnapshot(blob=b"not a faiss index", seqs=snapshot.seqs, count=300)
    rebuilt = VectorIndex.restore(24, names(300), range(300), matrix, broken, ann_threshold=100)
    assert rebuilt.ann_origin == "built" and rebuilt.search(matrix[9], 1)[0][0] == "v9"
    wider = VectorIndex.restore(
        32, names(300), range(300), unit_vectors(300, dim=32), snapshot, ann_threshold=100
    )
    assert wider.ann_origin == "built"


def test_hnsw_over_fetches_past_tombstones() -> None:
    matrix = unit_vectors(300, seed=8, dim=16)
    index = VectorIndex(16, ann_threshold=100)
    index.add(names(300), matrix)
    near = [f"v{i}" for i in np.argsort(-(matrix @ matrix[0]))[:25]]
    index.remove(near[:25])  # 25 of 300: under 10 %, kept as tombstones
    assert index.tombstones == 25
    result = index.search(matrix[0], 10)
    assert len(result) == 10 and not set(near) & {r for r, _ in result}


def test_restoring_a_snapshot_with_many_gone_rows_rebuilds_compactly() -> None:
    matrix = unit_vectors(300, seed=10, dim=16)
    index = VectorIndex(16, ann_threshold=100)
    index.add(names(300), matrix)
    snapshot = index.snapshot()
    assert snapshot is not None
    alive = list(range(50, 300))  # 50 of 300 rows gone from the source of truth since
    restored = VectorIndex.restore(
        16, [f"v{i}" for i in alive], alive, matrix[alive], snapshot, ann_threshold=100
    )
    assert restored.tombstones == 0 and restored.ann_origin == "built" and len(restored) == 250
    assert restored.search(matrix[0], 5)[0][0] != "v0"


def test_search_many_matches_one_search_per_query_exact_and_hnsw() -> None:
    matrix = unit_vectors(400, seed=14, dim=32)
    queries = unit_vectors(9, seed=15, dim=32)
    for threshold in (None, 100):
        index = VectorIndex(32, ann_threshold=threshold)
        index.add(names(400), matrix)
        index.remove(["v3", "v4"])
        batched = index.search_many(queries * 3.0, 12)  # unnormalised queries are fine
        single = [index.search(q, 12) for q in queries]
        assert [[i for i, _ in hits] for hits in batched] == [[i for i, _ in h] for h in single]
        np.testing.assert_allclose(
            [[s for _, s in hits] for hits in batched], [[s for _, s in h] for h in single], atol=1e-5
        )
        assert all(len(hits) == 12 for hits in batched)
    assert index.search_many(queries[:0], 5) == []
    with pytest.raises(ValueError, match="dimensions"):
        index.search_many(unit_vectors(2, dim=8), 3)


def test_near_only_search_uses_the_complete_graph_below_the_threshold() -> None:
    # clusters of close vectors: every unit has near neighbours, as the linker's edges need
    centres = unit_vectors(60, seed=23, dim=32)
    noise = unit_vectors(1500, seed=24, dim=32) * 0.35
    matrix = centres[np.arange(1500) % 60] + noise
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    index = VectorIndex(32, ann_threshold=20_000)
    index.add(names(1500), matrix)
    assert index.stats()["search"] == "exact" and index.stats()["graph_rows"] == 1500
    queries = matrix[:40]
    exact = index.search_many(queries, 12)
    near = index.search_many(queries, 12, min_score=0.8)
    found = wanted = 0
    for full, kept in zip(exact, near, strict=True):
        want = {i for i, s in full if s >= 0.81}  # clear of the float16 scores' rounding
        wanted += len(want)
        found += len(want & {i for i, _ in kept})
        assert all(s >= 0.8 for _, s in kept)
    assert wanted > 200 and found / wanted >= 0.99
    # the graph answered: its float16 scores are not the exact float32 cosines
    pairs = [(a, b) for e, n in zip(exact, near) for a, b in zip(e, n) if a[0] == b[0]]
    assert any(abs(a[1] - b[1]) > 1e-6 for a, b in pairs)
    # an incomplete graph (none yet below ann_start) leaves near-only search exact
    small = VectorIndex(32, ann_threshold=20_000)
    small.add(names(500), matrix[:500])
    assert small.search_many(queries, 12, min_score=0.8) == [
        [hit for hit in hits if hit[1] >= 0.8] for hits in small.search_many(queries, 12)
    ]


def test_the_graph_grows_before_the_threshold_and_then_holds_the_vectors() -> None:
    matrix = unit_vectors(700, seed=16, dim=16)
    index = VectorIndex(16, ann_threshold=600)
    index.ann_start = 100  # as ANN_START does for the default threshold
    index.add(names(90), matrix[:90])
    assert not index.ann_active and index.stats()["graph_add_s"] == 0.0
    index.add(names(20, start=90), matrix[90:110])  # 110 rows: the graph starts, catching up
    assert index.ann_active and index.stats()["graph_rows"] == 100  # 20 new + 80 backlog
    assert index.stats()["graph_add_s"] > 0.0  # the insert time is counted (speed benchmark)
    for start in range(110, 700, 10):  # small adds: each inserts 10 + up to 40 backlog rows
        index.add(names(10, start=start), matrix[start : start + 10])
        assert index.stats()["search"] == ("hnsw" if start + 10 >= 600 else "exact")
    assert index.stats()["graph_rows"] == 700 and index.ann_serving
    assert index.search(matrix[5], 1)[0][0] == "v5"
    # deleting past 10 % while the graph holds the vectors: they come back out, then a rebuild
    index.remove(names(80))
    assert index.tombstones == 0 and len(index) == 620 and index.ann_serving
    assert index.search(matrix[300], 1)[0][0] == "v300"
    assert abs(index.search(matrix[300], 1)[0][1] - 1.0) < 1e-3


def test_restoring_an_unchanged_snapshot_reuses_the_given_vectors() -> None:
    n = ANN_START + 200  # the graph grows from ANN_START, search switches at the threshold
    matrix = unit_vectors(n, seed=18, dim=8)
    index = VectorIndex(8, ann_threshold=2 * n)
    index.add(names(n), matrix)
    snapshot = index.snapshot()
    assert snapshot is not None and not index.ann_serving
    given = matrix.copy()
    restored = VectorIndex.restore(8, names(n), range(n), given, snapshot, ann_threshold=2 * n)
    assert restored.ann_origin == "cache" and np.shares_memory(restored._matrix, given)  # no copy
    query = unit_vectors(1, seed=19, dim=8)[0]
    assert restored.search(query, 5) == index.search(query, 5)


def test_reopening_below_the_threshold_defers_the_graph_to_later_adds() -> None:
    matrix = unit_vectors(400, seed=20, dim=8)
    index = VectorIndex.restore(8, names(300), range(300), matrix[:300], None, ann_threshold=360)
    index.ann_start = 100
    assert not index.ann_active and index.stats()["search"] == "exact"
    index.add(names(20, start=300), matrix[300:320])  # the graph starts: 20 new + 80 backlog
    assert index.stats()["graph_rows"] == 100 and not index.ann_serving
    for start in range(320, 400, 20):
        index.add(names(20, start=start), matrix[start : start + 20])
    assert index.stats()["graph_rows"] == 400 and index.ann_serving  # caught up past 360
    above = VectorIndex.restore(8, names(400), range(400), matrix, None, ann_threshold=360)
    assert above.ann_serving and above.ann_origin == "built"


def test_the_centroid_is_the_mean_of_the_live_vectors() -> None:
    matrix = unit_vectors(100, seed=14, dim=16)
    index = VectorIndex(16, ann_threshold=None)
    assert index.centroid() is None
    for start in range(0, 100, 30):
        index.add(names(len(matrix[start : start + 30]), start), matrix[start : start + 30])
    np.testing.assert_allclose(index.centroid(), matrix.mean(axis=0), atol=1e-6)
    index.remove(["v0", "v1"])  # tombstones
    np.testing.assert_allclose(index.centroid(), matrix[2:].mean(axis=0), atol=1e-6)
    index.remove(names(9, start=2))  # compaction: the rows move, the mean does not
    assert index.tombstones == 0
    np.testing.assert_allclose(index.centroid(), matrix[11:].mean(axis=0), atol=1e-6)
    index.add(["v0"], matrix[:1])
    np.testing.assert_allclose(
        index.centroid(), np.vstack([matrix[:1], matrix[11:]]).mean(axis=0), atol=1e-6
    )
    index.remove(list(index._rows))
    assert index.centroid() is None


def test_the_centroid_survives_the_graph_and_its_snapshot() -> None:
    matrix = unit_vectors(300, seed=15, dim=24)
    index = VectorIndex(24, ann_threshold=200)
    index.add(names(300), matrix)
    assert index.ann_serving  # the exact matrix is gone: removed rows come from the graph
    index.remove(["v3", "v4"])
    alive = [i for i in range(300) if i not in (3, 4)]
    expected = matrix[alive].mean(axis=0)
    np.testing.assert_allclose(index.centroid(), expected, atol=1e-4)  # float16 storage
    snapshot = index.snapshot()
    assert snapshot is not None
    restored = VectorIndex.restore(
        24, [f"v{i}" for i in alive], alive, matrix[alive], snapshot, ann_threshold=200
    )
    assert restored.ann_origin == "cache"
    np.testing.assert_allclose(restored.centroid(), expected, atol=1e-6)


class _CountingGraph:
    """A real faiss graph that counts its searches."""

    def __init__(self, inner) -> None:
        self.inner, self.searches = inner, 0

    def search(self, *args, **kwargs):
        self.searches += 1
        return self.inner.search(*args, **kwargs)


def test_a_near_only_search_does_not_widen_past_its_threshold() -> None:
    """Among deleted copies (content deleted and written again) a near-only search stops once its
    beam reaches below the threshold: nothing further can pass it."""
    from ripplemem.stores.hnsw import new_graph
    from ripplemem.stores.vector_search import graph_top_k

    dim = 64
    centre = unit_vectors(1, seed=5, dim=dim)[0]
    siblings = [centre + 0.9 * v for v in unit_vectors(10, seed=6, dim=dim)]  # cos ~0.7 apart
    rows = [s / np.linalg.norm(s) for s in siblings for _ in range(10)]  # 10 copies of each
    rows += list(unit_vectors(900, seed=7, dim=dim))  # far from all of them, alive
    matrix = np.asarray(rows, dtype=np.float32)
    alive = np.ones(len(matrix), dtype=bool)
    alive[[r for r in range(100) if r % 10]] = False  # 9 of every 10 copies deleted
    ids = [f"v{i}" if alive[i] else None for i in range(len(matrix))]
    ann = new_graph(dim)
    ann.train(matrix)
    ann.add(matrix)
    query = matrix[:1]  # sibling 0: its 9 deleted copies and the other siblings' fill the beam
    exact = sorted((float(s), f"v{i}") for i, s in enumerate(matrix @ query[0]) if alive[i])[::-1]

    counted = _CountingGraph(ann)
    near = graph_top_k(counted, len(matrix), alive, ids, query, 21, 64, min_score=0.9)
    assert counted.searches == 1  # the beam already holds rows below 0.9
    assert [(i, round(s, 4)) for i, s in near[0] if s >= 0.9] == [
        (i, round(s, 4)) for s, i in exact if s >= 0.9
    ]

    counted = _CountingGraph(ann)
    full = graph_top_k(counted, len(matrix), alive, ids, query, 21, 64)
    assert counted.searches > 1 and len(full[0]) == 21  # without a threshold: 21 live hits
    assert [i for i, _ in full[0]] == [i for _, i in exact[:21]]


def test_seq_by_id_maps_indexed_ids_to_their_row_numbers() -> None:
    index = VectorIndex(8, ann_threshold=None)
    index.add(names(5), unit_vectors(5, seed=3, dim=8), [10, 11, 12, 40, 41])
    index.remove(["v1"])
    found = index.seq_by_id(["v3", "nope", "v0", "v1", "v3"])  # unknown and removed ids left out
    assert found == {"v3": 40, "v0": 10} and list(found) == ["v3", "v0"]
    assert all(type(seq) is int for seq in found.values())
    assert index.seq_by_id(iter({"v4"})) == {"v4": 41} and index.seq_by_id([]) == {}
