"""Gathering questions (recipe.expansion.gather): anchors spread over episodes."""

from __future__ import annotations

from datetime import datetime

import numpy as np

from ripplemem.read.planner import pick_anchors
from ripplemem.recipes import get_recipe
from ripplemem.records import Cues, Evidence, MemoryUnit, ScoreTerms

T0 = datetime(2024, 5, 1, 10, 0)


def _evidence(uid: str, episode: str, alignment: float) -> Evidence:
    unit = MemoryUnit(
        id=uid, namespace="ns", restatement=uid, vector=np.ones(2, dtype=np.float32),
        participants=(), locations=(), time_span=None, episode_id=episode, turn_ids=(uid,),
        session_time=T0, created_at=T0,
    )
    terms = ScoreTerms(alignment=alignment, provenance=0.0, anchor=0.0, total=alignment)
    return Evidence(unit, alignment, (), terms, ())


def test_gathering_anchors_come_from_distinct_episodes_while_there_are_any():
    evidence = [
        _evidence("a1", "s1", 1.0), _evidence("a2", "s1", 0.9), _evidence("a3", "s1", 0.8),
        _evidence("b1", "s2", 0.5), _evidence("c1", "s3", 0.4),
    ]
    cues = Cues(keywords=("books",))
    assert pick_anchors(cues, evidence, 3) == ("a1", "a2", "a3")
    assert pick_anchors(cues, evidence, 3, across_episodes=True) == ("a1", "b1", "c1")
    # one episode only: the best units of it, as without the rule
    assert pick_anchors(cues, evidence[:3], 3, across_episodes=True) == ("a1", "a2", "a3")


def test_gather_is_a_named_recipe_and_off_by_default():
    assert not get_recipe("ripple").expansion.gather
    assert get_recipe("ripple-gather").expansion.gather
    assert get_recipe("ripple", expansion={"gather": True}).expansion.gather
