from __future__ import annotations

import re
from datetime import datetime

import pytest

from ripplemem.read.planner import DeterministicPlanner, Planner, coverage, goal_sentence
from ripplemem.read.query_cues import derive_cues
from ripplemem.read.rank import Candidate, rank
from ripplemem.recipes import get_recipe
from ripplemem.records import Evidence, Hit, TimeSpan

from . import NS, QUERY, build_store, embedder

RECIPE = get_recipe("ripple")
QUESTION_START = re.compile(
    r"^(should|would|could|can|do|does|did|is|are|was|were|what|when|where|who|why|how|which)\b",
    re.IGNORECASE,
)


@pytest.fixture(scope="module")
def store():
    return build_store()


def query_cues(store, query: str):
    return derive_cues(
        query,
        reference_time=None,
        people_vocabulary=store.cue_values(NS, "P"),
        place_vocabulary=store.cue_values(NS, "L"),
    )


def evidence_of(store, query: str, ids: list[str]) -> list[Evidence]:
    """Evidence as the pipeline hands it to the planner: ranked, with score terms."""
    units = store.get_units(NS, ids)
    candidates = [Candidate(u, [Hit("dense", i, 0.5)]) for i, u in enumerate(units)]
    vector = embedder().embed([query], input_type="query")[0]
    return rank(candidates, query_vector=vector, anchors=(), recipe=RECIPE)


def assert_statement(text: str) -> None:
    assert text.strip() and not text.rstrip().endswith("?")
    assert not QUESTION_START.match(text), text


def test_deterministic_planner_is_a_planner():
    assert isinstance(DeterministicPlanner(), Planner)


def test_continues_from_the_paper_evidence_with_anchors_and_a_statement_goal(store):
    cues = query_cues(store, QUERY)
    evidence = evidence_of(store, QUERY, ["e1", "d5", "d4", "d3", "d8", "d13", "e2"])
    plan = DeterministicPlanner().plan(QUERY, cues, evidence, recipe=RECIPE)
    assert plan.proceed and plan.planner == "deterministic"
    assert plan.stop_reason.startswith("continue")
    assert 1 <= len(plan.anchors) <= RECIPE.expansion.max_anchors
    assert set(plan.anchors) <= {e.unit.id for e in evidence}
    assert plan.anchors[0] == "e1"  # best aligned and carries Sam, Maya and Harbor Grill
    goal = plan.goal
    assert goal is not None
    assert_statement(goal.text)
    assert "Sam" in goal.text and "Maya" in goal.text
    # every query cue is covered, some thinly: the goal asks for all the query's people/places
    assert goal.participants == ("Sam", "Maya") and goal.locations == ("Harbor Grill",)


def test_goal_names_the_uncovered_cues(store):
    query = "Would Priya want to go to Harbor Grill given her allergies?"
    cues = query_cues(store, query)
    assert cues.participants == ("Priya",)
    evidence = evidence_of(store, query, ["e1", "d4", "d5", "d13"])  # no Priya, no allergy
    plan = DeterministicPlanner().plan(query, cues, evidence, recipe=RECIPE)
    assert plan.proceed
    assert plan.goal is not None
    assert plan.goal.participants == ("Priya",)  # the uncovered person only
    assert plan.goal.locations == ("Harbor Grill",)  # covered, kept as the query asks it
    assert "allergies" in plan.goal.keywords and "grill" not in plan.goal.keywords
    assert_statement(plan.goal.text)
    assert plan.goal.text.startswith("Priya ") and "allergies" in plan.goal.text
    assert "people Priya" in plan.stop_reason


def test_anchors_spread_over_the_query_cues(store):
    query = "Did Alex and Priya eat oysters at Harbor Grill?"
    cues = query_cues(store, query)
    evidence = evidence_of(store, query, ["d13", "d16", "d19", "d4", "d5", "d15"])
    plan = DeterministicPlanner().plan(query, cues, evidence, recipe=RECIPE.with_(expansion={"max_anchors": 2}))
    assert len(plan.anchors) == 2
    carried = set()
    for unit in store.get_units(NS, list(plan.anchors)):
        carried |= {p.casefold() for p in unit.participants} | {
            x.casefold() for x in unit.locations
        }
    assert {"alex", "priya", "harbor grill"} <= carried


def test_stops_when_every_cue_is_covered_twice(store):
    query = "Tell me about Sam, Maya and Harbor Grill."
    cues = query_cues(store, query)
    evidence = evidence_of(store, query, ["e1", "d3", "d4"])
    cover = coverage(cues, [e.unit for e in evidence])
    assert min(cover.keywords.values()) >= 2
    plan = DeterministicPlanner().plan(query, cues, evidence, recipe=RECIPE)
    assert not plan.proceed and plan.anchors == () and plan.goal is None
    assert "covered by at least 2" in plan.stop_reason


@pytest.mark.parametrize(
    ("query", "ids"),
    [
        (QUERY, ["e1", "d5", "d4", "d3", "d8", "d13", "e2"]),
        ("Tell me about Sam, Maya and Harbor Grill.", ["e1", "d3", "d4"]),
        ("Would Priya want to go to Harbor Grill given her allergies?", ["e1", "d4", "d5", "d13"]),
    ],
)
def test_the_decision_reads_the_units_not_their_ranking(store, query, ids):
    """``decide`` sees the units in any order; with the anchors of the ranked evidence it is
    the plan (the pipeline ranks the pool only for a round that goes on)."""
    planner = DeterministicPlanner()
    cues = query_cues(store, query)
    evidence = evidence_of(store, query, ids)
    plan = planner.plan(query, cues, evidence, recipe=RECIPE)
    shuffled = [e.unit for e in reversed(evidence)]
    decision = planner.decide(query, cues, shuffled)
    assert (decision.stop is None) == plan.proceed
    assert planner.anchored(decision, cues, evidence, recipe=RECIPE) == plan


def test_stops_without_evidence_or_cues(store):
    cues = query_cues(store, QUERY)
    assert not DeterministicPlanner().plan(QUERY, cues, [], recipe=RECIPE).proceed
    empty = query_cues(store, "what?")
    evidence = evidence_of(store, "what?", ["e1"])
    plan = DeterministicPlanner().plan("what?", empty, evidence, recipe=RECIPE)
    assert not plan.proceed and "no cue" in plan.stop_reason


def test_time_coverage_uses_the_day_a_unit_was_said(store):
    query = "What did Maya say on 16 April 2023?"
    cues = query_cues(store, query)
    assert cues.time_span == TimeSpan.day(datetime(2023, 4, 16))
    cover = coverage(cues, store.get_units(NS, ["e3", "d9"]))
    assert cover.time == 1  # e3 was said that day; d9 was not


@pytest.mark.parametrize(
    ("people", "places", "span", "words", "expected"),
    [
        (
            ["Caroline"],
            ["Harbor Grill"],
            None,
            ["allergies"],
            "Caroline talked about allergies at Harbor Grill.",
        ),
        (["Sam", "Maya"], [], None, [], "Sam and Maya shared what happened."),
        (
            [],
            ["Paris"],
            TimeSpan(datetime(2023, 5, 1), datetime(2023, 5, 31, 23, 59, 59)),
            [],
            "They went to Paris in May 2023.",
        ),
        (
            ["John"],
            [],
            None,
            ["john", "books", "recommended"],
            "John talked about books and recommended.",
        ),
    ],
)
def test_goal_sentence_is_a_memory_statement(people, places, span, words, expected):
    text = goal_sentence(people, places, span, words)
    assert text == expected
    assert_statement(text)


def test_continues_when_the_answer_gathers_several_memories(store):
    query = "Which restaurants did Sam recommend?"
    cues = query_cues(store, query)
    evidence = evidence_of(store, query, ["e1", "d8", "d7", "d11", "d12"])
    cover = coverage(cues, [e.unit for e in evidence])
    assert min(cover.keywords.values()) >= 2 and min(cover.participants.values()) >= 2
    plan = DeterministicPlanner().plan(query, cues, evidence, recipe=RECIPE)
    assert plan.proceed and "several memories (plural 'restaurants')" in plan.stop_reason
    assert plan.goal is not None and plan.goal.participants == ("Sam",)
    assert_statement(plan.goal.text)
    counted = "How many times did Sam recommend a restaurant?"
    evidence = evidence_of(store, counted, ["e1", "d8", "d7", "d11", "d12"])
    plan = DeterministicPlanner().plan(counted, query_cues(store, counted), evidence, recipe=RECIPE)
    assert plan.proceed and "'how many'" in plan.stop_reason
