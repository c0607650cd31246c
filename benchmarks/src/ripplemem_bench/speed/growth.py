"""Part 1 of the speed benchmark: one store grown batch by batch, each batch timed.

:class:`PoolVectors` gives every synthetic unit a vector by one process, whatever its index: a
noisy copy (or mix) of real embeddings of a pool of sentences of the unit's activity. The pool
is only the source: no unit keeps a pool vector as it is, so the stream is stationary and the
cost at 1k and at 100k units is measured on the same kind of data (noisy copies have many more
near neighbours than the real embeddings they come from, so mixing the two would measure other
data at each size).

:class:`Growth` inserts batches exactly as the write pipeline stores embedded and parsed units
(``add_units`` and ``add_parses``, then ``Linker.link``) and keeps each batch's wall, CPU,
per-store-call and HNSW-insert time; :meth:`Growth.window` turns the batches before a size into
per-unit costs. The parse, like the embedding, is model work done before the timed insert (the
probe's ``add`` times both).
See :mod:`ripplemem_bench.speed.run` for the whole benchmark.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ripplemem_bench.measure import Progress, TimedStore
from ripplemem_bench.measure import percentile as _percentile
from ripplemem_bench.measure import report_progress as _report
from ripplemem_bench.results.growth import CurvePoint, Segment, Window
from ripplemem_bench.speed.search import NAMESPACE
from ripplemem_bench.speed.synthetic import SyntheticMemories, SyntheticMemory

if TYPE_CHECKING:
    from ripplemem.providers import Embedder
    from ripplemem.statements import StatementReader
    from ripplemem.write.link import Linker


def vectors_note(pool: int, noise: float, mix: bool) -> str:
    source = (
        "a mix w*a + (1-w)*b (w uniform in 0.5..1, re-normalised) of two pool sentences a, b of "
        "the same activity"
        if mix
        else "the vector of a pool sentence of the same activity"
    )
    return (
        f"pool of {pool} real embeddings + noise: every unit, whatever its index, gets {source} "
        f"plus Gaussian noise of norm {noise}, re-normalised (a stationary stream: the pool is "
        "only the source, no unit keeps a pool vector as it is)"
    )


@dataclass(slots=True)
class PoolVectors:
    """Real embeddings of the first ``pool`` units' sentences; every unit gets a noisy copy of them.

    The vector of unit ``i`` depends only on ``(seed, i)`` and the unit's activity: units are
    rebuilt by index, and unit 10 and unit 90,000 are drawn the same way.
    """

    vectors: np.ndarray
    by_topic: dict[int, list[int]]
    noise: float
    seed: int
    seconds: float
    mix: bool = False

    @classmethod
    def build(
        cls,
        memories: SyntheticMemories,
        embedder: Embedder,
        pool: int,
        noise: float,
        seed: int,
        progress: Progress | None,
        *,
        mix: bool = False,
    ) -> PoolVectors:
        _report(progress, f"embedding a pool of {pool} sentences", 0, pool)
        items = memories.take(0, pool)
        embedder.embed([items[0].unit.restatement])  # load the model outside the clock
        started = time.perf_counter()
        vectors = np.asarray(embedder.embed([m.unit.restatement for m in items]), dtype=np.float32)
        seconds = time.perf_counter() - started
        return cls.of_pool(vectors, memories, noise, seed, seconds=seconds, mix=mix)

    @classmethod
    def of_pool(
        cls,
        vectors: np.ndarray,
        memories: SyntheticMemories,
        noise: float,
        seed: int,
        *,
        seconds: float = 0.0,
        mix: bool = False,
    ) -> PoolVectors:
        """Pool rows ``i`` are the vectors of units ``i`` of ``memories`` (grouped by activity)."""
        by_topic: dict[int, list[int]] = {}
        for index, item in enumerate(memories.take(0, len(vectors))):
            by_topic.setdefault(item.topic, []).append(index)
        return cls(vectors, by_topic, noise, seed, seconds, mix)

    def vector(self, index: int, memory: SyntheticMemory) -> np.ndarray:
        rng = np.random.default_rng((self.seed, index))
        choices = self.by_topic.get(memory.topic) or range(len(self.vectors))
        base = self.vectors[choices[int(rng.integers(len(choices)))]]
        if self.mix:  # a point between two sentences of the activity, not a copy of one
            other = self.vectors[choices[int(rng.integers(len(choices)))]]
            weight = np.float32(rng.uniform(0.5, 1.0))
            base = weight * base + (1 - weight) * other
            base = base / max(float(np.linalg.norm(base)), 1e-12)
        jitter = rng.standard_normal(base.shape[0]).astype(np.float32)
        jitter *= self.noise / max(float(np.linalg.norm(jitter)), 1e-12)
        vector = base + jitter
        return (vector / np.linalg.norm(vector)).astype(np.float32)


@dataclass(slots=True)
class BatchTiming:
    end: int  # units in the store after this batch
    units: int
    add_s: float
    link_s: float
    edges: int
    evicted: int
    cpu_s: float  # CPU time of this process (all its threads) over add + link
    calls: dict[str, float]  # seconds per store method during this batch (add and link)
    counts: dict[str, int]  # calls per store method during this batch
    graph_s: float = 0.0  # of add_s: inserting into the HNSW graph (it grows from 1k vectors)
    candidates: int = 0  # candidates the linker looked at (dense hits + cue pools)


@dataclass(slots=True)
class Growth:
    """Inserts batches into the store and keeps each batch's timing, per store method too."""

    store: TimedStore
    linker: Linker
    memories: SyntheticMemories
    vectors: PoolVectors
    batch: int
    statements: StatementReader | None = None  # the units' parses (None: kept none)
    size: int = 0
    timings: list[BatchTiming] = field(default_factory=list)

    def grow_to(
        self, target: int, progress: Progress | None, deadline: float | None = None
    ) -> None:
        while self.size < target:
            if deadline is not None and self.size % 10_000 == 0 and time.monotonic() > deadline:
                return
            stop = min(self.size + self.batch, target)
            units = [
                m.unit.with_vector(self.vectors.vector(i, m))
                for i, m in zip(range(self.size, stop), self.memories.take(self.size, stop))
            ]
            parses = self.statements.parses(units) if self.statements is not None else {}
            seconds, counts = dict(self.store.seconds), dict(self.store.counts)
            graph = self._graph_seconds()
            cpu = time.process_time()
            t0 = time.perf_counter()
            self.store.add_units(units)
            if parses:
                self.store.add_parses(NAMESPACE, parses)
            t1 = time.perf_counter()
            report = self.linker.link(units)
            t2 = time.perf_counter()
            self.timings.append(
                BatchTiming(
                    end=stop,
                    units=len(units),
                    add_s=t1 - t0,
                    link_s=t2 - t1,
                    edges=report.added,
                    evicted=report.evicted,
                    cpu_s=time.process_time() - cpu,
                    calls={k: v - seconds.get(k, 0.0) for k, v in self.store.seconds.items()},
                    counts={k: v - counts.get(k, 0) for k, v in self.store.counts.items()},
                    graph_s=max(0.0, self._graph_seconds() - graph),  # 0 if reloaded
                    candidates=report.candidates,
                )
            )
            self.size = stop
            if len(self.timings) % 20 == 0 or stop == target:
                _report(progress, f"inserting up to {target:,} units", stop, target)

    def _graph_seconds(self) -> float:
        """The store's HNSW insert time so far (read past the timing wrapper: not a store call)."""
        stats = getattr(getattr(self.store, "_inner", self.store), "index_stats", None)
        return float(stats(NAMESPACE).get("graph_add_s", 0.0)) if callable(stats) else 0.0

    def window(self, size: int, window: int) -> Window:
        """Per-unit cost over the ``window`` units (at most half the size) before ``size``."""
        span = min(window, max(self.batch, size // 2))
        timed = [t for t in self.timings if size - span < t.end <= size]
        units = max(1, sum(t.units for t in timed))
        add, link = _per_unit_ms(timed, "add_s"), _per_unit_ms(timed, "link_s")
        per_batch = [(t.add_s + t.link_s) * 1000 / t.units for t in timed]
        calls = _calls_per_unit_ms(timed)
        return Window(
            window_units=sum(t.units for t in timed),
            add_ms_per_unit=add,
            link_ms_per_unit=link,
            graph_ms_per_unit=_per_unit_ms(timed, "graph_s"),
            insert_ms_per_unit=add + link,
            insert_ms_per_unit_median_batch=_percentile(per_batch, 50),
            insert_cpu_ms_per_unit=_per_unit_ms(timed, "cpu_s"),
            edges_per_unit=sum(t.edges for t in timed) / units,
            evictions_per_unit=sum(t.evicted for t in timed) / units,
            candidates_per_unit=sum(t.candidates for t in timed) / units,
            slowest_batch_ms=max((t.add_s + t.link_s for t in timed), default=0.0) * 1000,
            store_ms_per_unit=calls,
            store_calls_per_unit={
                name: sum(t.counts.get(name, 0) for t in timed) / units for name in calls
            },
        )

    def segment(self, size: int, previous: int) -> Segment:
        """Every batch since the previous size, one-off work (the HNSW build) included."""
        segment = [t for t in self.timings if previous < t.end <= size]
        return Segment(
            start=previous,
            units=sum(t.units for t in segment),
            seconds=sum(t.add_s + t.link_s for t in segment),
            add_ms_per_unit=_per_unit_ms(segment, "add_s"),
            link_ms_per_unit=_per_unit_ms(segment, "link_s"),
            slowest_batch_ms=max((t.add_s + t.link_s for t in segment), default=0.0) * 1000,
        )

    def curve(self, checkpoints: Sequence[int], window: int) -> list[CurvePoint]:
        """The window cost at 1k, 2k, 3k, 5k, 7k, 10k, 20k, ... and at every checkpoint."""
        steps = {m * 10**e for e in range(3, 9) for m in (1, 2, 3, 5, 7)}
        points = sorted({p for p in steps if p <= self.size} | set(checkpoints))
        return [CurvePoint(units=p, **dict(self.window(p, window))) for p in points]


def _per_unit_ms(timings: list[BatchTiming], attribute: str) -> float:
    units = sum(t.units for t in timings)
    return sum(getattr(t, attribute) for t in timings) * 1000 / units if units else 0.0


def _calls_per_unit_ms(timings: list[BatchTiming]) -> dict[str, float]:
    units = sum(t.units for t in timings)
    totals: dict[str, float] = {}
    for timing in timings:
        for name, seconds in timing.calls.items():
            totals[name] = totals.get(name, 0.0) + seconds
    ranked = sorted(totals.items(), key=lambda item: -item[1])
    return (
        {name: seconds * 1000 / units for name, seconds in ranked if seconds > 0} if units else {}
    )
