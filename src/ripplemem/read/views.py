"""Stage: the three initial views of tri-view recall (reference §1, read path step 2).

Each view is ``(store, namespace, ...) -> [(unit id, score)]``, best first:

* :func:`dense_view` — cosine of the query vector with the restatement vectors;
* :func:`lexical_view` — BM25 over restatements (+ keywords), the query text's terms ORed;
* :func:`cue_view` — the bounded cue-index lookup (participants, locations, time), each candidate
  scored by :func:`~ripplemem.structure.structural_score` against the query's cues. Cue types are
  ORed for the lookup and combined by the β-weighted score, so a unit matching more of what the
  query asks for ranks higher. Ties (common: many units share a name) go to the unit closer to
  the query vector. Skipped when the query carries no structural cue.

:func:`centre_query` centres the query vector on the namespace's centroid first (when
``recipe.views.centred_query``): the dense view and the ranking's alignment term then read the query by
what it says beyond what every unit of the namespace shares.

:func:`view_depths` says how deep to fetch: the recipe's k per view, or the evidence budget when
``deep_candidates`` lets the deeper ranks compete in the final ranking.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ripplemem.recipes import RecallRecipe
from ripplemem.records import Cues, MemoryUnit
from ripplemem.stores.base import MemoryStore, search_dense
from ripplemem.structure import cue_set, structural_score, structural_time

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
    if recipe.rank.deep_candidates:
        return ViewDepths(
            dense=max(recipe.views.dense_k, recipe.budget),
            lexical=max(recipe.views.lexical_k, recipe.budget),
            cue=recipe.views.cue_k,
        )
    return ViewDepths(recipe.views.dense_k, recipe.views.lexical_k, recipe.views.cue_k)


def centre_query(vector: np.ndarray, centroid: np.ndarray | None) -> np.ndarray:
    """``(q - mu) / |q - mu|`` for the namespace centroid ``mu`` (``vector`` as is without one).

    Sentence embeddings are anisotropic: every vector shares a large common component, and in one
    person's memories (one conversation, one set of names and topics) it is larger still. A raw
    cosine then favours units that are close to *everything* (generic chit-chat naming the
    speakers) over the ones close to what the query asks about. For unit vectors ``m``,
    ``m . (q - mu)`` ranks as ``m . q - m . mu``: the query similarity less the unit's similarity
    to the namespace's average, a hubness correction ("all-but-the-top", Mu & Viswanath 2018;
    CSLS, Conneau et al. 2018). It needs no change to the index: only the query moves. Inner
    products with the unit vectors are left to the caller's normalisation (the dense view is
    ranked by them; the alignment term is min-max normalised over the candidates).
    """
    if centroid is None:
        return vector
    centred = np.asarray(vector, dtype=np.float32) - np.asarray(centroid, dtype=np.float32)
    norm = float(np.linalg.norm(centred))
    if not np.isfinite(norm) or norm < 1e-6:  # the query is the centroid: nothing to remove
        return vector
    return centred / norm


def dense_view(store: MemoryStore, namespace: str, vector: np.ndarray, k: int) -> Ranked:
    if k <= 0:
        return []
    return list(search_dense(store, namespace, vector, k))


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
    return closest_first(cue_matches(store, namespace, cues, k, per_value=per_value), query_vector, k)


@dataclass(frozen=True, slots=True)
class CueMatch:
    """A cue-index candidate and its structural score."""

    unit: MemoryUnit
    score: float


def cue_matches(
    store: MemoryStore, namespace: str, cues: Cues, k: int, *, per_value: int | None = None
) -> list[CueMatch]:
    """The cue view's candidates with a positive structural score (no query vector needed)."""
    if k <= 0 or not cues.has_structure:
        return []
    pool = per_value if per_value is not None else max(CUE_POOL_MIN, CUE_POOL_FACTOR * k)
    near = cues.time_span.midpoint if cues.time_span is not None else None
    ids = store.cue_candidates(namespace, cues, near=near, per_value=pool)
    if not ids:
        return []
    people, places = cue_set(cues.participants), cue_set(cues.locations)
    found: list[CueMatch] = []
    for unit in store.get_units(namespace, ids):
        score = structural_score(
            people,
            places,
            cues.time_span,
            cue_set(unit.participants),
            cue_set(unit.locations),
            structural_time(unit),
        )
        if score is not None and score > 0.0:
            found.append(CueMatch(unit, score))
    return found


def closest_first(matches: list[CueMatch], query_vector: np.ndarray | None, k: int) -> Ranked:
    """The top ``k`` of ``matches`` by score, a tie to the unit closer to the query vector."""
    scored: list[tuple[float, float, str]] = []
    for match in matches:
        unit = match.unit
        closeness = (
            float(np.dot(query_vector, unit.vector))
            if query_vector is not None and unit.vector is not None
            else 0.0
        )
        scored.append((match.score, closeness, unit.id))
    scored.sort(key=lambda s: (-s[0], -s[1], s[2]))
    return [(unit_id, score) for score, _, unit_id in scored[:k]]
