"""``export-finetune``, ``question-types``, ``fit-weights`` and ``bench --cross-fit`` through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ripplemem.cli.main import app
from ripplemem.eval.fit_weights import fit_signal_weights
from ripplemem.read.asso.weights import save_weights

from .synthetic_locomo import tiny_locomo


@pytest.fixture
def locomo(tmp_path: Path) -> Path:
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps([tiny_locomo()]), encoding="utf-8")
    return path


def test_export_finetune_writes_chat_jsonl(runner: CliRunner, locomo: Path, tmp_path: Path) -> None:
    out = tmp_path / "train.jsonl"
    result = runner.invoke(app, ["export-finetune", str(locomo), "--out", str(out), "--recipe", "dense",
                                 "--store", "memory", "--copies", "2"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert lines and all([m["role"] for m in line["messages"]] == ["system", "user", "assistant"]
                         for line in lines)
    assert "examples" in result.output


def test_question_types_reports_accuracy(runner: CliRunner, locomo: Path) -> None:
    result = runner.invoke(app, ["question-types", str(locomo), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["dataset"] == "locomo" and report["questions"] > 0
    assert 0.0 <= report["accuracy"] <= 1.0


def test_bad_half_and_weights_fitted_on_the_bench_questions(
    runner: CliRunner, locomo: Path, tmp_path: Path
) -> None:
    result = runner.invoke(app, ["export-finetune", str(locomo), "--half", "C", "--recipe", "dense"])
    assert result.exit_code == 2 and "--half must be A or B" in result.output
    from ripplemem.eval.gold_questions import iter_gold

    ids = [q.id for _, qs in iter_gold(locomo) for q in qs]
    rows = [("single-hop", {"relevance": float(i), "importance": 0.0, "temporal": 0.0}, i % 2 == 0, qid)
            for i, qid in enumerate(ids)]
    weights = save_weights(fit_signal_weights(rows, min_rows=1), tmp_path / "w.json")
    args = ["bench", "locomo", str(locomo), "--recipes", "asso,dense", "--store", "memory",
            "--weights", str(weights)]
    refused = runner.invoke(app, args)
    assert refused.exit_code == 2 and "--force-fitted" in refused.output
    out = tmp_path / "r.json"
    forced = runner.invoke(app, [*args, "--force-fitted", "--json", str(out)])
    assert forced.exit_code == 0, forced.output
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert saved["evaluated_on_fitted"] is True
    assert saved["weights"]["file"] == str(weights)
    # the same weights through the environment are refused too
    env_refused = runner.invoke(app, args[:-2], env={"RIPPLEMEM_ASSO_WEIGHTS": str(weights)})
    assert env_refused.exit_code == 2 and "fitted on" in env_refused.output


def test_fit_weights_and_cross_fit_with_the_rit_ranker(
    runner: CliRunner, locomo: Path, tmp_path: Path
) -> None:
    pytest.importorskip("ripplemem.read.asso.rit")
    out = tmp_path / "weights.json"
    result = runner.invoke(app, ["fit-weights", str(locomo), "--out", str(out), "--store", "memory",
                                 "--min-rows", "5"])
    assert result.exit_code == 0, result.output
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert saved["fitted_on"]["question_ids"]
    report = tmp_path / "cf.json"
    result = runner.invoke(app, ["bench", "locomo", str(locomo), "--cross-fit", "--store", "memory",
                                 "--fit-temperature", "auto", "--json", str(report)])
    assert result.exit_code == 0, result.output
    crossfitted = json.loads(report.read_text())
    assert {"asso-equal", "asso-crossfit"} <= set(crossfitted["recipes"])
    assert crossfitted["cross_fit"]["temperature"] == "auto"


def test_temperature_must_be_positive_or_auto(runner: CliRunner, locomo: Path) -> None:
    result = runner.invoke(app, ["bench", "locomo", str(locomo), "--cross-fit", "--store", "memory",
                                 "--fit-temperature", "-1"])
    assert result.exit_code == 2 and "temperature must be a positive number or 'auto'" in result.output


def test_cross_fit_refuses_skip(runner: CliRunner, tmp_path: Path) -> None:
    data = tmp_path / "lme.json"
    data.write_text("[]", encoding="utf-8")  # refused before the file is read
    result = runner.invoke(app, ["bench", "longmemeval", str(data), "--cross-fit", "--skip", "5",
                                 "--store", "memory"])
    assert result.exit_code == 2 and "--cross-fit reads the whole file; drop --skip" in result.output
