"""``ripplemem bench times FILE``: time expressions of a suite's messages grounded to their spans."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ripplemem.cli.common import console, friendly, progress_bar
from ripplemem_bench.cli.output import save_result

if TYPE_CHECKING:
    from rich.console import Console

    from ripplemem_bench.results.times import TimesResult, TimesScore


@friendly
def times(
    path: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="A time-expression suite JSON file.")],
    split: Annotated[
        str, typer.Option("--split", help="Run only the messages of this split (tune, holdout, all).")
    ] = "all",
    json_file: Annotated[
        Path | None, typer.Option("--json", dir_okay=False, help="Write the result JSON here.")
    ] = None,
    failures: Annotated[
        bool, typer.Option("--failures", help="Also print each message that fails and what was grounded.")
    ] = False,
) -> None:
    """Share of messages whose every time expression is grounded to the span the suite expects
    (and, for a message with no definite time, to none), per language and kind of expression."""
    from ripplemem_bench.measure import cpu_info, git_commit, loadavg
    from ripplemem_bench.results.base import CpuInfo
    from ripplemem_bench.times.cases import load_time_cases
    from ripplemem_bench.times.run import run_times

    cases = load_time_cases(path, split=split)
    out = console()
    with progress_bar(out) as progress:
        result = run_times(cases, progress=progress)
    result.file, result.split = path.name, split
    result.date = datetime.now(UTC).isoformat(timespec="seconds")
    result.load, result.commit = loadavg(), git_commit()
    result.cpu = CpuInfo.model_validate(cpu_info())
    _print_times(result, out, failures=failures, texts={c.id: c.text for c in cases})
    if json_file:
        save_result(json_file, result, out)


def _print_times(result: TimesResult, out: Console, *, failures: bool, texts: dict[str, str]) -> None:
    from rich.markup import escape
    from rich.table import Table

    for title, scores in (("language", result.by_language), ("kind", result.by_category)):
        table = Table(title=f"times · {result.file} · split {result.split} · by {title}")
        for column in (title, "messages right", "expressions found"):
            table.add_column(column)
        for name, score in scores.items():
            table.add_row(name, *_cells(score))
        out.print(table)
    if failures:
        for row in result.rows:
            if not row["passed"]:
                grounded = ", ".join(f"{p!r} {a}..{b}" for p, a, b in row["grounded"]) or "nothing"
                out.print(escape(f"{row['id']}: {texts.get(row['id'], '')}\n  missed {row['missed']}; grounded {grounded}"))


def _cells(score: TimesScore) -> list[str]:
    found = f"{score.found}/{score.expressions}" if score.expressions else "—"
    return [f"{score.share:.1f} % ({score.passed}/{score.cases})", found]
