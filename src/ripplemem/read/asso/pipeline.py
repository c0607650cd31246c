"""``recall_asso``: the AssoMem read path as a recipe (kind ``asso``).

query -> embed -> top clues -> their utterances as candidates -> relevance, importance (PPR on
the local subgraph) and temporal alignment -> RIT fusion -> the recipe's budget. It returns the
same :class:`Recall` as the ripple and baseline recipes: each evidence carries its normalised
signals and weights in ``ScoreTerms.extra`` (``alignment`` holds R), and the trace lists the
clues chosen (``trace.initial["clues"]``), the question type, weights and time constraint.
"""

from __future__ import annotations

import time
from datetime import datetime

from ripplemem.providers.base import Embedder
from ripplemem.read.asso.rit import RITRanker, compute_signals, gather, recipe_weights
from ripplemem.read.asso.temporal import time_constraint
from ripplemem.recipes import RecallRecipe
from ripplemem.records import Evidence, Recall, RecallTrace, ScoreTerms
from ripplemem.stores.base import MemoryStore


def recall_asso(
    query: str,
    *,
    store: MemoryStore,
    namespace: str,
    embedder: Embedder,
    recipe: RecallRecipe,
    reference_time: datetime | None = None,
    day_first: bool = False,
) -> Recall:
    trace = RecallTrace(query=query, namespace=namespace, recipe=recipe.name)
    started = time.perf_counter()
    clues = store.clues
    query_vector, found, units, lexical = gather(store, clues, embedder, namespace, query, recipe)
    trace.timings_ms["candidates"] = _since(started)
    trace.initial = {"clues": list(found.clues), "candidates": [(u, 0.0) for u in found.ids]}
    trace.notes.extend(found.notes)
    texts = {c.id: c.text for c in clues.get_clues(namespace, [cid for cid, _ in found.clues])}
    if found.clues:
        chosen = "; ".join(f"{texts.get(cid, cid)!r} ({score:.2f})" for cid, score in found.clues)
        trace.notes.append(f"clues chosen: {chosen}")
    qtype, weights = recipe_weights(query, recipe)
    step = time.perf_counter()
    constraint = time_constraint(query, reference_time, day_first=day_first)
    signals = compute_signals(
        clues, namespace, units, query_vector, constraint, reference_time,
        with_clue_nodes=recipe.asso.use_clues, with_importance=weights["importance"] > 0,
        teleport_power=recipe.asso.teleport_power, use_recency=recipe.asso.recency,
        lexical=lexical,
    )
    trace.timings_ms["signals"] = _since(step)
    trace.notes.append(
        f"question type {qtype!r}; weights "
        + ", ".join(f"{k} {v:.2f}" for k, v in weights.items())
        + f"; time constraint: {constraint.kind}"
        + (f" {constraint.span.to_json()}" if constraint.span else "")
    )
    ranker = RITRanker(weights)
    scores = ranker.scores(signals.normalised)
    evidence = []
    for i in ranker.order(units, signals.normalised)[: max(0, recipe.budget)]:
        extra = {name: float(values[i]) for name, values in signals.normalised.items()}
        extra.update({f"w_{name}": w for name, w in weights.items()})
        terms = ScoreTerms(
            alignment=extra["relevance"], provenance=0.0, anchor=0.0, extra=extra,
            total=float(scores[i]),
        )
        unit = units[i]
        evidence.append(Evidence(unit, float(scores[i]), tuple(found.hits[unit.id]), terms))
    trace.notes.append(f"RIT ranking: {len(evidence)} of {len(units)} candidates kept")
    trace.timings_ms["total"] = _since(started)
    return Recall(tuple(evidence), trace)


def _since(started: float) -> float:
    return (time.perf_counter() - started) * 1000
