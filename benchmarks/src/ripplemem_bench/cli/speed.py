"""``ripplemem bench speed``: insert cost as a store grows, search latency, conversation ingest."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ripplemem.cli.common import console, friendly, progress_bar
from ripplemem_bench.cli.output import save_result, sizes_option

if TYPE_CHECKING:
    from ripplemem_bench.results import GrowthResult

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
    from ripplemem_bench.reports.growth_console import render_growth
    from ripplemem_bench.speed.run import run_speed_bench

    counts = sizes_option(sizes)
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
            locomo=locomo,
            stop_after_s=None if stop_after is None else stop_after * 60,
            recipes=[name.strip() for name in recipes.split(",") if name.strip()],
        )
    render_growth(result, out)
    if json_file is not None:
        save_result(json_file, result, out)


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
    counts = sizes_option(sizes)
    out = console()
    if index_only:
        _index_only(max(counts), queries, seed, json_file)
        return
    from ripplemem_bench.reports.growth_console import render_growth
    from ripplemem_bench.speed.scale import run_scale_bench

    with progress_bar(out) as progress:
        result = run_scale_bench(
            counts, queries=queries, seed=seed, pool=pool, progress=progress,
            on_size=_saver(json_file, plots),
            stop_after_s=None if stop_after is None else stop_after * 60,
        )
    render_growth(result, out)
    if json_file is not None:
        save_result(json_file, result, out)
    if plots is not None:
        from ripplemem_bench.reports.plots import plot_growth

        for path in plot_growth(result, plots, "scale"):
            out.print(f"wrote {path}")


def _saver(json_file: Path | None, plots: Path | None) -> Callable[[GrowthResult], None]:
    """What keeps a long run's result so far: the JSON and the plots after every size."""
    from ripplemem_bench.reports.plots import plot_growth
    from ripplemem_bench.results import write_result

    out = console()

    def save(partial: GrowthResult) -> None:
        if json_file is not None:
            write_result(partial, json_file)
        if plots is not None:
            plot_growth(partial, plots, "scale")
        out.print(f"[dim]measured {partial.sizes[-1].units:,} units[/]")

    return save


def _index_only(size: int, queries: int, seed: int, json_file: Path | None) -> None:
    from ripplemem_bench.speed.index_scale import run_index_scale

    out = console()
    with progress_bar(out) as progress:
        result = run_index_scale(size, queries=queries, seed=seed, progress=progress)
    out.print_json(data={k: v for k, v in result.to_json().items() if k != "segments"})
    for segment in result.segments:
        out.print(segment.to_json())
    if json_file is not None:
        save_result(json_file, result, out)
