"""Recall recipes as data: named presets, not flags threaded through signatures."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ripplemem.errors import InvalidInputError, UnknownRecipeError


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ViewParams(_Part):
    """Tri-view initial recall: how deep each view looks, and the query vector it uses."""

    dense_k: int = Field(default=10, ge=0)
    lexical_k: int = Field(default=5, ge=0)
    cue_k: int = Field(default=5, ge=0)
    #: centre the query vector on the namespace's centroid (the mean unit vector) before the
    #: dense view and the alignment term read it (read/views.py, ``centre_query``): the cosine
    #: then ranks by what the query says beyond what every memory of the namespace shares.
    #: ``ripple-paper`` and the naive ``bm25`` / ``dense`` / ``hybrid`` keep the raw vector.
    centred_query: bool = True
    rrf_k: int = Field(default=60, ge=1)  # the hybrid baseline's reciprocal-rank constant


class ExpansionParams(_Part):
    """The planner and anchor-local diffusion."""

    enabled: bool = True
    structural_channel: bool = True
    goal: bool = True  # False: expand blindly from the anchors, same budget
    #: what the semantic channel scores reached units against: "embedded", the goal sentence's
    #: own vector (one more embedding per search), or "query": the query's vector when the
    #: deterministic planner wrote the goal (its sentence is made of the query's own words; a
    #: model's goal is still embedded). On LoCoMo dev "query" was +0.5 recall@10 / @30 and
    #: 4.6 ms faster, on LongMemEval-S (questions 1-30) equal
    goal_vector: Literal["embedded", "query"] = "query"
    max_anchors: int = Field(default=3, ge=0)
    hops: int = Field(default=2, ge=0)
    semantic_top: int = Field(default=5, ge=0)
    structural_top: int = Field(default=5, ge=0)
    #: candidates per channel read and scored against the goal: the closest (fewest hops, then
    #: strongest path); with the linker's 6 edges per node, 3 anchors reach up to 126 units in
    #: 2 hops per channel. Bounds the unit reads of diffusion
    read_candidates: int = Field(default=48, ge=0)
    rounds: int = Field(default=1, ge=0)
    #: for a question that gathers several memories (read/planner.py ``asks_for_several``):
    #: anchors in distinct episodes, the semantic channel leads to other episodes than the
    #: anchors', and one more round while a round brings a new episode (read/pipeline.py);
    #: off by default: it cost LoCoMo dev recall@30 0.5 points and moved no LongMemEval-S
    #: question of the kept sample (``ripple-gather`` keeps it measurable)
    gather: bool = False


class RankParams(_Part):
    """The final score rho (reference section 1) and its provenance term."""

    lambda_q: float = 1.25
    lambda_p: float = 1.0
    lambda_a: float = 0.05
    weight_dense: float = 1.0
    #: the paper's 0.75 assumed a dense view stronger than BM25; with the offline MiniLM the two
    #: are equally strong alone, so they weigh the same (``ripple-paper`` keeps 0.75)
    weight_lexical: float = 1.0
    #: share of the BM25 score (min-max over the candidates) blended into the alignment term
    #: a(q, m); the paper's cosine-only a(q, m) assumes a strong embedder (``ripple-paper``: 0)
    lexical_alignment: float = Field(default=0.25, ge=0.0, le=1.0)
    #: that share for a question in a language the embedder was not trained on (its
    #: ``languages``, :mod:`ripplemem.providers.base`): its cosine reads the question's subword
    #: pieces, not what they say, so the alignment rests on the lexical view (the cosine alone
    #: when no candidate is a lexical hit); ``ripple-one-language`` keeps ``lexical_alignment``
    lexical_alignment_other_language: float = Field(default=1.0, ge=0.0, le=1.0)
    #: exchange-aware alignment (read/rank.py): a <- (a + g * a_nb) / (1 + g), a_nb the best
    #: alignment of the turn just before / after in its episode (``ripple-paper``: 0)
    exchange_alignment: float = Field(default=0.2, ge=0.0)
    weight_cue: float = 0.9
    weight_expansion: float = 0.85
    rank_offset: int = Field(default=5, ge=0)
    provenance: Literal["noisy_or", "max", "sum"] = "noisy_or"
    #: the deeper dense / lexical hits (to depth ``budget``) also compete in the final ranking,
    #: so expanded units must earn their slot (provenance keeps their deep ranks)
    deep_candidates: bool = True
    #: a superseded unit ranks below the latest unit of its chain for questions about the
    #: present; old units keep their place for questions about the past (read/supersession.py)
    supersession: bool = True
    #: the final list puts the units that bring a new source turn first (read/rank_spread.py):
    #: further pieces of a long turn wait behind every other turn's best unit (False: rho order)
    spread_turns: bool = True
    #: for a question that gathers several memories or asks about a span of time, the final
    #: list is reordered so its head covers distinct episodes (read/coverage.py): the weight of
    #: an episode's novelty against the normalised score (0: rho order; on in ``ripple-coverage``,
    #: measured in docs/benchmarks/locomo.md)
    coverage: float = Field(default=0.0, ge=0.0, le=1.0)
    #: for a question that asks for one thing (no coverage trigger), each unit of the final K
    #: gains this much of the best score of another unit of its episode among the K, and the K
    #: are sorted again (read/coverage.py ``support_sessions``; 0: off, as by default; on in
    #: ``ripple-session-support``, measured in docs/benchmarks/locomo.md)
    session_support: float = Field(default=0.0, ge=0.0)
    #: for a question that names one of the speakers, the units none of whose speakers is that
    #: person score this much lower (read/speaker.py; 0: off; 0.3 in ``ripple-speaker``, off by
    #: default: it costs LoCoMo's adversarial questions, which name the wrong speaker)
    speaker_penalty: float = Field(default=0.0, ge=0.0)
    #: for a question in the first person over a person–assistant chat, the units said only by
    #: the assistant (or system) score this much lower: the question is about the person
    #: (read/speaker.py; 0: off, as in ``ripple-no-asker``)
    asker_penalty: float = Field(default=0.3, ge=0.0)
    #: the people's asks that report nothing (requests, questions, plans: read/speech_acts.py)
    #: score this much lower than rho gives them, before the cut to K (0: off, as in
    #: ``ripple-no-reports``; measured in docs/benchmarks/longmemeval.md)
    ask_penalty: float = Field(default=0.2, ge=0.0)
    #: for a question that names a time of its own, the units whose time lies wholly outside it
    #: score this much lower, before the cut to K (read/when.py; 0: off, as in ``ripple-no-time``;
    #: 0.2 against 0.1 / 0.3 / 0.4 on LoCoMo and LongMemEval-S dev)
    time_penalty: float = Field(default=0.2, ge=0.0)
    #: the same for a question whose time is a single day ("What movie did Joanna watch on 1 May,
    #: 2022?"): a memory of another day answers it less than one of another month answers a
    #: question about a month (0.6 against 0.2 / 0.4 / 1.0 / 4.0 on LoCoMo and LongMemEval-S dev)
    time_penalty_day: float = Field(default=0.6, ge=0.0)
    #: for a question whose own clause names a time (not a bound, nor a time of another clause:
    #: read/when.py ``asked_time``), the units of another time go below every unit of that time
    #: that answers, before the cut to K (with ``time_penalty`` > 0; False: the penalty alone)
    time_first: bool = True
    #: a unit of the time asked about answers when the question asks for nothing but its time
    #: and people, or its alignment with the question is at least this share of the best
    #: candidate's (0.67 against 0.5 on LoCoMo dev: recall@5 / @10 69.73 / 78.30 against 69.83 /
    #: 78.20, the evidence of 52 questions changed against 86)
    time_answers: float = Field(default=0.67, ge=0.0, le=1.0)
    #: for a question that asks for a time or an amount by its opening words ("When ...", "How
    #: much ..."), the units that hold no value of that kind score this much lower, before the
    #: cut to K (read/answer_kind.py; 0: off, as in ``ripple-no-kind``; 0.35 against 0.2 / 0.5 /
    #: 1.0 on LoCoMo dev)
    kind_penalty: float = Field(default=0.35, ge=0.0)
    #: focus (read/focus.py): the sessions of the first this many distinct episodes of the final
    #: list are searched again, restricted to their units, and each one's best-matching statement
    #: of the user comes up right after the episode's first unit (0: off)
    focus_sessions: int = Field(default=0, ge=0)
    #: how many units the restricted dense and lexical searches of focus return each
    focus_depth: int = Field(default=20, ge=0)
    #: the answer takes its question's place (read/adjacency.py): for each unit among the first
    #: this many that only asks another person something, the unit of that person's next turn
    #: comes in its place, the question right after it (0: off, as in ``ripple-no-answers``; 5
    #: chosen on LoCoMo dev, where 10 cost temporal questions recall@30)
    answers_follow: int = Field(default=5, ge=0)


class ContextParams(_Part):
    """Dialogue context (read/context.py): up to ``share`` of the slots go to units at most
    ``turns`` turns from one of the ``anchors`` best-ranked units."""

    share: float = Field(default=0.2, ge=0.0, le=1.0)
    anchors: int = Field(default=3, ge=0)
    turns: int = Field(default=1, ge=0)


class AssoParams(_Part):
    """AssoMem (reference section 2): clue candidates, then RIT ranking (relevance, importance,
    temporal); with ``terms`` set, importance and temporal alignment become extra terms of a
    ripple recipe's rho instead."""

    top_clues: int = Field(default=10, ge=0)
    pool: int = Field(default=2000, ge=0)  # at most this many clue members become candidates
    dense_pool: int = Field(default=200, ge=0)  # candidates without clues (or an empty graph)
    #: the query's dense top hits join the clue candidates: clues widen the pool, never narrow it
    dense_candidates: int = Field(default=100, ge=0)
    #: RIT scores this many most relevant candidates (0: all); min-max normalised importance
    #: and temporal over hundreds of candidates would swamp relevance
    rerank_depth: int = Field(default=50, ge=0)
    #: PPR teleport = max(cos, 0) ** power; with the paper's 1 the teleport is nearly uniform
    #: over MiniLM's narrow cosine range and PPR degenerates to degree centrality
    teleport_power: float = Field(default=8.0, ge=0.0)
    lexical: bool = True  # relevance blends cosine with BM25 (False: the paper's cosine alone)
    lexical_k: int = Field(default=100, ge=0)
    recency: bool = True  # T falls back to recency decay when the question names no time
    use_clues: bool = True
    use_importance: bool = True
    use_temporal: bool = True
    equal_weights: bool = False  # ignore weights_path: equal thirds
    weights_path: str | None = None  # fitted SignalWeights (ripplemem fit-weights); None: equal
    terms: bool = False  # ripple+asso
    lambda_importance: float = 0.5
    lambda_temporal: float = 0.5


#: the groups of a recipe, by the field name that holds each
_GROUPS: dict[str, type[_Part]] = {
    "views": ViewParams,
    "expansion": ExpansionParams,
    "rank": RankParams,
    "context": ContextParams,
    "asso": AssoParams,
}


def _group_of(name: str) -> tuple[str, str] | None:
    """(group, field) of a parameter named without its group (``dense_k``, or the old spelling
    ``context_share`` / ``asso_pool`` / ``expand_hops``), for the message that refuses it."""
    for group, part in _GROUPS.items():
        for prefix in ("", f"{group}_", "expand_", "context_", "asso_"):
            field = name.removeprefix(prefix) if name.startswith(prefix) else None
            if field in part.model_fields:
                return group, field
    return None


class RecallRecipe(BaseModel):
    """How to recall, grouped by concern. Defaults are RippleMem's LoCoMo settings.

    Parameters live in their group: ``get_recipe("ripple", views={"dense_k": 20})``,
    ``recipe.with_(context={"share": 0.0})``; a group given as a dict changes only the fields it
    names. A parameter named outside its group (``dense_k=20``) is refused with the nested
    spelling to use instead."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "ripple"
    kind: Literal["ripple", "bm25", "dense", "hybrid", "asso"] = "ripple"
    budget: int = Field(default=30, ge=1)  # how many units recall returns
    views: ViewParams = ViewParams()
    expansion: ExpansionParams = ExpansionParams()
    rank: RankParams = RankParams()
    context: ContextParams = ContextParams()
    asso: AssoParams = AssoParams()

    @model_validator(mode="before")
    @classmethod
    def _grouped(cls, data: Any) -> Any:
        """Refuse a parameter named outside its group, saying where it belongs."""
        if isinstance(data, dict):
            _check_names(data)
        return data

    @property
    def context_slots(self) -> int:
        """How many of the ``budget`` slots dialogue context may take."""
        return int(self.budget * self.context.share + 1e-9)

    def with_(self, **changes: Any) -> RecallRecipe:
        """A validated copy with ``changes``: top-level fields (``budget=10``) or groups as dicts
        of the fields to change (``rank={"lambda_q": 1.0}``); unknown names and bad values are
        refused."""
        _check_names(changes)
        data = self.model_dump()
        for key, value in changes.items():
            if key in _GROUPS and isinstance(value, dict | BaseModel):
                part = value.model_dump(exclude_unset=True) if isinstance(value, BaseModel) else value
                data[key] = {**data[key], **part}
            else:
                data[key] = value
        return type(self).model_validate(data)


def _check_names(parameters: dict[str, Any]) -> None:
    """InvalidInputError for a parameter named outside its group (or a group given a value that
    is not a dict), naming the nested spelling to write instead."""
    for key, value in parameters.items():
        if key in _GROUPS and not isinstance(value, dict | BaseModel):
            example = next(iter(_GROUPS[key].model_fields))
            raise InvalidInputError(
                f"{key}={value!r}: {key} is a group of recipe parameters; give a dict of the ones "
                f"to change, e.g. {key}={{{example!r}: ...}}"
            )
        found = None if key in RecallRecipe.model_fields else _group_of(key)
        if found is not None:
            group, field = found
            raise InvalidInputError(
                f"{key!r} is not a recipe parameter of its own: it belongs to the {group} group; "
                f"write {group}={{{field!r}: {value!r}}}"
            )


def recipe(name: str, **parameters: Any) -> RecallRecipe:
    """A recipe named ``name`` from ``parameters`` (top-level fields and groups as dicts)."""
    return RecallRecipe.model_validate({"name": name, **parameters})


RECIPES: dict[str, RecallRecipe] = {
    "ripple": recipe("ripple"),
    "ripple-no-expansion": recipe("ripple-no-expansion", expansion={"enabled": False}),
    "ripple-no-structural": recipe("ripple-no-structural", expansion={"structural_channel": False}),
    "ripple-no-goal": recipe("ripple-no-goal", expansion={"goal": False}),
    "ripple-goal-embedded": recipe("ripple-goal-embedded", expansion={"goal_vector": "embedded"}),
    "ripple-no-context": recipe("ripple-no-context", context={"share": 0.0}),
    "ripple-gather": recipe("ripple-gather", expansion={"gather": True}),
    "ripple-no-supersession": recipe("ripple-no-supersession", rank={"supersession": False}),
    "ripple-coverage": recipe("ripple-coverage", rank={"coverage": 0.3}),
    "ripple-session-support": recipe("ripple-session-support", rank={"session_support": 0.05}),
    "ripple-focus": recipe("ripple-focus", rank={"focus_sessions": 3}),
    "ripple-speaker": recipe("ripple-speaker", rank={"speaker_penalty": 0.3}),
    "ripple-no-asker": recipe("ripple-no-asker", rank={"asker_penalty": 0.0}),
    "ripple-no-reports": recipe("ripple-no-reports", rank={"ask_penalty": 0.0}),
    "ripple-no-answers": recipe("ripple-no-answers", rank={"answers_follow": 0}),
    "ripple-no-time": recipe("ripple-no-time", rank={"time_penalty": 0.0}),
    "ripple-no-kind": recipe("ripple-no-kind", rank={"kind_penalty": 0.0}),
    "ripple-one-language": recipe("ripple-one-language", rank={"lexical_alignment_other_language": 0.25}),
    "ripple-paper": recipe(
        "ripple-paper",
        views={"centred_query": False},
        rank={
            "weight_lexical": 0.75, "provenance": "max", "lexical_alignment": 0.0,
            "lexical_alignment_other_language": 0.0,
            "exchange_alignment": 0.0, "supersession": False, "spread_turns": False,
            "coverage": 0.0, "session_support": 0.0, "ask_penalty": 0.0, "asker_penalty": 0.0, "answers_follow": 0,
            "time_penalty": 0.0, "kind_penalty": 0.0,
        },
        context={"share": 0.0},
    ),
    "bm25": recipe("bm25", kind="bm25", views={"centred_query": False}),
    "dense": recipe("dense", kind="dense", views={"centred_query": False}),
    "hybrid": recipe("hybrid", kind="hybrid", views={"centred_query": False}),
    "dense-centred": recipe("dense-centred", kind="dense"),
    "hybrid-centred": recipe("hybrid-centred", kind="hybrid"),
    # AssoMem returns its top 6 by default; the benchmark compares at the common budget
    "asso": recipe("asso", kind="asso", budget=6),
    "asso-no-temporal": recipe("asso-no-temporal", kind="asso", budget=6, asso={"use_temporal": False}),
    "asso-no-importance": recipe(
        "asso-no-importance", kind="asso", budget=6, asso={"use_importance": False}
    ),
    "asso-equal-weights": recipe(
        "asso-equal-weights", kind="asso", budget=6, asso={"equal_weights": True}
    ),
    "asso-no-clues": recipe("asso-no-clues", kind="asso", budget=6, asso={"use_clues": False}),
    "asso-paper-relevance": recipe(
        "asso-paper-relevance", kind="asso", budget=6, asso={"lexical": False}
    ),
    # a lighter importance term and no recency fallback: each cost ripple recall on LoCoMo dev;
    # AssoMem's temporal alignment reads the question's time, so the time stage (read/when.py)
    # is off where it runs (both on cost ripple+asso 0.8 of LongMemEval-S session recall_all@5)
    "ripple+asso": recipe(
        "ripple+asso", asso={"terms": True, "lambda_importance": 0.25, "recency": False},
        rank={"time_penalty": 0.0},
    ),
    "ripple+asso-no-importance": recipe(
        "ripple+asso-no-importance",
        asso={"terms": True, "lambda_importance": 0.0, "recency": False},
        rank={"time_penalty": 0.0},
    ),
    "ripple+asso-no-temporal": recipe(
        "ripple+asso-no-temporal",
        asso={"terms": True, "lambda_importance": 0.25, "lambda_temporal": 0.0},
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
