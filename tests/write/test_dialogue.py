"""Dialogue edges: the units of neighbouring turns of one episode are linked (write/dialogue.py)."""

from __future__ import annotations

from datetime import datetime

import numpy as np
import pytest

from ripplemem.errors import ConfigurationError
from ripplemem.memory import Memory
from ripplemem.records import Conversation, MemoryUnit, Session, Turn
from ripplemem.settings import Settings, WriteSettings
from ripplemem.stores.memory import InMemoryStore
from ripplemem.stores.sqlite import SQLiteStore
from ripplemem.write.dialogue import DIALOGUE_WEIGHT, DialogueLinker

NS = "ns"
T0 = datetime(2024, 5, 1, 12, 0)


def unit(uid: str, position: int, episode: str = "s1") -> MemoryUnit:
    v = np.zeros(8, dtype=np.float32)
    v[hash(uid) % 8] = 1.0
    return MemoryUnit(
        id=uid, namespace=NS, restatement=f"unit {uid}", vector=v, participants=("Ann",),
        locations=(), time_span=None, episode_id=episode, turn_ids=(f"t{position}",),
        session_time=T0, created_at=T0, extra={"turn_index": position},
    )


@pytest.fixture(params=["memory", "sqlite"])
def store(request, tmp_path):
    backend = InMemoryStore() if request.param == "memory" else SQLiteStore(tmp_path / "s.db")
    backend.check_embedder("test", 8)
    yield backend
    backend.close()


def neighbours(store, uid: str) -> dict[str, float]:
    return dict(store.neighbours(NS, [uid], "structural").get(uid, []))


def test_same_and_neighbouring_turns_of_one_episode_are_linked(store):
    units = [unit("a", 0), unit("b", 1), unit("b2", 1), unit("c", 2), unit("d", 4), unit("x", 1, "s2")]
    store.add_units(units)
    added = DialogueLinker(store).link(units)
    assert neighbours(store, "b") == {"a": DIALOGUE_WEIGHT, "b2": DIALOGUE_WEIGHT, "c": DIALOGUE_WEIGHT}
    assert set(neighbours(store, "a")) == {"b", "b2"}
    assert neighbours(store, "d") == {}  # two turns away
    assert neighbours(store, "x") == {}  # another episode
    assert added == 5  # a-b, a-b2, b-b2, b-c, b2-c


def test_positions_are_remembered_across_batches(store):
    first, second = [unit("a", 0), unit("b", 1)], [unit("c", 2)]
    linker = DialogueLinker(store)
    store.add_units(first)
    linker.link(first)
    store.add_units(second)
    linker.link(second)
    assert set(neighbours(store, "c")) == {"b"}


def test_reach_zero_links_one_turn_only_and_none_links_nothing(store):
    units = [unit("a", 0), unit("a2", 0), unit("b", 1)]
    store.add_units(units)
    assert DialogueLinker(store, reach=None).link(units) == 0
    assert DialogueLinker(store, reach=0).link(units) == 1
    assert set(neighbours(store, "a")) == {"a2"}


def test_a_negative_reach_is_refused():
    with pytest.raises(ConfigurationError, match="dialogue_reach"):
        WriteSettings(dialogue_reach=-1)


def test_the_write_pipeline_links_an_exchange(tmp_path):
    turns = [
        Turn("t1", "Ann", "Where should we eat on Friday?"),
        # an answer with a verb of its own (a bare phrase is kept with its question)
        Turn("t2", "Bob", "The Blue Lantern noodle bar, their dumplings are the best in town."),
        Turn("t3", "Ann", "I finished the marathon training plan today."),
        Turn("t4", "Bob", "My sister moved to Lisbon for work."),
    ]
    conversation = Conversation("c1", (Session("s1", T0, tuple(turns)),))
    with Memory(Settings(store=tmp_path / "m.db", extractor="deterministic")) as memory:
        added = memory.add(conversation, namespace=NS)
        by_turn = {u.turn_ids[0]: u.id for u in added.units}
        linked = neighbours(memory.store, by_turn["t1"])
        assert linked.get(by_turn["t2"]) == DIALOGUE_WEIGHT
        assert by_turn["t4"] not in linked or linked[by_turn["t4"]] < DIALOGUE_WEIGHT
