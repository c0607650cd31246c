"""``ripplemem migrate SRC DST``: copy a whole store to another backend, then check the copy
(:mod:`ripplemem.core.copy` does both)."""

from __future__ import annotations

from typing import Annotated

import typer

from ripplemem.cli.common import console, friendly

SAMPLE = 20


@friendly
def migrate(
    source: Annotated[str, typer.Argument(help="The store to copy (path or URL).")],
    target: Annotated[str, typer.Argument(help="The new store (path or URL); must be empty.")],
    sample: Annotated[int, typer.Option(help="Units per namespace whose searches are compared.", min=0)] = SAMPLE,
) -> None:
    """Copy a store to another backend (SQLite <-> PostgreSQL), then check the copy."""
    from rich.table import Table

    from ripplemem.cli.render import for_terminal
    from ripplemem.core.copy import migrate as copy

    out = console()
    done = copy(
        source, target, sample=sample,
        progress=lambda message: out.print(for_terminal(message), style="dim"),
    )
    table = Table(title=for_terminal(f"{done.source} -> {done.target}"))
    for column in ("namespace", "units", "edges", "clues", "links"):
        table.add_column(column, justify="left" if column == "namespace" else "right")
    for namespace, counts in done.report.namespaces.items():
        counted = (counts.units, counts.edges, counts.clues, counts.links)
        table.add_row(for_terminal(namespace), *(str(v) for v in counted))
    out.print(table)
    checked = done.verification
    out.print(
        f"keys copied: {done.report.keys}; counts equal: {checked.counts_equal}; searches identical: "
        f"{checked.identical}/{checked.searches}"
    )
    done.raise_if_different()
