"""Updates without a session time made at once by several processes (one SQLite file, or one
PostgreSQL store) are said a second apart each: the "one second after the newest memory" time is
read again in the namespace's write block, so no two versions share a time and none is valid for
no time at all."""

from __future__ import annotations

import multiprocessing
import traceback
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from ripplemem import Memory, Settings

WRITERS = 3
USER = "race"


def _settings(url: str) -> Settings:
    return Settings(store=url, extractor="deterministic", planner="deterministic")


def _update(url: str, old_id: str, city: str, barrier: Any, results: Any) -> None:  # a child process
    try:
        with Memory(_settings(url)) as memory:
            barrier.wait(timeout=120)  # the models load after the time is read: a wide window
            memory.update(old_id, f"I work in {city} now.", user_id=USER)
        results.put(None)
    except BaseException:  # noqa: BLE001 - reported to the parent
        results.put(traceback.format_exc())


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_concurrent_updates_are_said_a_second_apart(
    backend: str, tmp_path: Path, postgres_store_url: Callable[[str], str]
) -> None:
    url = postgres_store_url("race") if backend == "postgresql" else str(tmp_path / "race.db")
    start = datetime(2024, 1, 1, 9, 0)
    with Memory(_settings(url)) as memory:
        old = memory.add("I work in Leeds.", user_id=USER, session_time=start).units[0]
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(WRITERS), context.Queue()
    children = [
        context.Process(target=_update, args=(url, old.id, city, barrier, results))
        for city in ("York", "Bath", "Hull")
    ]
    for child in children:
        child.start()
    try:
        errors = [report for report in (results.get(timeout=300) for _ in children) if report]
    finally:
        for child in children:
            child.join(timeout=30)
            if child.is_alive():
                child.kill()
    assert errors == [], errors[0]
    with Memory(_settings(url)) as memory:
        history = memory.history(old.id, user_id=USER)
    times = [version.unit.session_time for version in history]
    assert times == [start + timedelta(seconds=n) for n in range(WRITERS + 1)], times
    assert [v.superseded_by for v in history[:-1]] == [v.unit.id for v in history[1:]]
