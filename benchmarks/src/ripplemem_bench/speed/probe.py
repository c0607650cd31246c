"""Part 4 of ``bench speed``: the same conversations written into the store at every size.

Part 1 grows the store with a stream whose neighbourhoods densify as it grows (an import: more
units of each person, place and activity within reach), so a unit inserted at 100k finds about
four times the linker candidates of one inserted at 1k and makes twice the edges: its window
ratio mixes the store's size with the work the data asks for. This part holds the input fixed
and varies only the size, as a controlled measurement should.

At each size (after the searches) every probe conversation goes through ``Memory.add`` (the
deterministic extractor, the embedder, the store, the linker, dialogue edges, the clue graph)
into the grown namespace, so it is written beside the store's units, into the same vector
index, cue index, lexical postings and graph. Its units are deleted again before the next
conversation and before the store grows on: every conversation meets a store of exactly that
size. ``AddResult.timings_ms`` splits each write by stage; the *insert* is what happens after
embedding (:data:`~ripplemem.records.INSERT_STAGES`: update candidates, store, near-neighbour
search, link, dialogue edges, supersedes edges, clue graph), the part a store's size can make
slower.

Probes: the conversations of the LoCoMo file given to ``bench speed --locomo``, else the demo
conversation that ships with ripplemem, written ``repeats`` times.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ripplemem.records import INSERT_STAGES
from ripplemem_bench.measure import report_progress as _report
from ripplemem_bench.results.growth import ProbeCost

if TYPE_CHECKING:
    from ripplemem import Memory
    from ripplemem.providers import Embedder
    from ripplemem.records import Conversation
    from ripplemem.stores import MemoryStore
    from ripplemem_bench.measure import Progress

#: The demo conversation is small (37 units): written this many times per size.
DEMO_REPEATS = 10


def probe_conversations(locomo: Path | None) -> tuple[str, list[Conversation]]:
    """The probe: every conversation of a LoCoMo file, else the shipped demo conversation."""
    if locomo is not None:
        from ripplemem.datasets import load_locomo

        return locomo.name, [sample.conversation for sample in load_locomo(locomo)]
    from ripplemem.demo import load_demo

    conversation, _ = load_demo()
    return f"demo conversation ×{DEMO_REPEATS}", [conversation] * DEMO_REPEATS


class Probe:
    """Writes the probe conversations into one namespace of a store, timed, and takes them out."""

    def __init__(
        self,
        store: MemoryStore,
        embedder: Embedder,
        namespace: str,
        conversations: Sequence[Conversation],
        source: str,
    ) -> None:
        self.store, self.embedder, self.namespace = store, embedder, namespace
        self.conversations, self.source = list(conversations), source

    def fresh_memory(self) -> Memory:
        """A new ``Memory`` on the store, its models loaded outside the clock (a scratch
        namespace, then dropped). New at every size: the probe writes the same conversations at
        each size, and a memory that parsed them before reads their clauses from its cache,
        which a new conversation never does."""
        from ripplemem import Memory, Settings

        settings = Settings(extractor="deterministic", planner="deterministic")
        memory = Memory(settings, store=self.store, embedder=self.embedder)
        if self.conversations:
            memory.add(self.conversations[0], namespace="speed-probe-warmup")
            self.store.delete_namespace("speed-probe-warmup")
        return memory

    def run(self, size: int, progress: Progress | None) -> ProbeCost:
        """Write each conversation into the namespace (``size`` units), time it, delete it."""
        self.memory = self.fresh_memory()
        rows: list[dict[str, Any]] = []
        for done, conversation in enumerate(self.conversations):
            _report(
                progress, f"probe conversations into {size:,} units", done, len(self.conversations)
            )
            started = time.perf_counter()
            added = self.memory.add(conversation, namespace=self.namespace)
            wall = (time.perf_counter() - started) * 1000
            rows.append(
                {
                    "conversation": conversation.conversation_id,
                    "units": len(added.units),
                    "edges": added.edges,
                    "ms": wall,
                    "insert_ms": added.insert_ms,
                    "stages_ms": dict(added.timings_ms),
                }
            )
            for unit in added.units:
                self.store.delete_unit(self.namespace, unit.id)
        return summarise(rows, self.source)


def summarise(rows: list[dict[str, Any]], source: str) -> ProbeCost:
    """Per-unit cost of the probe writes: the whole ``add`` and its insert stages."""
    units = sum(row["units"] for row in rows)
    if not units:
        return ProbeCost(source=source, writes=len(rows), units=0)
    stages: dict[str, float] = {}
    for row in rows:
        for stage, ms in row["stages_ms"].items():
            stages[stage] = stages.get(stage, 0.0) + ms
    return ProbeCost(
        source=source,
        writes=len(rows),
        units=units,
        add_ms_per_unit=sum(row["ms"] for row in rows) / units,
        insert_ms_per_unit=sum(row["insert_ms"] for row in rows) / units,
        insert_stages=list(INSERT_STAGES),
        stage_ms_per_unit={stage: ms / units for stage, ms in stages.items()},
        edges_per_unit=sum(row["edges"] for row in rows) / units,
        per_write=rows,
    )
