"""The speed and scale benchmark: insert cost as a store grows, search latency, conversation ingest.

Speed targets live here (and in ``ripplemem bench speed``), never in timed tests. Three parts:

1. **Insert at scale.** One store (a temporary SQLite file by default) grows through ``sizes``
   with :mod:`ripplemem.eval.synthetic` units, in batches of ``batch`` units, exactly as the write
   pipeline stores embedded units: ``store.add_units(batch)`` then ``Linker.link(batch)``.
   Embedding 100k texts would dominate the run, so a *pool* of ``pool`` synthetic sentences is
   embedded once with the real embedder; every later unit gets the vector of a pool sentence of
   the same activity plus Gaussian noise (norm ``noise``), re-normalised. The embedder's own
   cost per unit is constant and reported apart (``embedder.units_per_s``, measured on
   ``embed_sample`` fresh sentences). At each size the per-unit cost of ``add_units`` and of
   ``link`` is measured over the window of units just before the checkpoint (``window`` units,
   at most half the size), plus the whole segment since the previous checkpoint (which includes
   one-off work such as building the HNSW graph), the file size and the peak RSS. Each window also
   splits the cost by store method (``store_ms_per_unit``: ``add_units``, and the linker's
   ``search_dense_many``, ``cue_candidates``, ``get_units``, ``neighbours``, ``add_edges`` ...; the
   rest of ``link`` is Python scoring) and counts the calls, so a growing cost points at the store
   call that grows. On a shared machine the wall-clock mean is noisy: the median batch and the
   process CPU time per unit are reported beside it.
   The same window cost at 1k, 2k, 3k, 5k, 7k, 10k, 20k, ... gives the shape of the curve
   (``insert_curve``).
2. **Search.** At each size, ``queries`` synthetic questions through the real
   :func:`ripplemem.read.pipeline.recall` (query embedding, entity recognition, deterministic
   planner; no LLM) with the ``ripple`` recipe, and the ``hybrid`` and ``dense`` baselines;
   a few warm-up queries first so model loading is not counted. p50 / p95 in ms.
3. **Conversation ingest** (optional ``locomo`` file). Each conversation goes through
   ``Memory.add`` with the deterministic extractor and planner into a fresh temporary store,
   after one warm-up conversation; seconds per conversation and where they went (embedding,
   each store call, and the rest: segmentation, extraction, time grounding, link scoring).

The result is a JSON-ready dict; ``targets`` compares it with the issue's goals.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from ripplemem.errors import InvalidInputError
from ripplemem.eval.measure import TimedStore as _TimedStore
from ripplemem.eval.measure import file_mb as _file_mb
from ripplemem.eval.measure import loadavg as _loadavg
from ripplemem.eval.measure import machine_info as _machine
from ripplemem.eval.measure import percentile as _percentile
from ripplemem.eval.measure import report_progress as _report
from ripplemem.eval.measure import rss_now_mb as _rss_now_mb
from ripplemem.eval.measure import rss_peak_mb as _rss_peak_mb
from ripplemem.eval.speed_ingest import locomo_ingest
from ripplemem.eval.speed_search import NAMESPACE, Searcher, embed_rate
from ripplemem.eval.speed_verdicts import TARGETS, flatness, targets
from ripplemem.eval.synthetic import SyntheticMemories, SyntheticMemory

if TYPE_CHECKING:
    from ripplemem.providers.base import Embedder
    from ripplemem.write.link import Linker

__all__ = ["DEFAULT_SIZES", "TARGETS", "run_speed_bench"]

Progress = Callable[[str, int, int | None], None]  # (description, done, total or None)
StoreKind = Literal["sqlite", "memory"]
DEFAULT_SIZES: tuple[int, ...] = (1_000, 10_000, 100_000)
SEARCH_RECIPES: tuple[str, ...] = ("ripple", "hybrid", "dense")


@dataclass(frozen=True, slots=True)
class _Plan:
    """What to measure, validated once."""

    sizes: tuple[int, ...]
    store: StoreKind
    queries: int
    seed: int
    batch: int
    window: int
    recipes: tuple[str, ...]


def run_speed_bench(
    sizes: Sequence[int] = DEFAULT_SIZES,
    *,
    store: StoreKind = "sqlite",
    queries: int = 50,
    seed: int = 0,
    progress: Progress | None = None,
    locomo: str | Path | None = None,
    embedder: Embedder | None = None,
    batch: int = 50,
    window: int = 1_000,
    pool: int = 2_000,
    noise: float = 0.4,
    mix: bool = False,
    embed_sample: int = 500,
    recipes: Sequence[str] = SEARCH_RECIPES,
    on_size: Callable[[dict], None] | None = None,
    stop_after_s: float | None = None,
) -> dict:
    """Run the benchmark; see the module docstring. ``sizes`` must be increasing.

    ``on_size`` gets the result so far (``"partial": True``) after each size, e.g. to save it
    while a long run goes on. ``stop_after_s`` time-boxes the run: once that many seconds have
    passed, growing stops at the next multiple of 10,000 units, that size is measured as the
    last one (``"stopped_early"`` in its row) and the larger sizes are skipped.
    """
    plan = _Plan(_checked_sizes(sizes), store, queries, seed, batch, window, tuple(recipes))
    deadline = None if stop_after_s is None else time.monotonic() + stop_after_s
    if store not in ("sqlite", "memory"):
        raise InvalidInputError(f"store must be 'sqlite' or 'memory', not {store!r}")
    if queries < 1 or batch < 1 or window < 1 or pool < 1 or embed_sample < 1:
        raise InvalidInputError("queries, batch, window, pool and embed_sample must be >= 1")
    if embedder is None:
        from ripplemem.providers.factory import make_embedder
        from ripplemem.settings import Settings

        embedder = make_embedder(Settings().embedder)
    started = time.perf_counter()
    load_before = _loadavg()
    memories = SyntheticMemories(seed, namespace=NAMESPACE)
    pool = min(pool, plan.sizes[-1])
    vectors = _PoolVectors.build(memories, embedder, pool, noise, seed, progress, mix=mix)
    result: dict[str, Any] = {
        "benchmark": "speed",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": _commit(),
        "llm": None,  # no LLM anywhere: deterministic extractor and planner
        "machine": _machine(),
        "settings": {
            **asdict(plan),
            "sizes": list(plan.sizes),
            "recipes": list(plan.recipes),
            "semantic_threshold": _semantic_threshold(embedder),
        },
        "embedder": {
            "name": embedder.name,
            "dim": embedder.dim,
            **embed_rate(memories, embedder, pool, embed_sample),
        },
        "vectors": _vectors_note(pool, noise, mix),
        "pool": {"size": pool, "noise_norm": noise, "embed_seconds": vectors.seconds},
    }
    with tempfile.TemporaryDirectory(prefix="ripplemem-speed-") as folder:
        def checkpoint(rows: list[dict[str, Any]], curve: list[dict[str, Any]]) -> None:
            if on_size is not None:
                partial = {**result, "partial": True, "sizes": list(rows), "insert_curve": curve}
                partial["insert_flatness"] = flatness(rows, curve)
                partial["machine"] = {**result["machine"], "loadavg_start": load_before}
                partial["machine"]["loadavg_now"] = _loadavg()
                on_size(partial)

        grown, curve = _grow_and_search(
            plan, memories, vectors, embedder, Path(folder), progress, checkpoint, deadline
        )
        result["sizes"] = grown
        result["insert_curve"] = curve
        if locomo is not None:
            result["locomo_ingest"] = locomo_ingest(Path(locomo), embedder, Path(folder), progress)
    result["insert_flatness"] = flatness(grown, curve)
    result["targets"] = targets(result)
    result["machine"]["loadavg_start"] = load_before
    result["machine"]["loadavg_end"] = _loadavg()
    result["seconds_total"] = time.perf_counter() - started
    _report(progress, "done", 1, 1)
    return result


# --- part 1 and 2: one store growing through the sizes --------------------------------------


def _vectors_note(pool: int, noise: float, mix: bool) -> str:
    source = (
        "a mix w*a + (1-w)*b (w uniform in 0.5..1, re-normalised) of two pool sentences a, b of "
        "the same activity"
        if mix
        else "the vector of a pool sentence of the same activity"
    )
    return (
        f"pool of {pool} real embeddings + noise: units past the pool get {source} plus Gaussian "
        f"noise of norm {noise}, re-normalised"
    )


@dataclass(slots=True)
class _PoolVectors:
    """Real embeddings of the first ``pool`` units; noisy copies of them for every other unit."""

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
    ) -> _PoolVectors:
        _report(progress, f"embedding a pool of {pool} sentences", 0, pool)
        items = memories.take(0, pool)
        embedder.embed([items[0].unit.restatement])  # load the model outside the clock
        started = time.perf_counter()
        vectors = np.asarray(embedder.embed([m.unit.restatement for m in items]), dtype=np.float32)
        seconds = time.perf_counter() - started
        by_topic: dict[int, list[int]] = {}
        for index, item in enumerate(items):
            by_topic.setdefault(item.topic, []).append(index)
        return cls(vectors, by_topic, noise, seed, seconds, mix)

    def vector(self, index: int, memory: SyntheticMemory) -> np.ndarray:
        if index < len(self.vectors):
            return self.vectors[index]
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
class _BatchTiming:
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


@dataclass(slots=True)
class _Growth:
    """Inserts batches into the store and keeps each batch's timing, per store method too."""

    store: _TimedStore
    linker: Linker
    memories: SyntheticMemories
    vectors: _PoolVectors
    batch: int
    size: int = 0
    timings: list[_BatchTiming] = field(default_factory=list)

    def grow_to(self, target: int, progress: Progress | None, deadline: float | None = None) -> None:
        while self.size < target:
            if deadline is not None and self.size % 10_000 == 0 and time.monotonic() > deadline:
                return
            stop = min(self.size + self.batch, target)
            units = [
                m.unit.with_vector(self.vectors.vector(i, m))
                for i, m in zip(range(self.size, stop), self.memories.take(self.size, stop))
            ]
            seconds, counts = dict(self.store.seconds), dict(self.store.counts)
            graph = self._graph_seconds()
            cpu = time.process_time()
            t0 = time.perf_counter()
            self.store.add_units(units)
            t1 = time.perf_counter()
            report = self.linker.link(units)
            t2 = time.perf_counter()
            self.timings.append(
                _BatchTiming(
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
                )
            )
            self.size = stop
            if len(self.timings) % 20 == 0 or stop == target:
                _report(progress, f"inserting up to {target:,} units", stop, target)

    def _graph_seconds(self) -> float:
        """The store's HNSW insert time so far (read past the timing wrapper: not a store call)."""
        stats = getattr(getattr(self.store, "_inner", self.store), "index_stats", None)
        return float(stats(NAMESPACE).get("graph_add_s", 0.0)) if callable(stats) else 0.0

    def window(self, size: int, window: int) -> dict[str, Any]:
        """Per-unit cost over the ``window`` units (at most half the size) before ``size``."""
        span = min(window, max(self.batch, size // 2))
        timed = [t for t in self.timings if size - span < t.end <= size]
        units = max(1, sum(t.units for t in timed))
        add, link = _per_unit_ms(timed, "add_s"), _per_unit_ms(timed, "link_s")
        per_batch = [(t.add_s + t.link_s) * 1000 / t.units for t in timed]
        return {
            "window_units": sum(t.units for t in timed),
            "add_ms_per_unit": add,
            "link_ms_per_unit": link,
            "graph_ms_per_unit": _per_unit_ms(timed, "graph_s"),
            "insert_ms_per_unit": add + link,
            "insert_ms_per_unit_median_batch": _percentile(per_batch, 50),
            "insert_cpu_ms_per_unit": _per_unit_ms(timed, "cpu_s"),
            "edges_per_unit": sum(t.edges for t in timed) / units,
            "evictions_per_unit": sum(t.evicted for t in timed) / units,
            "slowest_batch_ms": max((t.add_s + t.link_s for t in timed), default=0.0) * 1000,
            "store_ms_per_unit": _calls_per_unit_ms(timed),
            "store_calls_per_unit": {
                name: sum(t.counts.get(name, 0) for t in timed) / units
                for name in _calls_per_unit_ms(timed)
            },
        }

    def summary(self, size: int, previous: int, window: int) -> dict[str, Any]:
        segment = [t for t in self.timings if previous < t.end <= size]
        return {
            **self.window(size, window),
            "segment": {
                "from": previous,
                "units": sum(t.units for t in segment),
                "seconds": sum(t.add_s + t.link_s for t in segment),
                "add_ms_per_unit": _per_unit_ms(segment, "add_s"),
                "link_ms_per_unit": _per_unit_ms(segment, "link_s"),
                "slowest_batch_ms": max((t.add_s + t.link_s for t in segment), default=0.0) * 1000,
            },
        }

    def curve(self, checkpoints: Sequence[int], window: int) -> list[dict[str, Any]]:
        """The window cost at 1k, 2k, 3k, 5k, 7k, 10k, 20k, ... and at every checkpoint."""
        steps = {m * 10**e for e in range(3, 9) for m in (1, 2, 3, 5, 7)}
        points = sorted({p for p in steps if p <= self.size} | set(checkpoints))
        return [{"units": p, **self.window(p, window)} for p in points]


def _grow_and_search(
    plan: _Plan,
    memories: SyntheticMemories,
    vectors: _PoolVectors,
    embedder: Embedder,
    folder: Path,
    progress: Progress | None,
    checkpoint: Callable[[list[dict[str, Any]], list[dict[str, Any]]], None] | None = None,
    deadline: float | None = None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Grow one store through ``plan.sizes``; at each size, the insert window and the searches.

    The linker gets the write pipeline's settings, with the semantic edge threshold resolved for
    ``embedder`` exactly as :class:`~ripplemem.write.pipeline.WritePipeline` does.
    """
    from ripplemem.settings import WriteSettings
    from ripplemem.stores.factory import open_store
    from ripplemem.write.link import Linker
    from ripplemem.write.pipeline import resolve_thresholds

    path = folder / "speed.db"
    store = open_store(path if plan.store == "sqlite" else None)
    rows: list[dict[str, Any]] = []
    try:
        store.check_embedder(embedder.name, embedder.dim)
        timed = _TimedStore(store)
        settings = resolve_thresholds(WriteSettings(), embedder)
        linker = Linker(timed, settings)  # type: ignore[arg-type]
        growth = _Growth(timed, linker, memories, vectors, plan.batch)
        search = Searcher(store, embedder, memories, list(plan.recipes))
        previous = 0
        for size in plan.sizes:
            growth.grow_to(size, progress, deadline)
            stopped = growth.size < size
            size = growth.size
            if size <= previous:
                break
            row: dict[str, Any] = {"units": size, **growth.summary(size, previous, plan.window)}
            if stopped:
                row["stopped_early"] = True
            row["file_mb"] = _file_mb(path) if plan.store == "sqlite" else None
            row["rss_peak_mb"] = _rss_peak_mb()
            row["rss_mb"] = _rss_now_mb()
            stats = getattr(store, "index_stats", None)
            row["dense_index"] = stats(NAMESPACE) if callable(stats) else None
            _report(progress, f"searching {size:,} units", 0, plan.queries * len(plan.recipes))
            row["search"] = search.run(size, plan.queries, plan.seed, progress)
            row["rss_peak_mb_after_search"] = _rss_peak_mb()
            row["loadavg"] = _loadavg()
            rows.append(row)
            previous = size
            if checkpoint is not None:
                checkpoint(rows, growth.curve([r["units"] for r in rows], plan.window))
            if stopped:
                break
    finally:
        store.close()
    return rows, growth.curve([r["units"] for r in rows], plan.window)


# --- verdicts and helpers --------------------------------------------------------------------


def _semantic_threshold(embedder: Embedder) -> float | None:
    from ripplemem.settings import WriteSettings
    from ripplemem.write.pipeline import resolve_thresholds

    return resolve_thresholds(WriteSettings(), embedder).semantic_threshold


def _checked_sizes(sizes: Sequence[int]) -> tuple[int, ...]:
    checked = tuple(int(size) for size in sizes)
    if not checked or any(size < 1 for size in checked):
        raise InvalidInputError("sizes must be positive unit counts, e.g. 1000,10000,100000")
    if list(checked) != sorted(set(checked)):
        raise InvalidInputError(f"sizes must be strictly increasing, got {list(checked)}")
    return checked


def _per_unit_ms(timings: list[_BatchTiming], attribute: str) -> float:
    units = sum(t.units for t in timings)
    return sum(getattr(t, attribute) for t in timings) * 1000 / units if units else 0.0


def _calls_per_unit_ms(timings: list[_BatchTiming]) -> dict[str, float]:
    units = sum(t.units for t in timings)
    totals: dict[str, float] = {}
    for timing in timings:
        for name, seconds in timing.calls.items():
            totals[name] = totals.get(name, 0.0) + seconds
    ranked = sorted(totals.items(), key=lambda item: -item[1])
    return (
        {name: seconds * 1000 / units for name, seconds in ranked if seconds > 0} if units else {}
    )


def _commit() -> str | None:
    from ripplemem.eval.bench import git_commit

    return git_commit()
