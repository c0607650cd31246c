"""A running process sees fitted weights rewritten to the same file (a refit)."""

from __future__ import annotations

from ripplemem.read.asso.rit import cached_weights, recipe_weights
from ripplemem.read.asso.weights import SignalWeights, save_weights
from ripplemem.recipes import RecallRecipe

QUESTION = "When did Caroline go to the support group?"


def _fitted(relevance: float) -> SignalWeights:
    rest = (1.0 - relevance) / 2
    weights = {"relevance": relevance, "importance": rest, "temporal": rest}
    return SignalWeights(by_type={}, default=weights)


def test_a_refit_to_the_same_file_is_seen(tmp_path):
    path = tmp_path / "weights.json"
    recipe = RecallRecipe(name="asso", asso={"weights_path": str(path)})
    save_weights(_fitted(0.8), path)
    assert recipe_weights(QUESTION, recipe)[1]["relevance"] == 0.8
    save_weights(_fitted(0.2), path)  # same path, same process
    assert recipe_weights(QUESTION, recipe)[1]["relevance"] == 0.2


def test_an_unchanged_file_is_parsed_once(tmp_path):
    path = tmp_path / "weights.json"
    save_weights(_fitted(0.6), path)
    assert cached_weights(str(path)) is cached_weights(str(path))
