"""An ``add`` is all or nothing: a child process adding a 70-turn conversation (two insert
batches) to a store that holds another is SIGKILLed at every stage boundary of ``add`` and at
random moments; the store is reopened, the conversation added again, and the result compared
with a clean ingest (units with their vectors, edges, clues, memberships, utterance links, and
the ripple and asso results of six questions)."""

from __future__ import annotations

import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ripplemem import Memory

from .scenario import TRIP, crash_conversation, difference, searches, settings, snapshot

CHILD = Path(__file__).with_name("crash_child.py")
#: (function, event, occurrence): the boundaries between the stages of ``add``
BOUNDARIES = [
    ("WritePipeline._prepare", "return", 1),  # model work done, nothing written
    ("SQLiteStore.add_units", "return", 1),  # batch 1's units stored, no edge, no clue
    ("Linker.link", "return", 1),  # batch 1 linked, no dialogue edge, no clue
    ("DialogueLinker.link", "return", 1),  # batch 1's dialogue edges, no clue
    ("ClueGraphBuilder.build", "return", 1),  # batch 1 complete, batch 2 not started
    ("SQLiteStore.add_units", "call", 2),  # batch 2 starting
    ("ClueGraphBuilder.build", "return", 2),  # everything written, not committed
    ("WritePipeline._ingest", "return", 1),  # committed, not yet returned to the caller
]
RANDOM_KILLS = 4
PARALLEL = 4


@pytest.fixture(scope="module")
def clean(tmp_path_factory, embedder):
    """The base store (one conversation), and a clean ingest of the crash conversation on it."""
    folder = tmp_path_factory.mktemp("crash")
    base = folder / "base.db"
    with Memory(settings(str(base)), embedder=embedder) as memory:
        memory.add(TRIP, session_time="2023-05-08T13:56", namespace="ns")
        base_units = memory.store.count("ns")
    shutil.copy(base, folder / "clean.db")
    with Memory(settings(str(folder / "clean.db")), embedder=embedder) as memory:
        started = time.perf_counter()
        result = memory.add(crash_conversation(), namespace="ns")
        seconds = time.perf_counter() - started
        assert len(result.units) > 64  # two insert batches
        yield folder, base_units, snapshot(memory), searches(memory, "ns"), seconds


def _run(folder: Path, runs: list[tuple[str, str, str, int]], seconds: float) -> dict[str, str]:
    """Start the children (``PARALLEL`` at a time); how each ended: killed or done."""
    ended: dict[str, str] = {}
    rng = random.Random(23)
    pending = list(runs)
    while pending:
        batch, pending = pending[:PARALLEL], pending[PARALLEL:]
        children = []
        for name, target, event, nth in batch:
            shutil.copy(folder / "base.db", folder / f"{name}.db")
            child = subprocess.Popen(
                [sys.executable, str(CHILD), str(folder / f"{name}.db"), target, event, str(nth)],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            )
            children.append((name, event, child))
        for name, event, child in children:
            assert child.stdout is not None
            assert child.stdout.readline().strip() == "ready", child.stderr.read() if child.stderr else ""
            if event == "random":  # the parent kills it at a random moment of the add
                time.sleep(rng.uniform(0.0, 2.0 * seconds))
                child.send_signal(signal.SIGKILL)
        for name, _, child in children:
            out, err = child.communicate(timeout=600)
            ended[name] = "done" if "done" in out else "killed"
            assert child.returncode in (0, -signal.SIGKILL), err[-2000:]
    return ended


@pytest.mark.slow  # processes killed at write boundaries
def test_a_killed_add_leaves_all_or_nothing_and_re_adding_gives_the_clean_store(clean, embedder):
    folder, base_units, clean_snapshot, clean_searches, seconds = clean
    full = len(clean_snapshot["ns"]["units"])
    runs = [(f"boundary{i}", *point) for i, point in enumerate(BOUNDARIES)]
    runs += [(f"random{i}", "-", "random", 0) for i in range(RANDOM_KILLS)]
    ended = _run(folder, runs, seconds)
    partial: dict[str, int] = {}
    for name, *_ in runs:
        with Memory(settings(str(folder / f"{name}.db")), embedder=embedder) as memory:
            units = memory.store.count("ns")
            if units not in (base_units, full):
                partial[name] = units
            memory.add(crash_conversation(), namespace="ns")  # re-adding repairs nothing: none needed
            assert (where := difference(clean_snapshot, snapshot(memory))) is None, f"{name}: {where}"
            assert (where := difference(clean_searches, searches(memory, "ns"))) is None, f"{name}: {where}"
    assert partial == {}, f"half-written adds: {partial}"
    assert ended["boundary0"] == "killed" and ended[f"boundary{len(BOUNDARIES) - 1}"] == "killed"
    print(f"\ncrash kills: {len(runs)} ({sum(v == 'killed' for v in ended.values())} killed mid-add), "
          f"partial stores: {len(partial)}, clean add {seconds:.1f} s")


@pytest.mark.slow  # three processes and four threads adding at once
def test_concurrent_adds_of_the_same_input_are_idempotent(clean, embedder):
    """Three processes and four threads (two sharing a Memory, two with their own) add the same
    conversation at once: no error, each unit stored once, the store a clean ingest makes."""
    folder, base_units, clean_snapshot, clean_searches, _ = clean
    full = len(clean_snapshot["ns"]["units"])
    shutil.copy(folder / "base.db", folder / "together.db")
    path = str(folder / "together.db")
    children = [
        subprocess.Popen([sys.executable, str(CHILD), path, "-", "random", "0"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(3)
    ]
    shared = Memory(settings(path), embedder=embedder)
    own = [Memory(settings(path), embedder=embedder) for _ in range(2)]
    results, errors = [], []

    def add(memory: Memory) -> None:
        try:
            results.append(memory.add(crash_conversation(), namespace="ns"))
        except Exception as error:  # noqa: BLE001 - the test reports any
            errors.append(error)

    threads = [threading.Thread(target=add, args=(m,)) for m in (shared, shared, *own)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for child in children:
        out, err = child.communicate(timeout=600)
        assert child.returncode == 0 and "done" in out, err[-2000:]
    assert errors == []
    assert sum(len(r.units) for r in results) <= full - base_units
    for memory in (shared, *own):
        memory.close()
    with Memory(settings(path), embedder=embedder) as memory:
        assert (where := difference(clean_snapshot, snapshot(memory))) is None, where
        assert (where := difference(clean_searches, searches(memory, "ns"))) is None, where
