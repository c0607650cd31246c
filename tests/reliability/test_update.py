"""``update`` is one write block and idempotent: a kill between storing the new unit and linking
it leaves nothing, a retry of the same update stores nothing twice (as a repeated ``add``), and a
missing ``session_time`` comes from the namespace's newest memory, never the wall clock."""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from ripplemem import Memory
from ripplemem.errors import InvalidInputError
from ripplemem.settings import Settings

from .scenario import snapshot

CHILD = Path(__file__).with_name("update_child.py")
MOVES = [
    {"speaker": "Maya", "text": "I moved to Leeds last month, I love the flat."},
    {"speaker": "Tom", "text": "Leeds is great, enjoy it!"},
]


@pytest.fixture()
def store(tmp_path: Path, embedder):
    path = tmp_path / "memory.db"
    with Memory(Settings(store=str(path)), embedder=embedder) as memory:
        memory.add(MOVES, user_id="maya", session_time="2023-02-10T18:00:00")
        old = next(u for u in memory.list(user_id="maya") if "Leeds last month" in u.restatement)
    return path, old


def _supersedes(memory: Memory, unit_id: str) -> list[tuple[str, str]]:
    return [(e.src, e.dst) for e in memory.edges(unit_id, user_id="maya") if e.kind == "supersedes"]


def test_a_kill_between_the_new_unit_and_its_link_leaves_nothing(store, embedder):
    path, old = store
    with Memory(Settings(store=str(path)), embedder=embedder) as memory:
        before = snapshot(memory)
    # killed inside the add's write block, after the units are stored, before the supersedes edge
    child = subprocess.run(
        [sys.executable, str(CHILD), str(path), old.id, "I moved to Bristol.", "update_unit.<locals>.link"],
        check=False, capture_output=True, text=True, timeout=300,
    )
    assert child.returncode == -9, child.stderr[-2000:]
    with Memory(Settings(store=str(path)), embedder=embedder) as memory:
        assert snapshot(memory) == before  # rolled back: no unit, no edge, no clue
        first = memory.update(old.id, "I moved to Bristol.", user_id="maya")
        assert len(first.units) == 1 and first.skipped == 0
        new = first.units[0].id
        assert (new, old.id) in _supersedes(memory, old.id) or (old.id, new) in _supersedes(memory, old.id)
        assert [v.unit.id for v in memory.history(old.id, user_id="maya")] == [old.id, new]


def test_a_retried_update_is_a_no_op_like_a_repeated_add(store, embedder):
    path, old = store
    with Memory(Settings(store=str(path)), embedder=embedder) as memory:
        first = memory.update(old.id, "I moved to Bristol.", user_id="maya")
        after_first = snapshot(memory)
        again = memory.update(old.id, "I moved to Bristol.", user_id="maya")
        repeated_add = memory.add(MOVES, user_id="maya", session_time="2023-02-10T18:00:00")
        assert (again.units, again.skipped, again.edges) == ([], len(first.units), 0)
        assert (repeated_add.units, repeated_add.edges) == ([], 0)  # the same shape as add's
        assert snapshot(memory) == after_first
        links = [e for e in memory.edges(old.id, user_id="maya") if e.kind == "supersedes"]
        assert len(links) == 1  # one link, one new unit: not two of each
        assert memory.store.count("maya") == len(after_first["maya"]["units"])


def test_the_session_time_is_given_or_inherited_never_the_wall_clock(store, embedder):
    path, old = store
    with Memory(Settings(store=str(path)), embedder=embedder) as memory:
        given = memory.update(old.id, "I moved to York.", user_id="maya", session_time="2024-01-05")
        assert given.units[0].session_time == datetime(2024, 1, 5)
        # inherited: one second after the namespace's newest memory (York, 2024-01-05)
        inherited = memory.update(old.id, "I moved to Bath.", user_id="maya")
        assert inherited.units[0].session_time == datetime(2024, 1, 5) + timedelta(seconds=1)
        chain = [v.unit.id for v in memory.history(old.id, user_id="maya")]
        assert chain[-1] == inherited.units[0].id  # said last, so the current value
        with pytest.raises(InvalidInputError):
            memory.update(old.id, "", user_id="maya")
        with pytest.raises(InvalidInputError):
            memory.update(old.id, 42, user_id="maya")  # type: ignore[arg-type]
