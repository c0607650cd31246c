"""The verdicts of ``bench speed``: is insert cost flat, and are the issue's targets met.

Flatness is judged on part 4 (:mod:`ripplemem_bench.speed.probe`): the same conversations written
into the store at its smallest and at its largest size, per-unit cost of the insert stages (what
follows embedding: store, near-neighbour search, link, dialogue edges, clue graph). Part 1's
stream ratio is reported beside it (``stream``) but is no verdict: its units at 100k find about
four times the linker candidates of its units at 1k (the bounded pools fill as the stream
densifies), so it weighs different work, not the same work in a larger store.
"""

from __future__ import annotations

from collections.abc import Sequence

from ripplemem_bench.results.growth import (
    CurvePoint,
    Flatness,
    GrowthResult,
    SizeRow,
    StreamGrowth,
    Target,
)

__all__ = ["TARGETS", "flatness", "stream_growth", "targets"]

#: The issue's goals. ``insert_flat_ratio``: per-unit insert cost of the same conversations in
#: the largest store / in the smallest; ``insert_10k_vs_1k``: the same at 10k / at 1k;
#: ``ripple_vs_hybrid_at_<size>``: ``ripple``'s search p50 / ``hybrid``'s, in the same run.
TARGETS = {
    "locomo_ingest_s": 5.0,
    "search_p50_ms_at_10k": 20.0,
    "insert_flat_ratio": 1.5,
    "insert_10k_vs_1k": 1.2,
    "ripple_vs_hybrid": 1.5,
}


def _ratio(last: float | None, first: float | None) -> float:
    return (last or 0.0) / max(first or 0.0, 1e-9)


def stream_growth(rows: Sequence[SizeRow], curve: Sequence[CurvePoint]) -> StreamGrowth:
    """Part 1: the per-unit cost of the stream's last window at each end, and its work."""
    first, last = rows[0], rows[-1]
    worst = max(curve, key=lambda point: point.insert_ms_per_unit)
    return StreamGrowth(
        worst_point={
            "units": worst.units,
            "ratio": _ratio(worst.insert_ms_per_unit, first.insert_ms_per_unit),
        },
        insert_ratio=_ratio(last.insert_ms_per_unit, first.insert_ms_per_unit),
        add_ratio=_ratio(last.add_ms_per_unit, first.add_ms_per_unit),
        link_ratio=_ratio(last.link_ms_per_unit, first.link_ms_per_unit),
        median_batch_ratio=_ratio(
            last.insert_ms_per_unit_median_batch, first.insert_ms_per_unit_median_batch
        ),
        cpu_ratio=_ratio(last.insert_cpu_ms_per_unit, first.insert_cpu_ms_per_unit),
        candidates_ratio=_ratio(last.candidates_per_unit, first.candidates_per_unit),
    )


def flatness(rows: Sequence[SizeRow], curve: Sequence[CurvePoint]) -> Flatness | None:
    """The flatness verdict (None below two sizes): the probe's ratio, the stream's beside it."""
    if len(rows) < 2:
        return None
    first, last = rows[0], rows[-1]
    flat = Flatness(
        from_units=first.units,
        to_units=last.units,
        tolerance=TARGETS["insert_flat_ratio"],
        stream=stream_growth(rows, curve),
    )
    start, end = first.probe, last.probe
    if start is not None and end is not None and start.units and end.units:
        ratio = _ratio(end.insert_ms_per_unit, start.insert_ms_per_unit)
        flat.probe = start.source
        flat.insert_ratio = ratio
        flat.add_ratio = _ratio(end.add_ms_per_unit, start.add_ms_per_unit)
        flat.flat = ratio <= TARGETS["insert_flat_ratio"]
    return flat


def _search_target(result: GrowthResult) -> Target | None:
    at_10k = [row for row in result.sizes if row.units == 10_000]
    if not at_10k or "ripple" not in at_10k[0].search:
        return None
    measured = at_10k[0].search["ripple"].p50_ms
    limit = TARGETS["search_p50_ms_at_10k"]
    return Target(target=limit, measured=measured, met=measured <= limit)


def targets(result: GrowthResult) -> dict[str, Target]:
    """The issue's goals against what ``result`` measured (only those it measured)."""
    out: dict[str, Target] = {}
    ingest = result.locomo_ingest
    if ingest is not None:
        limit = TARGETS["locomo_ingest_s"]
        out["locomo_ingest_s"] = Target(
            target=limit, measured_max=ingest.seconds_max, measured_mean=ingest.seconds_mean,
            met=ingest.seconds_max <= limit,
        )
    search = _search_target(result)
    if search is not None:
        out["search_p50_ms_at_10k"] = search
    out.update(_relative_targets(result))
    flat = result.insert_flatness
    if flat is not None and flat.insert_ratio is not None:
        out["insert_flat_ratio"] = Target(
            target=TARGETS["insert_flat_ratio"], measured=flat.insert_ratio, met=bool(flat.flat),
            probe=flat.probe, from_units=flat.from_units, to_units=flat.to_units,
        )
    return out


def _relative_targets(result: GrowthResult) -> dict[str, Target]:
    """Targets measured against the same run: ``ripple``'s search p50 over ``hybrid``'s at each
    size from 10k, and the probe's per-unit insert cost at 10k over that at 1k."""
    out: dict[str, Target] = {}
    limit = TARGETS["ripple_vs_hybrid"]
    for row in result.sizes:
        if row.units >= 10_000 and "ripple" in row.search and "hybrid" in row.search:
            ratio = _ratio(row.search["ripple"].p50_ms, row.search["hybrid"].p50_ms)
            out[f"ripple_vs_hybrid_at_{row.units // 1000}k"] = Target(
                target=limit, measured=ratio, met=ratio <= limit
            )
    probes = {row.units: row.probe for row in result.sizes}
    small, large = probes.get(1_000), probes.get(10_000)
    if small is not None and large is not None and small.units and large.units:
        ratio = _ratio(large.insert_ms_per_unit, small.insert_ms_per_unit)
        limit = TARGETS["insert_10k_vs_1k"]
        out["insert_10k_vs_1k"] = Target(target=limit, measured=ratio, met=ratio <= limit)
    return out
