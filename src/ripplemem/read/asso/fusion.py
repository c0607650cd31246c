"""``ripple+asso``: importance and temporal alignment as extra terms of rho (issue #3 part 4).

After rho ranks the ripple candidates, each gets ``lambda_importance · I + lambda_temporal · T``
added — ``I`` the PPR importance on the candidates' local clue subgraph, ``T`` the temporal
alignment, both min-max normalised over the candidates like rho's alignment term — and the list is
re-sorted. The terms are kept in ``ScoreTerms.extra`` (``importance``, ``temporal``); with
``lambda_importance = 0`` (recipe ``ripple+asso-no-importance``) PPR is not run and
``importance`` is left out.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import numpy as np

from ripplemem.read.asso.rit import compute_signals
from ripplemem.read.asso.temporal import time_constraint
from ripplemem.recipes import RecallRecipe
from ripplemem.records import Evidence, ScoreTerms
from ripplemem.stores.base import MemoryStore


def add_asso_terms(
    ranked: list[Evidence],
    *,
    store: MemoryStore,
    namespace: str,
    query: str,
    query_vector: np.ndarray,
    reference_time: datetime | None,
    recipe: RecallRecipe,
    day_first: bool = False,
) -> tuple[list[Evidence], str]:
    """The evidence re-scored with the two AssoMem terms, best first, and a trace note."""
    if not ranked:
        return ranked, "asso terms: no candidates"
    units = [e.unit for e in ranked if e.unit.vector is not None]
    constraint = time_constraint(query, reference_time, day_first=day_first)
    with_importance = recipe.asso.lambda_importance > 0
    signals = compute_signals(
        store.clues, namespace, units, query_vector, constraint, reference_time,
        teleport_power=recipe.asso.teleport_power, use_recency=recipe.asso.recency,
        with_importance=with_importance,
    ).normalised
    index = {u.id: i for i, u in enumerate(units)}
    rescored: list[Evidence] = []
    for item in ranked:
        i = index.get(item.unit.id)
        imp = float(signals["importance"][i]) if i is not None else 0.0
        tem = float(signals["temporal"][i]) if i is not None else 0.0
        added = recipe.asso.lambda_importance * imp + recipe.asso.lambda_temporal * tem
        terms = item.terms or ScoreTerms(alignment=0.0, provenance=0.0, anchor=0.0)
        total = item.score + added
        extra = {**terms.extra, "temporal": tem}
        if with_importance:
            extra["importance"] = imp
        terms = replace(terms, extra=extra, total=total)
        rescored.append(replace(item, score=total, terms=terms))
    rescored.sort(key=lambda e: (-e.score, -(e.terms.provenance if e.terms else 0.0), e.unit.id))
    note = (
        f"asso terms: +{recipe.asso.lambda_importance}·importance +{recipe.asso.lambda_temporal}·temporal "
        f"({constraint.kind}) over {len(units)} candidates"
    )
    return rescored, note
