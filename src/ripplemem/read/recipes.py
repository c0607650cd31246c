"""Recall recipes as data: named presets, not flags threaded through signatures."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ripplemem.errors import UnknownRecipeError


class RecallRecipe(BaseModel):
    """How to recall. Defaults are RippleMem's LoCoMo settings (reference §1)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "ripple"
    kind: Literal["ripple", "bm25", "dense", "hybrid"] = "ripple"
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
    # the paper's 0.75 assumed a dense view (Qwen3-Embedding) stronger than BM25; with the
    # offline MiniLM the two are equally strong alone (LoCoMo dev recall@30 72.2 vs 72.3), so
    # they weigh the same. Recipe "ripple-paper" keeps the paper's weights.
    weight_lexical: float = 1.0
    weight_cue: float = 0.9
    weight_expansion: float = 0.85
    rank_offset: int = 5
    provenance: Literal["noisy_or", "max", "sum"] = "noisy_or"
    budget: int = 30
    # the deeper dense / lexical hits (to depth ``budget``) also compete in the final ranking,
    # so expanded units must earn their slot (provenance keeps their deep ranks)
    deep_candidates: bool = True
    # dialogue context (read/context.py): up to context_share of the K slots (6 of 30) go to
    # units at most context_turns turns from one of the context_anchors best-ranked units
    context_share: float = Field(default=0.2, ge=0.0, le=1.0)
    context_anchors: int = 3
    context_turns: int = 1
    # hybrid baseline
    rrf_k: int = 60

    @property
    def context_slots(self) -> int:
        """How many of the ``budget`` slots dialogue context may take."""
        return int(self.budget * self.context_share + 1e-9)

    def with_(self, **changes) -> RecallRecipe:
        """A validated copy with ``changes`` (unknown fields and bad values are refused)."""
        return type(self).model_validate({**self.model_dump(), **changes})


RECIPES: dict[str, RecallRecipe] = {
    "ripple": RecallRecipe(),
    "ripple-no-expansion": RecallRecipe(name="ripple-no-expansion", expansion=False),
    "ripple-no-structural": RecallRecipe(name="ripple-no-structural", structural_channel=False),
    "ripple-no-goal": RecallRecipe(name="ripple-no-goal", goal=False),
    "ripple-no-context": RecallRecipe(name="ripple-no-context", context_share=0.0),
    "ripple-paper": RecallRecipe(
        name="ripple-paper", weight_lexical=0.75, provenance="max", context_share=0.0
    ),
    "bm25": RecallRecipe(name="bm25", kind="bm25"),
    "dense": RecallRecipe(name="dense", kind="dense"),
    "hybrid": RecallRecipe(name="hybrid", kind="hybrid"),
}


def get_recipe(name: str, **overrides) -> RecallRecipe:
    try:
        recipe = RECIPES[name]
    except KeyError:
        raise UnknownRecipeError(
            f"no recipe named {name!r}; choose one of: {', '.join(sorted(RECIPES))}"
        ) from None
    return recipe.with_(**overrides) if overrides else recipe
