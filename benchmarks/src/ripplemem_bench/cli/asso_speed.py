"""``ripplemem bench asso-speed``: PPR on a 2,000-node local subgraph; clue-graph update cost."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ripplemem.cli.common import console, friendly
from ripplemem_bench.cli.output import save_result, sizes_option

if TYPE_CHECKING:
    from rich.console import Console

    from ripplemem_bench.results.asso import AssoSpeedResult, ClueUpdate


@friendly
def asso_speed(
    nodes: Annotated[int, typer.Option("--nodes", min=10, help="Utterance nodes of the PPR subgraph.")] = 2000,
    repeats: Annotated[int, typer.Option("--repeats", min=1, help="Timed PPR runs.")] = 50,
    sizes: Annotated[
        str, typer.Option("--sizes", help="Store sizes (units) at which to time a session's graph update.")
    ] = "2000,10000,40000",
    store: Annotated[str, typer.Option("--store", help="sqlite (temp file) or memory.")] = "memory",
    ann_threshold: Annotated[
        int, typer.Option("--ann-threshold", min=1, help="Vectors above which dense search is HNSW.")
    ] = 1000,
    json_file: Annotated[Path | None, typer.Option("--json", dir_okay=False, help="Write the result here.")] = None,
) -> None:
    """AssoMem speed: PPR p50/p95 (target <= 10 ms at 2,000 nodes) and per-session update cost."""
    from datetime import UTC, datetime

    from ripplemem.errors import InvalidInputError
    from ripplemem_bench.measure import git_commit, loadavg, machine_info
    from ripplemem_bench.results.asso import AssoSpeedResult
    from ripplemem_bench.results.base import Machine
    from ripplemem_bench.speed.asso import ppr_speed

    counts = sizes_option(sizes)
    if store not in ("sqlite", "memory"):
        raise InvalidInputError(f"--store must be 'sqlite' or 'memory', not {store!r}")
    out = console()
    result = AssoSpeedResult(
        ppr=ppr_speed(nodes=nodes, repeats=repeats), updates=_updates(store, ann_threshold, counts),
        store=store, ann_threshold=ann_threshold,
        date=datetime.now(UTC).isoformat(timespec="seconds"), commit=git_commit(),
        load=loadavg(), machine=Machine.model_validate(machine_info()),
    )
    render_asso_speed(result, out)
    if json_file is not None:
        save_result(json_file, result, out)


def _updates(store: str, ann_threshold: int, sizes: list[int]) -> list[ClueUpdate]:
    """The clue-graph update cost in a ``store`` store grown through ``sizes``."""
    from ripplemem.stores import open_store
    from ripplemem_bench.speed.asso import clue_update_speed

    with tempfile.TemporaryDirectory(prefix="ripplemem-asso-") as folder:
        location = "memory://" if store == "memory" else Path(folder) / "speed.db"
        backend = open_store(location, ann_threshold=ann_threshold)
        try:
            return clue_update_speed(backend, sizes)
        finally:
            backend.close()


def render_asso_speed(result: AssoSpeedResult, out: Console) -> None:
    from rich.table import Table

    ppr = result.ppr
    out.print(
        f"PPR on {ppr.nodes} nodes / {ppr.edges} edges: p50 {ppr.ppr_ms_p50:.2f} ms, "
        f"p95 {ppr.ppr_ms_p95:.2f} ms (matrix assembly p50 {ppr.assembly_ms_p50:.2f} ms)"
    )
    table = Table(title=f"clue-graph update per added session ({result.store}, HNSW above "
                  f"{result.ann_threshold})")
    for column in ("units", "clues", "session units", "update ms p50", "update ms max"):
        table.add_column(column, justify="right")
    for row in result.updates:
        table.add_row(str(row.units), str(row.clues), str(row.session_units),
                      f"{row.update_ms_p50:.1f}", f"{row.update_ms_max:.1f}")
    out.print(table)
