"""Recall recipes as data: named presets, not flags threaded through signatures."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ripplemem.errors import UnknownRecipeError


class RecallRecipe(BaseModel):
    """How to recall. Defaults are RippleMem's LoCoMo settings (reference §1)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "ripple"
    kind: Literal["ripple", "bm25", "dense", "hybrid", "asso"] = "ripple"
    # the query vector is centred on the namespace's centroid (the mean unit vector) before the
    # dense view and the alignment term read it (read/views.py, centre_query): the cosine then
    # ranks by what the query says beyond what every memory of the namespace shares. With the
    # offline MiniLM, LoCoMo dev dense@30 turn coverage 63.4 -> 68.1; ripple recall@30 83.7 ->
    # 85.1, all@30 76.9 -> 78.4. "ripple-paper" and the naive "bm25" / "dense" / "hybrid" keep
    # the raw query vector ("dense-centred" / "hybrid-centred" do not); kind "asso" ignores it.
    centred_query: bool = True
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
    # the alignment term a(q, m) blends this share of the BM25 score (min-max over the candidates,
    # 0 outside the lexical view's hits) into the query cosine. The paper's a(q, m) is the cosine
    # of a strong embedder; the offline MiniLM is no stronger than BM25, and a cosine-only a(q, m)
    # re-ranks every candidate by the weaker-than-needed dense view (LoCoMo dev recall@30 80.8 ->
    # 82.5 / 82.7 / 82.8 with a share of 0.25 / 0.4 / 0.5). "ripple-paper" keeps 0.
    lexical_alignment: float = Field(default=0.25, ge=0.0, le=1.0)
    # exchange-aware alignment (read/rank.py): a(q, m) <- (a + g * a_nb) / (1 + g), a_nb the best
    # alignment among the candidates of the turn just before / after m in its episode. Evidence
    # is often an exchange (a question and its answer); the half worded unlike the query borrows
    # some of its partner's alignment. "ripple-paper" keeps 0.
    exchange_alignment: float = Field(default=0.2, ge=0.0)
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
    # AssoMem (reference §2): clue candidates -> RIT ranking (relevance, importance, temporal)
    asso_top_clues: int = 10
    asso_pool: int = 2000  # at most this many clue members become candidates
    asso_dense_pool: int = 200  # candidates when use_clues is off (or the graph is empty)
    # the query's dense top hits join the clue candidates: clues widen the pool, they must not
    # narrow it (LoCoMo dev recall@30 of asso: 69.9 without, 76.5 / 77.0 with 50 / 200)
    asso_dense_candidates: int = 100
    # RIT scores the asso_rerank_depth most relevant candidates (0: all). Min-max normalised
    # importance / temporal over hundreds of candidates swamp relevance (LoCoMo dev: recall@10
    # 0.55 -> 0.22 over all 554 units of a conversation); 50 keeps the ranker a re-ranker.
    asso_rerank_depth: int = 50
    # PPR teleport = max(cos, 0) ** power. With power 1 (the paper) the teleport is nearly
    # uniform over the candidates and PPR degenerates to degree centrality (MiniLM cosines sit
    # in 0.1-0.6); power 8 keeps it on the relevant units (LoCoMo dev conv. 1-2, recall@10
    # 0.49 -> 0.56 and 0.52 -> 0.56 at equal thirds).
    asso_teleport_power: float = 8.0
    # relevance R blends cosine with BM25 over the candidates (False: the paper's cosine alone)
    asso_lexical: bool = True
    asso_lexical_k: int = 100
    asso_recency: bool = True  # T falls back to recency decay when the question names no time
    use_clues: bool = True
    use_importance: bool = True
    use_temporal: bool = True
    equal_weights: bool = False  # ignore weights_path: equal thirds
    weights_path: str | None = None  # fitted SignalWeights (ripplemem fit-weights); None: equal
    # ripple+asso: importance and temporal alignment as extra terms of rho
    asso_terms: bool = False
    lambda_importance: float = 0.5
    lambda_temporal: float = 0.5

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
        name="ripple-paper", weight_lexical=0.75, provenance="max", context_share=0.0,
        lexical_alignment=0.0, exchange_alignment=0.0, centred_query=False,
    ),
    "bm25": RecallRecipe(name="bm25", kind="bm25", centred_query=False),
    "dense": RecallRecipe(name="dense", kind="dense", centred_query=False),
    "hybrid": RecallRecipe(name="hybrid", kind="hybrid", centred_query=False),
    "dense-centred": RecallRecipe(name="dense-centred", kind="dense"),
    "hybrid-centred": RecallRecipe(name="hybrid-centred", kind="hybrid"),
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
    "asso-paper-relevance": RecallRecipe(
        name="asso-paper-relevance", kind="asso", budget=6, asso_lexical=False
    ),
    # lambda_I 0.25 / lambda_T 0.5 without recency: on LoCoMo dev (conv. 1-2) lambda_I 0.5 and
    # the recency fallback each cost ripple recall@10 (0.632 -> 0.596 with both). Importance is
    # within noise for ripple (all of LoCoMo dev: -0.3 recall@30; LongMemEval-S, 70 questions:
    # +1 question), so the -no-importance ablation (no PPR run at all) is as good and faster.
    "ripple+asso": RecallRecipe(
        name="ripple+asso", asso_terms=True, lambda_importance=0.25, asso_recency=False
    ),
    "ripple+asso-no-importance": RecallRecipe(
        name="ripple+asso-no-importance", asso_terms=True, lambda_importance=0.0,
        asso_recency=False,
    ),
    "ripple+asso-no-temporal": RecallRecipe(
        name="ripple+asso-no-temporal", asso_terms=True, lambda_importance=0.25,
        lambda_temporal=0.0,
    ),
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
