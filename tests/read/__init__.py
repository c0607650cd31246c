"""Shared scenario for the read-path tests: the paper's Harbor Grill case in a small store.

Alex (the user) asks "Should I follow Sam's recommendation to take Maya to Harbor Grill?".
The answer needs E1 (Sam recommended Harbor Grill for dinner with Maya), E2 (Harbor Grill is a
seafood restaurant) and E3 (Maya is allergic to seafood). E2 and E3 were said in the same session
(a structural edge: same day), E1 a week later (E1-E2 share the place: a structural edge).
E1 and E3 are not linked, so from anchor E1 the allergy is two structural hops away. Distractors
about Sam, Maya, Harbor Grill, dinners and restaurants crowd the initial views.

Units carry real MiniLM vectors; edges are hand-picked pairs whose weights are computed the way
the linker computes them (structural score / cosine), so the graph is small but honest.
"""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache

import numpy as np

from ripplemem.providers.local_embedder import MiniLMFloatEmbedder
from ripplemem.records import Edge, MemoryUnit, TimeSpan
from ripplemem.stores.base import add_edges
from ripplemem.stores.memory import InMemoryStore
from ripplemem.structure import cue_set, structural_score, structural_time

NS = "alex"
QUERY = "Should I follow Sam's recommendation to take Maya to Harbor Grill?"

# id, restatement, participants, locations, event day (or None), session day
UNITS: list[tuple[str, str, tuple[str, ...], tuple[str, ...], str | None, str]] = [
    (
        "e1",
        "Sam recommended Harbor Grill to Alex as the place for a dinner with Maya.",
        ("Sam", "Alex", "Maya"),
        ("Harbor Grill",),
        "2023-04-23",
        "2023-04-23",
    ),
    (
        "e2",
        "Harbor Grill is a seafood restaurant known for its oysters and lobster.",
        (),
        ("Harbor Grill",),
        None,
        "2023-04-16",
    ),
    (
        "e3",
        "Maya is allergic to seafood and carries an EpiPen everywhere.",
        ("Maya",),
        (),
        None,
        "2023-04-16",
    ),
    (
        "d1",
        "Sam and Maya went hiking on the Pine Ridge trail last Sunday.",
        ("Sam", "Maya"),
        ("Pine Ridge",),
        "2023-04-16",
        "2023-04-20",
    ),
    (
        "d2",
        "Sam and Maya watched a movie together at the Rialto cinema.",
        ("Sam", "Maya"),
        ("Rialto",),
        "2023-03-30",
        "2023-04-02",
    ),
    (
        "d3",
        "Maya told Sam she got a promotion at work and wants to celebrate.",
        ("Sam", "Maya"),
        (),
        "2023-04-22",
        "2023-04-23",
    ),
    (
        "d4",
        "Sam booked a table at Harbor Grill for Friday at 7 pm.",
        ("Sam",),
        ("Harbor Grill",),
        "2023-04-28",
        "2023-04-24",
    ),
    (
        "d5",
        "Sam likes Harbor Grill because of the view of the boats in the harbor.",
        ("Sam",),
        ("Harbor Grill",),
        None,
        "2023-04-24",
    ),
    (
        "d6",
        "Maya and Sam planned a birthday party for Alex next month.",
        ("Sam", "Maya", "Alex"),
        (),
        None,
        "2023-04-05",
    ),
    (
        "d7",
        "Alex asked Sam for a good restaurant recommendation for a date night.",
        ("Alex", "Sam"),
        (),
        None,
        "2023-04-23",
    ),
    (
        "d8",
        "Sam recommended the new sushi bar downtown to Priya.",
        ("Sam", "Priya"),
        ("Sushi Bar",),
        None,
        "2023-03-12",
    ),
    ("d9", "Maya's favourite food is pasta with tomato sauce.", ("Maya",), (), None, "2023-03-05"),
    (
        "d10",
        "Alex took Maya to an Italian restaurant for her birthday last year.",
        ("Alex", "Maya"),
        (),
        None,
        "2023-03-05",
    ),
    (
        "d11",
        "Sam always follows the restaurant reviews of a local food blogger.",
        ("Sam",),
        (),
        None,
        "2023-02-11",
    ),
    (
        "d12",
        "Maya prefers quiet restaurants where she can talk.",
        ("Maya",),
        (),
        None,
        "2023-04-02",
    ),
    (
        "d13",
        "The Harbor Grill parking lot is small, so Alex should take the bus.",
        ("Alex",),
        ("Harbor Grill",),
        None,
        "2023-04-24",
    ),
    (
        "d14",
        "Alex and Maya took a cooking class together at the community center.",
        ("Alex", "Maya"),
        ("Community Center",),
        "2023-04-19",
        "2023-04-20",
    ),
    (
        "d15",
        "Alex bought a new bicycle and rides it to work every day.",
        ("Alex",),
        (),
        None,
        "2023-02-01",
    ),
    (
        "d16",
        "Alex's sister Priya moved to Chicago for a new job.",
        ("Alex", "Priya"),
        ("Chicago",),
        None,
        "2023-02-15",
    ),
    (
        "d17",
        "Alex adopted a cat named Pepper from the animal shelter.",
        ("Alex",),
        ("Animal Shelter",),
        None,
        "2023-01-20",
    ),
    ("d18", "Alex is training for a half marathon in June.", ("Alex",), (), None, "2023-03-20"),
    (
        "d19",
        "Priya recommended a book about mindfulness to Alex.",
        ("Priya", "Alex"),
        (),
        None,
        "2023-03-12",
    ),
    (
        "d20",
        "Alex painted the living room a light shade of green.",
        ("Alex",),
        (),
        None,
        "2023-01-28",
    ),
    (
        "d21",
        "Maya is learning to play the guitar with online lessons.",
        ("Maya",),
        (),
        None,
        "2023-04-20",
    ),
    (
        "d22",
        "Sam's car broke down on the highway and needed a tow.",
        ("Sam",),
        (),
        None,
        "2023-04-24",
    ),
    (
        "d23",
        "Alex watched a documentary about deep sea fishing boats.",
        ("Alex",),
        (),
        None,
        "2023-02-20",
    ),
    (
        "d24",
        "Alex's team at work finished the quarterly report early.",
        ("Alex",),
        (),
        None,
        "2023-04-05",
    ),
    (
        "d25",
        "Priya visited Alex and they went to a jazz concert.",
        ("Priya", "Alex"),
        ("Blue Note",),
        None,
        "2023-03-12",
    ),
    (
        "d26",
        "Alex reserved a table for two at 7 pm on Friday.",
        ("Alex",),
        ("Harbor Grill",),
        None,
        "2023-04-23",
    ),
]

# Hand-picked edges (kind, a, b); weights are computed like the linker does.
EDGES: list[tuple[str, str, str]] = [
    ("structural", "e1", "e2"),  # same place, three days apart
    ("structural", "e2", "e3"),  # same session day
    ("structural", "e1", "d3"),
    ("structural", "e1", "d4"),
    ("structural", "e1", "d7"),
    ("structural", "e1", "d26"),  # the reservation: a strong 1-hop link, off the goal
    ("structural", "d1", "d14"),
    ("structural", "e3", "d21"),  # Maya, four days apart
    ("structural", "d4", "d5"),
    ("structural", "d4", "d13"),
    ("structural", "d8", "d19"),
    ("structural", "d2", "d12"),
    ("semantic", "e1", "d7"),
    ("semantic", "e1", "d8"),
    ("semantic", "e2", "d5"),
    ("semantic", "d9", "d10"),
    ("semantic", "d10", "d12"),
]


def _day(value: str | None) -> TimeSpan | None:
    return TimeSpan.day(datetime.fromisoformat(value)) if value else None


@lru_cache(maxsize=1)
def embedder() -> MiniLMFloatEmbedder:
    return MiniLMFloatEmbedder(threads=1)


@lru_cache(maxsize=1)
def _vectors() -> dict[str, np.ndarray]:
    vectors = embedder().embed([text for _, text, *_ in UNITS])
    return {row[0]: vectors[i] for i, row in enumerate(UNITS)}


def make_units() -> list[MemoryUnit]:
    vectors = _vectors()
    return [
        MemoryUnit(
            id=unit_id,
            namespace=NS,
            restatement=text,
            vector=vectors[unit_id],
            participants=people,
            locations=places,
            time_span=_day(event),
            episode_id="s-" + said,
            turn_ids=(unit_id + ":1",),
            session_time=datetime.fromisoformat(said + "T18:00:00"),
            created_at=datetime.fromisoformat(said + "T18:00:00"),
        )
        for unit_id, text, people, places, event, said in UNITS
    ]


def edge_weight(kind: str, a: MemoryUnit, b: MemoryUnit) -> float:
    if kind == "semantic":
        return float(np.dot(a.vector, b.vector))
    score = structural_score(
        cue_set(a.participants),
        cue_set(a.locations),
        structural_time(a),
        cue_set(b.participants),
        cue_set(b.locations),
        structural_time(b),
    )
    return float(score or 0.0)


def build_store(*, edges: bool = True) -> InMemoryStore:
    """A fresh store holding the scenario (a new one per call: tests may change it)."""
    store = InMemoryStore()
    emb = embedder()
    store.check_embedder(emb.name, emb.dim)
    units = make_units()
    store.add_units(units)
    if edges:
        by_id = {u.id: u for u in units}
        add_edges(
            store,
            (
                Edge(NS, a, b, kind, max(0.05, edge_weight(kind, by_id[a], by_id[b])))  # type: ignore[arg-type]
                for kind, a, b in EDGES
            ),
        )
    return store
