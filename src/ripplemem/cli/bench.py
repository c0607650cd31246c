"""``ripplemem bench locomo|longmemeval PATH``: retrieval benchmarks with a rich progress bar."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from ripplemem.cli.bench_report import report
from ripplemem.cli.common import console, friendly
from ripplemem.cli.speed import scale, speed

bench_app = typer.Typer(
    help="Retrieval benchmarks (no LLM needed): every recipe on one ingested memory.",
    no_args_is_help=True,
)
bench_app.command(name="speed")(speed)
bench_app.command(name="scale")(scale)
bench_app.command(name="report")(report)

RecipesOption = Annotated[
    str, typer.Option("--recipes", help="Comma-separated recipes to compare.")
]
LimitOption = Annotated[
    int | None,
    typer.Option("--limit", min=1, help="Conversations (LoCoMo) or questions (LongMemEval) to run."),
]
JsonOption = Annotated[Path | None, typer.Option("--json", dir_okay=False, help="Write the result dict here.")]
MarkdownOption = Annotated[
    Path | None, typer.Option("--markdown", dir_okay=False, help="Write the Markdown tables here.")
]
StoreKindOption = Annotated[
    str, typer.Option("--store", help="Where the benchmark memory lives: sqlite (temp file) or memory.")
]
BudgetOption = Annotated[
    int | None, typer.Option("--budget", min=1, help="Evidence budget per search [default: recipe's].")
]
DetailsOption = Annotated[bool, typer.Option("--details", help="Keep per-question scores in the JSON.")]
ProfileOption = Annotated[
    bool, typer.Option("--profile/--no-profile", help="Apply the paper's per-dataset windows and view sizes.")
]


@bench_app.command()
@friendly
def locomo(
    path: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="LoCoMo JSON file.")],
    recipes: RecipesOption = "ripple,bm25,dense,hybrid",
    limit: LimitOption = None,
    json_file: JsonOption = None,
    markdown: MarkdownOption = None,
    store: StoreKindOption = "sqlite",
    budget: BudgetOption = None,
    details: DetailsOption = False,
    profile: ProfileOption = True,
) -> None:
    """LoCoMo turn-level evidence recall@K, all@K and context tokens (categories 1-4)."""
    from ripplemem.eval.bench import run_locomo_bench

    _run(run_locomo_bench, path, recipes, limit, json_file, markdown, store, budget, details, profile)


@bench_app.command()
@friendly
def longmemeval(
    path: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="LongMemEval .json or .json.xz.")],
    recipes: RecipesOption = "ripple,bm25,dense,hybrid",
    limit: LimitOption = None,
    json_file: JsonOption = None,
    markdown: MarkdownOption = None,
    store: StoreKindOption = "sqlite",
    budget: BudgetOption = None,
    details: DetailsOption = False,
    profile: ProfileOption = True,
) -> None:
    """LongMemEval official session/turn recall_any, recall_all and NDCG at k."""
    from ripplemem.eval.bench import run_longmemeval_bench

    _run(run_longmemeval_bench, path, recipes, limit, json_file, markdown, store, budget, details, profile)


def _run(
    runner: Callable[..., dict],
    path: Path,
    recipes: str,
    limit: int | None,
    json_file: Path | None,
    markdown: Path | None,
    store: str,
    budget: int | None,
    details: bool,
    profile: bool,
) -> None:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ripplemem.errors import InvalidInputError
    from ripplemem.eval.report import render_console, render_markdown
    from ripplemem.settings import Settings

    if store not in ("sqlite", "memory"):
        raise InvalidInputError(f"--store must be 'sqlite' or 'memory', not {store!r}")
    names = [name.strip() for name in recipes.split(",") if name.strip()]
    out = console()
    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=out, transient=True,
    ) as bar:
        task = bar.add_task("loading", total=None)

        def progress(what: str, done: int, total: int | None) -> None:
            bar.update(task, description=what, completed=done, total=total)

        result = runner(
            path, recipes=names, limit=limit, settings=Settings.from_env(), progress=progress,
            store=store, budget=budget, details=details, profile=profile,
        )
    render_console(result, out)
    if json_file is not None:
        json_file.parent.mkdir(parents=True, exist_ok=True)
        json_file.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        out.print(f"wrote {json_file}")
    if markdown is not None:
        markdown.parent.mkdir(parents=True, exist_ok=True)
        markdown.write_text(render_markdown(result), encoding="utf-8")
        out.print(f"wrote {markdown}")
