"""``ripplemem bench speed``: insert cost as a store grows, search latency, conversation ingest."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ripplemem.cli.common import console, friendly, progress_bar, write_json

if TYPE_CHECKING:
    from rich.console import Console

#: ``--stop-after MINUTES`` of bench speed and bench scale
StopAfter = Annotated[
    float | None,
    typer.Option(
        "--stop-after",
        min=0,
        help="Minutes; then stop growing at the next 10k units and measure that size last.",
    ),
]


@friendly
def speed(
    sizes: Annotated[
        str, typer.Option("--sizes", help="Comma-separated store sizes (units), increasing.")
    ] = "1000,10000,100000",
    queries: Annotated[
        int, typer.Option("--queries", min=1, help="Timed searches per recipe and size.")
    ] = 50,
    locomo: Annotated[
        Path | None,
        typer.Option(
            "--locomo", exists=True, dir_okay=False, help="Also time ingesting this LoCoMo file."
        ),
    ] = None,
    json_file: Annotated[
        Path | None, typer.Option("--json", dir_okay=False, help="Write the result dict here.")
    ] = None,
    store: Annotated[
        str,
        typer.Option(
            "--store",
            help="Where the store lives: sqlite (temp file), memory, or the URL of an empty store "
            "(postgresql://...).",
        ),
    ] = "sqlite",
    seed: Annotated[
        int, typer.Option("--seed", help="Seed of the synthetic units and questions.")
    ] = 0,
    stop_after: StopAfter = None,
    recipes: Annotated[
        str, typer.Option("--recipes", help="Comma-separated recipes to time the searches of.")
    ] = "ripple,hybrid,dense",
) -> None:
    """Speed and scale: insert cost from 1k to 100k units, search p50/p95, ingest seconds."""
    from ripplemem.errors import InvalidInputError
    from ripplemem_bench.speed.run import run_speed_bench

    try:
        counts = [int(part.replace("_", "")) for part in sizes.split(",") if part.strip()]
    except ValueError:
        raise InvalidInputError(
            f"--sizes must be comma-separated integers, not {sizes!r}"
        ) from None
    if store not in ("sqlite", "memory") and "://" not in store:
        raise InvalidInputError(
            f"--store must be 'sqlite', 'memory' or a store URL (postgresql://...), not {store!r}"
        )
    out = console()
    with progress_bar(out) as progress:
        result = run_speed_bench(
            counts,
            store=store,
            queries=queries,
            seed=seed,
            progress=progress,
            locomo=locomo,  # type: ignore[arg-type]
            stop_after_s=None if stop_after is None else stop_after * 60,
            recipes=[name.strip() for name in recipes.split(",") if name.strip()],
        )
    render_speed(result, out)
    if json_file is not None:
        write_json(json_file, result, out)


def render_speed(result: dict, out: Console) -> None:
    """The size table, the insert curve, the ingest line and the targets."""
    from rich.table import Table

    recipes = result["settings"]["recipes"]
    table = Table(title=f"ripplemem speed ({result['settings']['store']} store)")
    for column in ("units", "add ms/unit", "link ms/unit", "CPU ms/unit"):
        table.add_column(column, justify="right")
    for name in recipes:
        table.add_column(f"{name} p50/p95 ms", justify="right")
    for column in ("dense", "RSS MB", "file MB"):
        table.add_column(column, justify="right")
    for row in result["sizes"]:
        search = row["search"]
        table.add_row(
            f"{row['units']:,}",
            f"{row['add_ms_per_unit']:.2f}",
            f"{row['link_ms_per_unit']:.2f}",
            f"{row['insert_cpu_ms_per_unit']:.2f}",
            *(f"{search[name]['p50_ms']:.1f}/{search[name]['p95_ms']:.1f}" for name in recipes),
            str((row.get("dense_index") or {}).get("search", "-")),
            f"{row['rss_peak_mb_after_search']:.0f}",
            "-" if row["file_mb"] is None else f"{row['file_mb']:.1f}",
        )
    out.print(table)
    curve = "  ".join(
        f"{_short(point['units'])} {point['insert_ms_per_unit']:.2f}"
        for point in result.get("insert_curve", [])
    )
    out.print(f"insert (add + link) ms/unit as the store grows: {curve}")
    cpu = "  ".join(
        f"{_short(point['units'])} {point['insert_cpu_ms_per_unit']:.2f}"
        for point in result.get("insert_curve", [])
    )
    out.print(f"  the same in CPU ms/unit of this process: {cpu}")
    flat = result.get("insert_flatness")
    if flat:
        stream, worst = flat["stream"], flat["stream"]["worst_point"]
        out.print(
            f"  stream, {_short(flat['to_units'])} vs {_short(flat['from_units'])} units: "
            f"x{stream['insert_ratio']:.2f} (add x{stream['add_ratio']:.2f}, "
            f"link x{stream['link_ratio']:.2f}; median batch x{stream['median_batch_ratio']:.2f}, "
            f"CPU x{stream['cpu_ratio']:.2f}; linker candidates per unit "
            f"x{stream['candidates_ratio']:.2f}); worst at {_short(worst['units'])}: "
            f"x{worst['ratio']:.2f}"
        )
    for row in result["sizes"]:
        probe = row.get("probe") or {}
        if probe.get("units"):
            stages = ", ".join(
                f"{stage} {probe['stage_ms_per_unit'].get(stage, 0.0):.2f}"
                for stage in probe["insert_stages"]
            )
            out.print(
                f"  probe ({probe['source']}, {probe['units']:,} units) into "
                f"{_short(row['units'])}: add {probe['add_ms_per_unit']:.2f} ms/unit, insert "
                f"{probe['insert_ms_per_unit']:.2f} ({stages})"
            )
    if flat and "insert_ratio" in flat:
        out.print(
            f"  the same conversations, {_short(flat['to_units'])} vs "
            f"{_short(flat['from_units'])} units: insert x{flat['insert_ratio']:.2f}, whole add "
            f"x{flat['add_ratio']:.2f}"
        )
    for row in result["sizes"]:
        calls = ", ".join(f"{k} {v:.2f}" for k, v in list(row["store_ms_per_unit"].items())[:5])
        out.print(f"  store calls at {_short(row['units'])}, ms/unit: {calls}")
    embedder = result["embedder"]
    out.print(
        f"embedder {embedder['name']}: {embedder['units_per_s']:.0f} units/s "
        f"({embedder['ms_per_unit']:.1f} ms/unit, not in the insert columns)"
    )
    out.print(f"vectors: {result['vectors']}")
    ingest = result.get("locomo_ingest")
    if ingest:
        share = ", ".join(f"{k} {v:.0%}" for k, v in ingest["stage_share"].items())
        out.print(
            f"LoCoMo ingest ({ingest['file']}, {ingest['conversations']} conversations of "
            f"{ingest['turns_mean']:.0f} turns / {ingest['units_mean']:.0f} units on average): "
            f"{ingest['seconds_mean']:.2f} s mean, {ingest['seconds_max']:.2f} s max "
            f"per conversation [{share}]"
        )
    for name, target in result.get("targets", {}).items():
        measured = target.get("measured", target.get("measured_max"))
        verdict = "[green]met[/]" if target["met"] else "[red]missed[/]"
        out.print(f"target {name}: {measured:.2f} vs {target['target']:g} {verdict}")
    scale = result.get("scale_targets") or {}
    if scale:
        search = scale["search_p50_ms"]
        for name, value in search["measured"].items():
            verdict = "[green]met[/]" if search["met"][name] else "[red]missed[/]"
            out.print(
                f"target search p50 at {_short(scale['at_units'])} ({name}, dense index "
                f"{search['dense_index']}): {value:.1f} ms vs {search['target']:g} {verdict}"
            )
        for key, what in (("rss_peak_mb", "peak RSS MB"), ("insert_ratio", "insert CPU ratio")):
            target = scale[key]
            verdict = "[green]met[/]" if target["met"] else "[red]missed[/]"
            out.print(
                f"target {what} at {_short(scale['at_units'])}: {target['measured']:.2f} vs "
                f"{target['target']:g} {verdict}"
            )
    machine = result["machine"]
    out.print(
        f"[dim]load average {machine['loadavg_start']} -> "
        f"{machine.get('loadavg_end', machine.get('loadavg_now'))} on {machine['cpus']} CPUs[/]"
    )


def _short(units: int) -> str:
    return f"{units // 1000}k" if units >= 1000 and units % 1000 == 0 else f"{units:,}"


@friendly
def scale(
    sizes: Annotated[
        str, typer.Option("--sizes", help="Comma-separated store sizes (units), increasing.")
    ] = "10000,100000,1000000",
    queries: Annotated[
        int, typer.Option("--queries", min=1, help="Timed searches per recipe and size.")
    ] = 30,
    json_file: Annotated[
        Path | None,
        typer.Option("--json", dir_okay=False, help="Write the result here (after every size)."),
    ] = None,
    plots: Annotated[
        Path | None,
        typer.Option("--plots", file_okay=False, help="Write scale_*.png plots into this folder."),
    ] = None,
    pool: Annotated[
        int, typer.Option("--pool", min=1, help="Sentences embedded for real (the vector pool).")
    ] = 5_000,
    seed: Annotated[
        int, typer.Option("--seed", help="Seed of the synthetic units and questions.")
    ] = 0,
    index_only: Annotated[
        bool,
        typer.Option(
            "--index-only",
            help="Only the dense index, grown to the largest size (no SQLite, no linking).",
        ),
    ] = False,
    stop_after: StopAfter = None,
) -> None:
    """Scale: one SQLite store grown to 10k, 100k and 1M units; insert, search, RSS, file size."""
    from ripplemem_bench.reports.plots import plot_growth
    from ripplemem_bench.speed.scale import run_scale_bench, write_json

    counts = _sizes(sizes)
    out = console()
    if index_only:
        from ripplemem_bench.speed.scale import run_index_scale

        with progress_bar(out) as progress:
            result = run_index_scale(max(counts), queries=queries, seed=seed, progress=progress)
        out.print_json(data={k: v for k, v in result.items() if k != "segments"})
        for segment in result["segments"]:
            out.print(segment)
        if json_file is not None:
            write_json(result, json_file)
            out.print(f"wrote {json_file}")
        return

    def save(partial: dict) -> None:
        if json_file is not None:
            write_json(partial, json_file)
        if plots is not None:
            plot_growth(partial, plots, "scale")
        out.print(f"[dim]measured {partial['sizes'][-1]['units']:,} units[/]")

    with progress_bar(out) as progress:
        result = run_scale_bench(
            counts,
            queries=queries,
            seed=seed,
            pool=pool,
            progress=progress,
            on_size=save,
            stop_after_s=None if stop_after is None else stop_after * 60,
        )
    render_speed(result, out)
    if json_file is not None:
        write_json(result, json_file)
        out.print(f"wrote {json_file}")
    if plots is not None:
        for path in plot_growth(result, plots, "scale"):
            out.print(f"wrote {path}")


def _sizes(sizes: str) -> list[int]:
    from ripplemem.errors import InvalidInputError

    try:
        return [int(part.replace("_", "")) for part in sizes.split(",") if part.strip()]
    except ValueError:
        raise InvalidInputError(
            f"--sizes must be comma-separated integers, not {sizes!r}"
        ) from None
