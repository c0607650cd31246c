"""The crash and concurrency scenario: a store holding one conversation, and a second one (the
demo conversation twice over, 70 turns, one turn per window: two insert batches) being added."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from ripplemem.demo import load_demo
from ripplemem.records import Conversation, Session
from ripplemem.settings import Settings, WriteSettings

TRIP = [
    {"speaker": "Maya", "text": "I went to Lisbon with Priya two weekends ago, we loved the trams."},
    {"speaker": "Sam", "text": "Nice! Did you try the pastel de nata?"},
    {"speaker": "Maya", "text": "Yes, every day. I am also allergic to shellfish, so I skipped the seafood."},
]
QUERIES = ["Where did Maya travel?", "What is Maya allergic to?", "birthday dinner plans",
           "When did they go to Lisbon?", "What did Alex book?", "pottery class"]


def settings(store: str) -> Settings:
    return Settings(store=store, write=WriteSettings(window_turns=1, window_overlap=0))


def crash_conversation() -> Conversation:
    demo, _ = load_demo()
    sessions: list[Session] = []
    for copy in ("a", "b"):
        for session in demo.sessions:
            turns = tuple(replace(t, turn_id=f"{copy}-{t.turn_id}") for t in session.turns)
            sessions.append(replace(session, session_id=f"{copy}-{session.session_id}", turns=turns))
    return replace(demo, conversation_id="crash", sessions=tuple(sessions))


def snapshot(memory) -> dict:
    """Everything the store holds of its namespaces, vectors as raw bytes (not creation times)."""
    store, clues = memory.store, memory.store.clues
    found: dict = {}
    for ns in memory.namespaces():
        units = memory.list(namespace=ns)
        ids = [u.id for u in units]
        memberships = clues.clues_of_units(ns, ids)
        clue_ids = sorted({m.clue_id for m in memberships.values()})
        found[ns] = {
            "units": [
                ({k: v for k, v in u.to_json(with_vector=False).items() if k != "created_at"},
                 u.vector.tobytes())
                for u in units
            ],
            "edges": sorted((e.src, e.dst, e.kind, e.weight) for i in ids for e in store.edges_of(ns, i)),
            "clues": [(c.id, c.text, c.source, c.sessions, c.vector.tobytes()) for c in clues.get_clues(ns, clue_ids)],
            "sessions": sorted({(u.episode_id, clues.clue_for_session(ns, u.episode_id)) for u in units}),
            "members": sorted(memberships.items()),
            # by neighbour id: the store lists them by weight, and weights of equal value can
            # differ in their last bit (below)
            "links": sorted((k, sorted(v)) for k, v in clues.links(ns, ids).items()),
        }
    return found


def searches(memory, namespace: str) -> list:
    return [
        [(e.unit.id, e.score) for e in memory.search(q, namespace=namespace, recipe=r).evidence]
        for q in QUERIES for r in ("ripple", "asso")
    ]


#: Scores and weights are float32 dot products. BLAS picks its kernel by the shape of a batched
#: search (how many queries, how many stored rows), and on some CPUs (AVX-512) two kernels sum in
#: a different order: the same pair can score 1 ulp apart when a store was built in other batches
#: (a crash, a retry, another process). The stores are the same when every float agrees to this.
FLOAT_TOLERANCE = 1e-5


def difference(expected: Any, found: Any, path: str = "") -> str | None:
    """Where ``found`` differs from ``expected`` (floats within ``FLOAT_TOLERANCE``), or None."""
    if isinstance(expected, float) or isinstance(found, float):
        if isinstance(expected, (int, float)) and isinstance(found, (int, float)) and math.isclose(
            expected, found, rel_tol=FLOAT_TOLERANCE, abs_tol=FLOAT_TOLERANCE
        ):
            return None
        return f"{path}: {expected!r} != {found!r}"
    if isinstance(expected, dict) and isinstance(found, dict):
        if expected.keys() != found.keys():
            return f"{path}: keys {sorted(expected)} != {sorted(found)}"
        for key in expected:
            if (where := difference(expected[key], found[key], f"{path}/{key}")) is not None:
                return where
        return None
    if isinstance(expected, (list, tuple)) and isinstance(found, (list, tuple)):
        if type(expected) is not type(found) or len(expected) != len(found):
            return f"{path}: {len(expected)} items != {len(found)} items"
        for i, (a, b) in enumerate(zip(expected, found, strict=True)):
            if (where := difference(a, b, f"{path}[{i}]")) is not None:
                return where
        return None
    return None if expected == found else f"{path}: {expected!r} != {found!r}"
