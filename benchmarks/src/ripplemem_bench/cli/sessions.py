"""``ripplemem bench lme-sessions PATH --keep DB``: where LongMemEval gold sessions drop out.

Reads only the conversations a ``bench longmemeval --keep DB`` run wrote (it never ingests), runs
each recipe with its trace and prints, per question type, how many gold sessions each stage lost
at k (see :mod:`ripplemem_bench.retrieval.sessions`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ripplemem.cli.common import console, friendly
from ripplemem_bench.retrieval.sessions import STAGES, QuestionTrail, summarise, trail

if TYPE_CHECKING:
    from rich.console import Console

    from ripplemem import MemoryUnit


@friendly
def lme_sessions(
    path: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="LongMemEval .json or .json.xz.")],
    keep: Annotated[
        Path, typer.Option("--keep", exists=True, dir_okay=False,
                           help="The SQLite file a `bench longmemeval --keep` run wrote.")
    ],
    recipes: Annotated[str, typer.Option("--recipes", help="Comma-separated recipes.")] = "ripple,hybrid",
    k: Annotated[int, typer.Option("--k", min=1, help="Distinct sessions that count as found.")] = 5,
    limit: Annotated[int | None, typer.Option("--limit", min=1, help="Questions to read.")] = None,
    skip: Annotated[int, typer.Option("--skip", min=0, help="Skip the file's first N questions.")] = 0,
    json_file: Annotated[Path | None, typer.Option("--json", dir_okay=False, help="Write the trails here.")] = None,
) -> None:
    """Per question type: the stage at which each gold session was lost (LongMemEval-S)."""
    from dataclasses import asdict

    names = [name.strip() for name in recipes.split(",") if name.strip()]
    trails = _trails(path, keep, names, limit, skip)
    out = console()
    summaries = {name: summarise(items, k) for name, items in trails.items()}
    for name, summary in summaries.items():
        _print_summary(out, name, summary, k)
    if json_file is not None:
        json_file.parent.mkdir(parents=True, exist_ok=True)
        trails_json = {name: [asdict(item) for item in items] for name, items in trails.items()}
        json_file.write_text(json.dumps({"k": k, "summary": summaries, "trails": trails_json},
                                        indent=2) + "\n", encoding="utf-8")
        out.print(f"wrote {json_file}")


def _trails(
    path: Path, keep: Path, names: list[str], limit: int | None, skip: int
) -> dict[str, list[QuestionTrail]]:
    """Each recipe's trail of every scored question the kept store holds."""
    from ripplemem import Settings
    from ripplemem.datasets import load_longmemeval
    from ripplemem.training.workspace import dataset_recipe
    from ripplemem_bench.retrieval.kept import KeptIngest
    from ripplemem_bench.retrieval.runners import take

    settings = Settings.from_env()
    chosen = {n: dataset_recipe(n, dataset="longmemeval", settings=settings) for n in names}
    kept = KeptIngest.open(keep, "longmemeval", settings=settings, profile=True)
    trails: dict[str, list[QuestionTrail]] = {name: [] for name in names}
    try:
        memory = kept.memory
        for sample in take(load_longmemeval(path), limit, skip):
            question = sample.question
            namespace = f"bench/{question.id}"
            if question.abstention or not question.gold_turns or kept.cost(namespace) is None:
                continue

            def units(ids: Iterable[str], namespace: str = namespace) -> dict[str, MemoryUnit]:
                return {u.id: u for u in memory.store.get_units(namespace, list(ids))}

            for name, recipe in chosen.items():
                found = memory.search(question.text, namespace=namespace, recipe=recipe,
                                      question_time=question.question_time)
                trace = found.trace if recipe.kind == "ripple" else None
                trails[name].append(trail(question, found.evidence, trace, units, recipe))
    finally:
        kept.close()
    return trails


def _print_summary(out: Console, name: str, summary: dict, k: int) -> None:
    from rich.table import Table

    kinds = ("new", "repeat", "assistant", "context")
    table = Table(title=f"{name}: gold sessions lost at k={k}, by stage")
    for column in ("type", "questions", "gold", f"all@{k}", *STAGES, *kinds):
        table.add_column(column, justify="left" if column == "type" else "right")
    for group, row in summary.items():
        slots = row["slots_per_question"]
        table.add_row(
            group, str(row["questions"]), str(row["gold_sessions"]), f"{row['recall_all']:.1f}",
            *(str(row["lost"][stage]) for stage in STAGES),
            *(f"{slots[kind]:.1f}" for kind in kinds),
        )
    out.print(table)
