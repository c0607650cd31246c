from __future__ import annotations

import pytest

from ripplemem.read.diffuse import STRUCTURAL_CUE_SHARE
from ripplemem.read.empty import EMPTY_NOTE
from ripplemem.read.pipeline import recall
from ripplemem.read.views import centre_query, dense_view
from ripplemem.recipes import get_recipe
from ripplemem.records import Recall
from ripplemem.stores.base import search_dense

from . import NS, QUERY, build_store, embedder

# The scenario holds 29 units: at the default budget (30) filling would return all of them, so
# the comparisons use budget 14 (C0 holds 11 units here; the expanded allergy unit ranks 14th). The dialogue-context stage is off here
# (its units carry no turn positions); tests/read/test_context.py covers it.
BUDGET = 14


@pytest.fixture(scope="module")
def store():
    return build_store()


def run(store, name: str, query: str = QUERY, **overrides) -> Recall:
    overrides.setdefault("budget", BUDGET)
    # The scenario is built so that no initial view finds the allergy by the raw query cosine.
    # Centred on the centroid of this small store (all of it about Sam, Maya and restaurants),
    # the dense view ranks it in its top 10 already: the expansion tests use the raw vector;
    # test_the_query_vector_is_centred_on_the_namespace_centroid covers centring.
    overrides["views"] = {"centred_query": False, **overrides.get("views", {})}
    overrides["context"] = {"share": 0.0, **overrides.get("context", {})}
    return recall(
        query, store=store, namespace=NS, embedder=embedder(), recipe=get_recipe(name, **overrides)
    )


def ids(result: Recall) -> list[str]:
    return [e.unit.id for e in result.evidence]


def test_the_allergy_is_recalled_only_through_expansion(store):
    ripple = run(store, "ripple")
    initial = ripple.trace.initial
    kept = {
        "dense": initial["dense"][:10],
        "lexical": initial["lexical"][:5],
        "cue": initial["cue"][:5],
    }
    assert all("e3" not in dict(found) for found in kept.values())  # no view finds it
    assert "e1" in ids(ripple) and "e2" in ids(ripple)
    assert "e3" in ids(ripple)
    allergy = next(e for e in ripple.evidence if e.unit.id == "e3")
    assert allergy.views == ("expansion",)
    assert allergy.paths and allergy.paths[0].nodes[-1] == "e3"
    assert allergy.paths[0].anchor in ripple.trace.plans[0].anchors
    # expansion #1, scaled by the strength of its path
    strongest = max(p.path_weight for p in allergy.paths)
    assert allergy.terms.anchor == 0.0
    assert allergy.terms.provenance == pytest.approx(0.85 * strongest)

    without = run(store, "ripple-no-expansion")
    assert "e3" not in ids(without)
    assert without.trace.plans == [] and without.trace.expansions == []


def test_the_trace_is_complete(store):
    result = run(store, "ripple")
    trace = result.trace
    assert trace.query == QUERY and trace.namespace == NS and trace.recipe == "ripple"
    assert trace.cues is not None and trace.cues.participants == ("Sam", "Maya")
    assert set(trace.initial) == {"dense", "lexical", "cue"}
    assert len(trace.initial["dense"]) == BUDGET  # fetched deep enough to fill
    assert len(trace.initial["cue"]) == 5
    (plan,) = trace.plans  # R = 1
    assert plan.proceed and plan.planner == "deterministic" and plan.goal is not None
    assert trace.expansions and all(p.anchor in plan.anchors for p in trace.expansions)
    for stage in ("embed", "cues", "dense", "lexical", "cue", "plan", "diffuse", "rank", "total"):
        assert trace.timings_ms[stage] >= 0.0, stage
    parts = sum(v for k, v in trace.timings_ms.items() if k != "total")
    assert parts <= trace.timings_ms["total"] + 1.0
    assert any("added by expansion" in note for note in trace.notes)
    for item in result.evidence:
        assert item.terms is not None and item.hits
        assert item.score == pytest.approx(item.terms.total)


def test_the_query_vector_is_centred_on_the_namespace_centroid(store):
    query_vector = embedder().embed([QUERY], input_type="query")[0]
    centred = centre_query(query_vector, store.centroid(NS))
    k = len(run(store, "ripple").trace.initial["dense"])
    ripple = run(store, "ripple", views={"centred_query": True}, rank={"lexical_alignment": 0.0, "exchange_alignment": 0.0})
    assert ripple.trace.initial["dense"] == dense_view(store, NS, centred, k)
    # centred with the dense view, on the embedding's thread: the search times its wait for both
    assert ripple.trace.timings_ms["dense"] >= 0.0
    assert "e3" in dict(ripple.trace.initial["dense"][:10])  # the allergy, found directly
    # the alignment term reads the same vector: its order is the centred cosine's
    aligned = sorted(ripple.evidence, key=lambda e: -e.terms.alignment)
    cosines = [float(e.unit.vector @ centred) for e in aligned]
    assert cosines == sorted(cosines, reverse=True)

    raw = run(store, "ripple", views={"centred_query": False})
    assert raw.trace.initial["dense"] == dense_view(store, NS, query_vector, k)
    assert "centre" not in raw.trace.timings_ms
    assert get_recipe("ripple").views.centred_query and not get_recipe("ripple-paper").views.centred_query


def test_deeper_view_hits_compete_in_one_final_ranking(store):
    result = run(store, "ripple", budget=25)
    assert len(result.evidence) == 25
    assert len({e.unit.id for e in result.evidence}) == 25
    deeper = [
        e
        for e in result.evidence
        if all(h.view in ("dense", "lexical") for h in e.hits)
        and not any(h.view == "dense" and h.rank < 10 for h in e.hits)
        and not any(h.view == "lexical" and h.rank < 5 for h in e.hits)
    ]
    assert deeper, "expected units from the deeper ranks"
    scores = [e.score for e in result.evidence]
    assert scores == sorted(scores, reverse=True)  # one ranking, no "C first, then fill"
    assert any(note.startswith("final ranking:") for note in result.trace.notes)
    shallow = run(store, "ripple", budget=25, rank={"deep_candidates": False})
    assert len(shallow.evidence) < 25
    assert len(shallow.trace.initial["dense"]) == 10


def test_ablation_no_structural_channel(store):
    result = run(store, "ripple-no-structural")
    assert result.trace.plans and result.trace.plans[0].proceed
    assert all(p.channel == "semantic" for p in result.trace.expansions)
    assert "e3" not in ids(result)  # the allergy is only linked structurally


def structural_reached(result: Recall) -> list[str]:
    return [p.nodes[-1] for p in result.trace.expansions if p.channel == "structural"]


def test_ablation_no_goal_expands_blindly(store):
    tight = {"expansion": {"structural_top": 1}}
    directed = run(store, "ripple", **tight)
    blind = run(store, "ripple-no-goal", **tight)
    assert blind.trace.plans[0].planner == "none (blind)" and blind.trace.plans[0].goal is None
    assert all(p.goal_score == 0.0 for p in blind.trace.expansions)
    assert structural_reached(directed) == ["e3"]  # what the goal asks for
    assert structural_reached(blind) == ["d26"]  # the strongest path: the reservation


def test_rounds_and_anchors_follow_the_recipe(store):
    result = run(store, "ripple", expansion={"rounds": 2, "max_anchors": 1})
    assert 1 <= len(result.trace.plans) <= 2
    assert all(len(p.anchors) <= 1 for p in result.trace.plans)
    none = run(store, "ripple", expansion={"rounds": 0})
    assert none.trace.plans == []


def test_an_empty_namespace_returns_no_evidence(store):
    result = recall(
        QUERY, store=store, namespace="nobody", embedder=embedder(), recipe=get_recipe("ripple")
    )
    assert result.evidence == () and result.trace.notes == [EMPTY_NOTE]


@pytest.mark.parametrize("name", ["bm25", "dense", "hybrid"])
def test_baselines_return_evidence_with_hits_and_a_trace(store, name):
    result = run(store, name, budget=8)
    assert len(result.evidence) == 8 and result.trace.recipe == name
    for item in result.evidence:
        assert item.hits and item.terms is not None and item.terms.total == item.score
    scores = [e.score for e in result.evidence]
    assert scores == sorted(scores, reverse=True)
    assert result.trace.plans == [] and result.trace.expansions == []


def test_bm25_and_dense_baselines_follow_their_view(store):
    bm25 = run(store, "bm25", budget=5)
    assert ids(bm25) == [i for i, _ in store.search_lexical(NS, QUERY, 5)]
    dense = run(store, "dense", budget=5)
    vector = embedder().embed([QUERY], input_type="query")[0]
    assert ids(dense) == [i for i, _ in search_dense(store, NS, vector, 5)]


def test_centred_baselines_read_the_centred_query_vector(store):
    vector = embedder().embed([QUERY], input_type="query")[0]
    centred = centre_query(vector, store.centroid(NS))
    dense = run(store, "dense-centred", budget=5, views={"centred_query": True})
    assert ids(dense) == [i for i, _ in search_dense(store, NS, centred, 5)]
    assert ids(dense) != [i for i, _ in search_dense(store, NS, vector, 5)]
    hybrid = run(store, "hybrid-centred", budget=6, views={"centred_query": True})
    assert hybrid.trace.initial["dense"][:5] == dense.trace.initial["dense"]
    for name in ("bm25", "dense", "hybrid"):  # the naive baselines stay naive
        assert not get_recipe(name).views.centred_query
    assert get_recipe("dense-centred").views.centred_query and get_recipe("hybrid-centred").views.centred_query


def test_hybrid_is_reciprocal_rank_fusion(store):
    result = run(store, "hybrid", budget=6)
    lists = result.trace.initial
    assert len(lists["dense"]) >= 12 and len(lists["lexical"]) >= 1
    for item in result.evidence:
        expected = sum(
            1.0 / (60 + rank + 1)
            for found in lists.values()
            for rank, (unit_id, _) in enumerate(found)
            if unit_id == item.unit.id
        )
        assert item.score == pytest.approx(expected)
    assert ids(result)[0] == "e1"  # first in dense, second in lexical


def test_the_deterministic_goal_is_scored_on_the_query_vector(store):
    query_vector = embedder().embed([QUERY], input_type="query")[0]
    by_query, embedded = run(store, "ripple"), run(store, "ripple-goal-embedded")
    goal = embedded.trace.plans[0].goal
    goal_vector = embedder().embed([goal.text], input_type="document")[0]
    first = {p.nodes[-1]: p for p in by_query.trace.expansions if p.channel == "structural"}
    second = {p.nodes[-1]: p for p in embedded.trace.expansions if p.channel == "structural"}
    both = set(first) & set(second)
    assert both
    for unit_id in both:  # the same cue part; the cosine part read on another vector
        (unit,) = store.get_units(NS, [unit_id])
        cosines = max(0.0, float(query_vector @ unit.vector)) - max(
            0.0, float(goal_vector @ unit.vector)
        )
        change = first[unit_id].goal_score - second[unit_id].goal_score
        assert change == pytest.approx((1 - STRUCTURAL_CUE_SHARE) * cosines, abs=1e-5)
    assert "embed_goal" not in by_query.trace.timings_ms  # one embedding per search, not two
    assert "embed_goal" in embedded.trace.timings_ms


def test_the_pool_and_the_deeper_ranks_are_read_from_the_store_at_once():
    """Once the query's vector is there, the units of the initial views and the deeper dense /
    lexical ranks the final ranking will read are read in one call (besides the lexical hits the
    prefetch read while the vector was computed), and no later stage reads any of them."""
    from .test_unit_cache import CountingReads

    counting = CountingReads(build_store())
    result = recall(  # no cue view: nothing is read before the vector but the lexical prefetch
        QUERY, store=counting, namespace=NS, embedder=embedder(),  # type: ignore[arg-type]
        recipe=get_recipe("ripple", budget=25, views={"centred_query": False, "cue_k": 0}),
    )
    initial = result.trace.initial
    views = {i for view in ("dense", "lexical") for i, _ in initial[view]}
    prefetch = {i for i, _ in initial["lexical"]}  # the pool's five, then the deeper ranks
    assert len(views) >= 25
    after = [set(ids) for ids, _ in counting.asked if not set(ids) <= prefetch]
    assert views - prefetch <= after[0]
    assert not any(ids & views for ids in after[1:])
