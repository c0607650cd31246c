"""The flatness verdict of ``bench speed``: judged on the same conversations at every size."""

from __future__ import annotations

import pytest

from ripplemem_bench.results.growth import (
    CurvePoint,
    Flatness,
    GrowthResult,
    SearchTiming,
    SizeRow,
    Target,
)
from ripplemem_bench.speed.probe import DEMO_REPEATS, probe_conversations, summarise
from ripplemem_bench.speed.verdicts import TARGETS, flatness, targets


def _row(units: int, insert: float, probe_insert: float | None, candidates: float) -> SizeRow:
    row = SizeRow(
        units=units,
        insert_ms_per_unit=insert,
        add_ms_per_unit=insert / 2,
        link_ms_per_unit=insert / 2,
        insert_ms_per_unit_median_batch=insert,
        insert_cpu_ms_per_unit=insert,
        candidates_per_unit=candidates,
    )
    if probe_insert is not None:
        write = {
            "conversation": "c",
            "units": 100,
            "edges": 400,
            "ms": 100 * (probe_insert + 3.0),
            "insert_ms": 100 * probe_insert,
            "stages_ms": {"embed": 200.0, "store": 50 * probe_insert, "link": 50 * probe_insert},
        }
        row.probe = summarise([write], "probe.json")
    return row


def _verdict(rows: list[SizeRow]) -> tuple[Flatness, dict[str, Target]]:
    curve = [CurvePoint(units=row.units, insert_ms_per_unit=row.insert_ms_per_unit) for row in rows]
    flat = flatness(rows, curve)
    assert flat is not None
    return flat, targets(GrowthResult(benchmark="speed", sizes=rows, insert_flatness=flat))


def test_the_verdict_is_the_probe_ratio_not_the_stream_ratio() -> None:
    # the stream triples (its pools fill); the same conversations cost 1.2x in the larger store
    flat, goals = _verdict([_row(1_000, 0.3, 0.5, 9), _row(100_000, 0.9, 0.6, 37)])
    assert flat.stream is not None
    assert flat.stream.insert_ratio == pytest.approx(3.0)
    assert flat.stream.candidates_ratio == pytest.approx(37 / 9)
    assert flat.insert_ratio == pytest.approx(1.2) and flat.flat is True
    assert flat.add_ratio == pytest.approx(3.6 / 3.5)
    target = goals["insert_flat_ratio"]
    assert target.met is True and target.measured == pytest.approx(1.2)
    assert target.probe == "probe.json" and target.to_units == 100_000


def test_a_probe_that_slows_down_with_the_store_misses_the_target() -> None:
    # a flat stream does not rescue it: the verdict reads the controlled measurement
    limit = TARGETS["insert_flat_ratio"]
    flat, goals = _verdict([_row(1_000, 0.5, 0.5, 30), _row(100_000, 0.5, 0.5 * (limit + 0.1), 30)])
    assert flat.stream is not None and flat.stream.insert_ratio == pytest.approx(1.0)
    assert flat.flat is False
    assert goals["insert_flat_ratio"].met is False


def test_without_a_probe_there_is_no_flatness_verdict() -> None:
    flat, goals = _verdict([_row(1_000, 0.3, None, 9), _row(100_000, 0.9, None, 37)])
    assert flat.insert_ratio is None and flat.stream is not None
    assert "insert_flat_ratio" not in goals
    assert flatness([_row(1_000, 0.3, 0.5, 9)], []) is None


def test_summarise_splits_the_write_by_stage() -> None:
    probe = _row(1_000, 0.3, 0.5, 9).probe
    assert probe is not None
    out = summarise([probe.per_write[0]] * 2, "x")
    assert out.units == 200 and out.writes == 2
    assert out.add_ms_per_unit == pytest.approx(3.5)
    assert out.insert_ms_per_unit == pytest.approx(0.5)
    assert out.stage_ms_per_unit["embed"] == pytest.approx(2.0)
    assert summarise([], "x").to_json() == {"source": "x", "writes": 0, "units": 0}


def test_without_a_locomo_file_the_probe_is_the_demo_conversation() -> None:
    source, conversations = probe_conversations(None)
    assert source == f"demo conversation ×{DEMO_REPEATS}"
    assert len(conversations) == DEMO_REPEATS
    assert len({c.conversation_id for c in conversations}) == 1


def _timing(p50: float) -> SearchTiming:
    return SearchTiming(p50_ms=p50, p95_ms=p50, mean_ms=p50, evidence_per_query=10, stages_p50_ms={})


def test_ripple_is_judged_against_hybrid_of_the_same_run_and_insert_at_10k_against_1k() -> None:
    small, large = _row(1_000, 0.5, 1.0, 9.0), _row(10_000, 0.6, 1.3, 12.0)
    large.search = {"ripple": _timing(7.0), "hybrid": _timing(5.0)}
    _, found = _verdict([small, large])
    assert found["ripple_vs_hybrid_at_10k"].measured == pytest.approx(1.4)
    assert found["ripple_vs_hybrid_at_10k"].met
    assert found["insert_10k_vs_1k"].measured == pytest.approx(1.3)
    assert not found["insert_10k_vs_1k"].met
    assert TARGETS["insert_10k_vs_1k"] == 1.2 and TARGETS["ripple_vs_hybrid"] == 1.5
