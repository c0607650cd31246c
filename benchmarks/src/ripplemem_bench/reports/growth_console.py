"""A ``bench speed`` / ``bench scale`` result on the console: sizes, curve, probe, verdicts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ripplemem_bench.reports.growth import STAGES_RECIPE, search_stages, stage_cell
from ripplemem_bench.reports.tables import short_units
from ripplemem_bench.results.growth import GrowthResult

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["render_growth"]


def _size_table(result: GrowthResult, out: Console) -> None:
    from rich.table import Table

    recipes = result.settings.recipes
    table = Table(title=f"ripplemem {result.benchmark} ({result.settings.store} store)")
    for column in ("units", "add ms/unit", "link ms/unit", "CPU ms/unit"):
        table.add_column(column, justify="right")
    for name in recipes:
        table.add_column(f"{name} p50/p95 ms", justify="right")
    for column in ("dense", "RSS MB", "file MB"):
        table.add_column(column, justify="right")
    for row in result.sizes:
        search = row.search
        table.add_row(
            f"{row.units:,}", f"{row.add_ms_per_unit:.2f}", f"{row.link_ms_per_unit:.2f}",
            f"{row.insert_cpu_ms_per_unit:.2f}",
            *(f"{search[n].p50_ms:.1f}/{search[n].p95_ms:.1f}" if n in search else "-"
              for n in recipes),
            (row.dense_index.search if row.dense_index else None) or "-",
            f"{row.peak_rss_mb():.0f}", "-" if row.file_mb is None else f"{row.file_mb:.1f}",
        )
    out.print(table)


def _stage_lines(result: GrowthResult) -> list[str]:
    """The ``ripple`` search's ms per read stage at each size."""
    stages = search_stages(result)
    if not stages:
        return []
    sizes = "  ".join(short_units(row.units) for row in result.sizes)
    return [f"{STAGES_RECIPE} search ms per read stage, p50 / mean per search, at {sizes}: "
            + "; ".join(f"{stage} " + ", ".join(stage_cell(value) for value in values)
                        for stage, values in stages)]


def _growth_lines(result: GrowthResult) -> list[str]:
    curve = result.insert_curve
    wall = "  ".join(f"{short_units(p.units)} {p.insert_ms_per_unit:.2f}" for p in curve)
    cpu = "  ".join(f"{short_units(p.units)} {p.insert_cpu_ms_per_unit:.2f}" for p in curve)
    lines = [f"insert (add + link) ms/unit as the store grows: {wall}",
             f"  the same in CPU ms/unit of this process: {cpu}"]
    flat = result.insert_flatness
    if flat is not None and flat.stream is not None:
        stream, worst = flat.stream, flat.stream.worst_point or {}
        lines.append(
            f"  stream, {short_units(flat.to_units)} vs {short_units(flat.from_units)} units: "
            f"x{stream.insert_ratio:.2f} (add x{stream.add_ratio:.2f}, link "
            f"x{stream.link_ratio:.2f}; median batch x{stream.median_batch_ratio:.2f}, CPU "
            f"x{stream.cpu_ratio:.2f}; linker candidates per unit x{stream.candidates_ratio:.2f});"
            f" worst at {short_units(int(worst.get('units', 0)))}: x{worst.get('ratio', 0.0):.2f}"
        )
    return lines


def _probe_lines(result: GrowthResult) -> list[str]:
    lines = []
    for row in result.sizes:
        probe = row.probe
        if probe is None or not probe.units:
            continue
        stages = ", ".join(f"{stage} {probe.stage_ms_per_unit.get(stage, 0.0):.2f}"
                           for stage in probe.insert_stages)
        lines.append(
            f"  probe ({probe.source}, {probe.units:,} units) into {short_units(row.units)}: add "
            f"{probe.add_ms_per_unit:.2f} ms/unit, insert {probe.insert_ms_per_unit:.2f} ({stages})"
        )
    flat = result.insert_flatness
    if flat is not None and flat.insert_ratio is not None:
        lines.append(
            f"  the same conversations, {short_units(flat.to_units)} vs "
            f"{short_units(flat.from_units)} units: insert x{flat.insert_ratio:.2f}, whole add "
            f"x{flat.add_ratio or 0.0:.2f}"
        )
    for row in result.sizes:
        calls = ", ".join(f"{k} {v:.2f}" for k, v in list(row.store_ms_per_unit.items())[:5])
        lines.append(f"  store calls at {short_units(row.units)}, ms/unit: {calls}")
    return lines


def _facts_lines(result: GrowthResult) -> list[str]:
    embedder = result.embedder
    lines = [(f"embedder {embedder.name}: {embedder.units_per_s:.0f} units/s "
             f"({embedder.ms_per_unit:.1f} ms/unit, not in the insert columns)"),
             f"vectors: {result.vectors}"]
    ingest = result.locomo_ingest
    if ingest is not None:
        share = ", ".join(f"{k} {v:.0%}" for k, v in ingest.stage_share.items())
        lines.append(
            f"LoCoMo ingest ({ingest.file}, {ingest.conversations} conversations of "
            f"{ingest.turns_mean:.0f} turns / {ingest.units_mean:.0f} units on average): "
            f"{ingest.seconds_mean:.2f} s mean, {ingest.seconds_max:.2f} s max "
            f"per conversation [{share}]"
        )
    return lines


def _verdict(met: bool) -> str:
    return "[green]met[/]" if met else "[red]missed[/]"


def _target_lines(result: GrowthResult) -> list[str]:
    lines = [f"target {name}: {target.value():.2f} vs {target.target:g} {_verdict(target.met)}"
             for name, target in result.targets.items()]
    scale = result.scale_targets
    if scale is not None:
        at, search = short_units(scale.at_units), scale.search_p50_ms
        lines += [f"target search p50 at {at} ({name}, dense index {search.dense_index}): "
                  f"{value:.1f} ms vs {search.target:g} {_verdict(search.met[name])}"
                  for name, value in search.measured.items()]
        rss, ratio = scale.rss_peak_mb, scale.insert_ratio
        lines.append(f"target peak RSS MB at {at}: {rss.value():.2f} vs {rss.target:g} "
                     f"{_verdict(rss.met)}")
        lines.append(f"target insert CPU ratio at {at}: {ratio.measured:.2f} vs "
                     f"{ratio.target:g} {_verdict(ratio.met)}")
    machine = result.machine
    if machine is not None:
        lines.append(f"[dim]load average {machine.loadavg_start} -> "
                     f"{machine.loadavg_end or machine.loadavg_now} on {machine.cpus} CPUs[/]")
    return lines


def render_growth(result: GrowthResult, out: Console) -> None:
    """The size table, the insert curve, the probe, the ingest line and the targets."""
    _size_table(result, out)
    for line in [*_stage_lines(result), *_growth_lines(result), *_probe_lines(result), *_facts_lines(result),
                 *_target_lines(result)]:
        out.print(line)
