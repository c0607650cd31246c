"""``ripplemem bench updates FILE``: the knowledge-update suite (current values, history, controls);
``ripplemem bench lme-updates FILE``: LongMemEval knowledge updates, latest gold session first."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ripplemem.cli.common import console, friendly, progress_bar
from ripplemem_bench.cli.output import save_result

if TYPE_CHECKING:
    from rich.console import Console

    from ripplemem_bench.results.updates import LmeUpdatesResult, UpdatesResult

JsonOption = Annotated[
    Path | None, typer.Option("--json", dir_okay=False, help="Write the result JSON here.")
]


@friendly
def updates(
    path: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="An update suite JSON file.")],
    recipes: Annotated[str, typer.Option("--recipes", help="Comma-separated recipes to compare.")] = "ripple",
    split: Annotated[
        str, typer.Option("--split", help="Run only the conversations of this split (dev, holdout, all).")
    ] = "all",
    json_file: JsonOption = None,
    llm_base_url: Annotated[
        str | None,
        typer.Option("--llm-base-url", help="An OpenAI-compatible endpoint for the write path's update "
                     "judge (extraction and planning stay deterministic) \\[default: no LLM]."),
    ] = None,
    llm_model: Annotated[
        str | None, typer.Option("--llm-model", help="The judge's model \\[default: RIPPLEMEM_LLM_MODEL].")
    ] = None,
) -> None:
    """Share of current-value questions won by the latest value (top 3, above every stale
    statement), of history questions with every needed turn in the top 10, of controls passed.
    With ``--llm-base-url`` the memories are written with the LLM update judge."""
    from ripplemem_bench.measure import cpu_info, git_commit, loadavg
    from ripplemem_bench.results.base import CpuInfo
    from ripplemem_bench.updates.cases import load_cases
    from ripplemem_bench.updates.run import judged_by, run_updates

    cases = load_cases(path, split=split)
    names = [r.strip() for r in recipes.split(",") if r.strip()]
    settings = judged_by(llm_base_url, llm_model) if llm_base_url else None
    out = console()
    with progress_bar(out) as progress:
        result = run_updates(cases, names, settings=settings, progress=progress)
    result.file, result.split = path.name, split
    result.date = datetime.now(UTC).isoformat(timespec="seconds")
    result.load, result.commit = loadavg(), git_commit()
    result.cpu = CpuInfo.model_validate(cpu_info())
    _print_updates(result, out)
    if json_file:
        save_result(json_file, result, out)


def _print_updates(result: UpdatesResult, out: Console) -> None:
    rows = [
        [recipe, *(f"{row.summary[k].share:.1f} ({row.summary[k].passed}/{row.summary[k].questions})"
                   for k in ("current", "history", "control"))]
        for recipe, row in result.recipes.items()
    ]
    title = f"updates · {result.file} · split {result.split} · {result.questions} questions"
    _print_table(out, title, ["recipe", "current %", "history %", "controls %"], rows)
    effect = result.stage_effect()
    if effect is not None:
        from ripplemem_bench.reports.updates import effect_sentence

        out.print(effect_sentence(effect).replace("`", ""))


def _print_table(out: Console, title: str, columns: list[str], rows: list[list[str]]) -> None:
    from rich.table import Table

    table = Table(title=title)
    for column in columns:
        table.add_column(column)
    for row in rows:
        table.add_row(*row)
    out.print(table)


@friendly
def lme_updates(
    path: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="LongMemEval .json or .json.xz.")],
    recipes: Annotated[str, typer.Option("--recipes", help="Comma-separated recipes to compare.")] = (
        "ripple,ripple-no-supersession,hybrid"
    ),
    k: Annotated[int, typer.Option("--k", min=1, help="Distinct sessions that count as found.")] = 10,
    keep: Annotated[
        Path | None,
        typer.Option("--keep", dir_okay=False, help="Keep the ingested haystacks in this SQLite file "
                     "and search those already there without ingesting again (shared with "
                     "`bench longmemeval --keep`; start a new file when the write path changes)."),
    ] = None,
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="Knowledge-update questions to run.")
    ] = None,
    skip: Annotated[
        int, typer.Option("--skip", min=0, help="Skip the file's first N knowledge-update questions.")
    ] = 0,
    json_file: JsonOption = None,
) -> None:
    """Knowledge-update questions with two or more gold sessions: the share where the latest
    (by haystack date) ranks above the earlier ones within the first k sessions, where the session
    holding the answer does (the latest when no single gold session holds it), every gold
    session found, and the latest found."""
    from ripplemem import Settings
    from ripplemem_bench.updates.lme import run_lme_updates

    names = [r.strip() for r in recipes.split(",") if r.strip()]
    out = console()
    with progress_bar(out) as progress:
        result = run_lme_updates(path, recipes=names, k=k, limit=limit, skip=skip, keep=keep,
                                 settings=Settings.from_env(), progress=progress)
    _print_lme_updates(result, out)
    if json_file:
        save_result(json_file, result, out)


def _print_lme_updates(result: LmeUpdatesResult, out: Console) -> None:
    rows = []
    for recipe, row in result.recipes.items():
        s = row.summary
        rows.append([
            recipe,
            f"{s.latest_first:.1f} ({s.latest_first_count}/{s.questions})",
            "–" if s.answer_first is None else
            f"{s.answer_first:.1f} ({s.answer_first_count}/{s.questions})",
            f"{s.all_found:.1f} ({s.all_found_count}/{s.questions})",
            f"{s.latest_found:.1f} ({s.latest_found_count}/{s.questions})",
            f"{s.latest_first_when_all_found:.1f}",
        ])
    title = f"lme-updates · {result.split} · {result.questions} questions · k={result.k} sessions"
    columns = ["recipe", "latest first %", "answer first %", "all found %", "latest found %",
               "first | all found %"]
    _print_table(out, title, columns, rows)
    summary = next(iter(result.recipes.values())).summary if result.recipes else None
    if summary is not None and summary.answer_sessions is not None:
        out.print(f"answer session in {summary.answer_sessions} of {summary.questions} questions "
                  f"({summary.earlier_answers} not the latest); the latest stands in for the rest")
    if result.excluded:
        out.print("not scored: " + ", ".join(f"{n} {why}" for why, n in result.excluded.items()))
