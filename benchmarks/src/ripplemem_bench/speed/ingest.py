"""Part 3 of ``bench speed``: real LoCoMo conversations through ``Memory.add``, timed per stage.

Each conversation is ingested into its own namespace of one SQLite store (after one warm-up
conversation), with the embedder and the store wrapped to time every call: the row of a
conversation splits its wall time into embedding, store calls and the rest (segmentation,
extraction, time grounding, link scoring).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ripplemem.errors import InvalidInputError
from ripplemem_bench.measure import TimedEmbedder as _TimedEmbedder
from ripplemem_bench.measure import TimedStore as _TimedStore
from ripplemem_bench.measure import report_progress as _report
from ripplemem_bench.results.growth import LocomoIngest

if TYPE_CHECKING:
    from ripplemem import Memory
    from ripplemem.providers import Embedder
    from ripplemem.records import Conversation
    from ripplemem_bench.measure import Progress

STAGES = ("embed", "store", "rest")
STAGES_NOTE = (
    "embed: the embedder; store: every store call (add_units, and the linker's "
    "search_dense_many, cue_candidates, get_units, neighbours, add/remove_edges); rest: "
    "segmentation, extraction (NER, restatement), time grounding and link scoring"
)


def locomo_ingest(
    path: Path, embedder: Embedder, folder: Path, progress: Progress | None
) -> LocomoIngest:
    """Ingest every conversation of the LoCoMo file at ``path``, each into its own namespace."""
    from ripplemem import Memory, Settings
    from ripplemem.datasets import load_locomo
    from ripplemem.stores import open_store

    samples = load_locomo(path)
    if not samples:
        raise InvalidInputError(f"{path} holds no LoCoMo conversation")
    store_path = folder / "locomo.db"
    settings = Settings(store=store_path, extractor="deterministic", planner="deterministic")
    timed_embedder = _TimedEmbedder(embedder)
    timed_store = _TimedStore(open_store(store_path))
    memory = Memory(settings, store=timed_store, embedder=timed_embedder)
    rows: list[dict[str, Any]] = []
    try:
        _report(progress, "LoCoMo warm-up conversation", 0, len(samples))
        memory.add(samples[0].conversation, namespace="warmup")
        for done, sample in enumerate(samples):
            conversation = sample.conversation
            _report(progress, f"LoCoMo ingest {conversation.conversation_id}", done, len(samples))
            rows.append(_timed_add(memory, conversation, timed_embedder, timed_store))
    finally:
        memory.close()
    return _summary(path, rows)


def _timed_add(
    memory: Memory, conversation: Conversation, embedder: _TimedEmbedder, store: _TimedStore
) -> dict[str, Any]:
    """One conversation's row: its wall time split into embedding, store calls and the rest."""
    embed_before, store_before = embedder.seconds, dict(store.seconds)
    started = time.perf_counter()
    added = memory.add(conversation, namespace=f"locomo/{conversation.conversation_id}")
    wall = time.perf_counter() - started
    store_calls = {
        name: seconds - store_before.get(name, 0.0)
        for name, seconds in sorted(store.seconds.items())
        if seconds - store_before.get(name, 0.0) > 0
    }
    embed = embedder.seconds - embed_before
    return {
        "conversation": conversation.conversation_id,
        "turns": sum(len(s.turns) for s in conversation.sessions),
        "sessions": len(conversation.sessions),
        "windows": added.windows,
        "units": len(added.units),
        "edges": added.edges,
        "seconds": wall,
        "stages_s": {
            "embed": embed,
            "store": sum(store_calls.values()),
            "rest": wall - embed - sum(store_calls.values()),
        },
        "store_calls_s": store_calls,
    }


def _summary(path: Path, rows: list[dict[str, Any]]) -> LocomoIngest:
    seconds = [row["seconds"] for row in rows]
    totals = {stage: sum(row["stages_s"][stage] for row in rows) for stage in STAGES}
    return LocomoIngest(
        file=path.name,
        conversations=len(rows),
        extractor="deterministic",
        planner="deterministic",
        seconds_mean=float(np.mean(seconds)),
        seconds_max=float(np.max(seconds)),
        seconds_min=float(np.min(seconds)),
        units_mean=float(np.mean([row["units"] for row in rows])),
        turns_mean=float(np.mean([row["turns"] for row in rows])),
        stage_share={stage: value / sum(seconds) for stage, value in totals.items()},
        stages_note=STAGES_NOTE,
        per_conversation=rows,
    )
