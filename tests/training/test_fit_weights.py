"""CMI fitting: hand-computed values, properties, per-type fallback and the cross-fitting split."""

from __future__ import annotations

import math
import random

import pytest

from ripplemem.errors import InvalidInputError
from ripplemem.read.asso.weights import SIGNALS
from ripplemem.training.fit_weights import (
    POOLED,
    SignalRow,
    bin_values,
    fit_signal_weights,
    half_of,
    mutual_information,
    signal_cmi,
    softmax_weights,
    tertile_edges,
)


def test_mutual_information_matches_hand_computation() -> None:
    # perfectly informative binary split: I = log 2
    assert mutual_information([0, 0, 1, 1], [True, True, False, False]) == pytest.approx(math.log(2))
    # p(b0)=p(b1)=1/2, p(T)=3/4: .25 log(2/3) + .25 log 2 + .5 log(4/3)
    expected = 0.25 * math.log(2 / 3) + 0.25 * math.log(2) + 0.5 * math.log(4 / 3)
    assert mutual_information([0, 0, 1, 1], [True, False, True, True]) == pytest.approx(expected)
    assert expected == pytest.approx(0.215762, abs=1e-6)
    # independent by construction: every bin has the same label mix
    assert mutual_information([0, 0, 1, 1, 2, 2], [True, False] * 3) == pytest.approx(0.0)


def test_tertile_bins_are_equal_frequency_and_ties_share_a_bin() -> None:
    values = list(range(9))
    bins = bin_values(values, tertile_edges(values))
    assert bins.tolist() == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    constant = [0.5] * 6
    assert set(bin_values(constant, tertile_edges(constant)).tolist()) == {0}


def _rows(qtype: str, n: int, rng: random.Random, informative: str) -> list[SignalRow]:
    rows = []
    for index in range(n):
        label = index % 3 == 0
        signals = {signal: rng.random() for signal in SIGNALS}
        signals[informative] = (1.0 if label else 0.0) + 0.01 * rng.random()
        rows.append(SignalRow(qtype, signals, label, f"{qtype}-q{index // 10}"))
    return rows


def test_informative_signal_gets_the_largest_weight_per_type() -> None:
    rng = random.Random(7)
    rows = _rows("temporal", 300, rng, "temporal") + _rows("preference", 300, rng, "importance")
    weights = fit_signal_weights(rows, dataset="toy")
    temporal, preference = weights.for_type("temporal"), weights.for_type("preference")
    assert max(temporal, key=temporal.get) == "temporal"
    assert max(preference, key=preference.get) == "importance"
    # the informative signal's CMI is the label entropy (two bins catch it exactly)
    entropy = -(1 / 3) * math.log(1 / 3) - (2 / 3) * math.log(2 / 3)
    assert weights.cmi["temporal"]["temporal"] == pytest.approx(entropy, rel=1e-6)
    # random signals carry (almost) nothing
    assert weights.cmi["temporal"]["relevance"] < 0.02
    assert weights.fitted_on is not None and weights.fitted_on.rows == 600
    assert "temporal-q0" in weights.fitted_question_ids()


def test_independent_signal_has_cmi_near_zero() -> None:
    rng = random.Random(3)
    rows = [
        SignalRow("single-hop", {"relevance": rng.random()}, rng.random() < 0.3, f"q{i}")
        for i in range(20_000)
    ]
    assert signal_cmi(rows, "relevance") < 1e-3


def test_small_types_fall_back_to_the_pooled_fit() -> None:
    rng = random.Random(11)
    rows = _rows("temporal", 300, rng, "temporal") + _rows("open-domain", 5, rng, "importance")
    weights = fit_signal_weights(rows, min_rows=30)
    assert weights.for_type("open-domain") == weights.default
    assert "open-domain" not in weights.cmi and POOLED in weights.cmi
    assert weights.for_type("never-seen") == weights.default


def test_softmax_temperature_and_errors() -> None:
    flat = softmax_weights({"relevance": 0.0, "importance": 0.0, "temporal": 0.0})
    assert flat == pytest.approx({signal: 1 / 3 for signal in SIGNALS})
    sharp = softmax_weights({"relevance": 1.0, "importance": 0.0, "temporal": 0.0}, temperature=0.1)
    assert sharp["relevance"] > 0.99
    with pytest.raises(InvalidInputError):
        softmax_weights({"relevance": 1.0, "importance": 0.0, "temporal": 0.0}, temperature=0)
    with pytest.raises(InvalidInputError, match="no rows"):
        fit_signal_weights([])


def test_tuples_are_accepted() -> None:
    rows = [("t", {"relevance": float(i), "importance": 0.0, "temporal": 0.0}, i % 2 == 0, f"q{i}")
            for i in range(40)]
    assert fit_signal_weights(rows).fitted_on.rows == 40


def test_halves_are_stable_and_balanced() -> None:
    ids = [f"conv-{c}:q{i}" for c in range(5) for i in range(200)]
    halves = [half_of(qid) for qid in ids]
    assert halves == [half_of(qid) for qid in ids]
    assert 0.45 < halves.count("A") / len(ids) < 0.55
    assert half_of("conv-26:q0") == half_of("conv-26:q0")


def test_with_temperature_matches_a_fresh_fit() -> None:
    from ripplemem.training.fit_weights import with_temperature

    rng = random.Random(5)
    rows = _rows("temporal", 300, rng, "temporal") + _rows("open-domain", 5, rng, "importance")
    fresh = fit_signal_weights(rows, temperature=0.1, min_rows=30)
    again = with_temperature(fit_signal_weights(rows, min_rows=30), 0.1)
    assert again.temperature == 0.1
    for qtype in ("temporal", "open-domain", "unseen"):
        assert again.for_type(qtype) == pytest.approx(fresh.for_type(qtype))
    from ripplemem.read.asso.weights import SignalWeights

    with pytest.raises(InvalidInputError, match="no CMI"):
        with_temperature(SignalWeights(), 0.1)
