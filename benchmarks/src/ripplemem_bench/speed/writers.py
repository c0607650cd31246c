"""``ripplemem bench writers``: ingest throughput of several writer processes against one.

The input is the first ``writers`` conversations of a LoCoMo file, each session one
``Memory.add`` (deterministic extractor and planner, the default embedder). Four layouts of the
same adds, each in fresh processes that load their models first and then start together at a
barrier, so model loading is not timed:

* ``1 writer, a namespace per conversation``: one process adds every conversation into a
  namespace of its own, one after the other (the baseline of the next line).
* ``N writers, a namespace each``: process ``i`` adds conversation ``i`` into namespace ``i``.
* ``1 writer, one namespace``: one process adds every conversation into one namespace.
* ``N writers, one namespace``: process ``i`` adds conversation ``i`` into the shared namespace.
  Adds of one namespace take turns for their write (the store's per-namespace lock); extraction
  and embedding, done before the write, run at once.

Throughput = units written / wall seconds from the barrier to the last add's end. After each
layout the store must hold exactly the units the adds reported (nothing lost or doubled), and its
namespaces are deleted again. The store: a temporary SQLite file, or a store URL
(``postgresql://...``) whose ``writers/...`` namespaces are emptied before and after use.
"""

from __future__ import annotations

import multiprocessing
import tempfile
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ripplemem import Conversation
from ripplemem.errors import InvalidInputError, RippleMemError
from ripplemem_bench.measure import Progress, git_commit
from ripplemem_bench.measure import loadavg as _loadavg
from ripplemem_bench.measure import machine_info as _machine
from ripplemem_bench.measure import report_progress as _report
from ripplemem_bench.results.base import Machine
from ripplemem_bench.results.writers import LayoutRun, WritersInput, WritersResult, WritersSettings

__all__ = ["LAYOUTS", "run_writers_bench"]

PREFIX = "writers"
#: name -> (processes, one shared namespace?)
LAYOUTS: dict[str, tuple[bool, bool]] = {
    "1 writer, a namespace per conversation": (False, False),
    "{n} writers, a namespace each": (True, False),
    "1 writer, one namespace": (False, True),
    "{n} writers, one namespace": (True, True),
}


@dataclass(slots=True)
class _WriterReport:
    """What one writer process did, sent back to the parent (times on the system-wide clock)."""

    units: int = 0
    edges: int = 0
    add_s: list[float] = field(default_factory=lambda: [0.0])
    start: float = 0.0
    end: float = 0.0
    error: str | None = None


@dataclass(frozen=True, slots=True)
class _Job:
    """What one writer process adds: (namespace, conversation index) in order."""

    adds: tuple[tuple[str, int], ...]


def run_writers_bench(
    locomo: Path,
    *,
    stores: Sequence[str] = ("sqlite",),
    writers: int = 4,
    sessions: int | None = None,
    progress: Progress | None = None,
) -> WritersResult:
    """Run the four layouts on each of ``stores``; see the module docstring."""
    from ripplemem import Settings

    conversations = _conversations(locomo, stores, writers, sessions)
    load_before = _loadavg()
    backends: dict[str, list[LayoutRun]] = {}
    steps, done = len(stores) * len(LAYOUTS), 0
    for store in stores:
        backend = store.split("://", 1)[0] if "://" in store else store
        with tempfile.TemporaryDirectory(prefix="ripplemem-writers-") as folder:
            target = str(Path(folder) / "writers.db") if store == "sqlite" else store
            backends[backend] = []
            for name, (parallel, shared) in LAYOUTS.items():
                label = name.format(n=writers)
                _report(progress, f"{backend}: {label}", done, steps)
                backends[backend].append(_run_layout(label, target, conversations, parallel, shared))
                done += 1
    _report(progress, "done", steps, steps)
    return WritersResult(
        benchmark="writers",
        date=datetime.now(UTC).isoformat(timespec="seconds"),
        commit=git_commit(),
        llm=None,
        embedder=Settings().embedder,
        machine=Machine.model_validate(
            {**_machine(), "loadavg_start": load_before, "loadavg_end": _loadavg()}
        ),
        settings=WritersSettings(writers=writers, file=locomo.name,
                                 sessions_per_conversation=sessions, extractor="deterministic",
                                 planner="deterministic"),
        input=WritersInput(
            conversations=len(conversations),
            adds=sum(len(c.sessions) for c in conversations),
            turns=sum(len(s.turns) for c in conversations for s in c.sessions),
        ),
        backends=backends,
    )


def _conversations(
    locomo: Path, stores: Sequence[str], writers: int, sessions: int | None
) -> list[Conversation]:
    """The first ``writers`` conversations of the file (their first ``sessions`` sessions)."""
    from ripplemem.datasets import load_locomo

    if writers < 2:
        raise InvalidInputError(f"writers must be 2 or more, got {writers}")
    if sessions is not None and sessions < 1:
        raise InvalidInputError(f"sessions must be 1 or more, got {sessions}")
    for store in stores:
        if store != "sqlite" and "://" not in store:
            raise InvalidInputError(f"a store must be 'sqlite' or a store URL, not {store!r}")
    samples = load_locomo(locomo)
    if len(samples) < writers:
        raise InvalidInputError(
            f"{locomo} holds {len(samples)} conversations; {writers} writers need one each"
        )
    conversations = [sample.conversation for sample in samples[:writers]]
    if sessions is None:
        return conversations
    return [Conversation(c.conversation_id, c.sessions[:sessions], c.speakers) for c in conversations]


def _jobs(count: int, parallel: bool, shared: bool) -> list[_Job]:
    adds = [(f"{PREFIX}/shared" if shared else f"{PREFIX}/{i}", i) for i in range(count)]
    return [_Job((add,)) for add in adds] if parallel else [_Job(tuple(adds))]


def _run_layout(
    label: str, target: str, conversations: list[Conversation], parallel: bool, shared: bool
) -> LayoutRun:
    from ripplemem import Memory, Settings

    jobs = _jobs(len(conversations), parallel, shared)
    namespaces = sorted({namespace for job in jobs for namespace, _ in job.adds})
    settings = Settings(store=target, extractor="deterministic", planner="deterministic")
    with Memory(settings) as memory:
        for namespace in namespaces:
            memory.delete_all(namespace=namespace)
    reports = _run_writers(target, jobs, conversations)
    units = sum(report.units for report in reports)
    wall = max(r.end for r in reports) - min(r.start for r in reports)
    with Memory(settings) as memory:
        stored = sum(memory.delete_all(namespace=namespace) for namespace in namespaces)
    if stored != units:
        raise RippleMemError(f"the adds reported {units} units but the store held {stored}")
    return LayoutRun(
        layout=label,
        processes=len(jobs),
        namespaces=len(namespaces),
        units=units,
        edges=sum(report.edges for report in reports),
        wall_s=wall,
        units_per_s=units / wall,
        add_s_max=max(max(report.add_s) for report in reports),
    )


def _run_writers(
    target: str, jobs: list[_Job], conversations: list[Conversation]
) -> list[_WriterReport]:
    """One process per job, started together at a barrier; their reports."""
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(len(jobs)), context.Queue()
    processes = [
        context.Process(target=_write, args=(target, job, conversations, barrier, results))
        for job in jobs
    ]
    for process in processes:
        process.start()
    reports = [results.get(timeout=3600) for _ in processes]
    for process in processes:
        process.join(timeout=60)
    errors = [report.error for report in reports if report.error]
    if errors:
        raise RippleMemError(f"a writer failed:\n{errors[0]}")
    return reports


def _write(
    target: str, job: _Job, conversations: list[Conversation], barrier: Any, results: Any
) -> None:
    """One writer process: load the models, wait at the barrier, make the adds."""
    report = _WriterReport()
    try:
        from ripplemem import Memory, Settings
        from ripplemem.extensions import warm_up

        settings = Settings(store=target, extractor="deterministic", planner="deterministic")
        with Memory(settings) as memory:
            warm_up(memory)  # load the models before the start line
            barrier.wait(timeout=600)
            report.start = time.monotonic()  # system-wide clock: comparable across processes
            durations = []
            for namespace, index in job.adds:
                whole = conversations[index]
                for session in whole.sessions:
                    one = Conversation(whole.conversation_id, (session,), whole.speakers)
                    started = time.monotonic()
                    added = memory.add(one, namespace=namespace)
                    durations.append(time.monotonic() - started)
                    report.units += len(added.units)
                    report.edges += added.edges
            report.end = time.monotonic()
            report.add_s = durations
    except BaseException:  # noqa: BLE001 - reported to the parent, which raises it
        report.error = traceback.format_exc()
        barrier.abort()  # the others stop waiting for this one
    results.put(report)
