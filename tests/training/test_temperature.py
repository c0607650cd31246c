"""Signal collection on a real ingested memory, halves, fusion and the choice of temperature."""

from __future__ import annotations

from pathlib import Path

import pytest

from ripplemem.read.asso.weights import SignalWeights
from ripplemem.training.fit_weights import half_of
from ripplemem.training.signal_rows import Collection, collect_signals
from ripplemem.training.temperature import (
    TEMPERATURE_GRID,
    fit_half,
    fuse,
    select_temperature,
    split_halves,
    turn_recall,
)

from .asso_fixtures import cosine_source, wide_locomo


@pytest.fixture(scope="module")
def collection(tmp_path_factory: pytest.TempPathFactory) -> Collection:
    path = wide_locomo(tmp_path_factory.mktemp("temperature") / "locomo_wide.json")
    return collect_signals(path, store="memory", recipe="dense", source=cosine_source)


def test_collection_labels_follow_gold_turns(collection: Collection) -> None:
    assert collection.dataset == "locomo"
    assert len(collection.questions) == 2 * (3 + 10)  # categories 1-4 with evidence
    for collected in collection.questions:
        assert collected.candidates, "every question sees the namespace's units"
        for candidate in collected.candidates:
            useful = bool(set(candidate.unit.turn_ids) & collected.question.gold_turns)
            assert candidate.label is useful
    rows = collection.rows()
    assert any(row.label for row in rows) and not all(row.label for row in rows)
    assert collection.header["ingest"]["conversations"] == 2


def test_halves_partition_the_questions(collection: Collection) -> None:
    halves = split_halves(collection)
    ids_a = {c.question.id for c in halves["A"]}
    ids_b = {c.question.id for c in halves["B"]}
    assert ids_a and ids_b and not ids_a & ids_b
    assert len(ids_a) + len(ids_b) == len(collection.questions)
    assert all(half_of(i) == "A" for i in ids_a)
    weights_a = fit_half(collection, "A", min_rows=5)
    assert weights_a.fitted_question_ids() == ids_a
    assert weights_a.fitted_on is not None and weights_a.fitted_on.half == "A"


def test_fuse_orders_by_the_weighted_sum(collection: Collection) -> None:
    collected = collection.questions[0]
    only_relevance = SignalWeights(default={"relevance": 1.0, "importance": 0.0, "temporal": 0.0})
    ranked = fuse(collected, only_relevance)
    scores = [c.signals["relevance"] for c in ranked]
    assert scores == sorted(scores, reverse=True)


def test_collect_only_kept_questions(tmp_path: Path) -> None:
    path = wide_locomo(tmp_path / "one.json", conversations=1)
    kept = collect_signals(path, store="memory", recipe="dense", source=cosine_source,
                           keep=lambda q: half_of(q.id) == "A")
    assert kept.questions and all(half_of(c.question.id) == "A" for c in kept.questions)


def test_auto_temperature_is_chosen_on_the_fitting_half_only(collection: Collection) -> None:
    halves = split_halves(collection)
    fitted = fit_half(collection, "A", min_rows=5)
    best, scores = select_temperature(halves["A"], fitted, budget=3)
    assert best in TEMPERATURE_GRID and set(scores) == set(TEMPERATURE_GRID)
    assert scores[best] == max(scores.values())
    auto = fit_half(collection, "A", min_rows=5, temperature="auto", budget=3)
    assert auto.temperature == best
    assert auto.fitted_question_ids() == {c.question.id for c in halves["A"]}
    collected = halves["B"][0]
    assert 0.0 <= turn_recall(collected, list(collected.candidates), 3) <= 1.0
    everything = turn_recall(collected, list(collected.candidates), 10_000)
    assert everything >= turn_recall(collected, list(collected.candidates), 3)
    assert (everything > 0) == any(c.label for c in collected.candidates)
