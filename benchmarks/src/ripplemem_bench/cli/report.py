"""``ripplemem bench report``: docs/benchmarks.md from the runs the manifest lists as current."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ripplemem.cli.common import console, friendly


@friendly
def report(
    manifest: Annotated[
        Path,
        typer.Option("--manifest", dir_okay=False, help="The list of current result files."),
    ] = Path("docs/results/manifest.json"),
    out: Annotated[
        Path, typer.Option("--out", dir_okay=False, help="The Markdown file to (re)write.")
    ] = Path("docs/benchmarks.md"),
    plots: Annotated[
        bool, typer.Option("--plots/--no-plots", help="Draw the PNG plots beside the Markdown file.")
    ] = True,
) -> None:
    """Render the current runs into the benchmarks page; prose outside the markers is kept."""
    from ripplemem_bench.reports.docs import write_report

    done = write_report(manifest, out, plots=plots)
    echo = console()
    echo.print(f"wrote {done.out}: {len(done.rendered)} results")
    for path in done.plots:
        echo.print(f"  plot {path}")
    for name in done.added:
        echo.print(f"  new section at the end for {name}: move it and add prose as you like")
    for name in done.missing:
        echo.print(f"  [yellow]{name} has a block but is not in the manifest any more[/]")
