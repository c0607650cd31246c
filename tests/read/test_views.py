from __future__ import annotations

from datetime import datetime

import numpy as np
import pytest

from ripplemem.read.views import centre_query, cue_view, dense_view, lexical_view, view_depths
from ripplemem.recipes import get_recipe
from ripplemem.records import Cues, TimeSpan

from . import NS, QUERY, build_store, embedder

QUERY_CUES = Cues(text=QUERY, participants=("Sam", "Maya"), locations=("Harbor Grill",))


@pytest.fixture(scope="module")
def store():
    return build_store()


@pytest.fixture(scope="module")
def query_vector():
    return embedder().embed([QUERY], input_type="query")[0]


def test_dense_view_ranks_by_cosine(store, query_vector):
    found = dense_view(store, NS, query_vector, 10)
    assert len(found) == 10
    assert found[0][0] == "e1"
    scores = [s for _, s in found]
    assert scores == sorted(scores, reverse=True)
    assert "e3" not in dict(found)  # the allergy is not worded like the question


def test_centre_query_moves_the_query_off_the_namespace_centroid(store, query_vector):
    vectors = np.stack([u.vector for u in store.list_units(NS)])
    centroid = store.centroid(NS)
    np.testing.assert_allclose(centroid, vectors.mean(axis=0), atol=1e-6)
    centred = centre_query(query_vector, centroid)
    expected = (query_vector - centroid) / np.linalg.norm(query_vector - centroid)
    np.testing.assert_allclose(centred, expected, atol=1e-6)
    assert np.linalg.norm(centred) == pytest.approx(1.0)
    # the dense view then ranks by the query cosine less each unit's cosine with the centroid
    units = store.list_units(NS)
    by_hand = sorted(
        units, key=lambda u: -(float(u.vector @ query_vector) - float(u.vector @ centroid))
    )
    found = dense_view(store, NS, centred, len(units))
    assert [i for i, _ in found] == [u.id for u in by_hand]
    assert found[0][0] == "e1"  # the recommendation itself still comes first


def test_centre_query_keeps_the_query_without_a_centroid(query_vector):
    assert centre_query(query_vector, None) is query_vector
    assert centre_query(query_vector, query_vector) is query_vector  # nothing left to rank by


def test_lexical_view_is_bm25_over_the_query_terms(store):
    found = lexical_view(store, NS, QUERY, 5)
    assert len(found) == 5
    assert {"e1", "d13"} <= set(dict(found))
    assert "e3" not in dict(found)
    assert lexical_view(store, NS, "   ", 5) == []
    assert lexical_view(store, NS, QUERY, 0) == []


def test_cue_view_scores_candidates_by_structure(store, query_vector):
    found = cue_view(store, NS, QUERY_CUES, 5, query_vector=query_vector)
    ids = [i for i, _ in found]
    assert len(ids) == 5
    # d3 {Sam, Maya} and e2 {Harbor Grill} match every comparable cue: 1.0, closer first
    assert ids[:2] == ["d3", "e2"]
    assert dict(found)["d3"] == pytest.approx(1.0)
    # e1 {Sam, Alex, Maya} at Harbor Grill: (0.5 * 2/3 + 0.2 * 1) / 0.7
    assert dict(found)["e1"] == pytest.approx((0.5 * 2 / 3 + 0.2) / 0.7)
    assert "e3" not in ids  # Maya only: Jaccard 0.5, crowded out
    scores = [s for _, s in found]
    assert scores == sorted(scores, reverse=True)


def test_cue_view_breaks_ties_by_closeness_to_the_query(store, query_vector):
    # d1, d2 and d3 all score 1.0 against {Sam, Maya}: the closest to the query comes first
    only_people = Cues(participants=("Sam", "Maya"))
    found = cue_view(store, NS, only_people, 3, query_vector=query_vector)
    assert [i for i, _ in found] == ["d3", "d2", "d1"]
    assert [s for _, s in found] == [1.0, 1.0, 1.0]


def test_cue_view_uses_time(store):
    april_16 = TimeSpan.day(datetime(2023, 4, 16))
    found = dict(cue_view(store, NS, Cues(time_span=april_16), 5))
    assert found == {"d1": 1.0}  # the one event on that day (the index holds event spans)
    week = TimeSpan(datetime(2023, 4, 16), datetime(2023, 4, 22, 23, 59, 59))
    found = dict(cue_view(store, NS, Cues(time_span=week), 5))
    assert set(found) == {"d1", "d3", "d14"}


def test_cue_view_is_skipped_without_structural_cues(store):
    assert cue_view(store, NS, Cues(text=QUERY, keywords=("follow",)), 5) == []


def test_view_depths_follow_the_recipe():
    ripple = get_recipe("ripple")
    assert view_depths(ripple).dense == 30 and view_depths(ripple).lexical == 30
    assert view_depths(ripple).cue == 5
    shallow = view_depths(ripple.with_(rank={"deep_candidates": False}))
    assert (shallow.dense, shallow.lexical, shallow.cue) == (10, 5, 5)
