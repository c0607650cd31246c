"""The AssoMem speed helpers produce sane numbers (what they measure, not how fast)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from typer.testing import CliRunner

from ripplemem.cli.main import app
from ripplemem.stores.memory import InMemoryStore
from ripplemem_bench.speed.asso import clue_update_speed, ppr_speed, synthetic_subgraph


def test_the_synthetic_subgraph_is_symmetric_with_zero_teleport_on_clues() -> None:
    adjacency, teleport = synthetic_subgraph(200, 5, 4, np.random.default_rng(1))
    assert adjacency.shape == (205, 205)
    assert abs(adjacency - adjacency.T).max() < 1e-12
    assert np.all(teleport[200:] == 0) and adjacency[:200, 200:].nnz >= 200  # each to a clue


def test_ppr_speed_reports_its_graph() -> None:
    result = ppr_speed(nodes=300, clues=4, repeats=3)
    assert result.nodes == 304 and result.edges > 300 and result.repeats == 3
    assert 0 < result.ppr_ms_p50 <= result.ppr_ms_p95


def test_clue_update_speed_grows_the_store_and_the_graph() -> None:
    store = InMemoryStore()
    rows = clue_update_speed(store, [40, 120], topics=3, probes=2)
    assert [row.units for row in rows] == [80, 160]  # grown to each size, plus two probe sessions of 20
    assert all(row.update_ms_p50 > 0 for row in rows)
    assert 1 <= store.clues.clue_count("speed") <= 10  # 3 topics: sessions merge


def test_the_command_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "asso.json"
    result = CliRunner().invoke(
        app, ["bench", "asso-speed", "--nodes", "100", "--repeats", "2", "--sizes", "40",
              "--json", str(out)],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["ppr"]["nodes"] == 110 and data["updates"][0]["units"] == 140  # 40 + 5 probe sessions of 20
