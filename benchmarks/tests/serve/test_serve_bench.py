"""``ripplemem bench serve`` end to end on a small store: a real server process, real clients."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ripplemem.cli.main import app
from ripplemem.stores import open_store
from ripplemem_bench.reports.docs import render_block
from ripplemem_bench.reports.overview import overview
from ripplemem_bench.results import ServeResult, load_result
from ripplemem_bench.serve.store import NAMESPACE


@pytest.mark.slow
def test_bench_serve_counts_searches_adds_and_checks_the_store(tmp_path: Path) -> None:
    out = tmp_path / "serve.json"
    result = CliRunner().invoke(app, [
        "bench", "serve", "--units", "120", "--clients", "3", "--seconds", "4",
        "--add-share", "0.3", "--data-dir", str(tmp_path / "data"), "--json", str(out),
    ])
    assert result.exit_code == 0, result.output
    run = json.loads(out.read_text(encoding="utf-8"))
    assert run["benchmark"] == "serve" and run["store"]["backend"] == "sqlite"
    assert run["store"]["units_before"] == 120 and not run["store"]["reused"]
    assert run["searches"] > 0 and run["searches_per_s"] > 0
    assert run["search_ms"]["p50"] <= run["search_ms"]["p99"]
    assert run["adds_acknowledged"] > 0 and run["errors"] == 0
    assert run["acknowledged_adds_missing"] == 0 and run["checks"]["every acknowledged add present"]
    assert run["server_exit_code"] in (0, -15)
    with open_store(str(tmp_path / "data" / "serve.db")) as store:  # kept for the next run
        sessions = {u.episode_id for u in store.list_units(NAMESPACE)}
        assert store.count(NAMESPACE) == run["store"]["units_after"] > 120
    assert sum(1 for s in sessions if s.startswith("load-")) >= run["adds_acknowledged"]
    typed = load_result(out)
    assert isinstance(typed, ServeResult) and typed.settings.search_processes is not None
    block = render_block("serve.json", typed)
    assert f"| {run['searches_per_s']:.1f} |" in block and "Checks: errors == 0: yes" in block
    listed = overview({"serve.json": typed}, {"serve.json": ("results/serve.json", None)})
    assert "service under load: 3 clients, sqlite" in listed


def test_bench_serve_refuses_unbounded_or_unshareable_runs(tmp_path: Path) -> None:
    runner = CliRunner()
    for args in (["--seconds", "601"], ["--clients", "65"], ["--store", "memory://"]):
        result = runner.invoke(app, ["bench", "serve", "--units", "10", *args])
        assert result.exit_code == 2, result.output
        assert "Traceback" not in result.output
