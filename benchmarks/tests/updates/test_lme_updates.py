"""LongMemEval knowledge-update ordering (``bench lme-updates``) on a tiny synthetic haystack."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ripplemem.datasets import load_longmemeval
from ripplemem.records import Evidence
from ripplemem.testing import make_unit
from ripplemem_bench.cli import bench_app
from ripplemem_bench.results import LmeUpdatesResult, load_result
from ripplemem_bench.updates.lme import dated_gold, gold_order, run_lme_updates, summarise

from ..cli.conftest import CLEAN_ENV


def _session(*user_texts: str, flag: bool | None = None) -> list[dict]:
    turns: list[dict] = []
    for text in user_texts:
        turn: dict = {"role": "user", "content": text}
        if flag is not None:
            turn["has_answer"] = flag
        turns += [turn, {"role": "assistant", "content": "Noted, thanks for telling me."}]
    return turns


def ku_item(question_id: str = "ku1", *, new_date: str = "2023/09/02 (Sat) 18:00") -> dict:
    """Old value (June) and update (September); the haystack lists the update first."""
    return {
        "question_id": question_id,
        "question_type": "knowledge-update",
        "question": "Where do I keep my hiking boots now?",
        "answer": "in the hallway cupboard",
        "question_date": "2023/10/01 (Sun) 10:00",
        "haystack_session_ids": ["answer_new", "noise_a", "answer_old", "noise_b"],
        "haystack_dates": [new_date, "2023/07/14 (Fri) 09:00", "2023/06/03 (Sat) 12:00",
                           "2023/08/20 (Sun) 20:00"],
        "haystack_sessions": [
            _session("I moved my hiking boots to the hallway cupboard, they smelled up the garage.",
                     flag=True),
            _session("Can you suggest a recipe for lentil soup with smoked paprika?"),
            _session("My hiking boots live in the garage next to the bikes.", flag=True)
            + _session("Also, what is a good stretch after a long walk?", flag=False),
            _session("I am planning a trip to Lisbon in the autumn, any tips on trams?"),
        ],
        "answer_session_ids": ["answer_new", "answer_old"],
    }


@pytest.fixture
def ku_file(tmp_path: Path) -> Path:
    abstention = ku_item("ku2_abs")
    for session in abstention["haystack_sessions"]:
        for turn in session:
            turn.pop("has_answer", None)
    other = ku_item("ss1")
    other["question_type"] = "single-session-user"
    same_day = ku_item("ku3", new_date="2023/06/03 (Sat) 12:00")
    path = tmp_path / "ku.json"
    path.write_text(json.dumps([ku_item(), abstention, other, same_day]), encoding="utf-8")
    return path


def _unit(turn_id: str):
    return replace(make_unit(turn_id), turn_ids=(turn_id,))


def test_gold_sessions_are_ordered_by_date_not_haystack_order(ku_file: Path) -> None:
    samples = {s.question.id: s for s in load_longmemeval(ku_file)}
    first = samples["ku1"]
    assert dated_gold(first.question, first.conversation).sessions == ("answer_old", "answer_new")
    assert dated_gold(samples["ku2_abs"].question, samples["ku2_abs"].conversation).skip == (
        "fewer than two gold sessions"
    )
    assert dated_gold(samples["ku3"].question, samples["ku3"].conversation).skip == (
        "gold sessions on one date"
    )


def test_latest_first_needs_both_found_and_the_later_one_above(ku_file: Path) -> None:
    question = next(iter(load_longmemeval(ku_file))).question
    sessions = ("answer_old", "answer_new")
    noise, old, new = _unit("noise_a_1"), _unit("answer_old_1"), _unit("answer_new_1")
    # the old session's turn without has_answer is a session of its own (noans_...), as officially
    stretch = _unit("answer_old_3")

    def read(*units, k: int = 10):
        evidence = [Evidence(u, 1.0 - i / 10, ()) for i, u in enumerate(units)]
        return gold_order(question, sessions, evidence, k)

    best = read(noise, new, stretch, old)
    assert best.ranks == (4, 2) and best.latest_first and best.all_found and best.latest_found
    wrong = read(old, noise, new)
    assert wrong.ranks == (1, 3) and not wrong.latest_first and wrong.all_found
    only_new = read(new, stretch)
    assert only_new.ranks == (None, 1) and only_new.latest_found and not only_new.latest_first
    shallow = read(noise, new, stretch, old, k=3)  # the old session is 4th: not found at k = 3
    assert not shallow.all_found and not shallow.latest_first and shallow.latest_found
    summary = summarise([best, wrong, only_new])
    assert summary.latest_first == 33.3 and summary.all_found == 66.7
    assert summary.latest_found == 100.0 and summary.latest_first_when_all_found == 50.0
    assert (summary.latest_first_count, summary.all_found_count, summary.questions) == (1, 2, 3)


def test_run_reads_only_knowledge_updates_and_reuses_the_kept_store(
    ku_file: Path, tmp_path: Path
) -> None:
    kept = tmp_path / "ku.db"
    first = run_lme_updates(ku_file, recipes=("bm25", "ripple"), keep=kept)
    assert first.questions == 1 and first.kind == "lme-updates"
    assert first.excluded == {"fewer than two gold sessions": 1, "gold sessions on one date": 1}
    assert first.ingest.conversations == 1 and first.ingest.reused_conversations == 0
    for name in ("bm25", "ripple"):
        (row,) = first.recipes[name].questions
        assert row.id == "ku1" and row.sessions == ["answer_old", "answer_new"]
        ranks = row.ranks
        assert row.all_found == all(r is not None and r <= 10 for r in ranks)
        assert row.latest_first == (row.all_found and ranks[1] < ranks[0])
        assert first.recipes[name].summary.latest_first == 100.0 * row.latest_first
    second = run_lme_updates(ku_file, recipes=("bm25", "ripple"), keep=kept)
    assert second.ingest.reused_conversations == 1
    assert [second.recipes[n].questions for n in ("bm25", "ripple")] == [
        first.recipes[n].questions for n in ("bm25", "ripple")
    ]


def test_cli_prints_the_shares_and_writes_json(ku_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "ku.json.out"
    result = CliRunner(env=CLEAN_ENV).invoke(
        bench_app, ["lme-updates", str(ku_file), "--recipes", "bm25", "--json", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "latest first" in result.output and "not scored" in result.output
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written["k"] == 10 and list(written["recipes"]) == ["bm25"]
    assert written["recipes"]["bm25"]["summary"]["questions"] == 1
    assert written["kind"] == "lme-updates" and "skip" not in written
    assert isinstance(load_result(out), LmeUpdatesResult)  # the report reads it back typed
