"""Candidates: the query's top clues and the utterances hanging from them (reference §2).

``use_clues``: the ``asso_top_clues`` clues nearest the query (cosine), then their member units
in clue order (members by weight), at most ``asso_pool``; plus the dense top
``asso_dense_candidates``. Without clues (the ``asso-no-clues`` ablation, or a namespace whose
graph is empty — e.g. written with ``clue_graph`` off) the candidates are the dense top
``asso_dense_pool``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ripplemem.recipes import RecallRecipe
from ripplemem.records import Hit
from ripplemem.stores.base import MemoryStore, search_dense
from ripplemem.stores.clues_base import ClueStore


@dataclass(slots=True)
class Candidates:
    """Candidate unit ids in order, how each was found, and the clues chosen."""

    ids: list[str] = field(default_factory=list)
    hits: dict[str, list[Hit]] = field(default_factory=dict)
    clues: list[tuple[str, float]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, unit_id: str, hit: Hit) -> None:
        if unit_id not in self.hits:
            self.ids.append(unit_id)
        self.hits.setdefault(unit_id, []).append(hit)


def find_candidates(
    store: MemoryStore,
    clues: ClueStore,
    namespace: str,
    query_vector: np.ndarray,
    recipe: RecallRecipe,
) -> Candidates:
    found = Candidates()
    use_clues = recipe.asso.use_clues and clues.clue_count(namespace) > 0
    if recipe.asso.use_clues and not use_clues:
        found.notes.append("the namespace has no clue graph: dense candidates instead")
    if use_clues:
        found.clues = clues.search_clues(namespace, query_vector, recipe.asso.top_clues)
        members = clues.members(namespace, [cid for cid, _ in found.clues])
        for rank, (clue_id, score) in enumerate(found.clues):
            for unit_id, _ in members[clue_id]:
                if len(found.ids) >= recipe.asso.pool:
                    break
                found.add(unit_id, Hit("clue", rank, score))
        dense_k = recipe.asso.dense_candidates
    else:
        dense_k = recipe.asso.dense_pool
    for rank, (unit_id, score) in enumerate(search_dense(store, namespace, query_vector, dense_k)):
        found.add(unit_id, Hit("dense", rank, score))
    return found
