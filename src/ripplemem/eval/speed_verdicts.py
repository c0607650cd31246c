"""The verdicts of ``bench speed``: is insert cost flat, and are the issue's targets met."""

from __future__ import annotations

from typing import Any

#: The issue's goals. ``insert_flat_ratio``: largest-size / smallest-size per-unit cost.
TARGETS = {"locomo_ingest_s": 5.0, "search_p50_ms_at_10k": 20.0, "insert_flat_ratio": 1.5}


def flatness(rows: list[dict[str, Any]], curve: list[dict[str, Any]]) -> dict[str, Any] | None:
    if len(rows) < 2:
        return None
    first, last = rows[0], rows[-1]
    base = max(first["insert_ms_per_unit"], 1e-9)
    ratio = last["insert_ms_per_unit"] / base
    worst = max(curve, key=lambda point: point["insert_ms_per_unit"])
    return {
        "worst_point": {"units": worst["units"], "ratio": worst["insert_ms_per_unit"] / base},
        "from_units": first["units"],
        "to_units": last["units"],
        "insert_ratio": ratio,
        "add_ratio": last["add_ms_per_unit"] / max(first["add_ms_per_unit"], 1e-9),
        "link_ratio": last["link_ms_per_unit"] / max(first["link_ms_per_unit"], 1e-9),
        "median_batch_ratio": last["insert_ms_per_unit_median_batch"]
        / max(first["insert_ms_per_unit_median_batch"], 1e-9),
        "cpu_ratio": last["insert_cpu_ms_per_unit"] / max(first["insert_cpu_ms_per_unit"], 1e-9),
        "tolerance": TARGETS["insert_flat_ratio"],
        "flat": ratio <= TARGETS["insert_flat_ratio"],
    }


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
    flat = result.get("insert_flatness")
    if flat:
        out["insert_flat_ratio"] = {
            "target": TARGETS["insert_flat_ratio"],
            "measured": flat["insert_ratio"],
            "met": flat["flat"],
        }
    return out
