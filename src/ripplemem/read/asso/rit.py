"""RITRanker: relevance, importance and temporal alignment, fused per question type (§2).

``S(u) = w_R·R(u) + w_I·I(u) + w_T·T(u)`` where each signal is min-max normalised to [0, 1] over
the candidate set (1 for every candidate when a signal cannot tell them apart):

* ``R``: cosine of the query and the unit's vector — blended half and half with BM25 when
  ``recipe.asso.lexical`` (the default; ``asso-paper-relevance`` keeps cosine alone);
* ``I``: personalised PageRank on the local candidate subgraph (:mod:`.importance`);
  candidates are cut to the ``recipe.asso.rerank_depth`` most relevant first;
* ``T``: temporal alignment with the question's time constraint (:mod:`.temporal`).

Weights: ``recipe.asso.weights_path`` (fitted per question type, ``ripplemem fit-weights``) for the
type :func:`~ripplemem.read.asso.qtype.classify_question` gives, else equal thirds; the ablations
zero a signal's weight (``use_importance`` / ``use_temporal``) and renormalise the rest.
:func:`candidate_signals` exposes the normalised signals per candidate for the weight fitter.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

import numpy as np

from ripplemem.providers.base import Embedder
from ripplemem.read.asso.candidates import Candidates, find_candidates
from ripplemem.read.asso.importance import importance, local_graph
from ripplemem.read.asso.temporal import TimeConstraint, temporal_scores, time_constraint
from ripplemem.read.asso.weights import EQUAL_WEIGHTS, SIGNALS, SignalWeights, load_weights
from ripplemem.recipes import RecallRecipe
from ripplemem.records import MemoryUnit
from ripplemem.stores.base import MemoryStore
from ripplemem.stores.clues_base import ClueStore

Signals = dict[str, np.ndarray]


def minmax(values: Sequence[float] | np.ndarray) -> np.ndarray:
    """Scaled to [0, 1] over the set; all ones when the values cannot differ."""
    array = np.asarray(values, dtype=np.float64)
    if array.size == 0:
        return array
    low, high = float(array.min()), float(array.max())
    if high - low < 1e-12:
        return np.ones_like(array)
    return (array - low) / (high - low)


def relevance(units: Sequence[MemoryUnit], query_vector: np.ndarray) -> np.ndarray:
    if not units:
        return np.zeros(0)
    matrix = np.stack([u.vector for u in units]).astype(np.float32)  # type: ignore[misc]
    return (matrix @ np.asarray(query_vector, dtype=np.float32)).astype(np.float64)


def blended_relevance(
    units: Sequence[MemoryUnit], cosine: np.ndarray, lexical: dict[str, float] | None
) -> np.ndarray:
    """R(u): the paper's cosine, or (``lexical`` given) the mean of the min-max normalised cosine
    and BM25 score (0 outside the lexical hits) over the candidates. With the offline MiniLM the
    dense view alone is no stronger than BM25 (LoCoMo dev recall@30 72.2 vs 72.3), so relevance
    by cosine alone leaves half of the query's evidence on the table."""
    if lexical is None or not units:
        return cosine
    bm25 = np.array([lexical.get(u.id, 0.0) for u in units], dtype=np.float64)
    return (minmax(cosine) + minmax(bm25)) / 2.0


@dataclass(frozen=True, slots=True)
class SignalSet:
    """Raw and normalised signals of one candidate set."""

    raw: Signals
    normalised: Signals
    constraint: TimeConstraint


def compute_signals(
    clues: ClueStore,
    namespace: str,
    units: Sequence[MemoryUnit],
    query_vector: np.ndarray,
    constraint: TimeConstraint,
    question_date: datetime | None,
    *,
    with_clue_nodes: bool = True,
    with_importance: bool = True,
    teleport_power: float = 1.0,
    use_recency: bool = True,
    lexical: dict[str, float] | None = None,
) -> SignalSet:
    cosine = relevance(units, query_vector)
    if with_importance and units:
        graph = local_graph(clues, namespace, [u.id for u in units], with_clues=with_clue_nodes)
        ppr = importance(graph, cosine, power=teleport_power)
    else:
        ppr = np.zeros(len(units))
    temporal = np.asarray(
        temporal_scores(units, constraint, question_date, use_recency=use_recency),
        dtype=np.float64,
    )
    raw = {
        "relevance": blended_relevance(units, cosine, lexical),
        "importance": ppr,
        "temporal": temporal,
    }
    return SignalSet(raw, {k: minmax(v) for k, v in raw.items()}, constraint)


def cached_weights(path: str) -> SignalWeights:
    """The weights in ``path``, read again whenever the file changes (a refit to the same path
    is seen by a running process); an unchanged file is parsed once."""
    try:
        stat = os.stat(path)
    except OSError:
        return load_weights(path)  # the loader's error says what to do
    return _weights_version(path, stat.st_mtime_ns, stat.st_size, stat.st_ino)


@lru_cache(maxsize=8)
def _weights_version(path: str, mtime_ns: int, size: int, inode: int) -> SignalWeights:
    return load_weights(path)


def recipe_weights(query: str, recipe: RecallRecipe) -> tuple[str, dict[str, float]]:
    """The question type and the fusion weights the recipe gives it (ablations applied)."""
    qtype = "any"
    weights = dict(EQUAL_WEIGHTS)
    if recipe.asso.weights_path and not recipe.asso.equal_weights:
        from ripplemem.read.asso.qtype import classify_question

        qtype = classify_question(query)
        weights = cached_weights(recipe.asso.weights_path).for_type(qtype)
    if not recipe.asso.use_importance:
        weights["importance"] = 0.0
    if not recipe.asso.use_temporal:
        weights["temporal"] = 0.0
    total = sum(weights.values())
    if total <= 0:
        weights = {"relevance": 1.0, "importance": 0.0, "temporal": 0.0}
        total = 1.0
    return qtype, {k: weights.get(k, 0.0) / total for k in SIGNALS}


class RITRanker:
    """Fuses normalised signals with fixed weights; best first, ties by relevance then id."""

    def __init__(self, weights: dict[str, float]) -> None:
        self.weights = {k: float(weights.get(k, 0.0)) for k in SIGNALS}

    def scores(self, signals: Signals) -> np.ndarray:
        total = np.zeros(len(next(iter(signals.values()), [])))
        for name, weight in self.weights.items():
            total = total + weight * signals[name]
        return total

    def order(self, units: Sequence[MemoryUnit], signals: Signals) -> list[int]:
        scores = self.scores(signals)
        rel = signals["relevance"]
        return sorted(range(len(units)), key=lambda i: (-scores[i], -rel[i], units[i].id))


def gather(
    store: MemoryStore,
    clues: ClueStore,
    embedder: Embedder,
    namespace: str,
    query: str,
    recipe: RecallRecipe,
) -> tuple[np.ndarray, Candidates, list[MemoryUnit], dict[str, float] | None]:
    """Embed the query, find the candidates and fetch their units (candidate order); with
    ``recipe.asso.lexical`` also the BM25 scores of the query's lexical hits."""
    query_vector = embedder.embed([query], input_type="query")[0]
    found = find_candidates(store, clues, namespace, query_vector, recipe)
    units = [u for u in store.get_units(namespace, found.ids) if u.vector is not None]
    lexical = (
        dict(store.search_lexical(namespace, query, recipe.asso.lexical_k))
        if recipe.asso.lexical
        else None
    )
    depth = recipe.asso.rerank_depth
    if depth and len(units) > depth:  # the most relevant candidates, in candidate order
        rel = blended_relevance(units, relevance(units, query_vector), lexical)
        keep = set(np.argsort(-rel, kind="stable")[:depth].tolist())
        found.notes.append(f"RIT over the {depth} most relevant of {len(units)} candidates")
        units = [u for i, u in enumerate(units) if i in keep]
    return query_vector, found, units, lexical


def candidate_signals(
    store: MemoryStore,
    clue_store: ClueStore,
    embedder: Embedder,
    namespace: str,
    query: str,
    question_date: datetime | None,
    recipe: RecallRecipe,
) -> list[tuple[str, dict[str, float]]]:
    """Each candidate's unit id and its normalised signals (all three, whatever the recipe
    weighs), in candidate order: the training rows of ``ripplemem fit-weights``."""
    query_vector, _, units, lexical = gather(store, clue_store, embedder, namespace, query, recipe)
    signals = compute_signals(
        clue_store, namespace, units, query_vector, time_constraint(query, question_date),
        question_date, with_clue_nodes=recipe.asso.use_clues,
        teleport_power=recipe.asso.teleport_power, use_recency=recipe.asso.recency,
        lexical=lexical,
    ).normalised
    return [
        (unit.id, {name: float(signals[name][i]) for name in SIGNALS})
        for i, unit in enumerate(units)
    ]
