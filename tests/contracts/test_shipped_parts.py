"""The shipped embedders, extractors and planners run the contract suites of ripplemem.testing."""

from __future__ import annotations

import re

import pytest

from ripplemem.providers.factory import make_embedder
from ripplemem.read.planner import DeterministicPlanner
from ripplemem.read.planner_llm import LLMPlanner
from ripplemem.settings import Settings
from ripplemem.testing import FakeEmbedder, ScriptedChatModel
from ripplemem.testing.contracts.embedder import EmbedderContract
from ripplemem.testing.contracts.extractor import ExtractorContract
from ripplemem.testing.contracts.planner import PlannerContract
from ripplemem.write.extract_llm import LLMExtractor
from ripplemem.write.extract_rules import DeterministicExtractor

_FOCUS = re.compile(r"Turns to extract from:\n(.*)", re.DOTALL)
_TURN = re.compile(r"^\[([^\]]+)\] ([^:]+): (.*)$", re.MULTILINE)


def _echo_units(messages, json_schema) -> dict:
    """A model that restates each turn it was asked to extract from, citing it."""
    focus = _FOCUS.search(messages[-1].content)
    turns = _TURN.findall(focus.group(1)) if focus else []
    return {
        "units": [
            {"restatement": f"{speaker} said: {text}", "source_turn_ids": [turn_id],
             "participants": [speaker]}
            for turn_id, speaker, text in turns
        ]
    }


class TestFakeEmbedder(EmbedderContract):
    @pytest.fixture
    def embedder(self):
        return FakeEmbedder()


class TestDefaultEmbedder(EmbedderContract):
    @pytest.fixture(scope="class")
    @classmethod
    def embedder(cls):
        return make_embedder(Settings().embedder)


class TestDeterministicExtractor(ExtractorContract):
    @pytest.fixture(scope="class")
    @classmethod
    def extractor(cls):
        return DeterministicExtractor()


class TestLLMExtractor(ExtractorContract):
    @pytest.fixture
    def extractor(self):
        return LLMExtractor(ScriptedChatModel(responder=_echo_units))


class TestDeterministicPlanner(PlannerContract):
    @pytest.fixture
    def planner(self):
        return DeterministicPlanner()


class TestLLMPlanner(PlannerContract):
    """A model that names an unknown anchor among real ones: the planner keeps only real ones."""

    @pytest.fixture
    def planner(self):
        plan = {
            "continue": True,
            "anchors": ["u1", "not-an-id", "u0", "u2"],
            "target_restatement": "Maya is allergic to seafood.",
            "target_participants": ["Maya"],
            "target_locations": [],
            "target_time_start": None,
            "target_time_end": None,
            "stop_reason": "Maya's diet is not known yet.",
        }
        return LLMPlanner(ScriptedChatModel(responder=lambda messages, schema: plan))


class TestLLMPlannerWhenTheModelFails(PlannerContract):
    @pytest.fixture
    def planner(self):
        return LLMPlanner(ScriptedChatModel())  # script exhausted: every call fails
