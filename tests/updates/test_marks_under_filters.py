"""A memory's supersession is a fact of the store, not of a search: search evidence carries
``superseded_by`` / ``valid_until`` whenever the store holds a successor, whatever the recipe and
even when the filter leaves the successor out (another metadata value); only a
``before`` bound, which asks what was said before that time, leaves out a successor said at or
after it. On every backend (memory://, a SQLite file, PostgreSQL) and through ``AsyncMemory``
(REST and MCP: tests/server/test_marks_under_filters.py)."""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path

import pytest

from ripplemem import AsyncMemory, Memory, Settings
from ripplemem.records import Recall

QUESTION = "Where do I work?"
#: a recipe of every kind: ripple with and without the supersession stage, the baselines, asso
RECIPES = ["ripple", "ripple-no-supersession", "hybrid", "bm25", "dense", "asso"]


@pytest.fixture
def memory(memory_on_every_backend: Memory) -> Memory:
    return memory_on_every_backend


def _marks(found: Recall) -> dict[str, tuple[str | None, datetime | None]]:
    return {e.unit.id: (e.superseded_by, e.valid_until) for e in found.evidence}


def _chain(memory: Memory) -> tuple[str, str]:
    """Acme (2024-01-01, metadata source=chat) updated by Beta (2024-06-01, source=email)."""
    old = memory.add("I work at Acme.", user_id="u", session_time="2024-01-01", metadata={"source": "chat"})
    new = memory.update(old.units[0].id, "I work at Beta.", user_id="u", session_time="2024-06-01",
                        metadata={"source": "email"})
    return old.units[0].id, new.units[0].id


def test_a_filter_that_leaves_the_successor_out_still_marks_the_old_memory(memory: Memory) -> None:
    old, new = _chain(memory)
    stale = (new, datetime(2024, 6, 1))
    for recipe in RECIPES:
        every = memory.search(QUESTION, user_id="u", recipe=recipe)
        assert _marks(every) == {old: stale, new: (None, None)}, recipe
        only_old = memory.search(QUESTION, user_id="u", recipe=recipe, filters={"source": "chat"})
        assert _marks(only_old) == {old: stale}, recipe
        # the successor is said before the bound but the metadata leaves it out
        both = {"source": "chat", "before": "2024-07-01"}
        assert _marks(memory.search(QUESTION, user_id="u", recipe=recipe, filters=both)) == {old: stale}
    # the JSON form says the same
    found = memory.search(QUESTION, user_id="u", filters={"source": "chat"}).to_json()["evidence"]
    assert [(e["superseded_by"], e["valid_until"]) for e in found] == [(new, "2024-06-01T00:00:00")]


def test_a_before_bound_asks_for_the_state_as_of_that_time(memory: Memory) -> None:
    old, new = _chain(memory)
    for recipe in RECIPES:
        then = memory.search(QUESTION, user_id="u", recipe=recipe, filters={"before": "2024-03-01"})
        assert _marks(then) == {old: (None, None)}, recipe  # Beta was said after the bound
        # the bound is exclusive, as the filter's: a successor said at it is not before it
        at = memory.search(QUESTION, user_id="u", recipe=recipe, filters={"before": "2024-06-01"})
        assert _marks(at) == {old: (None, None)}, recipe
        window = {"after": "2023-12-01", "before": "2024-05-01"}
        assert _marks(memory.search(QUESTION, user_id="u", recipe=recipe, filters=window)) == {old: (None, None)}
        later = memory.search(QUESTION, user_id="u", recipe=recipe, filters={"before": "2024-06-02"})
        assert _marks(later) == {old: (new, datetime(2024, 6, 1)), new: (None, None)}, recipe


def test_a_filter_marks_the_first_successor_as_history_does(memory: Memory) -> None:
    """A chain of three: the first memory is marked by the second, the second by the third,
    whichever of them the filter keeps; as ``history`` says."""
    a = memory.add("I live in Leeds.", user_id="c", session_time="2023-01-01", metadata={"n": 1}).units[0].id
    b = memory.update(a, "I live in York now.", user_id="c", session_time="2023-06-01", metadata={"n": 2}).units[0].id
    c = memory.update(b, "I live in Bath now.", user_id="c", session_time="2024-01-01", metadata={"n": 3}).units[0].id
    history = {v.unit.id: (v.superseded_by, v.valid_until) for v in memory.history(a, user_id="c")}
    for kept in ([1], [2], [1, 3], [1, 2]):
        found = memory.search("Where do I live?", user_id="c", filters={"n": kept})
        assert _marks(found) == {i: history[i] for i in _marks(found)}, kept
        assert len(found.evidence) == len(kept)
    assert history[a] == (b, datetime(2023, 6, 1)) and history[c] == (None, None)


def test_async_search_marks_the_same(embedder, tmp_path: Path) -> None:
    async def run() -> tuple[dict, str, str]:
        async with AsyncMemory(Settings(store=str(tmp_path / "a.db")), embedder=embedder) as memory:
            old = (await memory.add("I work at Acme.", user_id="u", session_time="2024-01-01",
                                    metadata={"source": "chat"})).units[0].id
            new = (await memory.update(old, "I work at Beta.", user_id="u", session_time="2024-06-01",
                                       metadata={"source": "email"})).units[0].id
            found = await memory.search(QUESTION, user_id="u", filters={"source": "chat"})
            return _marks(found), old, new

    marks, old, new = asyncio.run(run())
    assert marks == {old: (new, datetime(2024, 6, 1))}
