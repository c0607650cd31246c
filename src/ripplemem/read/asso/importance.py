"""Importance: personalised PageRank on the local candidate subgraph (reference §2).

``r_{k+1} = d · M r_k + (1 - d) · t`` with ``r_0 = t``: ``M`` is the column-stochastic matrix of
the weighted, undirected subgraph (utterance and clue nodes), ``d = 0.85``, and the teleport ``t``
is ``max(cos(q, u), 0)`` on utterance nodes (optionally raised to a power, see
``RecallRecipe.asso_teleport_power``) and 0 on clue nodes, normalised to sum 1 (uniform when
every cosine is <= 0). The mass of dangling nodes (no edge) goes back along
``t``, so ``r`` stays a distribution. Power iteration stops when the L1 change is below ``tol``.
Pure functions over arrays; :func:`local_graph` builds the subgraph from the clue store.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import sparse

from ripplemem.stores.clues_base import ClueStore

DAMPING = 0.85


@dataclass(frozen=True, slots=True)
class LocalGraph:
    """Nodes: the candidate units first (in candidate order), then their clue nodes."""

    nodes: tuple[str, ...]
    units: int  # the first ``units`` nodes are utterances
    adjacency: sparse.csr_matrix  # symmetric, weighted


def personalized_pagerank(
    adjacency: sparse.spmatrix,
    teleport: np.ndarray,
    *,
    damping: float = DAMPING,
    tol: float = 1e-8,
    max_iter: int = 100,
) -> np.ndarray:
    """The PPR vector of a weighted graph for the (unnormalised, non-negative) ``teleport``."""
    n = adjacency.shape[0]
    t = np.clip(np.asarray(teleport, dtype=np.float64), 0.0, None)
    if n == 0:
        return t
    t = t / t.sum() if t.sum() > 0 else np.full(n, 1.0 / n)
    matrix = sparse.csr_matrix(adjacency, dtype=np.float64)
    out_weight = np.asarray(matrix.sum(axis=0)).ravel()  # column sums
    dangling = out_weight <= 0
    scale = np.divide(1.0, out_weight, out=np.zeros(n), where=~dangling)
    transition = matrix @ sparse.diags(scale)  # column-stochastic on non-dangling columns
    rank = t.copy()
    for _ in range(max_iter):
        following = damping * (transition @ rank + rank[dangling].sum() * t) + (1 - damping) * t
        change = float(np.abs(following - rank).sum())
        rank = following
        if change < tol:
            break
    return rank


def local_graph(
    clues: ClueStore, namespace: str, unit_ids: Sequence[str], *, with_clues: bool = True
) -> LocalGraph:
    """The candidates, their clue nodes and the weighted edges among them (links inside the set)."""
    position = {unit_id: i for i, unit_id in enumerate(unit_ids)}
    rows: list[int] = []
    cols: list[int] = []
    weights: list[float] = []
    for unit_id, found in clues.links(namespace, list(unit_ids)).items():
        for other, weight in found:
            if other in position:
                rows.append(position[unit_id])
                cols.append(position[other])
                weights.append(weight)  # links come in both directions
    nodes = list(unit_ids)
    if with_clues:
        clue_position: dict[str, int] = {}
        for unit_id, membership in clues.clues_of_units(namespace, list(unit_ids)).items():
            index = clue_position.setdefault(membership.clue_id, len(nodes))
            if index == len(nodes):
                nodes.append(membership.clue_id)
            for a, b in ((position[unit_id], index), (index, position[unit_id])):
                rows.append(a)
                cols.append(b)
                weights.append(membership.weight)
    size = len(nodes)
    adjacency = sparse.csr_matrix((weights, (rows, cols)), shape=(size, size), dtype=np.float64)
    return LocalGraph(tuple(nodes), len(unit_ids), adjacency)


def importance(
    graph: LocalGraph, relevance: np.ndarray, *, damping: float = DAMPING, power: float = 1.0
) -> np.ndarray:
    """PPR mass of each utterance node, teleporting by ``max(relevance, 0) ** power`` (clues 0)."""
    teleport = np.zeros(len(graph.nodes))
    teleport[: graph.units] = np.clip(relevance, 0.0, None) ** power
    return personalized_pagerank(graph.adjacency, teleport, damping=damping)[: graph.units]
