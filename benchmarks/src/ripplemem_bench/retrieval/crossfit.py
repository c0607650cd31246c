"""Cross-fitted evaluation of the fused AssoMem ranking: never report on the fitting questions.

A dev set's questions are split in two halves by a stable hash of their id
(:func:`~ripplemem.training.fit_weights.half_of`). Weights fitted on half A rank the questions of
half B and vice versa; the two scored halves together give the cross-fitted numbers. The same
candidates are also ranked with equal thirds (the unfitted ranker), so the gain of fitting is
measured on the same memory, candidates and questions. Ranking re-fuses the collected signals
(:func:`~ripplemem.training.temperature.fuse`), so one ingest serves every weight set;
``temperature="auto"`` picks T on the fitting half alone, so the scored half never informs its
own ranking.

Evaluating weights on questions they were fitted on raises :class:`FittedQuestionsError`
unless forced, and the result then says ``"evaluated_on_fitted": true``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ripplemem import RecallRecipe, Settings
from ripplemem.read.asso.weights import (
    EQUAL_WEIGHTS,
    SignalWeights,
    check_not_fitted_on,
    equal_weights,
)
from ripplemem.records import Evidence
from ripplemem.training.fit_weights import other_half
from ripplemem.training.signal_rows import Candidate, Collection, collect_signals
from ripplemem.training.temperature import Temperature, fit_half, fuse, split_halves
from ripplemem_bench.measure import cpu_info, git_commit, loadavg, package_versions
from ripplemem_bench.results.base import CpuInfo
from ripplemem_bench.results.retrieval import CrossFit, RetrievalResult
from ripplemem_bench.retrieval.scoring import LocomoScorer, LongMemEvalScorer

if TYPE_CHECKING:
    from ripplemem.training.signal_rows import SignalSource
    from ripplemem.training.workspace import Progress, StoreKind

__all__ = ["cross_fit", "run_cross_fit_bench"]


def cross_fit(
    collection: Collection,
    *,
    budget: int,
    bins: int = 3,
    temperature: Temperature = 1.0,
    min_rows: int = 30,
    weights: SignalWeights | None = None,
    force_fitted: bool = False,
) -> RetrievalResult:
    """Score ``collection`` three ways: equal thirds, cross-fitted, and optionally ``weights``.

    Returns a result shaped like the benchmark's (``recipes`` -> scores) plus a ``cross_fit``
    block with both halves' weights and question counts.
    """
    halves = split_halves(collection)
    fitted = {
        half: fit_half(collection, half, bins=bins, temperature=temperature, min_rows=min_rows,
                       budget=budget)
        for half in ("A", "B") if halves[half]
    }
    names = ["asso-equal", "asso-crossfit"] + (["asso-weights"] if weights is not None else [])
    scorer = _scorer(collection.dataset, names, budget)
    evaluated_on_fitted = weights is not None and check_not_fitted_on(
        weights, [c.question.id for c in collection.questions], force=force_fitted
    )
    for half, members in halves.items():
        _score_half(scorer, members, fitted.get(other_half(half)), weights, budget)
    result = RetrievalResult.model_validate({
        **collection.header,
        "questions": scorer.scored,
        "excluded": dict(scorer.excluded),
        "recipes": {name: scorer.summary(name) for name in names if scorer.rows[name]},
    })
    result.cross_fit = CrossFit(
        temperature=temperature,  # "auto": chosen per half, see weights.<half>.temperature
        bins=bins,
        questions={half: len(members) for half, members in halves.items()},
        weights={half: w.model_dump(mode="json", exclude={"fitted_on": {"question_ids"}})
                 for half, w in fitted.items()},
        equal_weights=EQUAL_WEIGHTS,
    )
    if weights is not None:
        result.recipes["asso-weights"].evaluated_on_fitted = evaluated_on_fitted
        result.evaluated_on_fitted = evaluated_on_fitted
    return result


def _score_half(
    scorer: LocomoScorer | LongMemEvalScorer,
    members: list,
    trained: SignalWeights | None,
    weights: SignalWeights | None,
    budget: int,
) -> None:
    """Rank one half's questions with equal thirds, the other half's fit, and ``weights``."""
    equal = equal_weights()
    for collected in members:
        source = collected.question.source
        if not scorer.admit(source):
            continue
        scorer.score("asso-equal", source, _evidence(fuse(collected, equal), budget))
        if trained is not None:  # else the other half is empty: nothing to fit on
            check_not_fitted_on(trained, [collected.question.id])
            scorer.score("asso-crossfit", source, _evidence(fuse(collected, trained), budget))
        if weights is not None:
            scorer.score("asso-weights", source, _evidence(fuse(collected, weights), budget))


def run_cross_fit_bench(
    path: str | Path,
    *,
    dataset: str | None = None,
    limit: int | None = None,
    settings: Settings | None = None,
    store: StoreKind = "sqlite",
    recipe: str = "asso",
    budget: int | None = None,
    weights: SignalWeights | None = None,
    force_fitted: bool = False,
    progress: Progress | None = None,
    profile: bool = True,
    source: SignalSource | None = None,
    temperature: Temperature = 1.0,
) -> RetrievalResult:
    """``ripplemem bench locomo|longmemeval --cross-fit``: collect once, score cross-fitted."""
    commit = git_commit()  # read now: a long run must name the code it measured
    collection = collect_signals(path, dataset=dataset, limit=limit, settings=settings, store=store,
                                 recipe=recipe, source=source, progress=progress, profile=profile)
    # the benchmark's common K (the asso API's 6 would not compare with the other recipes)
    result = cross_fit(collection, budget=budget or RecallRecipe().budget, temperature=temperature,
                       weights=weights, force_fitted=force_fitted)
    result.commit, result.load = commit, loadavg()
    result.packages, result.cpu = package_versions(), CpuInfo.model_validate(cpu_info())
    return result


def _scorer(dataset: str, names: list[str], budget: int) -> LocomoScorer | LongMemEvalScorer:
    recipes = {name: RecallRecipe(name=name, budget=budget) for name in names}
    return LocomoScorer(recipes) if dataset == "locomo" else LongMemEvalScorer(recipes)


def _evidence(ranked: list[Candidate], budget: int) -> list[Evidence]:
    return [Evidence(unit=c.unit, score=0.0, hits=()) for c in ranked[:budget]]
