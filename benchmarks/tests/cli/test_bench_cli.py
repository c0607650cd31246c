"""``ripplemem bench ...`` through the core command (the entry-point plugin) on tiny files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ripplemem.cli.main import app
from ripplemem.read.asso.weights import save_weights
from ripplemem.training.fit_weights import fit_signal_weights
from ripplemem.training.gold_questions import iter_gold

from .synthetic_locomo import tiny_locomo


def _ok(runner: CliRunner, *args: str):
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result


def _fails(runner: CliRunner, *args: str):
    result = runner.invoke(app, list(args))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    return result


@pytest.fixture
def locomo(tmp_path: Path) -> Path:
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps([tiny_locomo()]), encoding="utf-8")
    return path


def test_the_plugin_and_the_console_script_are_one_app() -> None:
    from importlib.metadata import entry_points

    from ripplemem_bench.cli import bench_app

    found = [e for e in entry_points(group="ripplemem.cli") if e.name == "bench"]
    assert found and found[0].load() is bench_app
    scripts = [e for e in entry_points(group="console_scripts") if e.name == "ripplemem-bench"]
    assert scripts and scripts[0].value == "ripplemem_bench.cli:main"


def test_bench_locomo_writes_json(runner: CliRunner, tmp_path: Path) -> None:
    data = tmp_path / "tiny_locomo.json"
    data.write_text(json.dumps([tiny_locomo()]), encoding="utf-8")
    out_json, out_md = tmp_path / "out" / "r.json", tmp_path / "r.md"
    result = _ok(runner, "bench", "locomo", str(data), "--recipes", "bm25,dense",
                 "--json", str(out_json), "--markdown", str(out_md))
    assert "recall@30" in result.output
    payload = json.loads(out_json.read_text(encoding="utf-8"))
    assert payload["dataset"] == "locomo" and set(payload["recipes"]) == {"bm25", "dense"}
    assert payload["questions"] == 2 and payload["store"] == "sqlite"
    assert "| recipe |" in out_md.read_text(encoding="utf-8")
    assert "--store" in _fails(runner, "bench", "locomo", str(data), "--store", "redis").output
    assert "no recipe named" in _fails(runner, "bench", "locomo", str(data), "--recipes", "zzz").output


@pytest.mark.slow
def test_bench_budget_is_in_tokens_and_k_in_items(runner: CliRunner, tmp_path: Path) -> None:
    data = tmp_path / "tiny_locomo.json"
    data.write_text(json.dumps([tiny_locomo()]), encoding="utf-8")
    runs = {}
    for name, flags in {"budget": ["--budget", "12"], "alias": ["--token-budget", "12"],
                        "k": ["--k", "1"], "plain": []}.items():
        out = tmp_path / f"{name}.json"
        _ok(runner, "bench", "locomo", str(data), "--recipes", "bm25", "--json", str(out), *flags)
        runs[name] = json.loads(out.read_text(encoding="utf-8"))
    for name in ("budget", "alias"):
        assert runs[name]["token_budget"] == 12
        metrics = runs[name]["recipes"]["bm25"]["metrics"]
        assert 0 < metrics["context_tokens@budget"] <= 12
    assert runs["k"]["token_budget"] is None
    assert runs["k"]["recipes"]["bm25"]["metrics"]["units_returned"] == 1  # K, not tokens
    assert runs["plain"]["recipes"]["bm25"]["metrics"]["units_returned"] > 1


def test_weights_fitted_on_the_bench_questions_are_refused(
    runner: CliRunner, locomo: Path, tmp_path: Path
) -> None:
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


def test_a_suite_of_the_other_kind_is_named_with_the_command_that_reads_it(
    runner: CliRunner, tmp_path: Path
) -> None:
    data = Path(__file__).parents[2] / "data"
    times, updates = data / "times_dev3.json", data / "updates_small.json"
    for command, path, said in (
        ("updates", times, (f"is a time-expression suite, not an update suite (it has 'cases', not "
                           f"'conversations'); run it with: ripplemem bench times {times}")),
        ("times", updates, (f"is an update suite, not a time-expression suite (it has 'conversations', "
                           f"not 'cases'); run it with: ripplemem bench updates {updates}")),
    ):
        result = _fails(runner, "bench", command, str(path), "--split", "all")
        assert _flat(f"error: {path} {said}") == _flat(result.output), result.output
    broken = tmp_path / "broken.json"
    suite = json.loads(updates.read_text(encoding="utf-8"))
    suite["conversations"][1]["sessions"][0]["time"] = "soon"
    broken.write_text(json.dumps(suite), encoding="utf-8")
    result = _fails(runner, "bench", "updates", str(broken))
    assert _flat(f"{broken} is not an update suite: conversations.1.sessions.0.time: ") in _flat(result.output)
    assert "␊" not in result.output and "pydantic" not in result.output
    broken.write_text("{not json", encoding="utf-8")
    result = _fails(runner, "bench", "times", str(broken))
    assert _flat(f"{broken} is not JSON (Expecting property name enclosed in double quotes at line 1, "
                 "column 2)") in _flat(result.output)


def _flat(text: str) -> str:
    """``text`` without white space: the terminal wraps a long line anywhere."""
    return "".join(text.split())
