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

The result is a JSON-ready dict; ``targets`` compares it with the issue's goals. Part 1's
batch timing is :mod:`ripplemem_bench.speed.growth`, part 2 :mod:`ripplemem_bench.speed.search`,
part 3 :mod:`ripplemem_bench.speed.ingest`, part 4 :mod:`ripplemem_bench.speed.probe`, the
verdicts :mod:`ripplemem_bench.speed.verdicts`.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ripplemem.errors import InvalidInputError
from ripplemem_bench.measure import Progress, git_commit
from ripplemem_bench.measure import TimedStore as _TimedStore
from ripplemem_bench.measure import file_mb as _file_mb
from ripplemem_bench.measure import loadavg as _loadavg
from ripplemem_bench.measure import machine_info as _machine
from ripplemem_bench.measure import report_progress as _report
from ripplemem_bench.measure import rss_now_mb as _rss_now_mb
from ripplemem_bench.measure import rss_peak_mb as _rss_peak_mb
from ripplemem_bench.speed.growth import Growth, PoolVectors, vectors_note
from ripplemem_bench.speed.ingest import locomo_ingest
from ripplemem_bench.speed.probe import Probe, probe_conversations
from ripplemem_bench.speed.search import NAMESPACE, Searcher, embed_rate
from ripplemem_bench.speed.synthetic import SyntheticMemories
from ripplemem_bench.speed.verdicts import TARGETS, flatness, targets

if TYPE_CHECKING:
    from ripplemem.providers.base import Embedder
    from ripplemem.records import Conversation

__all__ = ["DEFAULT_SIZES", "TARGETS", "run_speed_bench"]

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
    if store not in ("sqlite", "memory") and "://" not in store:
        raise InvalidInputError(
            f"store must be 'sqlite', 'memory' or a store URL, not {store!r}"
        )
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
    vectors = PoolVectors.build(memories, embedder, pool, noise, seed, progress, mix=mix)
    result: dict[str, Any] = {
        "benchmark": "speed",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": git_commit(),
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
        "vectors": vectors_note(pool, noise, mix),
        "pool": {"size": pool, "noise_norm": noise, "embed_seconds": vectors.seconds},
    }
    probe_source, probe = probe_conversations(Path(locomo) if locomo is not None else None)
    result["probe"] = probe_source
    with tempfile.TemporaryDirectory(prefix="ripplemem-speed-") as folder:

        def checkpoint(rows: list[dict[str, Any]], curve: list[dict[str, Any]]) -> None:
            if on_size is not None:
                partial = {**result, "partial": True, "sizes": list(rows), "insert_curve": curve}
                partial["insert_flatness"] = flatness(rows, curve)
                partial["machine"] = {**result["machine"], "loadavg_start": load_before}
                partial["machine"]["loadavg_now"] = _loadavg()
                on_size(partial)

        grown, curve = _grow_and_search(
            plan,
            memories,
            vectors,
            embedder,
            Path(folder),
            progress,
            checkpoint,
            deadline,
            (probe_source, probe),
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


def _grow_and_search(
    plan: _Plan,
    memories: SyntheticMemories,
    vectors: PoolVectors,
    embedder: Embedder,
    folder: Path,
    progress: Progress | None,
    checkpoint: Callable[[list[dict[str, Any]], list[dict[str, Any]]], None] | None = None,
    deadline: float | None = None,
    probe: tuple[str, list[Conversation]] | None = None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Grow one store through ``plan.sizes``; at each size, the insert window, the searches and
    the probe conversations (part 4, :mod:`ripplemem_bench.speed.probe`).

    The linker gets the write pipeline's settings, with the semantic edge threshold resolved for
    ``embedder`` exactly as :class:`~ripplemem.write.pipeline.WritePipeline` does.
    """
    from ripplemem.settings import WriteSettings
    from ripplemem.stores.registry import open_store
    from ripplemem.write.link import Linker
    from ripplemem.write.pipeline import resolve_thresholds

    path = folder / "speed.db"
    url = plan.store if "://" in plan.store else None  # an empty store given by URL
    store = open_store(path if plan.store == "sqlite" else url)
    rows: list[dict[str, Any]] = []
    try:
        store.check_embedder(embedder.name, embedder.dim)
        timed = _TimedStore(store)
        settings = resolve_thresholds(WriteSettings(), embedder)
        linker = Linker(timed, settings)  # type: ignore[arg-type]
        growth = Growth(timed, linker, memories, vectors, plan.batch)
        search = Searcher(store, embedder, memories, list(plan.recipes))
        prober = None if probe is None else Probe(store, embedder, NAMESPACE, probe[1], probe[0])
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
            if prober is not None:
                row["probe"] = prober.run(size, progress)
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
