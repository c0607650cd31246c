"""``ripplemem bench rejudge RESULT.json``: grade a run's kept answers again with another judge."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ripplemem.cli.common import console, friendly, progress_bar
from ripplemem_bench.cli.output import save_result


@friendly
def rejudge_command(
    result_file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="A result of --answer --details.")],
    judge_model: Annotated[str, typer.Option("--judge-model", help="The judge model.")],
    llm_base_url: Annotated[str, typer.Option("--llm-base-url", help="Its OpenAI-compatible endpoint.")],
    json_file: Annotated[Path, typer.Option("--json", dir_okay=False, help="Write the re-graded result here.")],
    locomo: Annotated[
        Path | None,
        typer.Option("--locomo", exists=True, dir_okay=False,
                     help="The LoCoMo file, for results whose rows do not keep the question text."),
    ] = None,
    llm_timeout: Annotated[float | None, typer.Option("--llm-timeout", min=1)] = None,
) -> None:
    """Grade the answers kept in RESULT (run with --answer --details) with --judge-model."""
    from ripplemem import LLMSettings
    from ripplemem.errors import InvalidInputError
    from ripplemem.providers import make_chat
    from ripplemem_bench.answers.judge import Judge
    from ripplemem_bench.answers.rejudge import rejudge
    from ripplemem_bench.results import RetrievalResult, load_result

    result = load_result(result_file)
    if not isinstance(result, RetrievalResult):
        raise InvalidInputError(f"{result_file} is not a LoCoMo or LongMemEval run")
    questions: dict[str, str] = {}
    if locomo is not None:
        from ripplemem.datasets import load_locomo

        questions = {q.id: q.text for sample in load_locomo(locomo) for q in sample.questions}
    judge = Judge(make_chat(LLMSettings(base_url=llm_base_url, model=judge_model, timeout_s=llm_timeout)))
    out = console()
    with progress_bar(out) as progress:
        graded = rejudge(result, judge, questions=questions, progress=progress)
    assert graded.rejudged is not None
    for name, block in graded.rejudged.systems.items():
        out.print(f"{name}: J {block.j or 0.0:.3f} with {judge_model} "
                  f"(agreement with the first judge {block.agreement_with_first_judge or 0.0:.2f})")
    save_result(json_file, graded, out)
