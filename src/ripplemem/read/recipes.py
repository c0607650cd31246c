"""Recall recipes as data: named presets, not flags threaded through signatures."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from ripplemem.errors import UnknownRecipeError


class RecallRecipe(BaseModel):
    """How to recall. Defaults are RippleMem's LoCoMo settings (reference §1)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "ripple"
    kind: Literal["ripple", "bm25", "dense", "hybrid", "asso"] = "ripple"
    # tri-view initial recall
    dense_k: int = 10
    lexical_k: int = 5
    cue_k: int = 5
    # planner + anchor-local diffusion
    expansion: bool = True
    structural_channel: bool = True
    goal: bool = True  # False: expand blindly from the anchors, same budget
    max_anchors: int = 3
    hops: int = 2
    expand_semantic_top: int = 5
    expand_structural_top: int = 5
    rounds: int = 1
    # ranking rho
    lambda_q: float = 1.25
    lambda_p: float = 1.0
    lambda_a: float = 0.05
    weight_dense: float = 1.0
    weight_lexical: float = 0.75
    weight_cue: float = 0.9
    weight_expansion: float = 0.85
    rank_offset: int = 5
    budget: int = 30
    # the deeper dense / lexical hits (to depth ``budget``) also compete in the final ranking,
    # so expanded units must earn their slot (provenance keeps their deep ranks)
    deep_candidates: bool = True
    # hybrid baseline
    rrf_k: int = 60
    # AssoMem (reference §2): clue candidates -> RIT ranking (relevance, importance, temporal)
    asso_top_clues: int = 10
    asso_pool: int = 2000  # at most this many clue members become candidates
    asso_dense_pool: int = 200  # candidates when use_clues is off (or the graph is empty)
    asso_dense_candidates: int = 0  # dense top hits added to the clue candidates
    use_clues: bool = True
    use_importance: bool = True
    use_temporal: bool = True
    equal_weights: bool = False  # ignore weights_path: equal thirds
    weights_path: str | None = None  # fitted SignalWeights (ripplemem fit-weights); None: equal
    # ripple+asso: importance and temporal alignment as extra terms of rho
    asso_terms: bool = False
    lambda_importance: float = 0.5
    lambda_temporal: float = 0.5

    def with_(self, **changes) -> RecallRecipe:
        return self.model_copy(update=changes)


RECIPES: dict[str, RecallRecipe] = {
    "ripple": RecallRecipe(),
    "ripple-no-expansion": RecallRecipe(name="ripple-no-expansion", expansion=False),
    "ripple-no-structural": RecallRecipe(name="ripple-no-structural", structural_channel=False),
    "ripple-no-goal": RecallRecipe(name="ripple-no-goal", goal=False),
    "bm25": RecallRecipe(name="bm25", kind="bm25"),
    "dense": RecallRecipe(name="dense", kind="dense"),
    "hybrid": RecallRecipe(name="hybrid", kind="hybrid"),
    # AssoMem returns its top 6 by default; the benchmark compares at the common budget
    "asso": RecallRecipe(name="asso", kind="asso", budget=6),
    "asso-no-temporal": RecallRecipe(name="asso-no-temporal", kind="asso", budget=6, use_temporal=False),
    "asso-no-importance": RecallRecipe(
        name="asso-no-importance", kind="asso", budget=6, use_importance=False
    ),
    "asso-equal-weights": RecallRecipe(
        name="asso-equal-weights", kind="asso", budget=6, equal_weights=True
    ),
    "asso-no-clues": RecallRecipe(name="asso-no-clues", kind="asso", budget=6, use_clues=False),
    "ripple+asso": RecallRecipe(name="ripple+asso", asso_terms=True),
}
#: What ``asso`` recipes return when a benchmark or caller does not set a budget of its own.
ASSO_API_BUDGET = 6


def get_recipe(name: str, **overrides) -> RecallRecipe:
    try:
        recipe = RECIPES[name]
    except KeyError:
        raise UnknownRecipeError(
            f"no recipe named {name!r}; choose one of: {', '.join(sorted(RECIPES))}"
        ) from None
    return recipe.with_(**overrides) if overrides else recipe
