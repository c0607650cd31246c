"""Every recorded run of docs/results loads as its typed record, and writes back unchanged.

The result files are the runs the benchmarks pages show; they were written by the harness of
their time, so these tests pin that today's records read every one of them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ripplemem_bench.reports.manifest import load_manifest
from ripplemem_bench.reports.updates import updates_section
from ripplemem_bench.results import (
    AssoSpeedResult,
    GrowthResult,
    LmeUpdatesResult,
    RetrievalResult,
    RetrievalVariants,
    ServeResult,
    TimesResult,
    UpdatesResult,
    WritersResult,
    load_result,
)
from ripplemem_bench.results.updates import KindScore, UpdateRecipe

RESULTS = Path(__file__).resolve().parents[3] / "docs" / "results"
MANIFEST = RESULTS / "manifest.json"
KINDS = {
    "locomo_dev.json": RetrievalResult,
    "locomo_dev_sentence_units.json": RetrievalResult,
    "longmemeval_s_dev30.json": RetrievalResult,
    "speed_vs_hybrid.json": GrowthResult,
    "longmemeval_s_dev.json": RetrievalResult,
    "longmemeval_s_dev70.json": RetrievalResult,
    "asso_crossfit_locomo_dev.json": RetrievalVariants,
    "locomo_dev_backends.json": RetrievalVariants,
    "speed_fixed_input.json": GrowthResult,
    "scale.json": GrowthResult,
    "speed_backends_sqlite.json": GrowthResult,
    "speed_backends_postgres.json": GrowthResult,
    "speed_backends_10k_sqlite.json": GrowthResult,
    "speed_backends_10k_postgres.json": GrowthResult,
    "asso_speed.json": AssoSpeedResult,
    "serve_sqlite.json": ServeResult,
    "serve_postgres.json": ServeResult,
    "writers_backends.json": WritersResult,
    "updates_dev.json": UpdatesResult,
    "updates_new.json": UpdatesResult,
    "updates_dev_baseline.json": UpdatesResult,
    "updates_new_baseline.json": UpdatesResult,
    "updates_fresh_tune.json": UpdatesResult,
    "updates_fresh_holdout.json": UpdatesResult,
    "updates_fresh_tune_baseline.json": UpdatesResult,
    "updates_fresh_holdout_baseline.json": UpdatesResult,
    "updates_blind_tune.json": UpdatesResult,
    "updates_blind_holdout.json": UpdatesResult,
    "updates_blind_tune_baseline.json": UpdatesResult,
    "updates_blind_holdout_baseline.json": UpdatesResult,
    "updates_small_tune.json": UpdatesResult,
    "updates_small_holdout.json": UpdatesResult,
    "updates_hobbies_tune.json": UpdatesResult,
    "updates_hobbies_holdout.json": UpdatesResult,
    "lme_ku.json": LmeUpdatesResult,
    "times_blind_tune.json": TimesResult,
    "times_blind_holdout.json": TimesResult,
    "times_blind_tune_baseline.json": TimesResult,
    "times_blind_holdout_baseline.json": TimesResult,
    "times_blind2.json": TimesResult,
    "times_blind2_baseline.json": TimesResult,
    "times_dev3.json": TimesResult,
    "times_dev3_baseline.json": TimesResult,
}
CURRENT = [run.file for run in load_manifest(MANIFEST).runs]


def test_every_current_run_has_its_expected_kind_here() -> None:
    assert sorted(CURRENT) == sorted(KINDS)  # a new run in the manifest needs a line above


def _without_examples(data: dict) -> dict:
    """Older speed results keep the example questions among the search timings; records keep
    them beside (``search_examples``): the one place where writing back moves a field."""
    for row in data.get("sizes") or []:
        examples = (row.get("search") or {}).pop("example_questions", None)
        if examples is not None:
            row["search_examples"] = examples
    return data


@pytest.mark.parametrize("name", CURRENT)
def test_a_recorded_run_loads_typed_and_writes_back_the_same(name: str) -> None:
    result = load_result(RESULTS / name)
    assert type(result) is KINDS[name]
    raw = json.loads((RESULTS / name).read_text(encoding="utf-8"))
    assert result.to_json() == _without_examples(raw)


def test_retrieval_fields_are_typed() -> None:
    locomo = load_result(RESULTS / "locomo_dev.json")
    assert isinstance(locomo, RetrievalResult)
    raw = json.loads((RESULTS / "locomo_dev.json").read_text(encoding="utf-8"))
    ripple = locomo.recipes["ripple"]
    assert ripple.metrics["recall@30"] == pytest.approx(raw["recipes"]["ripple"]["metrics"]["recall@30"])
    assert 0.0 < ripple.metrics["recall@30"] <= 1.0
    assert ripple.per_category is not None and ripple.per_category["temporal"].questions == 213
    assert ripple.adversarial is not None and ripple.adversarial.questions == 312
    assert locomo.ingest.units == raw["ingest"]["units"] > 0 and locomo.embedder == "minilm-q7"
    lme = load_result(RESULTS / "longmemeval_s_dev.json")
    assert isinstance(lme, RetrievalResult) and lme.questions == 254 and lme.ingest.units > 0
    rows = lme.recipes["ripple"].per_question
    assert rows is not None and rows[0].values["session_recall_all@5"] in (0.0, 1.0)
    crossfit = load_result(RESULTS / "asso_crossfit_locomo_dev.json")
    assert isinstance(crossfit, RetrievalVariants)
    assert crossfit.root["auto"].cross_fit is not None
    assert crossfit.root["auto"].cross_fit.temperature == "auto"


def test_growth_fields_are_typed() -> None:
    speed = load_result(RESULTS / "speed_fixed_input.json")
    assert isinstance(speed, GrowthResult) and speed.benchmark == "speed"
    last = speed.sizes[-1]
    assert last.units == 100_000 and last.insert_ms_per_unit > 0
    assert last.segment is not None and last.segment.start == 10_000
    assert last.probe is not None and "store" in last.probe.insert_stages
    assert len(last.search_examples) == 3 and set(last.search) == {"ripple", "hybrid", "dense"}
    assert speed.targets["insert_flat_ratio"].met is True
    scale = load_result(RESULTS / "scale.json")
    assert isinstance(scale, GrowthResult) and scale.scale_targets is not None
    assert scale.scale_targets.at_units == 1_000_000
    assert scale.insert_flatness is not None and scale.insert_flatness.stream is None  # older


def test_the_other_kinds_are_typed() -> None:
    serve = load_result(RESULTS / "serve_sqlite.json")
    assert isinstance(serve, ServeResult) and serve.search_ms.p99 is not None
    assert serve.store.backend == "sqlite" and serve.checks["errors == 0"] is True
    writers = load_result(RESULTS / "writers_backends.json")
    assert isinstance(writers, WritersResult) and writers.backends["sqlite"][0].processes == 1
    asso = load_result(RESULTS / "asso_speed.json")
    assert isinstance(asso, AssoSpeedResult) and asso.ppr.nodes == 2010
    updates = load_result(RESULTS / "updates_dev.json")
    assert isinstance(updates, UpdatesResult)
    assert updates.recipes["ripple"].summary["current"].questions > 0


def test_the_update_results_are_typed() -> None:
    ordering = load_result(RESULTS / "lme_ku.json")
    assert isinstance(ordering, LmeUpdatesResult) and ordering.k == 10
    ripple = ordering.recipes["ripple"]
    assert ripple.summary.questions == len(ripple.questions) == ordering.questions
    assert ripple.summary.latest_first_count == sum(row.latest_first for row in ripple.questions)
    assert all(len(row.ranks) == len(row.sessions) >= 2 for row in ripple.questions)
    new = load_result(RESULTS / "updates_new_baseline.json")
    assert isinstance(new, UpdatesResult) and new.file == "updates_new.json"
    assert new.cpu is not None and new.cpu.model


def test_an_answered_run_of_the_llm_lane_loads_with_typed_answer_rows() -> None:
    """docs/llm.md's LoCoMo run (three systems answered and judged): not on the benchmarks
    pages, but a run rejudge and merge read."""
    path = RESULTS / "llm" / "locomo_conv26_q15_b400.json"
    run = load_result(path)
    assert isinstance(run, RetrievalResult) and run.question_sample is not None
    answers = run.recipes["full-context"].answers
    assert answers is not None and answers.per_question
    row = answers.per_question[0]
    assert row.verdict in ("CORRECT", "WRONG", "FAILED") and row.gold
    assert run.to_json() == json.loads(path.read_text(encoding="utf-8"))


def test_the_stage_effect_counts_the_questions_one_twin_passes_and_the_other_not() -> None:
    """`ripple` beside `ripple-no-supersession`: what the supersession stage helps and harms, per
    question kind, read from the recorded per-question rows (the pastimes suite: nothing in it is
    an update, so the stage can only harm there)."""
    pastimes = load_result(RESULTS / "updates_hobbies_holdout.json")
    assert isinstance(pastimes, UpdatesResult)
    effect = pastimes.stage_effect()
    assert effect is not None and effect.helped == {}
    on, off = pastimes.recipes["ripple"].summary["control"], pastimes.recipes["ripple-no-supersession"].summary["control"]
    assert effect.harmed == {"control": off.passed - on.passed} and effect.harmed["control"] > 0
    lost = effect.harmed["control"]
    assert f"0 questions passed only with it, {lost} only without it ({lost} controls)." in updates_section(pastimes)
    score = {"current": KindScore(questions=2, passed=1, share=50.0)}
    built = UpdatesResult(kind="updates", recipes={
        "ripple": UpdateRecipe(summary=score, questions=[
            {"id": "a", "kind": "current", "passed": True}, {"id": "b", "kind": "current", "passed": False},
        ]),
        "ripple-no-supersession": UpdateRecipe(summary=score, questions=[
            {"id": "a", "kind": "current", "passed": False}, {"id": "b", "kind": "current", "passed": True},
        ]),
    })
    found = built.stage_effect()
    assert found is not None and (found.helped, found.harmed) == ({"current": 1}, {"current": 1})
    assert "1 question passed only with it (1 current), 1 only without it (1 current)." in updates_section(built)
    assert UpdatesResult(kind="updates", recipes={"ripple": built.recipes["ripple"]}).stage_effect() is None
