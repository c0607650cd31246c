"""PNG plots of the speed and scale results (matplotlib, Agg backend: no display needed).

``plot_growth(result, folder, prefix)`` draws three files from a ``bench speed`` or
``bench scale`` result: ``<prefix>_insert.png`` (insert ms per unit as the store grows: wall
clock, median batch and CPU), ``<prefix>_search.png`` (search p50 / p95 per recipe) and
``<prefix>_memory.png`` (peak RSS and file size).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["plot_growth"]


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def _units_axis(axis: Any) -> None:
    from matplotlib.ticker import FuncFormatter, NullFormatter

    axis.set_xscale("log")
    axis.xaxis.set_major_formatter(
        FuncFormatter(lambda x, _: f"{x / 1e6:g}M" if x >= 1e6 else f"{x / 1e3:g}k")
    )
    axis.xaxis.set_minor_formatter(NullFormatter())
    axis.set_xlabel("units in the store")
    axis.grid(True, which="both", alpha=0.3)


def _caption(result: dict) -> str:
    machine = result.get("machine", {})
    load = machine.get("loadavg_end") or machine.get("loadavg_now") or machine.get("loadavg_start")
    return (
        f"{result.get('benchmark', '?')} · {result.get('date', '?')[:10]} · "
        f"commit {(result.get('commit') or '?')[:8]} · {machine.get('cpus', '?')} CPUs · "
        f"load {load}"
    )


def plot_growth(result: dict, folder: Path, prefix: str | None = None) -> list[Path]:
    """Write the three PNGs; returns their paths."""
    plt = _pyplot()
    prefix = prefix or result.get("benchmark", "speed")
    folder.mkdir(parents=True, exist_ok=True)
    rows, curve = result.get("sizes") or [], result.get("insert_curve") or []
    written: list[Path] = []

    figure, axis = plt.subplots(figsize=(7, 4))
    units = [p["units"] for p in curve]
    axis.plot(units, [p["insert_ms_per_unit"] for p in curve], "o-", label="wall (mean)")
    axis.plot(
        units,
        [p["insert_ms_per_unit_median_batch"] for p in curve],
        "s--",
        label="wall (median batch)",
    )
    axis.plot(units, [p["insert_cpu_ms_per_unit"] for p in curve], "^:", label="CPU of the process")
    axis.plot(
        units, [p["link_ms_per_unit"] for p in curve], ".-", alpha=0.6, label="of which linking"
    )
    probed = [(row["units"], row["probe"]) for row in rows if (row.get("probe") or {}).get("units")]
    if probed:  # part 4: the same conversations at every size (the flatness verdict)
        axis.plot(
            [units for units, _ in probed],
            [probe["insert_ms_per_unit"] for _, probe in probed],
            "D-",
            linewidth=2.5,
            label="same conversations: insert stages",
        )
    _units_axis(axis)
    axis.set_ylim(bottom=0)
    axis.set_ylabel("ms per inserted unit")
    axis.set_title("Insert cost as the store grows (stream: add_units + link)")
    axis.legend(fontsize=8)
    figure.text(0.01, 0.01, _caption(result), fontsize=7, alpha=0.7)
    figure.tight_layout(rect=(0, 0.04, 1, 1))
    written.append(_save(figure, folder / f"{prefix}_insert.png", plt))

    figure, axis = plt.subplots(figsize=(7, 4))
    recipes = result.get("settings", {}).get("recipes") or []
    sizes = [row["units"] for row in rows]
    for name in recipes:
        p50 = [row["search"][name]["p50_ms"] for row in rows]
        p95 = [row["search"][name]["p95_ms"] for row in rows]
        (line,) = axis.plot(sizes, p50, "o-", label=f"{name} p50")
        axis.plot(sizes, p95, "o--", color=line.get_color(), alpha=0.6, label=f"{name} p95")
    _units_axis(axis)
    axis.set_yscale("log")
    axis.set_ylabel("ms per recall (query embedding included)")
    axis.set_title("Search latency")
    axis.legend(fontsize=8)
    figure.text(0.01, 0.01, _caption(result), fontsize=7, alpha=0.7)
    figure.tight_layout(rect=(0, 0.04, 1, 1))
    written.append(_save(figure, folder / f"{prefix}_search.png", plt))

    figure, axis = plt.subplots(figsize=(7, 4))
    axis.plot(
        sizes, [row.get("rss_peak_mb_after_search", 0) for row in rows], "o-", label="peak RSS"
    )
    axis.plot(sizes, [row.get("file_mb") or 0 for row in rows], "s-", label="SQLite file")
    resident = [(row.get("dense_index") or {}).get("resident_mb") for row in rows]
    if all(value is not None for value in resident):
        axis.plot(sizes, resident, "^:", label="dense index in memory")
    _units_axis(axis)
    axis.set_yscale("log")
    axis.set_ylabel("MB")
    axis.set_title("Memory and disk")
    axis.legend(fontsize=8)
    figure.text(0.01, 0.01, _caption(result), fontsize=7, alpha=0.7)
    figure.tight_layout(rect=(0, 0.04, 1, 1))
    written.append(_save(figure, folder / f"{prefix}_memory.png", plt))
    return written


def _save(figure: Any, path: Path, plt: Any) -> Path:
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path
