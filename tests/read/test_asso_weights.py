"""SignalWeights: validation, per-type lookup with fallback, save / load round trip and errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ripplemem.errors import InvalidInputError
from ripplemem.read.asso.weights import (
    EQUAL_WEIGHTS,
    SIGNALS,
    FittedOn,
    SignalWeights,
    load_weights,
    question_ids_hash,
    save_weights,
)


def test_defaults_are_equal_thirds() -> None:
    assert SIGNALS == ("relevance", "importance", "temporal")
    weights = SignalWeights()
    assert weights.for_type("temporal") == EQUAL_WEIGHTS
    assert sum(EQUAL_WEIGHTS.values()) == pytest.approx(1.0)
    assert weights.fitted_question_ids() == frozenset()


def test_for_type_falls_back_to_default() -> None:
    temporal = {"relevance": 0.2, "importance": 0.2, "temporal": 0.6}
    weights = SignalWeights(by_type={"temporal": temporal})
    assert weights.for_type("temporal") == temporal
    assert weights.for_type("preference") == EQUAL_WEIGHTS


@pytest.mark.parametrize(
    "bad",
    [
        {"relevance": 0.5, "importance": 0.5},  # a signal missing
        {"relevance": 0.5, "importance": 0.5, "temporal": 0.5},  # sum 1.5
        {"relevance": 1.2, "importance": -0.2, "temporal": 0.0},  # negative
    ],
)
def test_invalid_weights_are_refused(bad: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        SignalWeights(by_type={"x": bad})


def test_round_trip_keeps_metadata(tmp_path: Path) -> None:
    ids = ("q2", "q1")
    weights = SignalWeights(
        by_type={"temporal": {"relevance": 0.25, "importance": 0.25, "temporal": 0.5}},
        fitted_on=FittedOn(dataset="toy", question_ids=ids, question_ids_hash=question_ids_hash(ids)),
    )
    path = save_weights(weights, tmp_path / "sub" / "weights.json")
    loaded = load_weights(path)
    assert loaded == weights
    assert loaded.fitted_question_ids() == {"q1", "q2"}
    assert question_ids_hash(["q1", "q2", "q1"]) == question_ids_hash(ids)


def test_missing_file_says_how_to_make_one(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="fit-weights"):
        load_weights(tmp_path / "nope.json")


@pytest.mark.parametrize(
    ("content", "match"),
    [
        ("{not json", "not a JSON weights file"),
        ("[1, 2]", "JSON object"),
        (json.dumps({"by_type": {"x": {"relevance": 1.0}}}), "malformed weights at by_type"),
        (json.dumps({"unknown_field": 1}), "malformed weights"),
    ],
)
def test_malformed_file_is_a_clear_error(tmp_path: Path, content: str, match: str) -> None:
    path = tmp_path / "weights.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InvalidInputError, match=match):
        load_weights(path)


def test_settings_name_the_weights_file(tmp_path: Path) -> None:
    from ripplemem.read.asso.weights import weights_from_settings
    from ripplemem.settings import Settings

    assert weights_from_settings(Settings()).for_type("temporal") == EQUAL_WEIGHTS
    fitted = SignalWeights(by_type={"temporal": {"relevance": 0.1, "importance": 0.1, "temporal": 0.8}})
    path = save_weights(fitted, tmp_path / "w.json")
    settings = Settings.from_env({"RIPPLEMEM_ASSO_WEIGHTS": str(path)})
    assert settings.asso_weights == path
    assert weights_from_settings(settings).for_type("temporal")["temporal"] == 0.8
    with pytest.raises(InvalidInputError):
        weights_from_settings(Settings(asso_weights=tmp_path / "missing.json"))


def test_asso_recipes_pick_up_the_settings_weights(tmp_path: Path) -> None:
    from ripplemem.read.asso.weights import with_settings_weights
    from ripplemem.recipes import get_recipe
    from ripplemem.settings import Settings

    settings = Settings(asso_weights=tmp_path / "w.json")
    assert with_settings_weights(get_recipe("asso"), settings).asso.weights_path == str(tmp_path / "w.json")
    assert with_settings_weights(get_recipe("ripple"), settings) == get_recipe("ripple")
    own = get_recipe("asso", asso={"weights_path": "mine.json"})
    assert with_settings_weights(own, settings).asso.weights_path == "mine.json"
    assert with_settings_weights(get_recipe("asso"), Settings()).asso.weights_path is None
