"""``ripplemem bench writers``: ingest throughput of several writer processes, per backend."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ripplemem.cli.common import console, friendly, progress_bar
from ripplemem_bench.cli.output import save_result


@friendly
def writers(
    path: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="LoCoMo JSON file.")],
    store: Annotated[
        list[str] | None,
        typer.Option(
            "--store",
            help="sqlite (a temporary file) or a store URL (postgresql://...); repeat to compare.",
        ),
    ] = None,
    count: Annotated[
        int, typer.Option("--writers", min=2, help="Writer processes (one conversation each).")
    ] = 4,
    sessions: Annotated[
        int | None, typer.Option("--sessions", min=1, help="Sessions per conversation (all).")
    ] = None,
    json_file: Annotated[
        Path | None, typer.Option("--json", dir_okay=False, help="Write the result dict here.")
    ] = None,
) -> None:
    """Many writers: units/s of N processes (one namespace, or one each) against 1 writer."""
    from rich.table import Table

    from ripplemem_bench.speed.writers import run_writers_bench

    out = console()
    with progress_bar(out) as progress:
        result = run_writers_bench(
            path, stores=store or ["sqlite"], writers=count, sessions=sessions, progress=progress
        )
    table = Table(title=f"ingest throughput, {result.input.adds} adds")
    for column in ("store", "layout", "units", "wall s", "units/s", "slowest add s"):
        table.add_column(column, justify="left" if column in ("store", "layout") else "right")
    for backend, rows in result.backends.items():
        for row in rows:
            table.add_row(backend, row.layout, f"{row.units:,}", f"{row.wall_s:.1f}",
                          f"{row.units_per_s:.1f}", f"{row.add_s_max:.2f}")
    out.print(table)
    machine = result.machine
    if machine is not None:
        out.print(f"[dim]load average {machine.loadavg_start} -> {machine.loadavg_end} "
                  f"on {machine.cpus} CPUs[/]")
    if json_file is not None:
        save_result(json_file, result, out)
