"""Part 2 of ``bench speed``: search latency per recipe on synthetic questions, and embed rate."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ripplemem_bench.measure import percentile as _percentile
from ripplemem_bench.measure import report_progress as _report

if TYPE_CHECKING:
    from ripplemem.providers.base import Embedder
    from ripplemem.stores.base import MemoryStore
    from ripplemem_bench.measure import Progress
    from ripplemem_bench.speed.synthetic import SyntheticMemories

#: Untimed searches per recipe before the timed ones (model and caches warm).
WARMUP_QUERIES = 3
#: The one namespace the synthetic store grows in.
NAMESPACE = "bench"


class Searcher:
    """Times ``recall`` with each recipe on the same synthetic questions."""

    def __init__(
        self,
        store: MemoryStore,
        embedder: Embedder,
        memories: SyntheticMemories,
        recipes: list[str],
    ) -> None:
        from ripplemem.read.planner import DeterministicPlanner
        from ripplemem.recipes import get_recipe
        from ripplemem.statements import StatementReader
        from ripplemem.write.entities import EntityRecognizer

        self.store, self.embedder, self.memories = store, embedder, memories
        self.recipes = {name: get_recipe(name) for name in recipes}
        self.planner = DeterministicPlanner()
        self.recognizer = EntityRecognizer()
        # what Memory.search passes: the supersession stage reads what the units state
        self.statements = StatementReader(self.recognizer.parse)

    def questions(self, size: int, count: int, seed: int) -> list[str]:
        rng = random.Random(f"{seed}:questions:{size}")
        picks = [rng.randrange(size) for _ in range(count + WARMUP_QUERIES)]
        return [self.memories.question(rng, self.memories.memory(i)) for i in picks]

    def run(self, size: int, count: int, seed: int, progress: Progress | None) -> dict[str, Any]:
        """Each question through every recipe in turn (recipe order rotating per question), so
        no recipe is the first to meet a store just grown (cold pages, cold caches)."""
        from ripplemem.read.pipeline import recall

        asked = self.questions(size, count, seed)
        warmup, timed = asked[:WARMUP_QUERIES], asked[WARMUP_QUERIES:]
        names = list(self.recipes)
        for question in warmup:
            for name in names:
                self._recall(recall, question, self.recipes[name])
        latencies: dict[str, list[float]] = {name: [] for name in names}
        stages: dict[str, dict[str, list[float]]] = {name: {} for name in names}
        evidence = dict.fromkeys(names, 0)
        done = 0
        for index, question in enumerate(timed):
            shift = index % len(names)
            for name in names[shift:] + names[:shift]:
                started = time.perf_counter()
                found = self._recall(recall, question, self.recipes[name])
                latencies[name].append((time.perf_counter() - started) * 1000)
                evidence[name] += len(found.evidence)
                for stage, ms in found.trace.timings_ms.items():
                    stages[name].setdefault(stage, []).append(ms)
                done += 1
                _report(progress, f"searching {size:,} units", done, count * len(names))
        out: dict[str, Any] = {
            name: {
                "p50_ms": _percentile(latencies[name], 50),
                "p95_ms": _percentile(latencies[name], 95),
                "mean_ms": float(np.mean(latencies[name])),
                "evidence_per_query": evidence[name] / len(timed),
                "stages_p50_ms": {s: _percentile(v, 50) for s, v in sorted(stages[name].items())},
            }
            for name in names
        }
        out["example_questions"] = timed[:3]
        return out

    def _recall(self, recall: Callable[..., Any], question: str, recipe: Any) -> Any:
        return recall(
            question,
            store=self.store,
            namespace=NAMESPACE,
            embedder=self.embedder,
            recipe=recipe,
            planner=self.planner,
            recognizer=self.recognizer,
            reference_time=self.memories.reference_time,
            statements=self.statements,
        )


def embed_rate(
    memories: SyntheticMemories, embedder: Embedder, pool: int, sample: int
) -> dict[str, float]:
    """Units per second of the real embedder on ``sample`` sentences it has not seen."""
    texts = [m.unit.restatement for m in memories.take(pool, pool + sample)]
    started = time.perf_counter()
    embedder.embed(texts)
    seconds = time.perf_counter() - started
    return {
        "sample": sample,
        "seconds": seconds,
        "units_per_s": sample / seconds,
        "ms_per_unit": seconds * 1000 / sample,
    }
