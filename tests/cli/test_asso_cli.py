"""``export-finetune``, ``question-types`` and ``fit-weights`` through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ripplemem.cli.main import app

from .synthetic_locomo import tiny_locomo


@pytest.fixture
def locomo(tmp_path: Path) -> Path:
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps([tiny_locomo()]), encoding="utf-8")
    return path


@pytest.mark.slow
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
    report = json.loads(result.stdout)
    assert report["dataset"] == "locomo" and report["questions"] > 0
    assert 0.0 <= report["accuracy"] <= 1.0


def test_bad_half_is_refused(runner: CliRunner, locomo: Path) -> None:
    result = runner.invoke(app, ["export-finetune", str(locomo), "--half", "C", "--recipe", "dense"])
    assert result.exit_code == 2 and "--half must be A or B" in result.output


def test_fit_weights_with_the_rit_ranker(runner: CliRunner, locomo: Path, tmp_path: Path) -> None:
    out = tmp_path / "weights.json"
    result = runner.invoke(app, ["fit-weights", str(locomo), "--out", str(out), "--store", "memory",
                                 "--min-rows", "5", "--temperature", "auto"])
    assert result.exit_code == 0, result.output
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert saved["fitted_on"]["question_ids"]
    assert saved["temperature"] > 0


def test_temperature_must_be_positive_or_auto(runner: CliRunner, locomo: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["fit-weights", str(locomo), "--out", str(tmp_path / "w.json"),
                                 "--temperature", "-1"])
    assert result.exit_code == 2 and "temperature must be a positive number or 'auto'" in result.output
