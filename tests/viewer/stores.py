"""Stores for the browser tests: the demo conversation, and a large synthetic namespace.

The large one is built the way the write path stores and links units (``add_units`` then
``Linker.link``, in batches), with the shipped embedder's name recorded. To build 10,000 units
in seconds, each unit's vector is the embedding of one of 300 template sentences plus a little
noise, not the embedding of its own restatement: the graph is as dense as a real store's (the
linker caps every unit at 6 + 6 edges), which is what the viewer's cost depends on.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import numpy as np

from ripplemem.demo import load_demo
from ripplemem.memory import Memory
from ripplemem.providers.factory import make_embedder
from ripplemem.records import MemoryUnit, TimeSpan
from ripplemem.settings import Settings, WriteSettings
from ripplemem.stores.registry import open_store
from ripplemem.write.link import Linker
from ripplemem.write.pipeline import resolve_thresholds

PEOPLE = ["Alex", "Maya", "Sam", "Priya", "Jonas", "Aoife", "Tomas", "Lena", "Ravi", "Chen"]
DOING = ["cooked dinner", "went hiking", "read a novel", "fixed the bike", "visited the museum",
         "played the cello", "painted the kitchen", "ran a half marathon", "planted tomatoes",
         "booked a flight", "adopted a cat", "learned to swim", "watched a film", "moved flat",
         "started a new job"]
PLACES = ["Lisbon", "Oslo", "Porto", "Dublin", "Berlin", "Kyoto", "Lima", "Austin", "Cork", "Riga"]
T0 = datetime(2023, 1, 1)


def demo_store(path: Path) -> None:
    """The demo conversation in namespace ``demo`` (what `make demo` ingests)."""
    conversation, _ = load_demo()
    settings = Settings(store=str(path), extractor="deterministic", planner="deterministic")
    with Memory(settings) as memory:
        memory.add(conversation, namespace="demo")


def large_store(path: Path, units: int, namespace: str = "big", batch: int = 1000) -> None:
    embedder = make_embedder(Settings().embedder)
    templates = [
        f"{PEOPLE[i % 10]} {DOING[(i // 10) % 15]} with {PEOPLE[(i * 7 + 3) % 10]} in {PLACES[(i // 3) % 10]}."
        for i in range(300)
    ]
    base = embedder.embed(templates, input_type="document")
    noise = np.random.default_rng(0)
    with open_store(str(path)) as store:
        store.check_embedder(embedder.name, embedder.dim)
        linker = Linker(store, resolve_thresholds(WriteSettings(), embedder))
        for start in range(0, units, batch):
            fresh = []
            for i in range(start, min(start + batch, units)):
                k = i % 300
                vector = base[k] + noise.normal(0, 0.02, embedder.dim).astype(np.float32)
                day = T0 + timedelta(days=i % 700)
                said = day + timedelta(days=3, hours=18)
                fresh.append(MemoryUnit(
                    id=f"u{i:06d}", namespace=namespace,
                    restatement=f"{templates[k][:-1]} (day {i % 700}, note {i}).",
                    vector=vector / np.linalg.norm(vector),
                    participants=(PEOPLE[k % 10], PEOPLE[(k * 7 + 3) % 10]),
                    locations=(PLACES[(k // 3) % 10],),
                    time_span=TimeSpan(day, day + timedelta(hours=23)),
                    episode_id=f"session_{i // 20}", turn_ids=(f"session_{i // 20}:{i % 20 + 1}",),
                    session_time=said, created_at=said,
                ))
            with store.write([namespace]):
                store.add_units(fresh)
                linker.link(fresh)
