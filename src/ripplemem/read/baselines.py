"""Baseline recipes: ``bm25`` (lexical top K), ``dense`` (dense top K) and ``hybrid``
(reciprocal-rank fusion of the two).

They return the same :class:`Recall` as RippleMem — evidence with hits and score terms, and a
trace — so the evaluation harness compares access strategies on equal budgets. Score terms carry
the baseline's own signal in ``extra`` (``total`` equals the score); the rho terms are 0.
Hybrid: ``score = sum over views of 1 / (rrf_k + rank)`` on 1-based ranks, over dense and lexical
lists of depth ``max(2 K, 50)`` each.

The naive recipes read the raw query vector; ``dense-centred`` and ``hybrid-centred`` centre it
on the namespace centroid as ``ripple`` does (:func:`~ripplemem.read.views.centre_query`), to
show how much of ``ripple``'s lead that one step explains.
"""

from __future__ import annotations

import time

from ripplemem.background import in_background
from ripplemem.language import question_language, searched_words
from ripplemem.providers.base import Embedder
from ripplemem.read.views import centre_query
from ripplemem.recipes import RecallRecipe
from ripplemem.records import Evidence, Hit, Recall, RecallTrace, ScoreTerms
from ripplemem.stores.base import MemoryStore, search_dense

HYBRID_MIN_DEPTH = 50


def _evidence(
    store: MemoryStore,
    namespace: str,
    order: list[str],
    scores: dict[str, float],
    hits: dict[str, list[Hit]],
    extra: dict[str, dict[str, float]],
) -> tuple[Evidence, ...]:
    units = {u.id: u for u in store.get_units(namespace, order)} if order else {}
    return tuple(
        Evidence(
            units[i],
            scores[i],
            tuple(hits[i]),
            ScoreTerms(alignment=0.0, provenance=0.0, anchor=0.0, extra=extra[i], total=scores[i]),
        )
        for i in order
        if i in units
    )


def recall_baseline(
    query: str,
    *,
    store: MemoryStore,
    namespace: str,
    embedder: Embedder,
    recipe: RecallRecipe,
) -> Recall:
    """Dispatch on ``recipe.kind`` in {"bm25", "dense", "hybrid"}."""
    trace = RecallTrace(query=query, namespace=namespace, recipe=recipe.name)
    budget = max(0, recipe.budget)
    clock = time.perf_counter()
    depth = budget if recipe.kind != "hybrid" else max(2 * budget, HYBRID_MIN_DEPTH)
    lists: dict[str, list[tuple[str, float]]] = {}
    # the query's vector is computed while the lexical view reads the store, as in ripple
    embedding = (
        in_background(lambda: embedder.embed([query], input_type="query")[0], name="ripplemem-query-embedding")
        if recipe.kind in ("dense", "hybrid") else None
    )
    if recipe.kind in ("bm25", "hybrid"):
        begun = time.perf_counter()
        lists["lexical"] = (
            list(store.search_lexical(namespace, searched_words(query, question_language(query)), depth))
            if depth and query.strip() else []
        )
        trace.timings_ms["lexical"] = (time.perf_counter() - begun) * 1000
    if embedding is not None:
        begun = time.perf_counter()
        vector = embedding.result()
        trace.timings_ms["embed"] = (time.perf_counter() - begun) * 1000  # what was left to wait for
        if recipe.views.centred_query:  # "dense-centred" / "hybrid-centred": what centring alone does
            vector = centre_query(vector, store.centroid(namespace))
        begun = time.perf_counter()
        lists["dense"] = list(search_dense(store, namespace, vector, depth)) if depth else []
        trace.timings_ms["dense"] = (time.perf_counter() - begun) * 1000
    lists = {view: lists[view] for view in ("dense", "lexical") if view in lists}  # fused in this order
    trace.initial = {view: list(found) for view, found in lists.items()}

    hits: dict[str, list[Hit]] = {}
    extra: dict[str, dict[str, float]] = {}
    scores: dict[str, float] = {}
    for view, found in lists.items():
        for rank, (unit_id, score) in enumerate(found):
            hits.setdefault(unit_id, []).append(Hit(view, rank, float(score)))  # type: ignore[arg-type]
            if recipe.kind == "hybrid":
                fused = 1.0 / (recipe.views.rrf_k + rank + 1)
                extra.setdefault(unit_id, {})[f"rrf_{view}"] = fused
                scores[unit_id] = scores.get(unit_id, 0.0) + fused
            else:
                extra[unit_id] = {"bm25" if view == "lexical" else "cosine": float(score)}
                scores[unit_id] = float(score)
    if recipe.kind == "hybrid":
        order = sorted(scores, key=lambda i: (-scores[i], i))[:budget]
        trace.notes.append(f"hybrid: RRF (k={recipe.views.rrf_k}) over dense and lexical, depth {depth}")
    else:
        order = [unit_id for unit_id, _ in next(iter(lists.values()), [])][:budget]
    started = time.perf_counter()
    evidence = _evidence(store, namespace, order, scores, hits, extra)
    trace.timings_ms["assemble"] = (time.perf_counter() - started) * 1000
    trace.timings_ms["total"] = (time.perf_counter() - clock) * 1000
    return Recall(evidence, trace)
