"""Recipes are nested by concern, with one name for each parameter: a parameter named outside
its group is refused with the nested spelling to write."""

from __future__ import annotations

import pytest

from ripplemem.errors import InvalidInputError
from ripplemem.recipes import RECIPES, RecallRecipe, ViewParams, get_recipe


def test_a_change_names_its_group_and_keeps_the_rest_of_it():
    changed = get_recipe(
        "ripple", views={"dense_k": 20}, context={"share": 0.0}, asso={"pool": 10},
        expansion={"enabled": False},
    )
    assert changed == RecallRecipe(
        views={"dense_k": 20}, context={"share": 0.0}, asso={"pool": 10}, expansion={"enabled": False}
    )
    assert changed.views.dense_k == 20 and changed.views.lexical_k == ViewParams().lexical_k
    assert not changed.expansion.enabled and changed.expansion.hops == 2
    recipe = get_recipe("ripple-paper").with_(rank={"lambda_q": 2.0})
    assert recipe.rank.lambda_q == 2.0
    assert recipe.rank.provenance == "max" and recipe.rank.weight_lexical == 0.75


@pytest.mark.parametrize(
    "change, nested",
    [
        ({"dense_k": 20}, "views={'dense_k': 20}"),
        ({"context_share": 0.0}, "context={'share': 0.0}"),
        ({"asso_pool": 10}, "asso={'pool': 10}"),
        ({"expand_semantic_top": 3}, "expansion={'semantic_top': 3}"),
        ({"lambda_q": 2.0}, "rank={'lambda_q': 2.0}"),
        ({"expansion": False}, "expansion={'enabled': ...}"),
    ],
)
def test_a_parameter_outside_its_group_is_refused_with_the_nested_name(change, nested):
    with pytest.raises(InvalidInputError) as refused:
        get_recipe("ripple", **change)
    assert nested in str(refused.value)
    with pytest.raises(ValueError, match="group"):  # built directly, too
        RecallRecipe(**change)


@pytest.mark.parametrize(
    "change, field",
    [
        ({"views": {"dense_k": -1}}, "dense_k"),
        ({"rank": {"provenance": "mean"}}, "provenance"),
        ({"nope": 1}, "nope"),
        ({"views": {"nope": 1}}, "nope"),
    ],
)
def test_bad_values_and_unknown_names_are_refused_by_name(change, field):
    with pytest.raises(ValueError, match=field):
        get_recipe("ripple", **change)


def test_every_preset_round_trips_through_its_json_form():
    for recipe in RECIPES.values():
        assert RecallRecipe.model_validate_json(recipe.model_dump_json()) == recipe
