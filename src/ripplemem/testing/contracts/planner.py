"""What every :class:`~ripplemem.read.planner.Planner` must do.

Subclass :class:`PlannerContract` and give it a ``planner`` fixture.
"""

from __future__ import annotations

import pytest

from ripplemem.read.planner import Planner
from ripplemem.recipes import get_recipe
from ripplemem.records import Cues, Evidence, Hit, RecallPlan
from ripplemem.records.wire import RecallPlanModel
from ripplemem.testing.builders import make_unit

QUERY = "Can I take Maya to a seafood restaurant on Friday?"
CUES = Cues(text=QUERY, keywords=("seafood", "restaurant"), participants=("Maya",))
RECIPE = get_recipe("ripple")


def evidence(*texts: str) -> list[Evidence]:
    """Ranked evidence, best first, as the pipeline hands it to a planner."""
    return [
        Evidence(
            make_unit(f"u{i}", restatement=text, participants=("Maya",)),
            score=1.0 - i / 10,
            hits=(Hit("dense", i, 0.5),),
        )
        for i, text in enumerate(texts)
    ]


EVIDENCE = evidence(
    "Maya and Sam plan dinner on Friday.",
    "Sam likes the seafood restaurant by the harbour.",
    "Maya started a new job in May.",
)


class PlannerContract:
    """A decision, anchors taken from the evidence, a reason, and no more anchors than allowed."""

    @pytest.fixture
    def planner(self) -> Planner:  # pragma: no cover - the subclass provides it
        raise NotImplementedError("subclass PlannerContract and provide a `planner` fixture")

    def test_it_is_a_planner(self, planner):
        assert isinstance(planner, Planner)

    def test_a_plan_names_its_planner_and_its_reason(self, planner):
        plan = planner.plan(QUERY, CUES, EVIDENCE, recipe=RECIPE)
        assert isinstance(plan, RecallPlan)
        assert plan.planner and plan.stop_reason
        assert plan.tokens >= 0

    @pytest.mark.parametrize("max_anchors", [1, 3])
    def test_anchors_come_from_the_evidence_within_the_limit(self, planner, max_anchors):
        recipe = RECIPE.with_(expansion={"max_anchors": max_anchors})
        plan = planner.plan(QUERY, CUES, EVIDENCE, recipe=recipe)
        assert set(plan.anchors) <= {e.unit.id for e in EVIDENCE}
        assert len(plan.anchors) <= max_anchors
        assert len(set(plan.anchors)) == len(plan.anchors)
        if plan.proceed:
            assert plan.anchors, "a plan that continues needs somewhere to continue from"

    def test_no_evidence_is_no_crash(self, planner):
        plan = planner.plan(QUERY, CUES, [], recipe=RECIPE)
        assert plan.anchors == () and plan.stop_reason

    def test_the_plan_round_trips_through_its_json_form(self, planner):
        plan = planner.plan(QUERY, CUES, EVIDENCE, recipe=RECIPE)
        wire = RecallPlanModel.model_validate_json(plan.to_model().model_dump_json())
        assert RecallPlan.from_model(wire) == plan
