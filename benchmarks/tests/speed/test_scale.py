"""The scale benchmark on a tiny store: shape, checkpoints, the time box and the plots."""

from __future__ import annotations

from pathlib import Path

import pytest

from ripplemem_bench.results import GrowthResult, IndexScaleResult, load_result, write_result
from ripplemem_bench.speed.scale import run_scale_bench, scale_targets

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def run() -> tuple[GrowthResult, list[GrowthResult]]:
    partials: list[GrowthResult] = []
    result = run_scale_bench(
        (120, 240), queries=2, pool=60, window=60, recipes=("dense",), on_size=partials.append
    )
    return result, partials


def test_result_and_checkpoints(run: tuple[GrowthResult, list[GrowthResult]]) -> None:
    result, partials = run
    assert result.benchmark == "scale" and not result.targets
    assert result.vectors is not None and "mix w*a + (1-w)*b" in result.vectors
    assert [row.units for row in result.sizes] == [120, 240]
    assert [len(p.sizes) for p in partials] == [1, 2]
    assert all(p.partial and p.benchmark == "scale" for p in partials)
    assert not result.partial
    assert partials[0].scale_targets is not None and partials[0].scale_targets.at_units == 120
    targets = result.scale_targets
    assert targets is not None
    assert targets.at_units == 240 and set(targets.search_p50_ms.measured) == {"dense"}
    assert targets.rss_peak_mb.value() > 0
    assert all(row.loadavg is None or len(row.loadavg) == 3 for row in result.sizes)
    dense = result.sizes[-1].dense_index
    assert dense is not None and (dense.resident_mb or 0) > 0


def test_the_time_box_keeps_what_was_measured() -> None:
    result = run_scale_bench((100, 200), queries=1, pool=40, recipes=("dense",), stop_after_s=0)
    assert result.sizes == [] and scale_targets(result) is None


def test_json_and_plots(run: tuple[GrowthResult, list[GrowthResult]], tmp_path: Path) -> None:
    from ripplemem_bench.reports.plots import plot_growth

    result, _ = run
    write_result(result, tmp_path / "results" / "scale.json")
    again = load_result(tmp_path / "results" / "scale.json")
    assert isinstance(again, GrowthResult) and again.to_json() == result.to_json()
    paths = plot_growth(result, tmp_path, "scale")
    assert [p.name for p in paths] == ["scale_insert.png", "scale_search.png", "scale_memory.png"]


def test_the_dense_index_alone() -> None:
    from ripplemem_bench.reports.docs import render_block
    from ripplemem_bench.speed.index_scale import run_index_scale

    result = run_index_scale(3_000, pool=50, batch=500, queries=20, k=5)
    assert isinstance(result, IndexScaleResult)
    assert [s.units for s in result.segments] == [3_000]
    assert result.recall_at_k == 1.0  # exact below the threshold
    assert result.search_p50_ms > 0 and result.rss_peak_mb > 0
    assert result.stats["graph_rows"] == 3_000  # the graph grew from ANN_START on
    block = render_block("scale_index.json", result)
    assert "| 3,000 |" in block and "recall@5 against exact search 100.0 %" in block
