"""``ripplemem bench asso-speed``: PPR on a 2,000-node local subgraph; clue-graph update cost."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from ripplemem.cli.common import console, friendly


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
    from rich.table import Table

    from ripplemem.errors import InvalidInputError
    from ripplemem_bench.speed.asso import clue_update_speed, ppr_speed

    try:
        counts = [int(part.replace("_", "")) for part in sizes.split(",") if part.strip()]
    except ValueError:
        raise InvalidInputError(f"--sizes must be comma-separated integers, not {sizes!r}") from None
    if store not in ("sqlite", "memory"):
        raise InvalidInputError(f"--store must be 'sqlite' or 'memory', not {store!r}")
    out = console()
    ppr = ppr_speed(nodes=nodes, repeats=repeats)
    with tempfile.TemporaryDirectory(prefix="ripplemem-asso-") as folder:
        if store == "memory":
            from ripplemem.stores.memory import InMemoryStore

            backend = InMemoryStore(ann_threshold=ann_threshold)
        else:
            from ripplemem.stores.sqlite import SQLiteStore

            backend = SQLiteStore(Path(folder) / "speed.db", ann_threshold=ann_threshold)
        try:
            updates = clue_update_speed(backend, counts)
        finally:
            backend.close()
    out.print(
        f"PPR on {ppr['nodes']} nodes / {ppr['edges']} edges: p50 {ppr['ppr_ms_p50']:.2f} ms, "
        f"p95 {ppr['ppr_ms_p95']:.2f} ms (matrix assembly p50 {ppr['assembly_ms_p50']:.2f} ms)"
    )
    table = Table(title=f"clue-graph update per added session ({store}, HNSW above {ann_threshold})")
    for column in ("units", "clues", "session units", "update ms p50", "update ms max"):
        table.add_column(column, justify="right")
    for row in updates:
        table.add_row(
            str(row["units"]), str(row["clues"]), str(row["session_units"]),
            f"{row['update_ms_p50']:.1f}", f"{row['update_ms_max']:.1f}",
        )
    out.print(table)
    if json_file is not None:
        json_file.parent.mkdir(parents=True, exist_ok=True)
        from datetime import UTC, datetime

        from ripplemem_bench.measure import git_commit, loadavg, machine_info

        result = {
            "ppr": ppr, "updates": updates, "store": store, "ann_threshold": ann_threshold,
            "date": datetime.now(UTC).isoformat(timespec="seconds"), "commit": git_commit(),
            "load": loadavg(), "machine": machine_info(),
        }
        json_file.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        out.print(f"wrote {json_file}")
