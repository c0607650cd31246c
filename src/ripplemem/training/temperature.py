"""Re-rank collected candidates under fitted weights, and choose the softmax temperature T.

Ranking here re-fuses the normalised signals the ranker exposes (``candidate_signals``) with the
RIT ranker's own ordering (``Σ_d w_d(q) · s_d``, ties by relevance then id), so one ingest and one
signal collection serve every weight set.

The paper's T = 1.0 is the default. CMI values are small (millinats: a question has hundreds of
candidates and a few useful ones), so at T = 1 the softmax returns almost equal thirds.
``temperature="auto"`` picks T from :data:`TEMPERATURE_GRID` on the fitting questions alone (best
mean turn recall at the budget there).

Questions are split in two halves by a stable hash of their id (:func:`.fit_weights.half_of`):
:func:`fit_half` fits on one half only, so the other half can score the result.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from ripplemem.read.asso.rit import RITRanker
from ripplemem.read.asso.weights import SIGNALS, SignalWeights
from ripplemem.training.fit_weights import Half, fit_signal_weights, half_of, with_temperature
from ripplemem.training.signal_rows import Candidate, CollectedQuestion, Collection

Temperature = float | Literal["auto"]
#: Candidate temperatures of ``auto``: CMI values are often millinats, so T = 1 gives equal thirds.
TEMPERATURE_GRID: tuple[float, ...] = (1.0, 0.1, 0.03, 0.01, 0.003, 0.001, 0.0003)


def fused_score(candidate: Candidate, weights: dict[str, float]) -> float:
    return sum(w * float(candidate.signals.get(signal, 0.0)) for signal, w in weights.items())


def fuse(collected: CollectedQuestion, weights: SignalWeights) -> list[Candidate]:
    """The question's candidates best first under its type's weights, ordered by the RIT ranker
    itself (ties: higher relevance, then unit id)."""
    candidates = collected.candidates
    chosen = weights.for_type(collected.question.qtype)
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
