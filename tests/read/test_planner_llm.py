from __future__ import annotations

import json
from datetime import datetime

import pytest

from ripplemem.providers.openai_compat import OpenAICompatibleChat
from ripplemem.read.pipeline import recall
from ripplemem.read.planner import Planner
from ripplemem.read.planner_llm import LLMPlanner, target_span
from ripplemem.read.prompts.planning import PlanningResponse
from ripplemem.recipes import get_recipe
from ripplemem.records import Cues, TimeSpan
from ripplemem.testing import Reply, ScriptedOpenAIServer

from . import NS, QUERY, build_store, embedder

RECIPE = get_recipe(
    "ripple", budget=14, context={"share": 0}, views={"centred_query": False}
)  # as in test_pipeline.py

GOOD_PLAN = {
    "continue": True,
    "anchors": ["e2", "not-an-id", "e1"],
    "target_restatement": "Maya is allergic to seafood.",
    "target_participants": ["Maya"],
    "target_locations": [],
    "target_time_start": "2023-04-01",
    "target_time_end": "sometime in spring",
    "stop_reason": "The safety constraint about Maya's diet is missing.",
}


@pytest.fixture(scope="module")
def store():
    return build_store()


def chat_for(server: ScriptedOpenAIServer) -> OpenAICompatibleChat:
    return OpenAICompatibleChat(server.llm_settings(max_retries=1, timeout_s=5), backoff_s=0.01)


def run(store, planner) -> object:
    return recall(
        QUERY, store=store, namespace=NS, embedder=embedder(), recipe=RECIPE, planner=planner
    )


def test_a_valid_plan_is_used_and_unknown_anchors_are_dropped(store):
    with ScriptedOpenAIServer([Reply.json(GOOD_PLAN, usage=(900, 60))]) as server:
        with chat_for(server) as chat:
            planner = LLMPlanner(chat)
            assert isinstance(planner, Planner)
            result = run(store, planner)
        (request,) = server.requests
    (plan,) = result.trace.plans
    assert plan.planner == "llm:scripted-model"
    assert plan.proceed and plan.anchors == ("e2", "e1")
    assert "not-an-id" in plan.stop_reason and "dropped" in plan.stop_reason
    assert plan.goal is not None and plan.goal.text == "Maya is allergic to seafood."
    assert plan.goal.participants == ("Maya",)
    # a valid start and an unparseable end: the start stands for the whole day
    assert plan.goal.time_span == TimeSpan.day(datetime(2023, 4, 1))
    assert plan.tokens == 960
    # the plan was followed: the allergy is one structural hop from the anchor e2
    allergy = next(e for e in result.evidence if e.unit.id == "e3")
    assert allergy.paths[0].anchor == "e2" and allergy.paths[0].nodes == ("e2", "e3")
    # the prompt shows the question, the cues and the numbered evidence with ids and cues
    prompt = request["messages"][-1]["content"]
    assert QUERY in prompt and "people: Sam, Maya" in prompt
    assert "[1] id=" in prompt and "id=e1" in prompt and "places: Harbor Grill" in prompt
    assert "said 2023-04-23" in prompt
    assert request["response_format"]["type"] == "json_schema"


def test_malformed_twice_falls_back_to_the_deterministic_planner(store):
    replies = [Reply.malformed(usage=(500, 10)), Reply.malformed(usage=(520, 10))]
    with ScriptedOpenAIServer(replies) as server:
        with chat_for(server) as chat:
            result = run(store, LLMPlanner(chat, max_repairs=1))
        assert len(server.requests) == 2
    (plan,) = result.trace.plans
    assert plan.planner.startswith("deterministic (llm failed: InvalidModelOutputError")
    assert plan.tokens == 1040  # the failed attempts are accounted for
    assert plan.proceed and plan.goal is not None  # the deterministic decision, not a made-up one
    assert "e3" in [e.unit.id for e in result.evidence]


def test_a_repaired_reply_is_used(store):
    replies = [Reply.malformed(), Reply.json(GOOD_PLAN)]
    with ScriptedOpenAIServer(replies) as server, chat_for(server) as chat:
        result = run(store, LLMPlanner(chat, max_repairs=1))
    assert result.trace.plans[0].planner == "llm:scripted-model"


def test_an_unreachable_model_falls_back(store):
    failing = ScriptedOpenAIServer([Reply.status(500), Reply.status(500)])
    with failing as server, chat_for(server) as chat:
        result = run(store, LLMPlanner(chat))
    plan = result.trace.plans[0]
    assert plan.planner.startswith("deterministic (llm failed: ProviderUnavailableError")


def test_the_model_may_stop(store):
    stop = {
        "continue": False,
        "anchors": ["e1"],
        "target_restatement": "",
        "stop_reason": "E1 answers it.",
    }
    with ScriptedOpenAIServer([Reply.json(stop)]) as server, chat_for(server) as chat:
        result = run(store, LLMPlanner(chat))
    (plan,) = result.trace.plans
    assert not plan.proceed and plan.anchors == () and plan.goal is None
    assert plan.stop_reason == "E1 answers it."
    assert result.trace.expansions == [] and "e3" not in [e.unit.id for e in result.evidence]


def test_no_valid_anchor_uses_deterministic_anchors_and_says_so(store):
    plan_json = dict(GOOD_PLAN, anchors=["x1", "x2"], target_time_start=None, target_time_end=None)
    with ScriptedOpenAIServer([Reply.json(plan_json)]) as server, chat_for(server) as chat:
        result = run(store, LLMPlanner(chat))
    plan = result.trace.plans[0]
    assert (
        plan.proceed and plan.anchors and set(plan.anchors) <= {e.unit.id for e in result.evidence}
    )
    assert "anchors: deterministic" in plan.planner
    assert plan.goal.text == "Maya is allergic to seafood." and plan.goal.time_span is None


def test_no_evidence_needs_no_call():
    with ScriptedOpenAIServer() as server:
        with chat_for(server) as chat:
            plan = LLMPlanner(chat).plan("q", Cues(text="q"), [], recipe=RECIPE)
        assert server.requests == []
    assert not plan.proceed


@pytest.mark.parametrize(
    ("start", "end", "expected"),
    [
        (
            "2023-05-01",
            "2023-05-31",
            TimeSpan(datetime(2023, 5, 1), datetime(2023, 5, 31, 23, 59, 59)),
        ),
        ("2023-05-31", "2023-05-01", None),
        ("May", None, None),
        (None, "2023-05-02", TimeSpan.day(datetime(2023, 5, 2))),
        (
            "2023-05-01T10:00:00+02:00",
            "2023-05-01T12:00:00",
            TimeSpan(datetime(2023, 5, 1, 10), datetime(2023, 5, 1, 12)),
        ),
    ],
)
def test_target_times_are_validated(start, end, expected):
    assert target_span(start, end) == expected


def test_the_response_model_uses_the_continue_key():
    schema = PlanningResponse.model_json_schema()
    assert "continue" in schema["properties"] and "continue" in schema["required"]
    parsed = PlanningResponse.model_validate_json(json.dumps(GOOD_PLAN))
    assert parsed.proceed is True and parsed.anchors[0] == "e2"


def test_a_cut_off_plan_is_asked_again_over_half_the_evidence(store):
    script = [Reply.truncated('{"continue": true, "anchors": ["e2"'), Reply.json(GOOD_PLAN)]
    with ScriptedOpenAIServer(script) as server:
        with chat_for(server) as chat:
            result = run(store, LLMPlanner(chat))
        first, second = server.requests[:2]
    assert first["max_tokens"] and second["max_tokens"] == first["max_tokens"]
    shown = [r["messages"][-1]["content"].count(" id=") for r in (first, second)]
    assert shown[1] == max(1, shown[0] // 2)
    assert result.trace.plans[0].planner == "llm:scripted-model"
    schema = first["response_format"]["json_schema"]["schema"]
    assert schema["properties"]["anchors"]["maxItems"] == 3


def test_a_goal_copying_the_placeholders_is_rebuilt_from_the_cues(store):
    copied = dict(GOOD_PLAN, target_restatement="<person> is allergic to <food>.")
    with ScriptedOpenAIServer([Reply.json(copied)]) as server, chat_for(server) as chat:
        result = run(store, LLMPlanner(chat))
    plan = result.trace.plans[0]
    assert plan.goal is not None and "<" not in plan.goal.text
    assert "empty target restatement" in plan.stop_reason
