"""``ripplemem bench locomo|longmemeval PATH``: retrieval benchmarks with a rich progress bar."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ripplemem.cli.asso import parse_temperature
from ripplemem.cli.common import console, friendly, progress_bar
from ripplemem_bench.cli.output import save_result

if TYPE_CHECKING:
    from ripplemem import Settings
    from ripplemem_bench.answers.setup import AnswerSetup
    from ripplemem_bench.results import RetrievalResult

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
    str, typer.Option(
        "--store",
        help="Where the benchmark memory lives: sqlite (temp file), memory, or a store URL "
        "(postgresql://...; each conversation's namespace is emptied before and after use).",
    )
]
BudgetOption = Annotated[
    int | None,
    typer.Option("--k", min=1, help="Evidence items per search, K \\[default: the recipe's, 30]."),
]
KeepOption = Annotated[
    Path | None,
    typer.Option("--keep", dir_okay=False, help="Keep the ingested conversations in this SQLite "
                 "file and search those already there without ingesting again (re-run the read "
                 "path on the same memory; start a new file when the write path changes)."),
]
DetailsOption = Annotated[bool, typer.Option("--details", help="Keep per-question scores in the JSON.")]
TokenBudgetOption = Annotated[
    int | None,
    typer.Option("--budget", "--token-budget", min=1, metavar="TOKENS",
                 help="Cut each system's ranked evidence to at most TOKENS context tokens "
                 "(WordPiece) before scoring and answering: compare at equal context size."),
]
AnswerOption = Annotated[
    bool, typer.Option("--answer", help="Also answer every question from the evidence and judge it.")
]
LlmBaseUrlOption = Annotated[
    str | None,
    typer.Option("--llm-base-url", help="OpenAI-compatible endpoint for answers and the judge "
                 "\\[default: RIPPLEMEM_LLM_BASE_URL]."),
]
LlmModelOption = Annotated[
    str | None, typer.Option("--llm-model", help="Answer model \\[default: RIPPLEMEM_LLM_MODEL].")
]
JudgeModelOption = Annotated[
    str | None, typer.Option("--judge-model", help="Judge model on the same endpoint \\[default: the answer model].")
]
ProfileOption = Annotated[
    bool, typer.Option("--profile/--no-profile", help="Apply the paper's per-dataset windows and view sizes.")
]
CrossFitOption = Annotated[
    bool, typer.Option("--cross-fit", help="Score the asso recipe with weights fitted on the other half.")
]
WeightsOption = Annotated[
    Path | None, typer.Option("--weights", dir_okay=False, help="Fitted asso weights (fit-weights --out).")
]
ForceFittedOption = Annotated[
    bool, typer.Option("--force-fitted", help="Allow weights fitted on the evaluated questions (flagged).")
]
FitTemperatureOption = Annotated[
    str, typer.Option("--fit-temperature", help="T of the --cross-fit fits, or 'auto' (chosen per half).")
]


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
    token_budget: TokenBudgetOption = None,
    answer: AnswerOption = False,
    llm_base_url: LlmBaseUrlOption = None,
    llm_model: LlmModelOption = None,
    judge_model: JudgeModelOption = None,
    cross_fit: CrossFitOption = False,
    weights: WeightsOption = None,
    force_fitted: ForceFittedOption = False,
    fit_temperature: FitTemperatureOption = "1.0",
    keep: KeepOption = None,
    questions: Annotated[
        int | None,
        typer.Option("--questions", min=1, help="A fixed random sample of N scored questions per "
                     "conversation (a budget for slow answer models)."),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the --questions sample.")] = 0,
    llm_timeout: Annotated[
        float | None,
        typer.Option("--llm-timeout", min=1, help="Seconds one answer or judge call may take "
                     "\\[default: RIPPLEMEM_LLM_TIMEOUT_S, else 60, or 1800 for a local endpoint]."),
    ] = None,
) -> None:
    """LoCoMo turn-level evidence recall@K, all@K and context tokens (categories 1-4)."""
    from ripplemem_bench.retrieval.runners import run_locomo_bench

    sampled = {"questions": questions, "seed": seed} if questions is not None else None
    _run(run_locomo_bench, path, recipes, limit, json_file, markdown, store, budget, details, profile,
         token_budget=token_budget, extra=sampled, llm_timeout=llm_timeout,
         answering=AnswerChoice(answer, llm_base_url, llm_model, judge_model),
         asso=(cross_fit, weights, force_fitted, fit_temperature), keep=keep)


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
    token_budget: TokenBudgetOption = None,
    answer: AnswerOption = False,
    llm_base_url: LlmBaseUrlOption = None,
    llm_model: LlmModelOption = None,
    judge_model: JudgeModelOption = None,
    cross_fit: CrossFitOption = False,
    weights: WeightsOption = None,
    force_fitted: ForceFittedOption = False,
    fit_temperature: FitTemperatureOption = "1.0",
    skip: Annotated[
        int, typer.Option("--skip", min=0, help="Skip the file's first N questions (a disjoint sample).")
    ] = 0,
    keep: KeepOption = None,
) -> None:
    """LongMemEval official session/turn recall_any, recall_all and NDCG at k."""
    from ripplemem_bench.retrieval.runners import run_longmemeval_bench

    _run(run_longmemeval_bench, path, recipes, limit, json_file, markdown, store, budget, details, profile,
         token_budget=token_budget, extra={"skip": skip} if skip else None,
         answering=AnswerChoice(answer, llm_base_url, llm_model, judge_model),
         asso=(cross_fit, weights, force_fitted, fit_temperature), keep=keep)


@dataclass(frozen=True)
class AnswerChoice:
    """The --answer options as given; turned into an AnswerSetup at the edge."""

    enabled: bool
    base_url: str | None
    model: str | None
    judge_model: str | None


def answer_setup(
    choice: AnswerChoice, settings: Settings, timeout_s: float | None = None
) -> AnswerSetup | None:
    """Build the answerer and judge from the flags, falling back to the RIPPLEMEM_LLM_* settings."""
    from ripplemem import LLMSettings
    from ripplemem.errors import ConfigurationError
    from ripplemem.providers import make_chat
    from ripplemem_bench.answers.answering import Answerer
    from ripplemem_bench.answers.judge import Judge
    from ripplemem_bench.answers.setup import AnswerSetup

    if not choice.enabled:
        if choice.base_url or choice.model or choice.judge_model:
            raise ConfigurationError("--llm-base-url, --llm-model and --judge-model need --answer")
        return None
    base = settings.llm
    base_url = choice.base_url or (base.base_url if base else None)
    model = choice.model or (base.model if base else None)
    if not base_url or not model:
        raise ConfigurationError(
            "--answer needs an LLM endpoint: pass --llm-base-url and --llm-model (or set "
            "RIPPLEMEM_LLM_BASE_URL and RIPPLEMEM_LLM_MODEL)"
        )
    api_key = base.api_key if base else _env_api_key()
    if timeout_s is None and base is not None:
        timeout_s = base.timeout_s
    answer_llm = LLMSettings(base_url=base_url, model=model, api_key=api_key, timeout_s=timeout_s)
    judge_llm = answer_llm.model_copy(update={"model": choice.judge_model or model})
    return AnswerSetup(Answerer(make_chat(answer_llm)), Judge(make_chat(judge_llm)), base_url)


def _env_api_key() -> str | None:
    import os

    return os.environ.get("RIPPLEMEM_LLM_API_KEY") or os.environ.get("OPENAI_API_KEY") or None


def _run(
    runner: Callable[..., RetrievalResult],
    path: Path,
    recipes: str,
    limit: int | None,
    json_file: Path | None,
    markdown: Path | None,
    store: str,
    budget: int | None,
    details: bool,
    profile: bool,
    *,
    token_budget: int | None = None,
    answering: AnswerChoice | None = None,
    asso: tuple[bool, Path | None, bool, str] = (False, None, False, "1.0"),
    extra: dict | None = None,
    keep: Path | None = None,
    llm_timeout: float | None = None,
) -> None:
    from ripplemem import Settings
    from ripplemem.errors import InvalidInputError
    from ripplemem_bench.reports.console import render_console
    from ripplemem_bench.reports.retrieval import render_markdown

    if store not in ("sqlite", "memory") and "://" not in store:
        raise InvalidInputError(
            f"--store must be 'sqlite', 'memory' or a store URL (postgresql://...), not {store!r}"
        )
    names = [name.strip() for name in recipes.split(",") if name.strip()]
    settings = Settings.from_env()
    setup = answer_setup(answering, settings, llm_timeout) if answering is not None else None
    if asso[0] or asso[1] is not None:
        runner = bench_with_weights(runner, names, cross_fit=asso[0], weights_file=asso[1],
                                    force_fitted=asso[2], temperature=asso[3])
    out = console()
    with progress_bar(out) as progress:
        result = runner(
            path, recipes=names, limit=limit, settings=settings, progress=progress,
            store=store, budget=budget, details=details, profile=profile,
            token_budget=token_budget, answering=setup, **(extra or {}),
            **({"keep": keep} if keep is not None else {}),
        )
    render_console(result, out)
    if json_file is not None:
        save_result(json_file, result, out)
    if markdown is not None:
        markdown.parent.mkdir(parents=True, exist_ok=True)
        markdown.write_text(render_markdown(result), encoding="utf-8")
        out.print(f"wrote {markdown}")


def bench_with_weights(
    runner: Callable[..., RetrievalResult],
    names: list[str],
    *,
    cross_fit: bool,
    weights_file: Path | None,
    force_fitted: bool,
    temperature: str = "1.0",
) -> Callable[..., RetrievalResult]:
    """Wrap a ``bench`` runner for ``--cross-fit`` / ``--weights`` / ``--force-fitted``.

    ``--cross-fit``: one ingest, the asso recipe (the first ``asso*`` of ``--recipes``, else
    ``asso``) scored with equal thirds and cross-fitted weights (plus ``--weights`` when given).
    ``--weights`` alone: the usual run with ``Settings.asso_weights`` set; the benchmark refuses
    questions the weights were fitted on unless ``--force-fitted`` (then flags the result).
    """
    from ripplemem.errors import InvalidInputError
    from ripplemem.read.asso.weights import load_weights
    from ripplemem_bench.retrieval.crossfit import run_cross_fit_bench

    weights = load_weights(weights_file) if weights_file is not None else None
    dataset = "locomo" if "locomo" in runner.__name__ else "longmemeval"
    recipe = next((name for name in names if name.startswith("asso")), "asso")

    def run(path: Path, *, limit: int | None, settings, progress, store, budget, details, profile,
            recipes: list[str], token_budget: int | None = None, answering=None,
            **extra) -> RetrievalResult:
        if cross_fit:
            if extra:
                raise InvalidInputError(
                    f"--cross-fit reads the whole file; drop {', '.join('--' + k for k in extra)}"
                )
            return run_cross_fit_bench(path, dataset=dataset, limit=limit, settings=settings,
                                       store=store, recipe=recipe, budget=budget, weights=weights,
                                       force_fitted=force_fitted, progress=progress, profile=profile,
                                       temperature=parse_temperature(temperature))
        return runner(path, recipes=recipes, limit=limit, progress=progress, store=store,
                      budget=budget, details=details, profile=profile, force_fitted=force_fitted,
                      settings=settings.model_copy(update={"asso_weights": weights_file}),
                      token_budget=token_budget, answering=answering, **extra)

    return run
