"""PNG plots of the speed and scale results (matplotlib, Agg backend: no display needed).

``plot_growth(result, folder, prefix)`` draws three files from a ``bench speed`` or
``bench scale`` result: ``<prefix>_insert.png`` (insert ms per unit as the store grows: wall
clock, median batch and CPU), ``<prefix>_search.png`` (search p50 / p95 per recipe) and
``<prefix>_memory.png`` (peak RSS and file size).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ripplemem_bench.results.growth import GrowthResult

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


def _caption(result: GrowthResult) -> str:
    machine = result.machine
    load = machine.last_load() if machine is not None else None
    cpus = machine.cpus if machine is not None else None
    return (
        f"{result.benchmark} · {result.date_text()} · commit {result.commit_text(8)} · "
        f"{cpus or '?'} CPUs · load {load}"
    )


def _finish(plt: Any, figure: Any, result: GrowthResult, path: Path) -> Path:
    figure.text(0.01, 0.01, _caption(result), fontsize=7, alpha=0.7)
    figure.tight_layout(rect=(0, 0.04, 1, 1))
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


def _insert(plt: Any, result: GrowthResult, path: Path) -> Path:
    figure, axis = plt.subplots(figsize=(7, 4))
    curve = result.insert_curve
    units = [p.units for p in curve]
    axis.plot(units, [p.insert_ms_per_unit for p in curve], "o-", label="wall (mean)")
    axis.plot(units, [p.insert_ms_per_unit_median_batch for p in curve], "s--",
              label="wall (median batch)")
    axis.plot(units, [p.insert_cpu_ms_per_unit for p in curve], "^:", label="CPU of the process")
    axis.plot(units, [p.link_ms_per_unit for p in curve], ".-", alpha=0.6, label="of which linking")
    probed = [(row.units, row.probe) for row in result.sizes if row.probe and row.probe.units]
    if probed:  # part 4: the same conversations at every size (the flatness verdict)
        axis.plot([size for size, _ in probed], [probe.insert_ms_per_unit for _, probe in probed],
                  "D-", linewidth=2.5, label="same conversations: insert stages")
    _units_axis(axis)
    axis.set_ylim(bottom=0)
    axis.set_ylabel("ms per inserted unit")
    axis.set_title("Insert cost as the store grows (stream: add_units + link)")
    axis.legend(fontsize=8)
    return _finish(plt, figure, result, path)


def _search(plt: Any, result: GrowthResult, path: Path) -> Path:
    figure, axis = plt.subplots(figsize=(7, 4))
    rows = result.sizes
    sizes = [row.units for row in rows]
    for name in result.settings.recipes:
        p50 = [row.search[name].p50_ms for row in rows]
        p95 = [row.search[name].p95_ms for row in rows]
        (line,) = axis.plot(sizes, p50, "o-", label=f"{name} p50")
        axis.plot(sizes, p95, "o--", color=line.get_color(), alpha=0.6, label=f"{name} p95")
    _units_axis(axis)
    axis.set_yscale("log")
    axis.set_ylabel("ms per recall (query embedding included)")
    axis.set_title("Search latency")
    axis.legend(fontsize=8)
    return _finish(plt, figure, result, path)


def _memory(plt: Any, result: GrowthResult, path: Path) -> Path:
    figure, axis = plt.subplots(figsize=(7, 4))
    rows = result.sizes
    sizes = [row.units for row in rows]
    axis.plot(sizes, [row.rss_peak_mb_after_search or 0 for row in rows], "o-", label="peak RSS")
    axis.plot(sizes, [row.file_mb or 0 for row in rows], "s-", label="SQLite file")
    resident = [row.dense_index.resident_mb if row.dense_index else None for row in rows]
    if all(value is not None for value in resident):
        axis.plot(sizes, resident, "^:", label="dense index in memory")
    _units_axis(axis)
    axis.set_yscale("log")
    axis.set_ylabel("MB")
    axis.set_title("Memory and disk")
    axis.legend(fontsize=8)
    return _finish(plt, figure, result, path)


def plot_growth(result: GrowthResult, folder: Path, prefix: str | None = None) -> list[Path]:
    """Write the three PNGs; returns their paths."""
    plt = _pyplot()
    prefix = prefix or result.benchmark
    folder.mkdir(parents=True, exist_ok=True)
    return [
        _insert(plt, result, folder / f"{prefix}_insert.png"),
        _search(plt, result, folder / f"{prefix}_search.png"),
        _memory(plt, result, folder / f"{prefix}_memory.png"),
    ]
