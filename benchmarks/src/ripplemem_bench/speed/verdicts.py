"""The verdicts of ``bench speed``: is insert cost flat, and are the issue's targets met.

Flatness is judged on part 4 (:mod:`ripplemem_bench.speed.probe`): the same conversations written
into the store at its smallest and at its largest size, per-unit cost of the insert stages (what
follows embedding: store, near-neighbour search, link, dialogue edges, clue graph). Part 1's
stream ratio is reported beside it (``stream``) but is no verdict: its units at 100k find about
four times the linker candidates of its units at 1k (the bounded pools fill as the stream
densifies), so it weighs different work, not the same work in a larger store.
"""

from __future__ import annotations

from typing import Any

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


def _ratio(last: float, first: float) -> float:
    return last / max(first, 1e-9)


def stream_growth(rows: list[dict[str, Any]], curve: list[dict[str, Any]]) -> dict[str, Any]:
    """Part 1: the per-unit cost of the stream's last window at each end, and its work."""
    first, last = rows[0], rows[-1]
    worst = max(curve, key=lambda point: point["insert_ms_per_unit"])
    return {
        "worst_point": {
            "units": worst["units"],
            "ratio": _ratio(worst["insert_ms_per_unit"], first["insert_ms_per_unit"]),
        },
        "insert_ratio": _ratio(last["insert_ms_per_unit"], first["insert_ms_per_unit"]),
        "add_ratio": _ratio(last["add_ms_per_unit"], first["add_ms_per_unit"]),
        "link_ratio": _ratio(last["link_ms_per_unit"], first["link_ms_per_unit"]),
        "median_batch_ratio": _ratio(
            last["insert_ms_per_unit_median_batch"], first["insert_ms_per_unit_median_batch"]
        ),
        "cpu_ratio": _ratio(last["insert_cpu_ms_per_unit"], first["insert_cpu_ms_per_unit"]),
        "candidates_ratio": _ratio(
            last.get("candidates_per_unit", 0.0), first.get("candidates_per_unit", 0.0)
        ),
    }


def flatness(rows: list[dict[str, Any]], curve: list[dict[str, Any]]) -> dict[str, Any] | None:
    if len(rows) < 2:
        return None
    first, last = rows[0], rows[-1]
    out: dict[str, Any] = {
        "from_units": first["units"],
        "to_units": last["units"],
        "tolerance": TARGETS["insert_flat_ratio"],
        "stream": stream_growth(rows, curve),
    }
    start, end = first.get("probe") or {}, last.get("probe") or {}
    if start.get("units") and end.get("units"):
        ratio = _ratio(end["insert_ms_per_unit"], start["insert_ms_per_unit"])
        out.update(
            probe=start.get("source"),
            insert_ratio=ratio,
            add_ratio=_ratio(end["add_ms_per_unit"], start["add_ms_per_unit"]),
            flat=ratio <= TARGETS["insert_flat_ratio"],
        )
    return out


def targets(result: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    ingest = result.get("locomo_ingest")
    if ingest:
        measured = ingest["seconds_max"]
        out["locomo_ingest_s"] = {
            "target": TARGETS["locomo_ingest_s"],
            "measured_max": measured,
            "measured_mean": ingest["seconds_mean"],
            "met": measured <= TARGETS["locomo_ingest_s"],
        }
    at_10k = [row for row in result["sizes"] if row["units"] == 10_000]
    if at_10k and "ripple" in at_10k[0]["search"]:
        measured = at_10k[0]["search"]["ripple"]["p50_ms"]
        out["search_p50_ms_at_10k"] = {
            "target": TARGETS["search_p50_ms_at_10k"],
            "measured": measured,
            "met": measured <= TARGETS["search_p50_ms_at_10k"],
        }
    for row in result["sizes"]:
        search = row["search"]
        if row["units"] >= 10_000 and "ripple" in search and "hybrid" in search:
            ratio = _ratio(search["ripple"]["p50_ms"], search["hybrid"]["p50_ms"])
            out[f"ripple_vs_hybrid_at_{row['units'] // 1000}k"] = {
                "target": TARGETS["ripple_vs_hybrid"],
                "measured": ratio,
                "met": ratio <= TARGETS["ripple_vs_hybrid"],
            }
    probes = {row["units"]: row.get("probe") or {} for row in result["sizes"]}
    if probes.get(1_000, {}).get("units") and probes.get(10_000, {}).get("units"):
        ratio = _ratio(
            probes[10_000]["insert_ms_per_unit"], probes[1_000]["insert_ms_per_unit"]
        )
        out["insert_10k_vs_1k"] = {
            "target": TARGETS["insert_10k_vs_1k"],
            "measured": ratio,
            "met": ratio <= TARGETS["insert_10k_vs_1k"],
        }
    flat = result.get("insert_flatness")
    if flat and "insert_ratio" in flat:
        out["insert_flat_ratio"] = {
            "target": TARGETS["insert_flat_ratio"],
            "measured": flat["insert_ratio"],
            "met": flat["flat"],
            "probe": flat["probe"],
            "from_units": flat["from_units"],
            "to_units": flat["to_units"],
        }
    return out
