"""A retrieval result on the console (``bench locomo``, ``bench longmemeval``, ``bench merge``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ripplemem_bench.reports.retrieval import answer_table, group_table, headline, main_table
from ripplemem_bench.results.retrieval import RetrievalResult

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["render_console"]


def _print_table(console: Console, title: str, header: list[str], rows: list[list[str]]) -> None:
    from rich.table import Table

    table = Table(title=title)
    for index, name in enumerate(header):
        table.add_column(name, justify="left" if index == 0 else "right")
    for row in rows:
        table.add_row(*row)
    console.print(table)


def render_console(result: RetrievalResult, console: Console) -> None:
    """The headline, the recipes, the default group metric and (``--answer``) the answers."""
    console.print(f"[bold]{headline(result)}[/]")
    _print_table(console, "retrieval (rates in %)", *main_table(result))
    key = result.group_key()
    if key is not None:
        header, rows, metric = group_table(result)
        if rows:
            _print_table(console, f"{metric} by {key.removeprefix('per_')} (%)", header, rows)
    answers = answer_table(result)
    if answers is not None:
        header, rows, caption = answers
        _print_table(console, caption, header, rows)
