"""``update`` keeps the old memory's metadata on the new unit, and ``update(..., metadata=...)``
merges into it (the given keys override, the others are kept): the coming-from-mem0 flow, where a
metadata-filtered search must find the new fact and mark the old one superseded."""

from __future__ import annotations

import asyncio

import pytest

from ripplemem import AsyncMemory, Memory, Settings
from ripplemem.errors import InvalidInputError

QUESTION = "What does Alex like to eat?"


def test_the_mem0_guide_flow_finds_the_update_through_a_metadata_filter(memory: Memory) -> None:
    memory.set_person("Alex", user_id="alex")
    memory.add(
        [{"role": "user", "content": "I'm vegetarian and I love Thai food."},
         {"role": "assistant", "content": "Noted! Any favourite Thai dish?"}],
        user_id="alex", metadata={"category": "food"},
    )
    first = memory.search(QUESTION, user_id="alex", limit=5, filters={"category": "food"}).evidence[0].unit
    new = memory.update(first.id, "I eat fish again since last month.", user_id="alex").units[0]
    assert new.metadata == {"category": "food"}
    found = memory.search(QUESTION, user_id="alex", limit=5, filters={"category": "food"}).evidence
    marks = {e.unit.id: e.superseded_by for e in found}
    assert marks[new.id] is None and marks[first.id] == new.id


def test_metadata_given_to_update_overrides_the_old_keys_and_keeps_the_others(memory: Memory) -> None:
    old = memory.add("I live in Leeds.", user_id="m", metadata={"topic": "home", "source": "chat"}).units[0]
    new = memory.update(old.id, "I live in Bristol now.", user_id="m", metadata={"source": "email"}).units[0]
    assert new.metadata == {"topic": "home", "source": "email"}
    assert memory.get(old.id, user_id="m").metadata == {"topic": "home", "source": "chat"}
    with pytest.raises(InvalidInputError, match="the update.s metadata must be a JSON object"):
        memory.update(old.id, "I live in York now.", user_id="m", metadata=["x"])  # type: ignore[arg-type]


def test_async_update_takes_metadata(embedder) -> None:
    async def run() -> dict:
        async with AsyncMemory(Settings(store="memory://"), embedder=embedder) as memory:
            old = (await memory.add("I work at Acme.", user_id="a", metadata={"topic": "work"})).units[0]
            new = await memory.update(old.id, "Beta hired me.", user_id="a", metadata={"mood": "glad"})
            return new.units[0].metadata

    assert asyncio.run(run()) == {"topic": "work", "mood": "glad"}
