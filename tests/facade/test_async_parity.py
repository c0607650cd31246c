"""AsyncMemory mirrors Memory: the same verbs with the same signatures, giving the same results."""

from __future__ import annotations

import asyncio
import inspect

import pytest

from ripplemem import AsyncMemory, Memory, Settings
from ripplemem.testing import FakeEmbedder

from .conftest import DINNER, TRIP

SYNC_ONLY = {"__init__", "__enter__", "__exit__"}
ASYNC_ONLY = {"__aenter__", "__aexit__", "sync", "settings"}  # settings: an attribute of Memory


def _public(cls) -> dict[str, object]:
    return {
        name: member
        for name, member in inspect.getmembers(cls)
        if not name.startswith("_") or name in {"__enter__", "__exit__", "__aenter__", "__aexit__"}
    }


def test_every_verb_has_an_async_twin_with_the_same_signature():
    sync, asynchronous = _public(Memory), _public(AsyncMemory)
    assert set(sync) - SYNC_ONLY == set(asynchronous) - ASYNC_ONLY
    for name, member in sync.items():
        if name in SYNC_ONLY:
            continue
        twin = asynchronous[name]
        if isinstance(inspect.getattr_static(Memory, name), property):
            assert isinstance(inspect.getattr_static(AsyncMemory, name), property), name
            continue
        if isinstance(inspect.getattr_static(Memory, name), classmethod):
            assert inspect.signature(member) == inspect.signature(twin).replace(
                return_annotation=inspect.signature(member).return_annotation
            ), name
            continue
        assert inspect.iscoroutinefunction(twin), f"AsyncMemory.{name} is not a coroutine"
        assert inspect.signature(member) == inspect.signature(twin), name


def test_settings_is_reachable_on_both():
    settings = Settings(store="memory://")
    embedder = FakeEmbedder()
    assert Memory(settings, embedder=embedder).settings is settings
    assert AsyncMemory(settings, embedder=embedder).settings is settings


@pytest.mark.parametrize("store", ["memory://"])
def test_the_async_memory_gives_what_the_sync_one_gives(store):
    embedder = FakeEmbedder()

    def sync_run():
        with Memory(Settings(store=store), embedder=embedder) as memory:
            memory.add(TRIP, user_id="maya", session_time="2024-05-20T10:00")
            memory.add(DINNER, user_id="maya", session_time="2024-05-21T10:00")
            found = memory.search("Where did Maya travel?", user_id="maya")
            return [e.unit.id for e in found.evidence], len(memory.list(user_id="maya"))

    async def async_run():
        async with AsyncMemory(Settings(store=store), embedder=embedder) as memory:
            await memory.add(TRIP, user_id="maya", session_time="2024-05-20T10:00")
            await memory.add(DINNER, user_id="maya", session_time="2024-05-21T10:00")
            found, listed = await asyncio.gather(
                memory.search("Where did Maya travel?", user_id="maya"),
                memory.list(user_id="maya"),
            )
            return [e.unit.id for e in found.evidence], len(listed)

    assert sync_run() == asyncio.run(async_run())
