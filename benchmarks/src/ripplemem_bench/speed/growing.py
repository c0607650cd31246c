"""Parts 1, 2 and 4 of ``bench speed``: one store grown through the sizes, measured at each.

At each size: the insert window and segment (:class:`~ripplemem_bench.speed.growth.Growth`),
memory, file size and the dense index, the searches per recipe
(:class:`~ripplemem_bench.speed.search.Searcher`) and the probe conversations
(:class:`~ripplemem_bench.speed.probe.Probe`). See :mod:`ripplemem_bench.speed.run`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ripplemem_bench.measure import Progress, TimedStore
from ripplemem_bench.measure import file_mb as _file_mb
from ripplemem_bench.measure import loadavg as _loadavg
from ripplemem_bench.measure import report_progress as _report
from ripplemem_bench.measure import rss_now_mb as _rss_now_mb
from ripplemem_bench.measure import rss_peak_mb as _rss_peak_mb
from ripplemem_bench.results.growth import CurvePoint, DenseIndex, SizeRow
from ripplemem_bench.speed.growth import Growth, PoolVectors
from ripplemem_bench.speed.probe import Probe
from ripplemem_bench.speed.search import NAMESPACE, Searcher
from ripplemem_bench.speed.synthetic import SyntheticMemories

if TYPE_CHECKING:
    from ripplemem.providers import Embedder
    from ripplemem.records import Conversation
    from ripplemem_bench.speed.run import Plan

__all__ = ["Checkpoint", "grow_and_search"]

#: called after each size with the rows so far and the insert curve
Checkpoint = Callable[[list[SizeRow], list[CurvePoint]], None]


@dataclass(slots=True)
class _Instruments:
    """What measures one growing store: its growth, the searches, the probe."""

    store: Any
    path: Path
    growth: Growth
    search: Searcher
    probe: Probe | None


def _instruments(
    plan: Plan,
    store: Any,
    path: Path,
    memories: SyntheticMemories,
    vectors: PoolVectors,
    embedder: Embedder,
    probe: tuple[str, list[Conversation]] | None,
) -> _Instruments:
    """The linker gets the write pipeline's settings, with the semantic edge threshold resolved
    for ``embedder`` exactly as :class:`~ripplemem.write.pipeline.WritePipeline` does; the units
    are parsed as the write pipeline parses them, by a statement reader of their own (the
    searches' reader reads their kept parses)."""
    from ripplemem import WriteSettings
    from ripplemem.statements import StatementReader
    from ripplemem.statements.kept import KeptParses
    from ripplemem.write.entities import EntityRecognizer
    from ripplemem.write.link import Linker
    from ripplemem.write.pipeline import resolve_thresholds

    store.check_embedder(embedder.name, embedder.dim)
    timed = TimedStore(store)
    linker = Linker(timed, resolve_thresholds(WriteSettings(), embedder))
    recognizer = EntityRecognizer()
    statements = StatementReader(recognizer.parse, kept=KeptParses(store.get_parses, recognizer))
    return _Instruments(
        store,
        path,
        Growth(timed, linker, memories, vectors, plan.batch, statements),
        Searcher(store, embedder, memories, list(plan.recipes)),
        None if probe is None else Probe(store, embedder, NAMESPACE, probe[1], probe[0]),
    )


def _measure(
    plan: Plan, tools: _Instruments, size: int, previous: int, progress: Progress | None
) -> SizeRow:
    """Everything measured at one size: insert window, memory, searches, the probe."""
    stats = getattr(tools.store, "index_stats", None)
    row = SizeRow(
        units=size,
        **dict(tools.growth.window(size, plan.window)),
        segment=tools.growth.segment(size, previous),
        file_mb=_file_mb(tools.path) if plan.store == "sqlite" else None,
        rss_peak_mb=_rss_peak_mb(),
        rss_mb=_rss_now_mb(),
        dense_index=DenseIndex.model_validate(stats(NAMESPACE)) if callable(stats) else None,
    )
    _report(progress, f"searching {size:,} units", 0, plan.queries * len(plan.recipes))
    row.search, row.search_examples = tools.search.run(size, plan.queries, plan.seed, progress)
    row.rss_peak_mb_after_search = _rss_peak_mb()
    if tools.probe is not None:
        row.probe = tools.probe.run(size, progress)
    row.loadavg = _loadavg()
    return row


def grow_and_search(
    plan: Plan,
    memories: SyntheticMemories,
    vectors: PoolVectors,
    embedder: Embedder,
    folder: Path,
    *,
    progress: Progress | None = None,
    checkpoint: Checkpoint | None = None,
    deadline: float | None = None,
    probe: tuple[str, list[Conversation]] | None = None,
) -> tuple[list[SizeRow], list[CurvePoint]]:
    """Grow one store through ``plan.sizes``; a row per size reached, and the insert curve."""
    from ripplemem.stores import open_store

    path = folder / "speed.db"
    url = plan.store if "://" in plan.store else None  # an empty store given by URL
    store = open_store(path if plan.store == "sqlite" else url)  # None: in memory
    rows: list[SizeRow] = []
    try:
        tools = _instruments(plan, store, path, memories, vectors, embedder, probe)
        previous = 0
        for size in plan.sizes:
            tools.growth.grow_to(size, progress, deadline)
            stopped, size = tools.growth.size < size, tools.growth.size
            if size <= previous:
                break
            rows.append(_measure(plan, tools, size, previous, progress))
            if stopped:
                rows[-1].stopped_early = True
            previous = size
            if checkpoint is not None:
                checkpoint(rows, tools.growth.curve([r.units for r in rows], plan.window))
            if stopped:
                break
        return rows, tools.growth.curve([r.units for r in rows], plan.window)
    finally:
        store.close()
