"""Helpers and data the store contract's parts share."""

from __future__ import annotations

from collections.abc import Callable

from ripplemem.records import Clue, Cues, Membership
from ripplemem.stores.base import MemoryStore, search_dense
from ripplemem.stores.clues_base import ClueStore
from ripplemem.testing.builders import make_unit, unit_vectors

#: ``make_store(name="main", **options)``: see the module docstring.
StoreFactory = Callable[..., MemoryStore]
StoreOpener = Callable[..., MemoryStore]


def ids(pairs: list[tuple[str, float]]) -> list[str]:
    return [unit_id for unit_id, _ in pairs]


# --- units ---------------------------------------------------------------------------------


def assert_absent(store: MemoryStore, unit) -> None:
    assert store.get_units(unit.namespace, [unit.id]) == []
    assert unit.id not in ids(search_dense(store, unit.namespace, unit.vector, 50))
    assert unit.id not in ids(store.search_lexical(unit.namespace, unit.restatement, 50))
    cues = Cues(participants=unit.participants)
    assert unit.id not in store.cue_candidates(unit.namespace, cues, near=None, per_value=50)
    assert all(p.casefold() not in store.cue_values(unit.namespace, "P") for p in unit.participants)


# --- dense ---------------------------------------------------------------------------------


# --- lexical -------------------------------------------------------------------------------


DOCS = {
    "book": "Caroline recommended a book about adoption to Melanie.",
    "paint": "Melanie painted a sunset over the lake with her kids.",
    "hike": "Caroline went hiking in the mountains with friends.",
    "pottery": "Melanie signed up for a class with friends.",
    "adopt": "Caroline is researching adoption agencies; adoption means a lot to her.",
}


def add_docs(store: MemoryStore, namespace: str = "ns") -> None:
    store.add_units(
        [
            make_unit(
                key,
                namespace=namespace,
                restatement=text,
                keywords=("pottery",) if key == "pottery" else (),
            )
            for key, text in DOCS.items()
        ]
    )


# --- the lexical bound (ripplemem/stores/lexical.py) ---------------------------------------


LAKE = {  # "zither" is rare (2 units), "lake" frequent (5); "a" and "b" have the same length
    "a": "Omar tuned a zither today.",
    "b": "Maya tuned a zither by the lake.",
    "c": "Lena swam in the lake.",
    "d": "Ravi fished in the lake.",
    "e": "Aiko rowed on the lake.",
    "f": "Noah ran around the lake.",
}


def add_lake(store: MemoryStore, namespace: str = "ns") -> None:
    for key, text in LAKE.items():  # one by one: the insertion order is part of the test
        store.add_units([make_unit(key, namespace=namespace, restatement=text)])


# --- cues ----------------------------------------------------------------------------------


# --- graph ---------------------------------------------------------------------------------


# --- deletes -------------------------------------------------------------------------------


# --- embedder ------------------------------------------------------------------------------


# --- concurrency & lifecycle ---------------------------------------------------------------


VECTORS = unit_vectors(4, seed=11)


def clue(clue_id: str, row: int, namespace: str = "ns") -> Clue:
    return Clue(clue_id, namespace, f"topic {clue_id}", VECTORS[row] * 3.0, "keyphrases")


def filled(store: MemoryStore, clues: ClueStore) -> None:
    store.add_units([make_unit(i) for i in ("a", "b", "c")])
    clues.add_clue(clue("c1", 0), "s1")
    clues.add_clue(clue("c2", 1), "s2")
    clues.attach("ns", [Membership("a", "c1", 0.9), Membership("b", "c1", 0.5), Membership("c", "c2", 0.7)])
    clues.add_links("ns", [("a", "b", 0.8), ("a", "c", 0.76), ("b", "b", 1.0)])
