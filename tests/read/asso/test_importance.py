"""Personalised PageRank on small graphs, checked against the closed form."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse

from ripplemem.read.asso.importance import importance, local_graph, personalized_pagerank
from ripplemem.records import Clue, Membership
from ripplemem.stores.memory import InMemoryStore

from . import make_unit, unit_vectors


def closed_form(adjacency: np.ndarray, teleport: np.ndarray, d: float = 0.85) -> np.ndarray:
    transition = adjacency / adjacency.sum(axis=0, keepdims=True)
    t = teleport / teleport.sum()
    return (1 - d) * np.linalg.solve(np.eye(len(t)) - d * transition, t)


def test_power_iteration_matches_the_closed_form() -> None:
    rng = np.random.default_rng(3)
    dense = rng.random((6, 6))
    dense = (dense + dense.T) * (rng.random((6, 6)) > 0.3)
    dense = np.triu(dense, 1) + np.triu(dense, 1).T + np.diag(np.zeros(6))
    dense[0, 1] = dense[1, 0] = 0.9  # no isolated node
    dense[2:, 0] = dense[0, 2:] = 0.4
    teleport = np.array([0.9, 0.1, 0.0, 0.5, 0.0, 0.2])
    ranked = personalized_pagerank(sparse.csr_matrix(dense), teleport, tol=1e-12)
    assert ranked == pytest.approx(closed_form(dense, teleport), abs=1e-9)
    assert ranked.sum() == pytest.approx(1.0)


def test_edge_weights_and_links_matter() -> None:
    # nodes 0 and 1 are equally relevant; 1 is strongly linked to relevant 2, 0 is alone
    adjacency = sparse.csr_matrix(
        np.array([[0, 0, 0], [0, 0, 1.0], [0, 1.0, 0]], dtype=float)
    )
    ranked = personalized_pagerank(adjacency, np.array([1.0, 1.0, 1.0]))
    assert ranked[1] > ranked[0] and ranked[2] > ranked[0]
    assert ranked.sum() == pytest.approx(1.0)  # the dangling node's mass is not lost
    weak = sparse.csr_matrix(np.array([[0, 0.1, 0.9], [0.1, 0, 0], [0.9, 0, 0]]))
    ranked = personalized_pagerank(weak, np.array([1.0, 0.0, 0.0]))
    assert ranked[2] > ranked[1]  # the heavier edge carries more mass


def test_zero_teleport_falls_back_to_uniform() -> None:
    adjacency = sparse.csr_matrix(np.ones((3, 3)) - np.eye(3))
    assert personalized_pagerank(adjacency, np.zeros(3)) == pytest.approx(np.full(3, 1 / 3))


def test_local_graph_uses_clues_and_links_inside_the_candidates() -> None:
    store = InMemoryStore()
    store.add_units([make_unit(i) for i in ("a", "b", "c", "outside")])
    clues = store.clues
    clues.add_clue(Clue("k1", "ns", "topic", unit_vectors(1, seed=5)[0], "keyphrases"), "s1")
    clues.attach("ns", [Membership("a", "k1", 0.5), Membership("b", "k1", 0.4)])
    clues.add_links("ns", [("a", "c", 0.8), ("c", "outside", 0.9)])
    graph = local_graph(clues, "ns", ["a", "b", "c"])
    assert graph.nodes == ("a", "b", "c", "k1") and graph.units == 3
    dense = graph.adjacency.toarray()
    assert dense[0, 2] == dense[2, 0] == pytest.approx(0.8)
    assert dense[0, 3] == pytest.approx(0.5) and dense[3, 1] == pytest.approx(0.4)
    assert dense.sum() == pytest.approx(2 * (0.8 + 0.5 + 0.4))  # "outside" is not in the graph
    plain = local_graph(clues, "ns", ["a", "b", "c"], with_clues=False)
    assert plain.nodes == ("a", "b", "c")
    scores = importance(graph, np.array([0.5, 0.5, 0.5]))
    assert scores.shape == (3,) and scores[1] > 0  # b reaches mass only through the clue
