"""``ripplemem bench bounded``: adversarial texts against ordinary dialogue, library and service."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ripplemem.cli.common import console, friendly, progress_bar, write_json


@friendly
def bounded(
    json_file: Annotated[
        Path | None, typer.Option("--json", dir_okay=False, help="Write the result dict here.")
    ] = None,
    locomo: Annotated[
        Path | None,
        typer.Option("--locomo", exists=True, dir_okay=False,
                     help="Also compare bounded and whole-text grounding on this LoCoMo file."),
    ] = None,
) -> None:
    """The cost of the most expensive texts (time-dense, repetitive, 20,000 characters) next to
    dialogue; a delete with a reader open; the service's answers to oversized and adversarial adds."""
    from rich.table import Table

    from ripplemem_bench.speed.bounded import run_bounded_bench

    out = console()
    with progress_bar(out) as progress:
        result = run_bounded_bench(locomo=locomo, progress=progress)
    table = Table(title="library: one message, added then searched")
    for column in ("text", "chars", "units", "rule-only", "add s", "search s", "s / 1k chars", "x dialogue"):
        table.add_column(column, justify="left" if column == "text" else "right")
    for row in result["library"]:
        table.add_row(row["case"], f"{row['chars']:,}", str(row["units"]), str(row["rule_only_units"]),
                      f"{row['add_s']:.2f}", f"{row['search_s']:.2f}", f"{row['s_per_1000_chars']:.3f}",
                      f"{row['vs_dialogue']:.1f}")
    out.print(table)
    deleted = result["delete_with_reader"]
    out.print(f"delete with a reader open: {deleted['delete_s']:.3f} s; erased "
              f"{deleted['erased_after_reader_s']:.2f} s after the reader ended: {deleted['erased']}")
    table = Table(title="service (ripplemem serve, default budget)")
    for column in ("request", "status", "wall s", "server CPU s", "searches", "search p50 s", "search max s"):
        table.add_column(column, justify="left" if column == "request" else "right")
    for row in result["service"]["requests"]:
        table.add_row(row["request"], f"{row['status']} {row['error'] or ''}".strip(), f"{row['wall_s']:.2f}",
                      f"{row['server_cpu_s']:.2f}", str(row["searches_meanwhile"]),
                      str(row["search_p50_s"]), str(row["search_max_s"]))
    out.print(table)
    if "agreement" in result:
        agreed = result["agreement"]
        out.print(f"grounding of {agreed['texts']:,} texts of {agreed['file']} sentence by sentence "
                  f"with deadlines vs. whole: {agreed['identical']:,} identical, "
                  f"{agreed['rule_only']} left to the rules")
    machine = result["machine"]
    out.print(f"[dim]{machine['cpu'].get('model')}, {machine['cpus']} CPUs, load average "
              f"{machine['loadavg_start']} -> {machine['loadavg_end']}[/]")
    if json_file is not None:
        write_json(json_file, result, out)
