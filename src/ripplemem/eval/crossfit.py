"""Cross-fitted evaluation of the fused AssoMem ranking: never report on the fitting questions.

A dev set's questions are split in two halves by a stable hash of their id
(:func:`~ripplemem.eval.fit_weights.half_of`). Weights fitted on half A rank the questions of half B
and vice versa; the two scored halves together give the cross-fitted numbers. The same candidates
are also ranked with equal thirds (the unfitted ranker), so the gain of fitting is measured on the
same memory, candidates and questions.

Ranking here re-fuses the normalised signals the ranker exposes (``candidate_signals``) with the
RIT ranker's own ordering (``Σ_d w_d(q) · s_d``, ties by relevance then id), so one ingest and one
signal collection serve every weight set.

The paper's T = 1.0 is the default. CMI values are small (millinats: a question has hundreds of
candidates and a few useful ones), so at T = 1 the softmax returns almost equal thirds.
``temperature="auto"`` picks T from :data:`TEMPERATURE_GRID` on the fitting half alone (best mean
turn recall at the budget there), so the scored half still never informs its own ranking.

Evaluating weights on questions they were fitted on raises :class:`FittedQuestionsError`
unless forced, and the result then says ``"evaluated_on_fitted": true``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

import numpy as np

from ripplemem.errors import FittedQuestionsError
from ripplemem.eval.fit_weights import (
    Half,
    fit_signal_weights,
    half_of,
    other_half,
    with_temperature,
)
from ripplemem.eval.signal_rows import Candidate, CollectedQuestion, Collection, collect_signals
from ripplemem.read.asso.weights import (
    EQUAL_WEIGHTS,
    SIGNALS,
    SignalWeights,
    check_not_fitted_on,
    equal_weights,
)
from ripplemem.settings import Settings

Temperature = float | Literal["auto"]
#: Candidate temperatures of ``auto``: CMI values are often millinats, so T = 1 gives equal thirds.
TEMPERATURE_GRID: tuple[float, ...] = (1.0, 0.1, 0.03, 0.01, 0.003, 0.001, 0.0003)

__all__ = ["FittedQuestionsError", "check_not_fitted_on", "cross_fit", "fit_half", "fuse",
           "run_cross_fit_bench", "select_temperature", "split_halves"]

if TYPE_CHECKING:
    from ripplemem.eval.bench import Progress, StoreKind
    from ripplemem.eval.signal_rows import SignalSource
    from ripplemem.records import Evidence


def fused_score(candidate: Candidate, weights: dict[str, float]) -> float:
    return sum(w * float(candidate.signals.get(signal, 0.0)) for signal, w in weights.items())


def fuse(collected: CollectedQuestion, weights: SignalWeights) -> list[Candidate]:
    """The question's candidates best first under its type's weights, ordered by the RIT ranker
    itself (ties: higher relevance, then unit id)."""
    candidates = collected.candidates
    chosen = weights.for_type(collected.question.qtype)
    try:
        from ripplemem.read.asso.rit import RITRanker
    except ImportError:  # a build without the ranker: the same order, computed here
        return sorted(candidates, key=lambda c: (-fused_score(c, chosen),
                                                 -c.signals.get("relevance", 0.0), c.unit.id))
    signals = {s: np.array([c.signals.get(s, 0.0) for c in candidates], dtype=np.float64)
               for s in SIGNALS}
    order = RITRanker(chosen).order([c.unit for c in candidates], signals)
    return [candidates[i] for i in order]


def split_halves(collection: Collection) -> dict[Half, list[CollectedQuestion]]:
    halves: dict[Half, list[CollectedQuestion]] = {"A": [], "B": []}
    for collected in collection.questions:
        halves[half_of(collected.question.id)].append(collected)
    return halves


def fit_half(
    collection: Collection,
    half: Half,
    *,
    bins: int = 3,
    temperature: Temperature = 1.0,
    min_rows: int = 30,
    budget: int = 30,
) -> SignalWeights:
    """Weights fitted on the questions of one half only (``auto``: T chosen on that half too)."""
    members = split_halves(collection)[half]
    rows = [row for c in members for row in c.rows()]
    fitted = fit_signal_weights(rows, dataset=collection.dataset, bins=bins,
                                temperature=1.0 if temperature == "auto" else temperature,
                                min_rows=min_rows, half=half)
    if temperature == "auto":
        best, _ = select_temperature(members, fitted, budget=budget)
        fitted = with_temperature(fitted, best)
    return fitted


def turn_recall(collected: CollectedQuestion, ranked: list[Candidate], k: int) -> float:
    """Share of the question's gold turns among the source turns of the top ``k`` candidates."""
    gold = collected.question.gold_turns
    covered = {t for c in ranked[:k] for t in c.unit.turn_ids} & gold
    return len(covered) / len(gold) if gold else 0.0


def select_temperature(
    questions: list[CollectedQuestion],
    fitted: SignalWeights,
    *,
    budget: int,
    grid: tuple[float, ...] = TEMPERATURE_GRID,
) -> tuple[float, dict[float, float]]:
    """The T of ``grid`` whose re-softmaxed weights give the best mean turn recall@``budget``
    on ``questions`` (the fitting questions; ties go to the larger T)."""
    scores: dict[float, float] = {}
    for temperature in grid:
        weights = with_temperature(fitted, temperature)
        recalls = [turn_recall(c, fuse(c, weights), budget) for c in questions]
        scores[temperature] = sum(recalls) / len(recalls) if recalls else 0.0
    best = max(grid, key=lambda t: (round(scores[t], 12), t))
    return best, scores


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
    from ripplemem.recipes import RecallRecipe

    collection = collect_signals(path, dataset=dataset, limit=limit, settings=settings, store=store,
                                 recipe=recipe, source=source, progress=progress, profile=profile)
    # the benchmark's common K (the asso API's 6 would not compare with the other recipes)
    return cross_fit(collection, budget=budget or RecallRecipe().budget, temperature=temperature,
                     weights=weights, force_fitted=force_fitted)


def _scorer(dataset: str, names: list[str], budget: int):
    from ripplemem.eval.retrieval_scoring import LocomoScorer, LongMemEvalScorer
    from ripplemem.recipes import RecallRecipe

    recipes = {name: RecallRecipe(name=name, budget=budget) for name in names}
    return LocomoScorer(recipes) if dataset == "locomo" else LongMemEvalScorer(recipes)


def _evidence(ranked: list[Candidate], budget: int) -> list[Evidence]:
    from ripplemem.records import Evidence

    return [Evidence(unit=c.unit, score=0.0, hits=()) for c in ranked[:budget]]
