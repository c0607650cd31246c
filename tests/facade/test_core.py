"""The core's verbs beyond search and add, as both faces offer them: export and import as lines
(no temporary file), the viewer's verbs, keys, a whole-store copy, the declared extension points,
and AsyncMemory's lanes (write turns per namespace, re-entrant in one task)."""

from __future__ import annotations

import asyncio
import json

import pytest

import ripplemem.extensions
from ripplemem import AsyncMemory, Memory, Settings
from ripplemem.core.lanes import Lanes
from ripplemem.errors import InvalidInputError
from ripplemem.testing import FakeEmbedder

from .conftest import DINNER, TRIP


@pytest.fixture
def memory(tmp_path):
    with Memory(Settings(store=str(tmp_path / "m.db")), embedder=FakeEmbedder()) as m:
        m.add(TRIP, user_id="maya", session_time="2024-05-20T10:00")
        m.add(DINNER, user_id="sam", session_time="2024-05-21T10:00")
        yield m


def test_export_lines_are_the_export_file_and_import_lines_can_retarget(memory, tmp_path):
    path = tmp_path / "dump.jsonl"
    written = memory.export_jsonl(path, namespace="maya")
    lines = list(memory.export_lines(user_id="maya"))
    assert lines == path.read_text().splitlines() and json.loads(lines[0])["type"] == "meta"
    assert sum(json.loads(line)["type"] == "unit" for line in lines) == written
    everything = list(memory.export_lines())
    assert {json.loads(line).get("namespace") for line in everything[1:]} == {"maya", "sam"}
    assert memory.import_lines(lines, user_id="maya", agent_id="copy") == written
    copied = memory.list(user_id="maya", agent_id="copy")
    assert len(copied) == written and {u.namespace for u in copied} == {"maya/agent:copy"}
    assert memory.import_lines(lines, user_id="maya", agent_id="copy") == 0  # idempotent
    with pytest.raises(InvalidInputError, match="holds 2 namespaces"):
        memory.import_lines(everything, user_id="elsewhere")
    with pytest.raises(InvalidInputError, match="no meta line"):
        memory.import_lines(lines[1:], user_id="elsewhere")
    assert memory.count(user_id="elsewhere") == 0  # all or nothing
    with pytest.raises(InvalidInputError, match="not UTF-8"):
        memory.import_lines(b"\xff\xfe", user_id="elsewhere")


def test_the_viewer_verbs_keys_and_a_copy_of_the_whole_store(memory, tmp_path):
    seeds = [u.id for u in memory.list(user_id="maya")[:1]]
    found = memory.neighbourhood(seeds, user_id="maya", hops=1)
    assert found.units[0].id == seeds[0] and all(u.namespace == "maya" for u in found.units)
    assert memory.neighbourhood(seeds, user_id="sam").units == []  # ids of another namespace
    line = memory.timeline(user_id="maya")
    assert line.total == memory.count(user_id="maya") and line.units
    with pytest.raises(InvalidInputError, match="ISO 8601"):
        memory.timeline(user_id="maya", start="last tuesday")
    key, secret = memory.keys.create(["maya"], label="test")
    assert memory.keys.find(secret) == key and [k.id for k in memory.keys.list()] == [key.id]
    memory.keys.revoke(key.id)
    assert memory.keys.find(secret) is None
    copy = memory.copy_to(str(tmp_path / "copy.db"), sample=5)
    assert copy.verification.ok and set(copy.report.namespaces) == {"maya", "sam"}
    assert copy.report.keys == 1
    with Memory(Settings(store=str(tmp_path / "copy.db")), embedder=FakeEmbedder()) as copied:
        assert [u.id for u in copied.list(user_id="maya")] == [u.id for u in memory.list(user_id="maya")]
    with pytest.raises(InvalidInputError, match="already holds memories"):
        memory.copy_to(str(tmp_path / "copy.db"))


def test_the_extension_points_are_declared_and_pinned(memory):
    assert set(ripplemem.extensions.__all__) == {"Stages", "embedder_of", "reader_of", "stages_of", "warm_up"}
    assert not hasattr(memory, "parts")
    embedder = ripplemem.extensions.embedder_of(memory)
    assert embedder.name == "fake-bow" and embedder.embed(["x"]).shape == (1, embedder.dim)
    stages = ripplemem.extensions.stages_of(memory)
    assert (stages.embedder, stages.extractor_class, stages.chat) == (
        "fake-bow", "DeterministicExtractor", None
    )
    ripplemem.extensions.warm_up(memory)


def test_async_writes_to_one_namespace_take_turns_and_a_held_turn_is_re_entrant(tmp_path):
    lanes = Lanes(read_threads=2, write_threads=2)
    order: list[str] = []

    async def scenario() -> None:
        other_done = asyncio.Event()
        async with AsyncMemory(
            Settings(store=str(tmp_path / "a.db")), embedder=FakeEmbedder(), lanes=lanes
        ) as memory:
            async def hold() -> None:
                async with lanes.turn("maya"):
                    order.append("held")
                    await memory.add(TRIP, user_id="maya")  # inside the held turn: no deadlock
                    await asyncio.wait_for(other_done.wait(), timeout=30)  # sam is not blocked
                    await asyncio.sleep(0.1)
                    order.append("released")

            async def wait() -> None:
                await asyncio.sleep(0.05)
                await memory.add(DINNER, user_id="maya")
                order.append("second add")

            async def elsewhere() -> None:
                await asyncio.sleep(0.05)
                await memory.add(DINNER, user_id="sam")
                order.append("other namespace")
                other_done.set()

            await asyncio.wait_for(asyncio.gather(hold(), wait(), elsewhere()), timeout=60)
            assert (await memory.search("Lisbon", user_id="nobody")).evidence == ()

    asyncio.run(scenario())
    assert order.index("second add") > order.index("released")
    assert order.index("other namespace") < order.index("released")
