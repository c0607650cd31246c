"""``check_add`` raises what ``add`` would raise for the same input before any work, and stores
nothing either way (the service checks a background add with it before queueing it)."""

from __future__ import annotations

import asyncio

import pytest

from ripplemem import AsyncMemory, Memory, Settings
from ripplemem.errors import InvalidInputError
from ripplemem.testing import FakeEmbedder

from .conftest import TRIP

REFUSED = [
    ("I drive a red Volvo.", {"session_time": "2024-02-30"}),
    ("   ", {}),
    ([{"role": "user", "content": "I like tea. " * 2_000}], {}),
    ([{"content": "no speaker"}], {}),
    ("I drive a red Volvo.", {"session_id": "s\x00"}),
    ("I drive a red Volvo.", {"metadata": {"note": "x" * 20_000}}),
    ([], {}),
    ([{"role": "user", "content": "I moved to Leeds.", "time": "2024-05-01"}], {}),
]


@pytest.mark.parametrize(("messages", "options"), REFUSED)
def test_check_add_refuses_what_add_refuses_with_the_same_message(messages, options) -> None:
    with Memory(Settings(store="memory://"), embedder=FakeEmbedder()) as memory:
        with pytest.raises(InvalidInputError) as added:
            memory.add(messages, user_id="maya", **options)
        with pytest.raises(InvalidInputError) as checked:
            memory.check_add(messages, **options)
        assert str(checked.value) == str(added.value)
        assert memory.namespaces() == []


def test_check_add_passes_what_add_takes_and_stores_nothing() -> None:
    async def run() -> list[str]:
        async with AsyncMemory(Settings(store="memory://"), embedder=FakeEmbedder()) as memory:
            await memory.check_add(TRIP, session_time="2024-02-29T10:00", metadata={"topic": "trip"})
            await memory.check_add("I live in Lisbon.")
            return await memory.namespaces()

    assert asyncio.run(run()) == []
