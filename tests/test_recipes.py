"""Recipes are nested by concern and accept each parameter by one flat name."""

from __future__ import annotations

import pytest

from ripplemem.recipes import RECIPES, RecallRecipe, ViewParams, get_recipe


def test_flat_and_nested_names_give_the_same_recipe():
    flat = get_recipe("ripple", dense_k=20, context_share=0.0, asso_pool=10, expansion=False)
    nested = RecallRecipe(
        views={"dense_k": 20}, context={"share": 0.0}, asso={"pool": 10}, expansion={"enabled": False}
    )
    assert flat == nested
    assert flat.views.dense_k == 20 and flat.views.lexical_k == ViewParams().lexical_k
    assert not flat.expansion.enabled and flat.expansion.hops == 2


def test_a_change_keeps_the_rest_of_its_group():
    recipe = get_recipe("ripple-paper").with_(lambda_q=2.0)
    assert recipe.rank.lambda_q == 2.0
    assert recipe.rank.provenance == "max" and recipe.rank.weight_lexical == 0.75


@pytest.mark.parametrize(
    "change, field",
    [({"dense_k": -1}, "dense_k"), ({"provenance": "mean"}, "provenance"), ({"nope": 1}, "nope")],
)
def test_bad_values_and_unknown_names_are_refused_by_name(change, field):
    with pytest.raises(ValueError, match=field):
        get_recipe("ripple", **change)


def test_every_preset_round_trips_through_its_json_form():
    for recipe in RECIPES.values():
        assert RecallRecipe.model_validate_json(recipe.model_dump_json()) == recipe
