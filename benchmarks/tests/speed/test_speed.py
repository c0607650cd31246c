"""The speed benchmark end to end on a tiny store: shape and consistency only, never timings."""

from __future__ import annotations

import io
import json
import random

import pytest

from ripplemem.errors import InvalidInputError
from ripplemem.providers.local_embedder import MiniLMFloatEmbedder
from ripplemem_bench.results import GrowthResult
from ripplemem_bench.speed.run import run_speed_bench
from ripplemem_bench.speed.synthetic import PEOPLE, PLACES, SyntheticMemories

pytestmark = pytest.mark.slow

SIZES = (150, 300)
QUERIES = 4
RECIPES = ("ripple", "hybrid", "dense")


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[GrowthResult, list]:
    from ..synthetic import locomo_sample

    path = tmp_path_factory.mktemp("speed") / "locomo_tiny.json"
    path.write_text(json.dumps([locomo_sample()]), encoding="utf-8")
    calls: list[tuple[str, int, int | None]] = []
    out = run_speed_bench(
        SIZES,
        queries=QUERIES,
        pool=80,
        embed_sample=20,
        window=100,
        locomo=path,
        progress=lambda *a: calls.append(a),
    )
    return out, calls


@pytest.fixture(scope="module")
def result(run: tuple[GrowthResult, list]) -> GrowthResult:
    return run[0]


def test_top_level_keys(run: tuple[GrowthResult, list]) -> None:
    result, progress = run
    written = json.loads(json.dumps(result.to_json()))
    keys = "benchmark date machine settings embedder vectors pool sizes insert_curve"
    keys += " locomo_ingest insert_flatness targets seconds_total"
    for key in keys.split():
        assert key in written
    assert result.benchmark == "speed" and not result.partial
    assert result.vectors is not None and "pool of 80 real embeddings + noise" in result.vectors
    assert "stationary" in result.vectors
    assert result.settings.sizes == list(SIZES)
    calibrated = getattr(MiniLMFloatEmbedder, "semantic_edge_threshold", 0.85)
    assert result.settings.semantic_threshold == calibrated  # as the write pipeline uses
    assert result.embedder.units_per_s > 0 and result.embedder.sample == 20
    assert progress[-1] == ("done", 1, 1)


def test_size_rows_are_consistent(result: GrowthResult) -> None:
    rows = result.sizes
    assert [row.units for row in rows] == list(SIZES)
    for row, previous in zip(rows, (0, *SIZES[:-1])):
        assert row.add_ms_per_unit > 0 and row.link_ms_per_unit > 0
        assert row.insert_ms_per_unit == pytest.approx(row.add_ms_per_unit + row.link_ms_per_unit)
        assert 0 < row.window_units <= min(100, row.units)
        assert row.segment is not None and row.segment.start == previous
        assert row.segment.to_json()["from"] == previous
        assert row.segment.units == row.units - previous
        assert row.segment.slowest_batch_ms > 0
        assert (row.file_mb or 0) > 0 and row.rss_peak_mb > 0
        assert (row.rss_peak_mb_after_search or 0) >= row.rss_peak_mb
        assert row.dense_index is not None and row.dense_index.vectors == row.units
        assert row.edges_per_unit >= 0 and not row.stopped_early
        calls = row.store_ms_per_unit
        assert {"add_units", "search_dense_many", "cue_candidates", "get_units"} <= set(calls)
        assert calls["add_units"] <= row.add_ms_per_unit
        linking = sum(ms for name, ms in calls.items() if name != "add_units")
        assert linking <= row.link_ms_per_unit
        assert row.store_calls_per_unit["add_units"] == pytest.approx(1 / 50)  # batches of 50
        assert row.store_calls_per_unit["search_dense_many"] == pytest.approx(1 / 50)  # a batch
        assert row.insert_cpu_ms_per_unit > 0 and row.insert_ms_per_unit_median_batch > 0
    assert (rows[1].file_mb or 0) >= (rows[0].file_mb or 0)


@pytest.mark.parametrize("recipe", RECIPES)
def test_search_blocks(result: GrowthResult, recipe: str) -> None:
    for row in result.sizes:
        block = row.search[recipe]
        assert 0 < block.p50_ms <= block.p95_ms
        assert (block.mean_ms or 0) > 0
        assert (block.evidence_per_query or 0) > 0
        assert block.stages_p50_ms["total"] > 0
        means = block.stages_mean_ms
        assert set(means) == set(block.stages_p50_ms)
        # each stage runs inside the total: the means of the stages add up to at most its mean
        assert sum(ms for stage, ms in means.items() if stage != "total") <= means["total"] * 1.001
        assert len(row.search_examples) == 3


def test_search_stages_table(result: GrowthResult) -> None:
    from ripplemem_bench.reports.growth import growth_section, search_stages

    stages = search_stages(result)
    assert stages[-1][0] == "total" and len(stages) > 3
    assert all(len(values) == len(result.sizes) for _, values in stages)
    assert all(value is not None and value[1] is not None for _, values in stages for value in values)
    section = growth_section(result)
    assert "`ripple` search by read stage" in section
    # the query is centred with its dense view, on its own thread: the search waits for both
    assert "centre" not in dict(stages)
    assert "`embed` and `dense` are what is left to wait for" in section


def test_search_stages_of_a_run_that_centred_the_query_itself(result: GrowthResult) -> None:
    from ripplemem_bench.reports.growth import growth_section

    older = result.model_copy(deep=True)
    for row in older.sizes:
        timing = row.search["ripple"]
        timing.stages_p50_ms["centre"] = 0.1
        if timing.stages_mean_ms is not None:
            timing.stages_mean_ms["centre"] = 0.1
    section = growth_section(older)
    assert "`embed` is what is left to wait for" in section and "`dense` are" not in section


def test_locomo_ingest(result: GrowthResult) -> None:
    ingest = result.locomo_ingest
    assert ingest is not None and ingest.conversations == 1
    assert 0 < ingest.seconds_min <= ingest.seconds_mean <= ingest.seconds_max
    (row,) = ingest.per_conversation
    assert row["conversation"] == "conv-x" and row["turns"] == 7 and row["units"] > 0
    stages = row["stages_s"]
    assert stages["embed"] > 0 and stages["store"] > 0
    assert sum(stages.values()) == pytest.approx(row["seconds"])
    assert "add_units" in row["store_calls_s"]
    assert sum(ingest.stage_share.values()) == pytest.approx(1.0)


def test_insert_curve(result: GrowthResult) -> None:
    curve = result.insert_curve
    assert [point.units for point in curve] == list(SIZES)  # no 1-2-5 step below 1k
    for point, row in zip(curve, result.sizes):
        assert point.insert_ms_per_unit == pytest.approx(row.insert_ms_per_unit)
        # the HNSW insert time is part of add_units (none here: the graph starts at 1k vectors)
        assert 0.0 <= (point.graph_ms_per_unit or 0.0) <= point.add_ms_per_unit
        assert point.candidates_per_unit == pytest.approx(row.candidates_per_unit)
    # a store with something to link to: the linker looks at candidates (cue pools, dense hits)
    assert (curve[-1].candidates_per_unit or 0) > 0


def test_probe_rows(result: GrowthResult) -> None:
    """Part 4: the LoCoMo file's conversation written into the store at each size, then deleted."""
    for row in result.sizes:
        probe = row.probe
        assert probe is not None
        assert probe.source == "locomo_tiny.json" and probe.writes == 1
        (write,) = probe.per_write
        assert write["conversation"] == "conv-x" and write["units"] == probe.units > 0
        stages = probe.stage_ms_per_unit
        assert set(probe.insert_stages) <= set(stages) and "embed" in stages
        assert probe.insert_ms_per_unit == pytest.approx(sum(stages[s] for s in probe.insert_stages))
        assert probe.insert_ms_per_unit < probe.add_ms_per_unit
        assert sum(stages.values()) <= probe.add_ms_per_unit
        # the probe was deleted again: the search and the next size saw the synthetic units only
        assert row.dense_index is not None and row.dense_index.vectors == row.units
    assert result.probe == "locomo_tiny.json"


def test_targets_and_flatness(result: GrowthResult) -> None:
    flat = result.insert_flatness
    assert flat is not None and flat.stream is not None and flat.stream.worst_point is not None
    stream = flat.stream
    assert stream.worst_point["units"] in SIZES and stream.worst_point["ratio"] > 0
    assert stream.insert_ratio > 0 and stream.candidates_ratio > 0
    assert flat.from_units == SIZES[0] and flat.to_units == SIZES[-1]
    first, last = (row.probe for row in (result.sizes[0], result.sizes[-1]))
    assert first is not None and last is not None
    assert flat.insert_ratio == pytest.approx(last.insert_ms_per_unit / first.insert_ms_per_unit)
    assert flat.add_ratio == pytest.approx(last.add_ms_per_unit / first.add_ms_per_unit)
    targets = result.targets
    assert set(targets) == {"locomo_ingest_s", "insert_flat_ratio"}  # no 10k size here
    assert all(isinstance(t.met, bool) for t in targets.values())
    assert targets["insert_flat_ratio"].measured == flat.insert_ratio
    assert targets["insert_flat_ratio"].probe == "locomo_tiny.json"


def test_render_speed_table(result: GrowthResult) -> None:
    from rich.console import Console

    from ripplemem_bench.reports.growth_console import render_growth

    buffer = io.StringIO()
    render_growth(result, Console(file=buffer, width=200, highlight=False))
    text = buffer.getvalue()
    assert "ripple p50/p95 ms" in text and "LoCoMo ingest" in text and "300" in text
    assert "insert (add + link) ms/unit as the store grows" in text
    assert "ripple search ms per read stage" in text
    assert "probe (locomo_tiny.json" in text and "the same conversations, 300 vs 150" in text


@pytest.mark.parametrize("sizes", [(), (100, 100), (200, 100), (0,)])
def test_bad_sizes(sizes: tuple[int, ...]) -> None:
    with pytest.raises(InvalidInputError):
        run_speed_bench(sizes)


def test_bad_store() -> None:
    with pytest.raises(InvalidInputError):
        run_speed_bench((10,), store="postgres")  # type: ignore[arg-type]


def test_synthetic_units_are_deterministic_and_shaped() -> None:
    memories = SyntheticMemories(seed=3)
    items = memories.take(0, 2_000)
    assert memories.memory(1_234) == items[1_234]
    assert SyntheticMemories(seed=4).memory(0).unit.restatement != items[0].unit.restatement
    assert len(PEOPLE) >= 200 and len(set(PEOPLE)) == len(PEOPLE) and len(PLACES) == 100
    units = [item.unit for item in items]
    assert len({u.id for u in units}) == len(units)
    assert all(1 <= len(u.participants) <= 3 for u in units)
    assert 0.15 < sum(bool(u.locations) for u in units) / len(units) < 0.25
    assert 0.06 < sum(u.time_span is not None for u in units) / len(units) < 0.14
    for unit in units:
        assert unit.participants[0] in unit.restatement
        assert all(place in unit.restatement for place in unit.locations)
        assert 10 <= len(unit.restatement.split()) <= 45
        assert unit.session_time is not None and unit.session_time < memories.reference_time
    years = {u.session_time.year for u in units if u.session_time}
    assert len(years) >= 3
    question = memories.question(random.Random(0), items[0])
    assert question.endswith("?") and items[0].unit.participants[0] in question


def test_synthetic_rejects_negative_index() -> None:
    with pytest.raises(ValueError):
        SyntheticMemories().memory(-1)


def test_pool_vectors_are_stationary() -> None:
    """Every unit gets a noisy copy of a pool vector, the first ones too, and always the same."""
    import numpy as np

    from ripplemem_bench.speed.growth import PoolVectors

    memories = SyntheticMemories(0)
    pool = np.random.default_rng(1).standard_normal((100, 384)).astype(np.float32)
    pool /= np.linalg.norm(pool, axis=1, keepdims=True)
    vectors = PoolVectors.of_pool(pool, memories, noise=0.4, seed=0)

    def nearest(start: int) -> np.ndarray:
        block = np.stack([vectors.vector(i, memories.memory(i)) for i in range(start, start + 60)])
        return (block @ pool.T).max(axis=1)

    early, late = nearest(0), nearest(50_000)
    assert early.max() < 0.99  # no unit keeps its pool vector as it is
    assert abs(early.mean() - late.mean()) < 0.02  # the same process before and after the pool
    again = vectors.vector(3, memories.memory(3))
    assert np.array_equal(again, vectors.vector(3, memories.memory(3)))


def test_synthetic_units_hold_their_place_in_the_session() -> None:
    """As the write path's units do: the dialogue-context stage reads a unit's neighbouring
    turns by it, so without it the bench would time a stage that never finds anything."""
    from ripplemem_bench.speed.synthetic import SESSION_UNITS

    units = [m.unit for m in SyntheticMemories(seed=3).take(0, 2 * SESSION_UNITS)]
    assert [u.extra["turn_index"] for u in units] == list(range(SESSION_UNITS)) * 2
    assert len({u.episode_id for u in units}) == 2
