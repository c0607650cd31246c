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

from ripplemem.read.asso.weights import (
    EQUAL_WEIGHTS,
    SignalWeights,
    check_not_fitted_on,
    equal_weights,
)
from ripplemem.recipes import RecallRecipe
from ripplemem.records import Evidence
from ripplemem.settings import Settings
from ripplemem.training.fit_weights import other_half
from ripplemem.training.signal_rows import Candidate, Collection, collect_signals
from ripplemem.training.temperature import Temperature, fit_half, fuse, split_halves
from ripplemem_bench.measure import cpu_info, git_commit, loadavg, package_versions
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
) -> dict:
    """Score ``collection`` three ways: equal thirds, cross-fitted, and optionally ``weights``.

    Returns a result dict shaped like the benchmark's (``recipes`` -> summary) plus a
    ``cross_fit`` block with both halves' weights and question counts.
    """
    halves = split_halves(collection)
    fitted = {
        half: fit_half(collection, half, bins=bins, temperature=temperature, min_rows=min_rows,
                       budget=budget)
        for half in ("A", "B") if halves[half]
    }
    names = ["asso-equal", "asso-crossfit"] + (["asso-weights"] if weights is not None else [])
    scorer = _scorer(collection.dataset, names, budget)
    evaluated_on_fitted = False
    if weights is not None:
        evaluated_on_fitted = check_not_fitted_on(
            weights, [c.question.id for c in collection.questions], force=force_fitted
        )
    equal = equal_weights()
    for half, members in halves.items():
        trained = fitted.get(other_half(half))
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
    result = dict(collection.header)
    result.update(questions=scorer.scored, excluded=dict(scorer.excluded))
    result["recipes"] = {name: scorer.summary(name) for name in names if scorer.rows[name]}
    result["cross_fit"] = {
        "temperature": temperature,  # "auto": chosen per half, see weights.<half>.temperature
        "bins": bins,
        "questions": {half: len(members) for half, members in halves.items()},
        "weights": {half: w.model_dump(mode="json", exclude={"fitted_on": {"question_ids"}})
                    for half, w in fitted.items()},
        "equal_weights": EQUAL_WEIGHTS,
    }
    if weights is not None:
        result["recipes"]["asso-weights"]["evaluated_on_fitted"] = evaluated_on_fitted
        result["evaluated_on_fitted"] = evaluated_on_fitted
    return result


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
) -> dict:
    """``ripplemem bench locomo|longmemeval --cross-fit``: collect once, score cross-fitted."""
    commit = git_commit()  # read now: a long run must name the code it measured
    collection = collect_signals(path, dataset=dataset, limit=limit, settings=settings, store=store,
                                 recipe=recipe, source=source, progress=progress, profile=profile)
    # the benchmark's common K (the asso API's 6 would not compare with the other recipes)
    result = cross_fit(collection, budget=budget or RecallRecipe().budget, temperature=temperature,
                       weights=weights, force_fitted=force_fitted)
    result.update(commit=commit, load=loadavg(), packages=package_versions(), cpu=cpu_info())
    return result


def _scorer(dataset: str, names: list[str], budget: int) -> LocomoScorer | LongMemEvalScorer:
    recipes = {name: RecallRecipe(name=name, budget=budget) for name in names}
    return LocomoScorer(recipes) if dataset == "locomo" else LongMemEvalScorer(recipes)


def _evidence(ranked: list[Candidate], budget: int) -> list[Evidence]:
    return [Evidence(unit=c.unit, score=0.0, hits=()) for c in ranked[:budget]]
