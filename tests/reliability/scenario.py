"""The crash and concurrency scenario: a store holding one conversation, and a second one (the
demo conversation twice over, 70 turns, one turn per window: two insert batches) being added."""

from __future__ import annotations

from dataclasses import replace

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
            "links": sorted(clues.links(ns, ids).items()),
        }
    return found


def searches(memory, namespace: str) -> list:
    return [
        [(e.unit.id, e.score) for e in memory.search(q, namespace=namespace, recipe=r).evidence]
        for q in QUERIES for r in ("ripple", "asso")
    ]
