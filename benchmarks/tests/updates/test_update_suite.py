"""The update suite (``bench updates``): reading a suite, scoring one recall, the command end to end."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ripplemem.errors import InvalidInputError
from ripplemem.records import Evidence
from ripplemem.testing import make_unit
from ripplemem_bench.cli import bench_app
from ripplemem_bench.results import UpdatesResult, load_result
from ripplemem_bench.updates.cases import QuestionModel, load_cases
from ripplemem_bench.updates.score import score_question, summarise

from ..cli.conftest import CLEAN_ENV


def _turns(session: str, *said: tuple[str, str]) -> list[dict]:
    return [{"turn_id": f"{session}:{i}", "speaker": who, "text": text}
            for i, (who, text) in enumerate(said, 1)]


def suite(split: str = "dev") -> dict:
    case = {
        "id": "move", "split": split, "speakers": ["Maya", "Tom"],
        "question_time": "2023-09-01T10:00",
        "sessions": [
            {"session_id": "S1", "time": "2023-02-10T18:00", "turns": _turns(
                "S1", ("Maya", "I have been renting a flat in Leeds for three years."),
                ("Tom", "Is it near the station?"), ("Maya", "Ten minutes on foot."))},
            {"session_id": "S2", "time": "2023-06-03T18:00", "turns": _turns(
                "S2", ("Tom", "Any news?"),
                ("Maya", "I moved to Bristol last month, the boxes are finally unpacked."))},
        ],
        "questions": [
            {"id": "q-now", "kind": "current", "question": "Which city does Maya live in?",
             "evidence": ["S2:2"], "stale": ["S1:1"]},
            {"id": "q-before", "kind": "history",
             "question": "Where did Maya live before she moved to Bristol?",
             "evidence": ["S1:1", "S2:2"]},
        ],
    }
    return {"name": "tiny", "conversations": [case]}


@pytest.fixture
def suite_file(tmp_path: Path) -> Path:
    path = tmp_path / "updates_tiny.json"
    path.write_text(json.dumps(suite()), encoding="utf-8")
    return path


def _evidence(*turns: str) -> list[Evidence]:
    units = [replace(make_unit(f"u{i}"), turn_ids=(turn,)) for i, turn in enumerate(turns)]
    return [Evidence(unit, 1.0 - i / 10, ()) for i, unit in enumerate(units)]


def test_a_current_value_passes_in_the_top_3_above_every_stale_turn() -> None:
    question = QuestionModel(id="q", kind="current", question="?", evidence=["new"], stale=["old"])
    assert score_question(question, _evidence("x", "new", "old")).passed
    below = score_question(question, _evidence("old", "new"))
    assert not below.passed and (below.evidence_rank, below.stale_rank) == (1, 0)
    assert not score_question(question, _evidence("a", "b", "c", "new")).passed  # 4th
    history = QuestionModel(id="h", kind="history", question="?", evidence=["old", "new"])
    assert score_question(history, _evidence("new", *"abcdefgh", "old")).passed  # both in 10
    assert not score_question(history, _evidence("new", *"abcdefghi", "old")).passed
    summary = summarise([score_question(question, _evidence("new")),
                         score_question(question, _evidence("old", "new"))])
    assert summary["current"] == {"questions": 2, "passed": 1, "share": 50.0}
    assert summary["control"] == {"questions": 0, "passed": 0, "share": 0.0}


def test_a_suite_naming_turns_it_does_not_hold_or_no_case_of_the_split_is_refused(
    tmp_path: Path, suite_file: Path
) -> None:
    assert [case.id for case in load_cases(suite_file, split="dev")] == ["move"]
    with pytest.raises(InvalidInputError, match="no conversation of split 'holdout'"):
        load_cases(suite_file, split="holdout")
    broken = suite()
    broken["conversations"][0]["questions"][0]["stale"] = ["S9:1"]
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(broken), encoding="utf-8")
    with pytest.raises(InvalidInputError, match=r"q-now names turns \['S9:1'\]"):
        load_cases(path)


def test_the_command_scores_each_kind_per_recipe_and_writes_a_typed_result(
    suite_file: Path, tmp_path: Path
) -> None:
    out = tmp_path / "result.json"
    done = CliRunner(env=CLEAN_ENV).invoke(
        bench_app, ["updates", str(suite_file), "--recipes", "ripple,bm25", "--json", str(out)]
    )
    assert done.exit_code == 0, done.output
    assert "current %" in done.output and "ripple" in done.output
    result = load_result(out)
    assert isinstance(result, UpdatesResult) and result.file == "updates_tiny.json"
    assert (result.conversations, result.questions, result.split) == (1, 2, "all")
    assert result.cpu is not None and result.date and result.load is not None
    for name in ("ripple", "bm25"):
        summary = result.recipes[name].summary
        assert summary["current"].questions == 1 and summary["history"].questions == 1
        rows = result.recipes[name].questions
        assert [row["id"] for row in rows] == ["q-now", "q-before"]
        assert summary["history"].passed == rows[1]["passed"]
    assert "notes" in result.recipes["ripple"].questions[0]  # the first recipe keeps its notes
    assert "supersession stage" not in done.output  # no stage-off twin ran


def test_the_command_says_what_the_supersession_stage_changes(suite_file: Path) -> None:
    done = CliRunner(env=CLEAN_ENV).invoke(
        bench_app, ["updates", str(suite_file), "--recipes", "ripple,ripple-no-supersession"]
    )
    assert done.exit_code == 0, done.output
    assert "The supersession stage (ripple beside ripple-no-supersession):" in " ".join(done.output.split())


def test_with_an_llm_endpoint_the_write_path_asks_it_which_memory_a_new_one_updates(
    suite_file: Path, tmp_path: Path
) -> None:
    """Only the update judge asks the model (extraction stays deterministic): each request is an
    update prompt, and the judge's "updates" becomes the supersedes link the read path follows."""
    from ripplemem.testing import Reply, ScriptedOpenAIServer

    def judge(body: dict) -> Reply:
        return Reply.json({"verdicts": [{"memory": 1, "relation": "updates", "reason": "moved"}]})

    out = tmp_path / "judged.json"
    with ScriptedOpenAIServer(responder=judge, model="judge-1") as server:
        done = CliRunner(env=CLEAN_ENV).invoke(bench_app, [
            "updates", str(suite_file), "--recipes", "ripple", "--json", str(out),
            "--llm-base-url", server.base_url, "--llm-model", "judge-1",
        ])
        asked = [b["messages"][-1]["content"] for b in server.requests]
    assert done.exit_code == 0, done.output
    assert asked and all(text.startswith("NEW (") and "EARLIER:" in text for text in asked), asked[:1]
    result = load_result(out)
    assert isinstance(result, UpdatesResult) and result.llm == "judge-1"
    assert result.extractor == "deterministic" or "Deterministic" in (result.extractor or "")
