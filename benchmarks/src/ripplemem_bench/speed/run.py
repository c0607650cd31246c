"""The speed and scale benchmark: insert cost as a store grows, search latency, conversation ingest.

Speed targets live here (and in ``ripplemem bench speed``), never in timed tests. Four parts:

1. **Insert at scale.** One store (a temporary SQLite file by default) grows through ``sizes``
   with :mod:`ripplemem_bench.speed.synthetic` units, in batches of ``batch`` units, exactly as
   the write pipeline stores embedded units: ``store.add_units(batch)`` then ``Linker.link(batch)``.
   Embedding 100k texts would dominate the run, so a *pool* of ``pool`` synthetic sentences is
   embedded once with the real embedder; every unit, the first ones too, gets the vector of a
   pool sentence of the same activity plus Gaussian noise (norm ``noise``), re-normalised, so
   the stream is stationary: the window at 1k and the window at 100k see the same kind of
   vectors. Edge density still rises with the store (more units of an activity within reach)
   until the degree caps saturate, so each window reports ``edges_per_unit``. The embedder's own
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
4. **The same input at every size.** After the searches at each size, the probe conversations
   (the ``locomo`` file's, else the shipped demo conversation) go through ``Memory.add`` into the
   grown namespace and are deleted again; per-unit cost of the whole write and of its insert
   stages (store, near-neighbour search, link, dialogue edges, clue graph). Part 1's windows
   compare different work (its stream densifies: the linker looks at more candidates per unit
   as it grows); this part varies the store size alone, and the flatness target is judged on it.

The result is a :class:`~ripplemem_bench.results.growth.GrowthResult`; ``targets`` compares it
with the issue's goals. Part 1's
batch timing is :mod:`ripplemem_bench.speed.growth`, part 2 :mod:`ripplemem_bench.speed.search`,
part 3 :mod:`ripplemem_bench.speed.ingest`, part 4 :mod:`ripplemem_bench.speed.probe`, the
verdicts :mod:`ripplemem_bench.speed.verdicts`.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from ripplemem.errors import InvalidInputError
from ripplemem_bench.measure import Progress, git_commit
from ripplemem_bench.measure import loadavg as _loadavg
from ripplemem_bench.measure import machine_info as _machine
from ripplemem_bench.measure import report_progress as _report
from ripplemem_bench.results.base import Machine
from ripplemem_bench.results.growth import CurvePoint, GrowthResult, GrowthSettings, SizeRow
from ripplemem_bench.speed.growing import Checkpoint, grow_and_search
from ripplemem_bench.speed.growth import PoolVectors, vectors_note
from ripplemem_bench.speed.ingest import locomo_ingest
from ripplemem_bench.speed.probe import probe_conversations
from ripplemem_bench.speed.search import NAMESPACE, embed_rate
from ripplemem_bench.speed.synthetic import SyntheticMemories
from ripplemem_bench.speed.verdicts import TARGETS, flatness, targets

if TYPE_CHECKING:
    from ripplemem.providers import Embedder

__all__ = ["DEFAULT_SIZES", "TARGETS", "Plan", "run_speed_bench"]

StoreKind = Literal["sqlite", "memory"]
DEFAULT_SIZES: tuple[int, ...] = (1_000, 10_000, 100_000)
SEARCH_RECIPES: tuple[str, ...] = ("ripple", "hybrid", "dense")
OnSize = Callable[[GrowthResult], None]


@dataclass(frozen=True, slots=True)
class Plan:
    """What to measure, validated once."""

    sizes: tuple[int, ...]
    store: str  # "sqlite", "memory" or the URL of an empty store
    queries: int
    seed: int
    batch: int
    window: int
    recipes: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.sizes or any(size < 1 for size in self.sizes):
            raise InvalidInputError("sizes must be positive unit counts, e.g. 1000,10000,100000")
        if list(self.sizes) != sorted(set(self.sizes)):
            raise InvalidInputError(f"sizes must be strictly increasing, got {list(self.sizes)}")
        if self.store not in ("sqlite", "memory") and "://" not in self.store:
            raise InvalidInputError(
                f"store must be 'sqlite', 'memory' or a store URL, not {self.store!r}"
            )
        if self.queries < 1 or self.batch < 1 or self.window < 1:
            raise InvalidInputError("queries, batch and window must be >= 1")


def run_speed_bench(
    sizes: Sequence[int] = DEFAULT_SIZES,
    *,
    store: StoreKind | str = "sqlite",
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
    on_size: OnSize | None = None,
    stop_after_s: float | None = None,
) -> GrowthResult:
    """Run the benchmark; see the module docstring. ``sizes`` must be increasing.

    ``on_size`` gets the result so far (``partial``) after each size, e.g. to save it while a
    long run goes on. ``stop_after_s`` time-boxes the run: once that many seconds have passed,
    growing stops at the next multiple of 10,000 units, that size is measured as the last one
    (``stopped_early`` in its row) and the larger sizes are skipped.
    """
    plan = Plan(tuple(int(s) for s in sizes), store, queries, seed, batch, window, tuple(recipes))
    if pool < 1 or embed_sample < 1:
        raise InvalidInputError("pool and embed_sample must be >= 1")
    deadline = None if stop_after_s is None else time.monotonic() + stop_after_s
    embedder = embedder or _default_embedder()
    started, load_before = time.perf_counter(), _loadavg()
    memories = SyntheticMemories(seed, namespace=NAMESPACE)
    pool = min(pool, plan.sizes[-1])
    vectors = PoolVectors.build(memories, embedder, pool, noise, seed, progress, mix=mix)
    result = _header(plan, embedder, memories, pool, embed_sample)
    result.vectors = vectors_note(pool, noise, mix)
    result.pool = {"size": pool, "noise_norm": noise, "embed_seconds": vectors.seconds}
    source, conversations = probe_conversations(Path(locomo) if locomo is not None else None)
    result.probe = source
    with tempfile.TemporaryDirectory(prefix="ripplemem-speed-") as folder:
        checkpoint = _checkpoint(result, load_before, on_size)
        result.sizes, result.insert_curve = grow_and_search(
            plan, memories, vectors, embedder, Path(folder), progress=progress,
            checkpoint=checkpoint, deadline=deadline, probe=(source, conversations),
        )
        if locomo is not None:
            result.locomo_ingest = locomo_ingest(Path(locomo), embedder, Path(folder), progress)
    _conclude(result, load_before)
    result.seconds_total = time.perf_counter() - started
    _report(progress, "done", 1, 1)
    return result


def _default_embedder() -> Embedder:
    from ripplemem import Settings
    from ripplemem.providers import make_embedder

    return make_embedder(Settings().embedder)


def _header(
    plan: Plan, embedder: Embedder, memories: SyntheticMemories, pool: int, sample: int
) -> GrowthResult:
    """The result before any size: when, on what, with which settings and embedder rate."""
    return GrowthResult(
        benchmark="speed",
        date=datetime.now(UTC).isoformat(timespec="seconds"),
        commit=git_commit(),
        llm=None,  # no LLM anywhere: deterministic extractor and planner
        machine=Machine.model_validate(_machine()),
        settings=GrowthSettings(
            sizes=list(plan.sizes), store=plan.store, queries=plan.queries, seed=plan.seed,
            batch=plan.batch, window=plan.window, recipes=list(plan.recipes),
            semantic_threshold=_semantic_threshold(embedder),
        ),
        embedder=embed_rate(memories, embedder, pool, sample),
    )


def _checkpoint(
    result: GrowthResult, load_before: list[float] | None, on_size: OnSize | None
) -> Checkpoint | None:
    """What hands the result so far to ``on_size`` after each size."""
    if on_size is None:
        return None

    def save(rows: list[SizeRow], curve: list[CurvePoint]) -> None:
        partial = result.model_copy(deep=True)
        partial.sizes, partial.insert_curve = list(rows), curve
        partial.partial = True
        partial.insert_flatness = flatness(partial.sizes, partial.insert_curve)
        machine = partial.machine or Machine()
        machine.loadavg_start, machine.loadavg_now = load_before, _loadavg()
        partial.machine = machine
        on_size(partial)

    return save


def _conclude(result: GrowthResult, load_before: list[float] | None) -> None:
    """The verdicts, and the load average around the run."""
    result.insert_flatness = flatness(result.sizes, result.insert_curve)
    result.targets = targets(result)
    machine = result.machine or Machine()
    machine.loadavg_start, machine.loadavg_end = load_before, _loadavg()
    result.machine = machine


def _semantic_threshold(embedder: Embedder) -> float | None:
    from ripplemem import WriteSettings
    from ripplemem.write.pipeline import resolve_thresholds

    return resolve_thresholds(WriteSettings(), embedder).semantic_threshold
