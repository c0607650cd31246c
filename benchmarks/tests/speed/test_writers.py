"""``bench writers``: the four layouts of the same adds, in real writer processes on SQLite."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ripplemem.errors import InvalidInputError
from ripplemem_bench.speed.writers import run_writers_bench

from ..cli.synthetic_locomo import tiny_locomo

pytestmark = pytest.mark.slow


def _two_conversations(tmp_path: Path) -> Path:
    """Two conversations with no utterance in common (one namespace would merge repeats)."""
    first, second = tiny_locomo(), tiny_locomo()
    second["sample_id"] = "conv-other"
    for key in ("session_1", "session_2"):
        for turn in second["conversation"][key]:
            turn["text"] = f"On day {turn['dia_id']} Iva and Rui walked through Graz: {turn['text']}"
    path = tmp_path / "two.json"
    path.write_text(json.dumps([first, second]), encoding="utf-8")
    return path


def test_every_layout_writes_the_same_units(tmp_path: Path) -> None:
    result = run_writers_bench(_two_conversations(tmp_path), stores=["sqlite"], writers=2)
    assert result.input.to_json() == {"conversations": 2, "adds": 4, "turns": 10}
    rows = result.backends["sqlite"]
    assert [(r.processes, r.namespaces) for r in rows] == [(1, 2), (2, 2), (1, 1), (2, 1)]
    assert rows[1].layout == "2 writers, a namespace each"
    assert len({r.units for r in rows}) == 1 and rows[0].units > 0
    assert all(r.units_per_s == pytest.approx(r.units / r.wall_s) for r in rows)


def test_more_writers_than_conversations_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="2 conversations; 3 writers"):
        run_writers_bench(_two_conversations(tmp_path), writers=3)
    with pytest.raises(InvalidInputError, match="store"):
        run_writers_bench(_two_conversations(tmp_path), stores=["mysql"], writers=2)
