"""Stage: the three initial views of tri-view recall (reference §1, read path step 2).

Each view is ``(store, namespace, ...) -> [(unit id, score)]``, best first:

* :func:`dense_view` — cosine of the query vector with the restatement vectors;
* :func:`lexical_view` — BM25 over restatements (+ keywords), the query text's terms ORed;
* :func:`cue_view` — the bounded cue-index lookup (participants, locations, time), each candidate
  scored by :func:`~ripplemem.structure.structural_score` against the query's cues. Cue types are
  ORed for the lookup and combined by the β-weighted score, so a unit matching more of what the
  query asks for ranks higher. Ties (common: many units share a name) go to the unit closer to
  the query vector. Skipped when the query carries no structural cue.

:func:`view_depths` says how deep to fetch: the recipe's k per view, or the evidence budget when
``deep_candidates`` lets the deeper ranks compete in the final ranking.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ripplemem.read.recipes import RecallRecipe
from ripplemem.records import Cues
from ripplemem.stores.base import MemoryStore
from ripplemem.structure import cue_set, structural_score
from ripplemem.write.link import structural_time

Ranked = list[tuple[str, float]]

#: Cue-index candidates fetched per cue value: enough for the score to choose among.
CUE_POOL_FACTOR = 4
CUE_POOL_MIN = 20


@dataclass(frozen=True, slots=True)
class ViewDepths:
    dense: int
    lexical: int
    cue: int


def view_depths(recipe: RecallRecipe) -> ViewDepths:
    """How many ids each view fetches (the pipeline keeps the recipe's k of them for C0)."""
    if recipe.deep_candidates:
        return ViewDepths(
            dense=max(recipe.dense_k, recipe.budget),
            lexical=max(recipe.lexical_k, recipe.budget),
            cue=recipe.cue_k,
        )
    return ViewDepths(recipe.dense_k, recipe.lexical_k, recipe.cue_k)


def dense_view(store: MemoryStore, namespace: str, vector: np.ndarray, k: int) -> Ranked:
    if k <= 0:
        return []
    return list(store.search_dense(namespace, vector, k))


def lexical_view(store: MemoryStore, namespace: str, text: str, k: int) -> Ranked:
    if k <= 0 or not text.strip():
        return []
    return list(store.search_lexical(namespace, text, k))


def cue_view(
    store: MemoryStore,
    namespace: str,
    cues: Cues,
    k: int,
    *,
    query_vector: np.ndarray | None = None,
    per_value: int | None = None,
) -> Ranked:
    """Top ``k`` cue-index candidates by structural score against the query cues."""
    if k <= 0 or not cues.has_structure:
        return []
    pool = per_value if per_value is not None else max(CUE_POOL_MIN, CUE_POOL_FACTOR * k)
    near = cues.time_span.midpoint if cues.time_span is not None else None
    ids = store.cue_candidates(namespace, cues, near=near, per_value=pool)
    if not ids:
        return []
    people, places = cue_set(cues.participants), cue_set(cues.locations)
    scored: list[tuple[float, float, str]] = []
    for unit in store.get_units(namespace, ids):
        score = structural_score(
            people,
            places,
            cues.time_span,
            cue_set(unit.participants),
            cue_set(unit.locations),
            structural_time(unit),
        )
        if score is None or score <= 0.0:
            continue
        closeness = (
            float(np.dot(query_vector, unit.vector))
            if query_vector is not None and unit.vector is not None
            else 0.0
        )
        scored.append((score, closeness, unit.id))
    scored.sort(key=lambda s: (-s[0], -s[1], s[2]))
    return [(unit_id, score) for score, _, unit_id in scored[:k]]
