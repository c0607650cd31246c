"""Per-unit provenance for ``ripplemem trace``: every view hit and every score term of each unit."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

    from ripplemem.records import Recall


def describe_hits(recall: Recall) -> list[tuple[str, str, str, str]]:
    """(rank, unit id, hits, terms) per evidence unit, as plain strings."""
    rows = []
    for rank, item in enumerate(recall.evidence, 1):
        hits = ", ".join(f"{hit.view} #{hit.rank + 1} ({hit.score:.3f})" for hit in item.hits) or "-"
        terms = "-"
        if item.terms is not None:
            t = item.terms
            parts = [f"a={t.alignment:.3f}", f"pi={t.provenance:.3f}", f"anchor={t.anchor:.0f}"]
            parts += [f"{name}={value:.3f}" for name, value in t.extra.items()]
            terms = " ".join(parts) + f" -> {t.total:.3f}"
        paths = "; ".join(
            f"{p.channel} {' -> '.join(p.nodes)} (path {p.path_weight:.2f}, goal {p.goal_score:.2f})"
            for p in item.paths
        )
        if paths:
            hits += f"; via {paths}"
        rows.append((str(rank), item.unit.id, hits, terms))
    return rows


def render_provenance(console: Console, recall: Recall) -> None:
    from rich.table import Table

    from ripplemem.cli.render import for_terminal

    table = Table(title="provenance: view hits (rank, raw score) and score terms", expand=True)
    for column in ("#", "unit", "found by", "score terms"):
        table.add_column(column)
    for row in describe_hits(recall):
        table.add_row(*(for_terminal(cell) for cell in row))
    console.print(table)
