"""``ripplemem bench updates FILE``: the knowledge-update suite (current values, history, controls)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer

from ripplemem.cli.common import console, friendly, progress_bar
from ripplemem_bench.cli.output import save_result


@friendly
def updates(
    path: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="An update suite JSON file.")],
    recipes: Annotated[str, typer.Option("--recipes", help="Comma-separated recipes to compare.")] = "ripple",
    split: Annotated[
        str, typer.Option("--split", help="Run only the conversations of this split (dev, holdout, all).")
    ] = "all",
    json_file: Annotated[
        Path | None, typer.Option("--json", dir_okay=False, help="Write the result dict here.")
    ] = None,
) -> None:
    """Share of current-value questions won by the latest value (top 3, above every stale
    statement), of history questions with every needed turn in the top 10, of controls passed."""
    from rich.table import Table

    from ripplemem_bench.measure import git_commit, loadavg
    from ripplemem_bench.updates.cases import load_cases
    from ripplemem_bench.updates.run import run_updates

    cases = load_cases(path, split=split)
    names = [r.strip() for r in recipes.split(",") if r.strip()]
    out = console()
    with progress_bar(out) as progress:
        result = run_updates(cases, names, progress=progress)
    result.file, result.split = path.name, split
    result.date = datetime.now(UTC).isoformat(timespec="seconds")
    result.load, result.commit = loadavg(), git_commit()
    table = Table(title=f"updates · {path.name} · split {split} · {result.questions} questions")
    for column in ("recipe", "current %", "history %", "controls %"):
        table.add_column(column)
    for recipe, row in result.recipes.items():
        summary = row.summary
        table.add_row(
            recipe,
            *(f"{summary[k].share:.1f} ({summary[k].passed}/{summary[k].questions})"
              for k in ("current", "history", "control")),
        )
    out.print(table)
    if json_file:
        save_result(json_file, result, out)
