"""Part 2 of ``bench speed``: search latency per recipe on synthetic questions, and embed rate."""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING

import numpy as np

from ripplemem_bench.measure import percentile as _percentile
from ripplemem_bench.measure import report_progress as _report
from ripplemem_bench.results.base import EmbedderRate
from ripplemem_bench.results.growth import SearchTiming
from ripplemem_bench.unit_caches import RecipeCaches

if TYPE_CHECKING:
    from ripplemem import Recall
    from ripplemem.providers import Embedder
    from ripplemem.stores import MemoryStore
    from ripplemem_bench.measure import Progress
    from ripplemem_bench.speed.synthetic import SyntheticMemories

#: Untimed searches per recipe before the timed ones (model and caches warm).
WARMUP_QUERIES = 3
#: The one namespace the synthetic store grows in.
NAMESPACE = "bench"


class Searcher:
    """Times ``Memory.search`` with each recipe on the same synthetic questions (the
    deterministic planner: no LLM)."""

    def __init__(
        self,
        store: MemoryStore,
        embedder: Embedder,
        memories: SyntheticMemories,
        recipes: list[str],
    ) -> None:
        from ripplemem import Memory, Settings, get_recipe

        settings = Settings(extractor="deterministic", planner="deterministic")
        self.memory = Memory(settings, store=store, embedder=embedder)
        self.memories = memories
        self.recipes = {name: get_recipe(name) for name in recipes}
        self.caches = RecipeCaches()  # no recipe reads the units another read for its question

    def questions(self, size: int, count: int, seed: int) -> list[str]:
        rng = random.Random(f"{seed}:questions:{size}")
        picks = [rng.randrange(size) for _ in range(count + WARMUP_QUERIES)]
        return [self.memories.question(rng, self.memories.memory(i)) for i in picks]

    def run(
        self, size: int, count: int, seed: int, progress: Progress | None
    ) -> tuple[dict[str, SearchTiming], list[str]]:
        """(timing per recipe, the first example questions) of ``count`` searches per recipe.
        Each question goes through every recipe in turn, the order rotating per question, so no
        recipe is the first to meet a store just grown (cold pages, cold caches)."""
        asked = self.questions(size, count, seed)
        warmup, timed = asked[:WARMUP_QUERIES], asked[WARMUP_QUERIES:]
        names = list(self.recipes)
        for question in warmup:
            for name in names:
                self._recall(question, name)
        latencies: dict[str, list[float]] = {name: [] for name in names}
        stages: dict[str, dict[str, list[float]]] = {name: {} for name in names}
        evidence = dict.fromkeys(names, 0)
        for index, question in enumerate(timed):
            shift = index % len(names)
            for done, name in enumerate(names[shift:] + names[:shift]):
                started = time.perf_counter()
                found = self._recall(question, name)
                latencies[name].append((time.perf_counter() - started) * 1000)
                evidence[name] += len(found.evidence)
                for stage, ms in found.trace.timings_ms.items():
                    stages[name].setdefault(stage, []).append(ms)
                _report(progress, f"searching {size:,} units", index * len(names) + done + 1,
                        len(timed) * len(names))
        out = {
            name: SearchTiming(
                p50_ms=_percentile(latencies[name], 50),
                p95_ms=_percentile(latencies[name], 95),
                mean_ms=float(np.mean(latencies[name])),
                evidence_per_query=evidence[name] / len(timed),
                stages_p50_ms={s: _percentile(v, 50) for s, v in sorted(stages[name].items())},
                stages_mean_ms={s: sum(v) / len(timed) for s, v in sorted(stages[name].items())},
            )
            for name in names
        }
        return out, timed[:3]

    def _recall(self, question: str, name: str) -> Recall:
        self.caches.use(self.memory.store, name)
        return self.memory.search(
            question, namespace=NAMESPACE, recipe=self.recipes[name],
            question_time=self.memories.reference_time,
        )


def embed_rate(
    memories: SyntheticMemories, embedder: Embedder, pool: int, sample: int
) -> EmbedderRate:
    """Units per second of the real embedder on ``sample`` sentences it has not seen."""
    texts = [m.unit.restatement for m in memories.take(pool, pool + sample)]
    started = time.perf_counter()
    embedder.embed(texts)
    seconds = time.perf_counter() - started
    return EmbedderRate(
        name=embedder.name,
        dim=embedder.dim,
        sample=sample,
        seconds=seconds,
        units_per_s=sample / seconds,
        ms_per_unit=seconds * 1000 / sample,
    )
