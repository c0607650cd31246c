from __future__ import annotations

import numpy as np
import pytest

from ripplemem.read.diffuse import NO_CUE_FACTOR, STRUCTURAL_CUE_SHARE, diffuse, walk
from ripplemem.recipes import get_recipe
from ripplemem.records import Cues, RecallPlan

from . import NS, build_store, embedder
from .test_unit_cache import CountingReads

RECIPE = get_recipe("ripple")
GOAL = Cues(
    text="Maya has a food allergy.",
    participants=("Sam", "Maya"),
    locations=("Harbor Grill",),
)


@pytest.fixture(scope="module")
def store():
    return build_store()


@pytest.fixture(scope="module")
def goal_vector():
    return embedder().embed([GOAL.text])[0]


def plan(*anchors: str, goal: Cues | None = GOAL) -> RecallPlan:
    return RecallPlan(proceed=True, anchors=anchors, goal=goal, planner="test")


def paths_by_id(found):
    out: dict[str, list] = {}
    for unit_id, path in found:
        out.setdefault(unit_id, []).append(path)
    return out


def test_two_hops_reach_the_allergy_from_the_recommendation(store, goal_vector):
    found = paths_by_id(
        diffuse(store, NS, plan("e1"), evidence_ids={"e1"}, goal_vector=goal_vector, recipe=RECIPE)
    )
    assert "e3" in found
    (path,) = found["e3"]
    assert path.channel == "structural" and path.anchor == "e1"
    assert path.nodes == ("e1", "e2", "e3")
    weights = {n: w for n, w in store.neighbours(NS, ["e1", "e2"], "structural")["e1"]}
    e2_e3 = dict(store.neighbours(NS, ["e2"], "structural")["e2"])["e3"]
    assert path.path_weight == pytest.approx(weights["e2"] * e2_e3)
    e3 = store.get_units(NS, ["e3"])[0]
    cosine = max(0.0, float(np.dot(goal_vector, e3.vector)))
    # Maya of {Sam, Maya}: Jaccard 0.5, blended with the goal restatement's cosine
    expected = STRUCTURAL_CUE_SHARE * 0.5 + (1 - STRUCTURAL_CUE_SHARE) * cosine
    assert path.goal_score == pytest.approx(expected, abs=1e-5)


def test_one_hop_does_not_reach_it(store, goal_vector):
    one_hop = RECIPE.with_(expansion={"hops": 1})
    found = paths_by_id(
        diffuse(store, NS, plan("e1"), evidence_ids={"e1"}, goal_vector=goal_vector, recipe=one_hop)
    )
    assert "e2" in found and "e3" not in found
    assert all(len(p.nodes) == 2 for paths in found.values() for p in paths)


def test_walks_through_evidence_but_never_returns_it(store, goal_vector):
    found = paths_by_id(
        diffuse(
            store,
            NS,
            plan("e1"),
            evidence_ids={"e1", "e2", "d26"},
            goal_vector=goal_vector,
            recipe=RECIPE,
        )
    )
    assert "e2" not in found and "d26" not in found and "e1" not in found
    assert found["e3"][0].nodes == ("e1", "e2", "e3")


def test_channels_are_walked_separately_and_merged_by_id(store, goal_vector):
    wide = RECIPE.with_(expansion={"semantic_top": 10, "structural_top": 10})
    found = diffuse(
        store, NS, plan("e1"), evidence_ids={"e1"}, goal_vector=goal_vector, recipe=wide
    )
    by_id = paths_by_id(found)
    # d7 is both a semantic and a structural neighbour of e1: kept once per channel
    assert sorted(p.channel for p in by_id["d7"]) == ["semantic", "structural"]
    # no path mixes channels: every node pair along a path is an edge of that path's channel
    for _, path in found:
        for a, b in zip(path.nodes, path.nodes[1:]):
            assert b in dict(store.neighbours(NS, [a], path.channel)[a])
    semantic = [p for _, p in found if p.channel == "semantic"]
    default = diffuse(
        store, NS, plan("e1"), evidence_ids={"e1"}, goal_vector=goal_vector, recipe=RECIPE
    )
    assert len([p for _, p in default if p.channel == "structural"]) == 5  # top 5 of 8
    assert len(default) < len(found)
    scores = [p.goal_score for p in semantic]
    assert scores == sorted(scores, reverse=True)
    # semantic candidates are scored by cosine with the goal restatement
    unit = store.get_units(NS, [semantic[0].nodes[-1]])[0]
    assert semantic[0].goal_score == pytest.approx(float(unit.vector @ goal_vector), abs=1e-5)


# what the initial views already hold in the pipeline (see test_pipeline)
INITIAL = {"e1", "e2", "d3", "d4", "d5", "d7"}


def test_budget_per_channel_prefers_the_goal(store, goal_vector):
    tight = RECIPE.with_(expansion={"structural_top": 1, "semantic_top": 0})
    found = diffuse(
        store, NS, plan("e1"), evidence_ids=INITIAL, goal_vector=goal_vector, recipe=tight
    )
    assert [unit_id for unit_id, _ in found] == ["e3"]


def test_blind_expansion_ranks_by_path_strength(store, goal_vector):
    blind = RECIPE.with_(expansion={"goal": False, "structural_top": 1, "semantic_top": 0})
    found = diffuse(
        store, NS, plan("e1"), evidence_ids=INITIAL, goal_vector=goal_vector, recipe=blind
    )
    # the reservation is the strongest path from e1 (1 hop), but it is not what is missing
    assert [unit_id for unit_id, _ in found] == ["d26"]
    assert found[0][1].goal_score == 0.0
    every = diffuse(
        store,
        NS,
        plan("e1"),
        evidence_ids={"e1"},
        goal_vector=goal_vector,
        recipe=RECIPE.with_(expansion={"goal": False}),
    )
    strengths = [p.path_weight for _, p in every if p.channel == "structural"]
    assert strengths == sorted(strengths, reverse=True)


def test_structural_channel_off_walks_semantic_edges_only(store, goal_vector):
    found = diffuse(
        store,
        NS,
        plan("e1"),
        evidence_ids={"e1"},
        goal_vector=goal_vector,
        recipe=RECIPE.with_(expansion={"structural_channel": False}),
    )
    assert found and {p.channel for _, p in found} == {"semantic"}
    assert "e3" not in dict(found)


def test_structural_candidates_without_comparable_cues_get_a_small_path_score(store):
    only_time = Cues(text="x", participants=("Nobody",))  # d26 carries Alex: comparable, 0
    found = paths_by_id(
        diffuse(
            store,
            NS,
            plan("e2", goal=only_time),
            evidence_ids={"e2"},
            goal_vector=None,
            recipe=RECIPE,
        )
    )
    # e3 (Maya): comparable -> Jaccard 0; d5 (Sam at Harbor Grill): comparable -> 0
    assert found["e3"][0].goal_score == 0.0
    no_people = paths_by_id(
        diffuse(
            store,
            NS,
            plan("e3", goal=Cues(text="x", locations=("Y",))),
            evidence_ids={"e3"},
            goal_vector=None,
            recipe=RECIPE,
        )
    )
    # e3's structural neighbours that carry no location have no comparable cue with the goal
    d21 = no_people["d21"][0]
    assert d21.goal_score == pytest.approx(NO_CUE_FACTOR * d21.path_weight)


def test_the_goal_vector_is_computed_only_when_a_new_unit_is_reached(store):
    calls = []

    def lazy_vector():
        calls.append(1)
        return embedder().embed([GOAL.text])[0]

    # nothing new within reach (everything near e1 is already evidence): no embedding is spent
    near_e1 = {n for n, _ in walk(store, NS, ["e1"], "semantic", 2).items()} | {
        n for n, _ in walk(store, NS, ["e1"], "structural", 2).items()
    }
    diffuse(store, NS, plan("e1"), evidence_ids=near_e1 | {"e1"}, goal_vector=lazy_vector, recipe=RECIPE)
    assert calls == []
    diffuse(store, NS, plan("e1"), evidence_ids={"e1"}, goal_vector=lazy_vector, recipe=RECIPE)
    assert calls == [1]


def test_no_anchors_no_expansion(store):
    assert diffuse(store, NS, plan(), evidence_ids=set(), goal_vector=None, recipe=RECIPE) == []


def test_walk_keeps_the_fewest_hops_then_the_strongest_path(store):
    reached = walk(store, NS, ["e1"], "structural", 2)
    assert reached["e2"].hops == 1 and reached["e3"].hops == 2
    assert "e1" not in reached


def test_read_candidates_bounds_what_each_channel_reads(store, goal_vector):
    everything = diffuse(
        store, NS, plan("e1"), evidence_ids={"e1"}, goal_vector=goal_vector,
        recipe=RECIPE.with_(expansion={"semantic_top": 10, "structural_top": 10}),
    )
    assert len(everything) > 2
    counting = CountingReads(store)
    found = diffuse(
        counting, NS, plan("e1"), evidence_ids={"e1"}, goal_vector=goal_vector,  # type: ignore[arg-type]
        recipe=RECIPE.with_(
            expansion={"semantic_top": 10, "structural_top": 10, "read_candidates": 1}
        ),
    )
    assert len(found) <= 2  # one per channel
    assert all(len(ids) <= 2 for ids, _ in counting.asked)  # the closest of each, read
