"""Cross-fitted scoring on a real ingested memory and the fitted-questions guard."""

from __future__ import annotations

import pytest

from ripplemem.errors import FittedQuestionsError
from ripplemem.read.asso.weights import check_not_fitted_on
from ripplemem.training.fit_weights import fit_signal_weights
from ripplemem.training.signal_rows import Collection, collect_signals
from ripplemem.training.temperature import fit_half, select_temperature, split_halves
from ripplemem_bench.retrieval.crossfit import cross_fit

from ..asso_fixtures import cosine_source, wide_locomo


@pytest.fixture(scope="module")
def collection(tmp_path_factory: pytest.TempPathFactory) -> Collection:
    path = wide_locomo(tmp_path_factory.mktemp("crossfit") / "locomo_wide.json")
    return collect_signals(path, store="memory", recipe="dense", source=cosine_source)


def test_cross_fit_scores_every_question_once_with_the_other_half(collection: Collection) -> None:
    result = cross_fit(collection, budget=10, min_rows=5).to_json()
    assert set(result["recipes"]) == {"asso-equal", "asso-crossfit"}
    assert result["questions"] == len(collection.questions)
    for block in result["recipes"].values():
        assert 0.0 <= block["metrics"]["recall@5"] <= block["metrics"]["recall@10"] <= 1.0
    block = result["cross_fit"]
    assert sum(block["questions"].values()) == len(collection.questions)
    assert set(block["weights"]) == {"A", "B"}
    assert block["weights"]["A"]["fitted_on"]["half"] == "A"
    assert "question_ids" not in block["weights"]["A"]["fitted_on"]


def test_weights_fitted_on_the_evaluated_questions_are_refused(collection: Collection) -> None:
    everything = fit_signal_weights(collection.rows(), dataset="locomo", min_rows=5)
    with pytest.raises(FittedQuestionsError, match="--force-fitted"):
        cross_fit(collection, budget=10, weights=everything).to_json()
    forced = cross_fit(collection, budget=10, weights=everything, force_fitted=True).to_json()
    assert forced["evaluated_on_fitted"] is True
    assert forced["recipes"]["asso-weights"]["evaluated_on_fitted"] is True
    clean = fit_half(collection, "A", min_rows=5)
    only_b = [c.question.id for c in split_halves(collection)["B"]]
    assert check_not_fitted_on(clean, only_b) is False


def test_auto_temperature_is_chosen_per_half(collection: Collection) -> None:
    best, _ = select_temperature(split_halves(collection)["A"], fit_half(collection, "A", min_rows=5),
                                 budget=3)
    result = cross_fit(collection, budget=3, min_rows=5, temperature="auto").to_json()
    assert result["cross_fit"]["temperature"] == "auto"
    assert result["cross_fit"]["weights"]["A"]["temperature"] == best
