from __future__ import annotations

import numpy as np
import pytest

from ripplemem.read.rank import Candidate, alignments, provenance, rank, rank_support
from ripplemem.recipes import get_recipe
from ripplemem.records import ExpansionPath, Hit

from . import NS, QUERY, build_store, embedder

RECIPE = get_recipe("ripple")


@pytest.fixture(scope="module")
def units():
    store = build_store(edges=False)
    return {u.id: u for u in store.get_units(NS, ["e1", "e2", "e3", "d3", "d15"])}


@pytest.fixture(scope="module")
def query_vector():
    return embedder().embed([QUERY], input_type="query")[0]


def test_rank_support_is_one_at_the_top_and_follows_one_over_offset_plus_rank():
    assert rank_support(0, 5) == 1.0
    # 1/(5 + r) on 1-based ranks, scaled by 6 so the top is 1
    for rank0 in range(10):
        assert rank_support(rank0, 5) == pytest.approx(6 / (5 + rank0 + 1))


def test_provenance_combines_views_as_a_noisy_or():
    dense_2 = 1.0 * 6 / 7  # dense hit at rank 2 (0-based 1)
    lexical_3 = 1.0 * 6 / 8
    both = [Hit("dense", 1, 0.8), Hit("lexical", 2, 5.0)]
    assert provenance(both, RECIPE) == pytest.approx(1 - (1 - dense_2) * (1 - lexical_3))
    assert provenance(both, RECIPE) > max(dense_2, lexical_3)  # agreement counts
    assert provenance(both, RECIPE) < 1.0  # but stays on the scale of the alignment term
    assert provenance([Hit("dense", 0, 0.9), Hit("lexical", 0, 5.0)], RECIPE) == pytest.approx(1.0)
    assert provenance([Hit("lexical", 0, 5.0)], RECIPE) == pytest.approx(RECIPE.rank.weight_lexical)
    assert provenance([Hit("cue", 2, 1.0)], RECIPE) == pytest.approx(0.9 * 6 / 8)
    assert provenance([Hit("expansion", 0, 0.5)], RECIPE) == pytest.approx(0.85)
    assert provenance([], RECIPE) == 0.0


def test_a_view_counts_once_with_its_best_hit():
    twice = [Hit("dense", 0, 0.9), Hit("dense", 4, 0.5)]
    assert provenance(twice, RECIPE) == pytest.approx(1.0)
    assert provenance([Hit("cue", 4, 1.0), Hit("cue", 1, 1.0)], RECIPE) == pytest.approx(0.9 * 6 / 7)


def test_max_and_sum_remain_selectable():
    both = [Hit("dense", 1, 0.8), Hit("lexical", 2, 5.0)]
    assert provenance(both, RECIPE.with_(rank={"provenance": "max"})) == pytest.approx(6 / 7)
    assert provenance(both, RECIPE.with_(rank={"provenance": "sum"})) == pytest.approx(6 / 7 + 6 / 8)
    paper = get_recipe("ripple-paper")
    assert provenance([Hit("lexical", 0, 5.0)], paper) == pytest.approx(0.75)


def test_a_context_hit_is_scaled_by_its_path():
    assert provenance([Hit("context", 1, 1.0)], RECIPE, 0.5) == pytest.approx(0.85 * 6 / 7 * 0.5)
    assert provenance([Hit("dense", 1, 1.0)], RECIPE, 0.5) == pytest.approx(6 / 7)


def test_terms_add_up_to_the_score(units, query_vector):
    candidates = [
        Candidate(units["e1"], [Hit("dense", 0, 0.8), Hit("cue", 1, 0.76)]),
        Candidate(units["e2"], [Hit("lexical", 4, 2.9)]),
        Candidate(
            units["e3"],
            [Hit("expansion", 0, 0.5)],
            [ExpansionPath("e1", "structural", ("e1", "e2", "e3"), 0.65, 0.5)],
        ),
        Candidate(units["d15"], [Hit("dense", 25, 0.15)]),
    ]
    recipe = RECIPE.with_(rank={"exchange_alignment": 0.0})  # the raw alignment terms (see below)
    ranked = rank(candidates, query_vector=query_vector, anchors={"e1"}, recipe=recipe)
    assert ranked[0].unit.id == "e1"
    for item in ranked:
        t = item.terms
        assert t is not None
        expected = (
            RECIPE.rank.lambda_q * t.alignment
            + RECIPE.rank.lambda_p * t.provenance
            + (RECIPE.rank.lambda_a * t.anchor)
        )
        assert item.score == pytest.approx(expected) and t.total == pytest.approx(item.score)
        assert 0.0 <= t.alignment <= 1.0 and 0.0 <= t.provenance <= 1.0
    by_id = {e.unit.id: e for e in ranked}
    assert by_id["e1"].terms.anchor == 1.0 and by_id["e2"].terms.anchor == 0.0
    assert by_id["e1"].terms.alignment == 1.0  # the closest of the set
    assert by_id["d15"].terms.alignment == 0.0  # the farthest of the set
    assert by_id["e3"].paths[0].nodes[-1] == "e3"
    scores = [e.score for e in ranked]
    assert scores == sorted(scores, reverse=True)


def test_the_same_unit_is_merged(units, query_vector):
    path = ExpansionPath("e2", "semantic", ("e2", "e3"), 0.9, 0.6)
    candidates = [
        Candidate(units["e3"], [Hit("dense", 12, 0.42)]),
        Candidate(units["e3"], [Hit("expansion", 1, 0.6)], [path]),
        Candidate(units["d3"], [Hit("cue", 0, 1.0)]),
    ]
    ranked = rank(candidates, query_vector=query_vector, anchors=(), recipe=RECIPE)
    assert [e.unit.id for e in ranked].count("e3") == 1
    e3 = next(e for e in ranked if e.unit.id == "e3")
    assert set(e3.views) == {"dense", "expansion"} and e3.paths == (path,)
    # expansion #2 through a 0.9 path and dense #13 combine: 1 - (1 - 0.85 * 6/7 * 0.9)(1 - 6/18)
    assert e3.terms.provenance == pytest.approx(1 - (1 - 0.85 * 6 / 7 * 0.9) * (1 - 6 / 18))


def test_limit_is_the_budget(units, query_vector):
    candidates = [Candidate(u, [Hit("dense", i, 0.5)]) for i, u in enumerate(units.values())]
    assert len(rank(candidates, query_vector=query_vector, anchors=(), recipe=RECIPE, limit=2)) == 2


def test_alignment_is_min_max_normalised(units, query_vector):
    values = alignments(list(units.values()), query_vector)
    assert min(values) == 0.0 and max(values) == 1.0
    assert alignments([units["e1"]], query_vector) == [1.0]
    raw = [float(np.dot(query_vector, u.vector)) for u in units.values()]
    assert np.argsort(raw).tolist() == np.argsort(values).tolist()


def test_alignment_blends_the_lexical_score_by_the_recipe_share(units, query_vector):
    candidates = [Candidate(u, [Hit("dense", i, 0.5)]) for i, u in enumerate(units.values())]
    cosine_only = {e.unit.id: e.terms.alignment for e in rank(
        candidates, query_vector=query_vector, anchors=(), recipe=get_recipe("ripple-paper"))}
    far = min(cosine_only, key=cosine_only.get)  # the candidate the query vector likes least
    lexical = {far: 9.0, "e1": 3.0}  # BM25 scores of the lexical view; the others scored 0
    share = RECIPE.rank.lexical_alignment
    assert 0 < share < 1
    blended = {e.unit.id: e.terms.alignment for e in rank(
        candidates, query_vector=query_vector, anchors=(), lexical=lexical,
        recipe=RECIPE.with_(rank={"exchange_alignment": 0.0}))}
    assert blended[far] == pytest.approx((1 - share) * cosine_only[far] + share * 1.0)
    assert blended["e1"] == pytest.approx((1 - share) * cosine_only["e1"] + share * 3.0 / 9.0)
    others = set(blended) - {far, "e1"}
    assert all(blended[i] == pytest.approx((1 - share) * cosine_only[i]) for i in others)
    # without lexical scores (or with share 0) the alignment is the cosine alone
    plain = rank(candidates, query_vector=query_vector, anchors=(),
                 recipe=RECIPE.with_(rank={"exchange_alignment": 0.0}))
    assert {e.unit.id: e.terms.alignment for e in plain} == pytest.approx(cosine_only)


def test_a_question_in_another_language_aligns_by_the_lexical_view(units, query_vector):
    """The embedder's cosine of a question in a language it was not trained on reads subword
    pieces: the alignment is the lexical view's BM25 alone (the cosine alone without it)."""
    candidates = [Candidate(u, [Hit("dense", i, 0.5)]) for i, u in enumerate(units.values())]
    recipe = RECIPE.with_(rank={"exchange_alignment": 0.0})
    assert recipe.rank.lexical_alignment_other_language == 1.0
    cosine_only = {e.unit.id: e.terms.alignment for e in rank(
        candidates, query_vector=query_vector, anchors=(), recipe=get_recipe("ripple-paper"))}
    far = min(cosine_only, key=cosine_only.get)
    lexical = {far: 9.0, "e1": 3.0}
    other = rank(candidates, query_vector=query_vector, anchors=(), lexical=lexical, recipe=recipe,
                 other_language=True)
    assert {e.unit.id: e.terms.alignment for e in other} == pytest.approx(
        {i: {far: 1.0, "e1": 3.0 / 9.0}.get(i, 0.0) for i in cosine_only}
    )
    assert other[0].unit.id == far  # the lexical view's best, which the cosine liked least
    plain = rank(candidates, query_vector=query_vector, anchors=(), recipe=recipe, other_language=True)
    assert {e.unit.id: e.terms.alignment for e in plain} == pytest.approx(cosine_only)
    kept = rank(candidates, query_vector=query_vector, anchors=(), lexical=lexical,
                recipe=get_recipe("ripple-one-language").with_(rank={"exchange_alignment": 0.0}),
                other_language=True)  # the share of an English question
    english = rank(candidates, query_vector=query_vector, anchors=(), lexical=lexical, recipe=recipe)
    assert [(e.unit.id, e.score) for e in kept] == [(e.unit.id, e.score) for e in english]


def test_exchange_alignment_lends_a_neighbouring_turn_part_of_its_alignment(units):
    from dataclasses import replace

    from ripplemem.read.rank import exchange_blend

    base = units["e1"]
    a = replace(base, id="a", episode_id="s1", extra={"turn_index": 4})
    b = replace(base, id="b", episode_id="s1", extra={"turn_index": 5})  # a's next turn
    c = replace(base, id="c", episode_id="s1", extra={"turn_index": 7})  # two turns from b
    d = replace(base, id="d", episode_id="s2", extra={"turn_index": 5})  # another episode
    out, partners = exchange_blend([a, b, c, d], [1.0, 0.2, 0.6, 0.0], 0.2)
    assert out == pytest.approx([(1.0 + 0.2 * 0.2) / 1.2, (0.2 + 0.2 * 1.0) / 1.2, 0.6 / 1.2, 0.0])
    assert partners == [0.2, 1.0, 0.0, 0.0]
    assert exchange_blend([a, b], [1.0, 0.2], 0.0) == ([1.0, 0.2], [0.0, 0.0])


def test_the_trace_keeps_the_exchange_partner_alignment(units, query_vector):
    from dataclasses import replace

    first = replace(units["e1"], episode_id="s9", extra={"turn_index": 1})
    second = replace(units["d15"], episode_id="s9", extra={"turn_index": 2})
    candidates = [Candidate(first, [Hit("dense", 0, 0.9)]), Candidate(second, [Hit("dense", 1, 0.1)])]
    ranked = {e.unit.id: e for e in rank(candidates, query_vector=query_vector, anchors=(), recipe=RECIPE)}
    plain = {e.unit.id: e for e in rank(
        candidates, query_vector=query_vector, anchors=(), recipe=RECIPE.with_(rank={"exchange_alignment": 0.0}))}
    share = RECIPE.rank.exchange_alignment
    for uid, other in ((first.id, second.id), (second.id, first.id)):
        terms = ranked[uid].terms
        assert terms.extra["exchange"] == pytest.approx(plain[other].terms.alignment)
        expected = (plain[uid].terms.alignment + share * plain[other].terms.alignment) / (1 + share)
        assert terms.alignment == pytest.approx(expected)
    assert plain[first.id].terms.extra == {}
