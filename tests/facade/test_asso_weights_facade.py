"""Memory.search with Settings.asso_weights: the asso recipes rank with the fitted weights."""

from __future__ import annotations

from ripplemem import Memory, Settings
from ripplemem.read.asso.weights import SignalWeights, save_weights

from .conftest import DINNER, TRIP


def _weights_note(recall) -> str:
    return next(note for note in recall.trace.notes if note.startswith("question type"))


def test_settings_weights_reach_the_asso_ranker(tmp_path, embedder) -> None:
    only_relevance = {"relevance": 1.0, "importance": 0.0, "temporal": 0.0}
    path = save_weights(SignalWeights(default=only_relevance), tmp_path / "w.json")
    question = "Where did Maya travel with Priya?"
    settings = Settings(store=tmp_path / "m.db", asso_weights=path)
    with Memory(settings, embedder=embedder) as memory:
        memory.add(TRIP, user_id="maya", session_time="2024-05-20T10:00")
        memory.add(DINNER, user_id="maya", session_time="2024-05-22 18:00")
        fitted = memory.search(question, user_id="maya", recipe="asso")
        equal = memory.search(question, user_id="maya", recipe="asso-equal-weights")
        ripple = memory.search(question, user_id="maya")
    assert "relevance 1.00" in _weights_note(fitted)
    assert "relevance 0.33" in _weights_note(equal)
    assert ripple.trace.recipe == "ripple"  # other recipes are untouched
    relevance = [e.terms.alignment for e in fitted.evidence if e.terms is not None]
    assert relevance == sorted(relevance, reverse=True)
