"""AssoMem commands: ``fit-weights``, ``export-finetune``, ``question-types`` (adapters only).

The work happens in :mod:`ripplemem.training` (signal rows, weight fitting, temperature choice,
fine-tuning export, gold questions).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from ripplemem.cli.common import console

DataArgument = Annotated[
    Path, typer.Argument(exists=True, dir_okay=False, help="LoCoMo JSON or LongMemEval .json/.json.xz.")
]
OutOption = Annotated[Path, typer.Option("--out", dir_okay=False, help="File to write.")]
LimitOption = Annotated[
    int | None,
    typer.Option("--limit", min=1, help="Conversations (LoCoMo) or questions (LongMemEval) to read."),
]
HalfOption = Annotated[
    str | None, typer.Option("--half", help="Only the questions of half A or B (stable hash of the id).")
]
StoreOption = Annotated[str, typer.Option("--store", help="Working memory: sqlite (temp file) or memory.")]


def fit_weights(
    data: DataArgument,
    out: OutOption = Path("weights.json"),
    half: HalfOption = None,
    limit: LimitOption = None,
    recipe: Annotated[str, typer.Option(help="Recipe whose candidates and signals are fitted.")] = "asso",
    temperature: Annotated[
        str, typer.Option(help="Softmax temperature T, or 'auto': the best of a grid on DATA.")
    ] = "1.0",
    min_rows: Annotated[int, typer.Option(help="Types with fewer rows get the pooled fit.")] = 30,
    store: StoreOption = "sqlite",
) -> None:
    """Fit per-question-type fusion weights softmax(CMI / T) from the labelled evidence of DATA."""
    from rich.table import Table

    from ripplemem.settings import Settings
    from ripplemem.training.fit_weights import (
        POOLED,
        SIGNALS,
        fit_signal_weights,
        half_of,
        save_weights,
    )
    from ripplemem.training.signal_rows import collect_signals

    chosen = _half(half)
    out_console = console()
    with out_console.status("ingesting and collecting candidate signals"):
        collection = collect_signals(
            data, limit=limit, settings=Settings.from_env(), store=store, recipe=recipe,
            keep=(lambda q: half_of(q.id) == chosen) if chosen else None,
        )
    chosen_t = parse_temperature(temperature)
    weights = fit_signal_weights(collection.rows(), dataset=f"{collection.dataset}:{data.name}",
                                 temperature=1.0 if chosen_t == "auto" else chosen_t,
                                 min_rows=min_rows, half=chosen)
    if chosen_t == "auto":
        from ripplemem.recipes import RecallRecipe
        from ripplemem.training.fit_weights import with_temperature
        from ripplemem.training.temperature import select_temperature

        best, _ = select_temperature(collection.questions, weights, budget=RecallRecipe().budget)
        weights = with_temperature(weights, best)
    save_weights(weights, out)
    fitted_on = weights.fitted_on
    rows_by_type = {**(fitted_on.rows_by_type if fitted_on else {}), POOLED: fitted_on.rows if fitted_on else 0}
    table = Table(title=f"weights fitted on {len(collection.questions)} questions, T = {weights.temperature} "
                        "(CMI in millinats; '-': too few rows, pooled fit)")
    for column in ("type", "rows", *(f"w {s[:3]}" for s in SIGNALS), *(f"CMI {s[:3]}" for s in SIGNALS)):
        table.add_column(column, justify="left" if column == "type" else "right")
    for qtype, values in [*weights.by_type.items(), (POOLED, weights.default)]:
        cmi = weights.cmi.get(qtype)
        table.add_row(qtype, str(rows_by_type.get(qtype, "")), *(f"{values[s]:.3f}" for s in SIGNALS),
                      *(f"{1000 * cmi[s]:.2f}" if cmi else "-" for s in SIGNALS))
    out_console.print(table)
    out_console.print(f"wrote {out}")


def export_finetune(
    data: DataArgument,
    out: OutOption = Path("train.jsonl"),
    seed: Annotated[int, typer.Option(help="Random seed (same seed, same file).")] = 13,
    copies: Annotated[int, typer.Option(min=1, help="Shuffled, subsampled copies per question.")] = 6,
    top: Annotated[int, typer.Option(min=0, help="Retrieved units added to the gold turns.")] = 6,
    recipe: Annotated[str | None, typer.Option(help="Retrieval recipe \\[default: asso, else ripple].")] = None,
    half: HalfOption = None,
    limit: LimitOption = None,
    store: StoreOption = "sqlite",
) -> None:
    """Write denoising fine-tuning data (chat-format JSONL) from the questions of DATA."""
    from ripplemem.settings import Settings
    from ripplemem.training.finetune import export_finetune as run_export

    out_console = console()
    with out_console.status("ingesting and retrieving"):
        summary = run_export(data, out, limit=limit, settings=Settings.from_env(), store=store,
                             seed=seed, copies=copies, top=top, recipe=recipe, half=_half(half))
    out_console.print(f"wrote {summary.examples} examples for {summary.questions} questions to "
                      f"{summary.path} (recipe {summary.recipe}, seed {summary.seed})")


def question_types(
    data: DataArgument,
    limit: LimitOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Accuracy of the rule-based question-type classifier against DATA's own labels."""
    from rich.table import Table

    from ripplemem.training.gold_questions import classifier_report

    report: dict[str, Any] = classifier_report(data, limit=limit)
    if as_json:
        typer.echo(json.dumps(report, indent=2))
        return
    table = Table(title=f"{report['file']}: accuracy {100 * report['accuracy']:.1f}% "
                        f"on {report['questions']} questions")
    for column in ("gold type", "questions", "accuracy", "predicted as"):
        table.add_column(column)
    for gold, values in report["by_type"].items():
        confusion = ", ".join(f"{k} {v}" for k, v in report["confusion"][gold].items())
        table.add_row(gold, str(values["questions"]), f"{100 * values['accuracy']:.1f}%", confusion)
    console().print(table)


def parse_temperature(text: str) -> float | Literal["auto"]:
    """``"auto"`` or a positive number."""
    from ripplemem.errors import InvalidInputError

    if text.strip().lower() == "auto":
        return "auto"
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise InvalidInputError(f"temperature must be a positive number or 'auto', not {text!r}")
    return value


def _half(half: str | None):
    from ripplemem.errors import InvalidInputError

    if half is None:
        return None
    if half.upper() not in ("A", "B"):
        raise InvalidInputError(f"--half must be A or B, not {half!r}")
    return half.upper()
