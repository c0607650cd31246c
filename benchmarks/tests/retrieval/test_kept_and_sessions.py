"""The kept benchmark store (``--keep``) and the gold-session diagnosis (``lme-sessions``)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from ripplemem import get_recipe
from ripplemem.datasets import load_longmemeval
from ripplemem.errors import InvalidInputError
from ripplemem.records import Evidence, RecallTrace
from ripplemem.testing import make_unit
from ripplemem_bench.retrieval.runners import run_longmemeval_bench
from ripplemem_bench.retrieval.sessions import SessionTrail, drop_stage, summarise, trail


def test_keep_reuses_the_ingested_conversation(lme_json: Path, tmp_path: Path) -> None:
    kept = tmp_path / "kept.db"
    first = run_longmemeval_bench(lme_json, recipes=("bm25",), keep=kept).to_json()
    ledger = json.loads(kept.with_name("kept.db.ingest.json").read_text(encoding="utf-8"))
    assert list(ledger) == ["bench/q1"] and first["ingest"]["reused_conversations"] == 0
    second = run_longmemeval_bench(lme_json, recipes=("bm25",), keep=kept).to_json()
    assert second["ingest"]["reused_conversations"] == 1
    # the recorded cost is reported again, and the same memory gives the same scores
    assert second["ingest"]["units"] == first["ingest"]["units"] > 0
    assert second["ingest"]["seconds_total"] == first["ingest"]["seconds_total"]
    assert second["recipes"]["bm25"]["metrics"] == first["recipes"]["bm25"]["metrics"]


def test_drop_stage_follows_the_pipeline_order() -> None:
    assert drop_stage(SessionTrail("s", in_views=True, seen_user_turn=True, returned=True,
                                   session_rank=2), 5) == "found@5"
    assert drop_stage(SessionTrail("s", in_views=True, seen_user_turn=True, returned=True,
                                   session_rank=7), 5) == "order"
    assert drop_stage(SessionTrail("s", in_views=True, seen_user_turn=True), 5) == "budget"
    assert drop_stage(SessionTrail("s", by_expansion=True), 5) == "other-turns"
    assert drop_stage(SessionTrail("s"), 5) == "views"


def test_trail_reads_sessions_through_user_turns(lme_json: Path) -> None:
    question = next(iter(load_longmemeval(lme_json))).question
    # the stored turn ids are "<session>_<index + 1>"; user turns map to corpus ids
    noise_user = replace(make_unit("n1"), turn_ids=("noise_1_1",))
    gold_assistant = replace(make_unit("g2"), turn_ids=("answer_s2_2",))
    gold_user = replace(make_unit("g1"), turn_ids=("answer_s2_1",))
    returned = [Evidence(u, 1.0 - i / 10, ()) for i, u in enumerate((noise_user, gold_assistant))]
    trace = RecallTrace(query=question.text, namespace="n", recipe="ripple")
    trace.initial = {"dense": [("n1", 0.9), ("g2", 0.8), ("g1", 0.1)], "lexical": [], "cue": []}
    fetched = {"g1": gold_user}
    item = trail(question, returned, trace, lambda ids: {i: fetched[i] for i in ids if i in fetched},
                 get_recipe("ripple", views={"dense_k": 2}))
    (gold,) = item.gold
    assert gold.session == "answer_s2" and gold.in_views and gold.seen_user_turn
    assert not gold.returned and drop_stage(gold, 5) == "budget"  # its user turn ranked out
    assert item.slots == {"new": 1, "assistant": 1} and item.distinct_sessions == 1
    summary = summarise([item], 5)
    assert summary["all"]["lost"]["budget"] == 1 and summary["all"]["recall_all"] == 0.0


def test_merge_recomputes_the_means_of_disjoint_runs(tmp_path: Path) -> None:
    from ripplemem_bench.retrieval.merge import merge_results

    from ..synthetic import lme_item

    second = lme_item("q9")
    second["question"] = "Which city did I buy a red bicycle in?"
    second["question_type"] = "multi-session"
    path = tmp_path / "two.json"
    path.write_text(json.dumps([lme_item("q1"), second]), encoding="utf-8")
    whole = run_longmemeval_bench(path, recipes=("bm25",), store="memory", details=True)
    parts = [
        run_longmemeval_bench(path, recipes=("bm25",), store="memory", details=True, limit=1),
        run_longmemeval_bench(path, recipes=("bm25",), store="memory", details=True, skip=1),
    ]
    merged = merge_results(parts)
    assert merged.questions == whole.questions == 2
    bm25, whole_bm25 = merged.recipes["bm25"], whole.recipes["bm25"]
    assert bm25.metrics == whole_bm25.metrics
    assert bm25.per_question_type == whole_bm25.per_question_type
    assert bm25.per_category is None and bm25.adversarial is None  # nothing LoCoMo's here
    assert merged.ingest.units == whole.ingest.units
    assert [p.skip for p in merged.merged_from or []] == [0, 1]
    written = merged.to_json()  # the file form: per_question rows stay flat
    assert set(written["recipes"]["bm25"]["per_question"][0]) >= {"id", "group", "turn_recall_all@5"}
    with pytest.raises(InvalidInputError, match="disjoint"):
        merge_results([parts[0], parts[0]])
