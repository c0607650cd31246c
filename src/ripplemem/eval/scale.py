"""The scale benchmark: one store grown to 10k, 100k and 1M synthetic units (issue #4).

It is :func:`ripplemem.eval.speed.run_speed_bench` run bigger, with choices that fit millions:

* **Units** come from :mod:`ripplemem.eval.synthetic` (fixed seed): restatements of 12-40 words
  over ~200 people, ~100 places, ~50 activities, in sessions of 16 with 2-4 people, 20 % with a
  place, 10 % with a grounded time span.
* **Vectors.** Embedding a million sentences with MiniLM on 2 cores would take about an hour and a
  half on its own, so a *pool* of ``pool`` sentences (5,000 by default) is embedded for real, and
  each later unit gets a point between two pool sentences of the same activity (``w*a + (1-w)*b``,
  ``w`` uniform in 0.5..1) plus Gaussian noise of norm ``noise``, re-normalised. Neighbourhoods
  stay those of real sentences (clusters by activity, graded similarity inside a cluster) instead
  of exact copies. The embedder's own rate is reported apart; it does not depend on the store size.
* **Measured at each size**: insert cost per unit (``add_units`` + linking) over the last
  ``window`` units, the whole curve at 1k, 2k, 3k, 5k, 7k, 10k, 20k, ...; search p50 / p95 of
  full ``recall`` calls per recipe; peak RSS of the process; the store file size; what the dense
  index holds in memory; the load average (the machine is shared: latencies are upper bounds).

After each size the result so far is handed to ``on_size`` (the CLI writes it to ``--json``), so a
long run that is stopped still leaves its smaller sizes behind.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ripplemem.eval.speed import Progress, run_speed_bench

if TYPE_CHECKING:
    from ripplemem.providers.base import Embedder

__all__ = ["DEFAULT_SIZES", "SCALE_TARGETS", "run_scale_bench", "scale_targets"]

DEFAULT_SIZES: tuple[int, ...] = (10_000, 100_000, 1_000_000)
SCALE_RECIPES: tuple[str, ...] = ("dense", "hybrid", "ripple")
#: Issue #4 goals at the largest size (1M units), on the 2-core machine.
SCALE_TARGETS = {"search_p50_ms": 50.0, "rss_peak_mb": 3 * 1024.0, "insert_ratio": 2.0}


def run_scale_bench(
    sizes: Sequence[int] = DEFAULT_SIZES,
    *,
    queries: int = 30,
    seed: int = 0,
    pool: int = 5_000,
    noise: float = 0.4,
    batch: int = 50,
    window: int = 2_000,
    recipes: Sequence[str] = SCALE_RECIPES,
    embedder: Embedder | None = None,
    progress: Progress | None = None,
    on_size: Callable[[dict], None] | None = None,
    stop_after_s: float | None = None,
) -> dict:
    """Grow one SQLite store through ``sizes``; see the module docstring."""

    def checkpoint(partial: dict) -> None:
        if on_size is not None:
            on_size(_as_scale(partial))

    result = run_speed_bench(
        sizes,
        store="sqlite",
        queries=queries,
        seed=seed,
        embedder=embedder,
        batch=batch,
        window=window,
        pool=pool,
        noise=noise,
        mix=True,
        recipes=recipes,
        progress=progress,
        on_size=checkpoint,
        stop_after_s=stop_after_s,
    )
    return _as_scale(result)


def _as_scale(result: dict) -> dict:
    out = {**result, "benchmark": "scale"}
    out.pop("targets", None)
    out["scale_targets"] = scale_targets(out)
    return out


def scale_targets(result: dict) -> dict:
    """The issue's goals, checked at the largest size measured (and insert vs the smallest)."""
    rows = result.get("sizes") or []
    if not rows:
        return {}
    first, last = rows[0], rows[-1]
    out: dict = {"at_units": last["units"]}
    search = {k: v for k, v in last["search"].items() if isinstance(v, dict)}
    out["search_p50_ms"] = {
        "target": SCALE_TARGETS["search_p50_ms"],
        "measured": {name: block["p50_ms"] for name, block in search.items()},
        "met": {
            name: block["p50_ms"] <= SCALE_TARGETS["search_p50_ms"]
            for name, block in search.items()
        },
        "dense_index": (last.get("dense_index") or {}).get("search"),
    }
    rss = last.get("rss_peak_mb_after_search", last.get("rss_peak_mb", 0.0))
    out["rss_peak_mb"] = {
        "target": SCALE_TARGETS["rss_peak_mb"],
        "measured": rss,
        "met": rss <= SCALE_TARGETS["rss_peak_mb"],
    }
    ratio = last["insert_ms_per_unit"] / max(first["insert_ms_per_unit"], 1e-9)
    out["insert_ratio"] = {
        "target": SCALE_TARGETS["insert_ratio"],
        "from_units": first["units"],
        "measured": ratio,
        "cpu_measured": last["insert_cpu_ms_per_unit"] / max(first["insert_cpu_ms_per_unit"], 1e-9),
        "met": ratio <= SCALE_TARGETS["insert_ratio"],
    }
    return out


def write_json(result: dict, path: Path) -> None:
    import json

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)
