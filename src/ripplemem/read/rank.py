"""Stage: rank the evidence pool with rho (reference §1, read path step 5).

``rho(m) = lambda_q * a(q, m) + lambda_p * pi(m) + lambda_a * I_anchor(m)``

* ``a(q, m)``: cosine of the query vector (centred on the namespace centroid with
  ``recipe.views.centred_query``: :func:`~ripplemem.read.views.centre_query`) with the unit's
  restatement vector, min-max normalised
  over the candidate set (1 for every unit when all cosines are equal), blended with the unit's
  BM25 score for the query, min-max normalised the same way (0 outside the lexical view's hits):
  ``(1 - s) * cos' + s * bm25'`` with ``s = recipe.rank.lexical_alignment`` (0.25; 0 in
  ``ripple-paper``, the paper's cosine alone, which assumed an embedder stronger than BM25).
  Then exchange-aware: ``(a + g * a_nb) / (1 + g)`` with ``a_nb`` the best ``a`` among the
  candidates of the neighbouring turns of the same episode, ``g = recipe.rank.exchange_alignment``
  (0.2; 0 in ``ripple-paper``): the answer half of an exchange is often worded unlike the query.
* ``pi(m)``: provenance. Each hit of a view ``s`` at 0-based rank ``r`` supports the unit with
  ``w_s * (offset + 1) / (offset + 1 + r)``: the paper's rank support ``1 / (offset + rank)`` on
  1-based ranks, multiplied by ``offset + 1`` so that rank 1 of the strongest source (dense,
  weight 1.0) scores exactly 1. Per view the best hit counts; views combine as a **noisy-or**,
  ``pi = 1 - prod_v (1 - s_v)`` ([open] in the reference: sum or max). Against the sum: dense and
  lexical often agree on one surface match, and a sum double-counts it, leaves [0, 1] (the scale
  of ``a``, so lambda_q = 1.25 vs lambda_p = 1.0 would no longer weigh what the paper says) and
  buries units found by one channel only — which is what expansion finds by construction. Against
  the max: two independent views agreeing is real evidence, and the max ignores it (LoCoMo dev,
  max -> noisy-or: recall@5 48.7 -> 50.3). ``recipe.rank.provenance`` = "max" / "sum" keep the
  alternatives measurable. An expansion (or dialogue-context) hit's rank is its rank within its
  channel, and its support is also multiplied by the strength of its best path (the product of
  the path's edge weights): the paper's pi is "retrieval source and path strength". Without it,
  the first units of an expansion (reached through weak 2-hop paths) outrank direct dense hits
  ranked 5-10 on provenance alone.
* ``I_anchor(m)``: 1 when the unit served as an anchor in any round.

Every evidence item carries its :class:`ScoreTerms` with ``total == score``; units reached by
several views or paths appear once with all their hits and paths merged.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

import numpy as np

from ripplemem.recipes import RecallRecipe
from ripplemem.records import Evidence, ExpansionPath, Hit, MemoryUnit, ScoreTerms


@dataclass(slots=True)
class Candidate:
    """A unit in the evidence pool with every way it was found."""

    unit: MemoryUnit
    hits: list[Hit] = field(default_factory=list)
    paths: list[ExpansionPath] = field(default_factory=list)


def source_weights(recipe: RecallRecipe) -> dict[str, float]:
    """The weight of each view's support (0 for a view not named here)."""
    return {
        "dense": recipe.rank.weight_dense,
        "lexical": recipe.rank.weight_lexical,
        "cue": recipe.rank.weight_cue,
        "expansion": recipe.rank.weight_expansion,
        "context": recipe.rank.weight_expansion,  # a one-hop dialogue expansion from a top unit
    }


def source_weight(view: str, recipe: RecallRecipe) -> float:
    return source_weights(recipe).get(view, 0.0)


def rank_support(rank: int, offset: int) -> float:
    """``(offset + 1) / (offset + 1 + rank)`` for a 0-based rank: 1 at the top."""
    return (offset + 1) / (offset + 1 + rank)


def provenance(hits: Iterable[Hit], recipe: RecallRecipe, path_strength: float = 1.0) -> float:
    """Each view's best support (source weight x rank support; expansion and context hits also x
    path strength), combined over views by ``recipe.rank.provenance``: "noisy_or" (default),
    ``1 - prod(1 - s_v)``, or "max" / "sum" of the per-view supports."""
    return _provenance(
        hits, source_weights(recipe), recipe.rank.rank_offset, recipe.rank.provenance,
        path_strength,
    )


#: the views whose support is also multiplied by the strength of the unit's best path
_PATH_VIEWS = frozenset({"expansion", "context"})


def _provenance(
    hits: Iterable[Hit], weights: Mapping[str, float], offset: int, combine: str, strength: float
) -> float:
    """:func:`provenance` with the recipe's weights, rank offset and combination read once."""
    best: dict[str, float] = {}
    for h in hits:
        view = h.view
        support = weights.get(view, 0.0) * rank_support(h.rank, offset)
        if view in _PATH_VIEWS:
            support *= strength
        kept = best.get(view)
        if kept is None or support > kept:
            best[view] = support
    if not best:
        return 0.0
    if combine == "max":
        return max(best.values())
    if combine == "sum":
        return sum(best.values())
    missed = 1.0
    for support in best.values():
        missed *= 1.0 - min(support, 1.0)
    return 1.0 - missed


def path_strength(paths: Iterable[ExpansionPath]) -> float:
    """The strongest path's weight (product of its edge weights); 1.0 without paths."""
    return max((p.path_weight for p in paths), default=1.0)


def merge(candidates: Iterable[Candidate]) -> dict[str, Candidate]:
    """One candidate per id, hits and paths merged (first occurrence wins the unit); the
    candidates as they are when no id repeats (they are read, never changed, here)."""
    items = list(candidates)
    unique = {c.unit.id: c for c in items}
    if len(unique) == len(items):
        return unique
    merged: dict[str, Candidate] = {}
    for candidate in items:
        kept = merged.get(candidate.unit.id)
        if kept is None:
            merged[candidate.unit.id] = Candidate(
                candidate.unit, list(candidate.hits), list(candidate.paths)
            )
            continue
        kept.hits.extend(h for h in candidate.hits if h not in kept.hits)
        kept.paths.extend(p for p in candidate.paths if p not in kept.paths)
    return merged


def alignments(units: list[MemoryUnit], query_vector: np.ndarray | None) -> list[float]:
    """Min-max normalised query-restatement cosines (1.0 each when they cannot differ)."""
    if query_vector is None or not units:
        return [1.0] * len(units)
    raw = np.array(
        [float(np.dot(query_vector, u.vector)) if u.vector is not None else np.nan for u in units]
    )
    known = raw[~np.isnan(raw)]
    if known.size == 0:
        return [1.0] * len(units)
    low, high = float(known.min()), float(known.max())
    raw = np.where(np.isnan(raw), low, raw)
    if high - low < 1e-9:
        return [1.0] * len(units)
    return [float(x) for x in (raw - low) / (high - low)]


def lexical_blend(
    aligned: list[float], ids: list[str], lexical: Mapping[str, float] | None, share: float
) -> list[float]:
    """``(1 - share) * aligned + share * bm25'`` where bm25' is ``lexical`` (BM25 scores by unit
    id, 0 for the others) min-max normalised over ``ids``; ``aligned`` as is without scores."""
    if share <= 0 or not lexical or not ids:
        return aligned
    raw = np.array([lexical.get(unit_id, 0.0) for unit_id in ids], dtype=np.float64)
    low, high = float(raw.min()), float(raw.max())
    if high - low < 1e-12:
        return aligned
    scaled = (raw - low) / (high - low)
    return [(1.0 - share) * a + share * float(b) for a, b in zip(aligned, scaled, strict=True)]


def exchange_blend(
    units: list[MemoryUnit], aligned: list[float], share: float
) -> tuple[list[float], list[float]]:
    """``(a + share * a_nb) / (1 + share)`` per unit, and the ``a_nb`` (kept in the trace).

    ``a_nb`` is the best alignment among ``units`` of the turn just before or after the unit in
    its episode (``extra["turn_index"]``), 0 when none is a candidate. ``aligned`` as is when
    ``share`` is 0. Stays in [0, 1]."""
    if share <= 0 or not units:
        return aligned, [0.0] * len(aligned)
    best: dict[tuple[str, int], float] = {}
    indexes = [unit.extra.get("turn_index") for unit in units]
    for unit, index, a in zip(units, indexes, aligned, strict=True):
        if index is not None:
            key = (unit.episode_id, index)
            best[key] = max(best.get(key, 0.0), a)
    blended, neighbours = [], []
    for unit, index, a in zip(units, indexes, aligned, strict=True):
        neighbour = 0.0
        if index is not None:
            neighbour = max(
                best.get((unit.episode_id, index - 1), 0.0),
                best.get((unit.episode_id, index + 1), 0.0),
            )
        blended.append((a + share * neighbour) / (1.0 + share))
        neighbours.append(neighbour)
    return blended, neighbours


def rank(
    candidates: Iterable[Candidate],
    *,
    query_vector: np.ndarray | None,
    anchors: Collection[str],
    recipe: RecallRecipe,
    limit: int | None = None,
    lexical: Mapping[str, float] | None = None,
    other_language: bool = False,
) -> list[Evidence]:
    """Score every candidate with rho, best first (ties: provenance, then id). ``lexical``: the
    query's BM25 scores by unit id (the lexical view), blended into ``a`` as the recipe says:
    with ``recipe.rank.lexical_alignment_other_language`` when the query is in a language the
    embedder was not trained on (``other_language``)."""
    pool = list(merge(candidates).values())
    aligned = lexical_blend(
        alignments([c.unit for c in pool], query_vector),
        [c.unit.id for c in pool],
        lexical,
        recipe.rank.lexical_alignment_other_language if other_language else recipe.rank.lexical_alignment,
    )
    aligned, partners = exchange_blend([c.unit for c in pool], aligned, recipe.rank.exchange_alignment)
    scored: list[Evidence] = []
    params, weights = recipe.rank, source_weights(recipe)
    lambda_q, lambda_p, lambda_a = params.lambda_q, params.lambda_p, params.lambda_a
    exchange = params.exchange_alignment > 0
    offset, combine = params.rank_offset, params.provenance
    for candidate, a, partner in zip(pool, aligned, partners, strict=True):
        paths = candidate.paths
        pi = _provenance(candidate.hits, weights, offset, combine, path_strength(paths) if paths else 1.0)
        anchor = 1.0 if candidate.unit.id in anchors else 0.0
        total = lambda_q * a + lambda_p * pi + lambda_a * anchor
        terms = ScoreTerms(a, pi, anchor, {"exchange": partner} if exchange else {}, total)
        hits = (
            tuple(sorted(candidate.hits, key=_hit_order))
            if len(candidate.hits) > 1
            else tuple(candidate.hits)
        )
        scored.append(Evidence(candidate.unit, total, hits, terms, tuple(paths)))
    scored.sort(key=lambda e: (-e.score, -e.terms.provenance, e.unit.id))  # type: ignore[union-attr]
    return scored if limit is None else scored[:limit]


def _hit_order(hit: Hit) -> tuple[int, str]:
    return hit.rank, hit.view


#: the score step between a moved unit and the unit next to it when nothing bounds it
PLACEMENT_STEP = 0.01


def rescore(ordered: Sequence[Evidence], moved: Collection[str], term: str) -> list[Evidence]:
    """Scores that agree with the order ``ordered`` was put in by a stage that moved ``moved``.

    The one rule of every stage that reorders evidence after rho (dialogue context, spreading
    over turns, supersession): evidence is returned best score first, so a stage that puts a
    unit elsewhere gives it the score of its new place. Units not moved keep their score (a kept
    unit scoring above the kept unit before it counts as moved); the moved units between two
    kept ones get evenly spaced scores strictly between theirs, above the first kept unit or
    below the last by :data:`PLACEMENT_STEP` each. The change is added to the unit's
    :class:`ScoreTerms` as the term ``term`` (``total`` stays equal to ``score``).
    """
    items = list(ordered)
    fixed: list[bool] = []
    last: float | None = None
    for item in items:
        keep = item.unit.id not in moved and (last is None or item.score <= last)
        fixed.append(keep)
        if keep:
            last = item.score
    scores = [item.score for item in items]
    index = 0
    while index < len(items):
        if fixed[index]:
            index += 1
            continue
        end = index
        while end < len(items) and not fixed[end]:
            end += 1
        above = scores[index - 1] if index > 0 else None
        below = scores[end] if end < len(items) else None
        run = end - index
        own = scores[index:end]
        if all(a >= b for a, b in pairwise(own)) and (above is None or own[0] <= above) and (
            below is None or own[-1] >= below
        ):
            index = end  # moved, but their own scores already fit their places
            continue
        for offset in range(run):
            if above is not None and below is not None:
                scores[index + offset] = above - (above - below) * (offset + 1) / (run + 1)
            elif below is not None:
                scores[index + offset] = below + PLACEMENT_STEP * (run - offset)
            elif above is not None:
                scores[index + offset] = above - PLACEMENT_STEP * (offset + 1)
        index = end
    return [
        item if score == item.score else _placed(item, score, term)
        for item, score in zip(items, scores, strict=True)
    ]


def lower(ranked: Sequence[Evidence], lowered: Callable[[Evidence], bool], penalty: float, term: str) -> list[Evidence]:
    """``ranked`` with every item ``lowered`` says ``penalty`` lower (the term ``term`` of its
    :class:`ScoreTerms`), best first (ties: provenance, then id); the items are the same."""
    out: list[Evidence] = []
    for item in ranked:
        if not lowered(item):
            out.append(item)
            continue
        terms = item.terms or ScoreTerms(alignment=0.0, provenance=0.0, anchor=0.0, total=item.score)
        score = item.score - penalty
        out.append(_scored(item, score, terms, {**terms.extra, term: -penalty}))
    out.sort(key=lambda e: (-e.score, -(e.terms.provenance if e.terms else 0.0), e.unit.id))
    return out


def _placed(item: Evidence, score: float, term: str) -> Evidence:
    terms = item.terms or ScoreTerms(alignment=0.0, provenance=0.0, anchor=0.0, total=item.score)
    change = terms.extra.get(term, 0.0) + score - item.score
    return _scored(item, score, terms, {**terms.extra, term: change})


def _scored(item: Evidence, score: float, terms: ScoreTerms, extra: dict[str, float]) -> Evidence:
    """``item`` with ``score``, its terms ``terms`` with ``extra`` and that total; every other
    field as it is (built directly: ``dataclasses.replace`` costs twice as much, and the
    stages after rho rescore dozens of items per search)."""
    return Evidence(
        item.unit, score, item.hits,
        ScoreTerms(terms.alignment, terms.provenance, terms.anchor, extra, score),
        item.paths, item.superseded_by, item.valid_until,
    )
