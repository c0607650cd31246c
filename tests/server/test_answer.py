"""With an LLM configured (here the shipped scripted model): POST /v1/answer and the answer tool;
a failing LLM is a 502 with the provider's message."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from mcp import Client

from ripplemem.errors import ProviderUnavailableError
from ripplemem.memory import Memory
from ripplemem.server.access import Access
from ripplemem.server.keys import create_key
from ripplemem.server.mcp_tools import build_mcp
from ripplemem.server.service import MemoryService
from ripplemem.settings import Settings
from ripplemem.testing import FakeEmbedder, ScriptedChatModel

from .live import SESSION, LiveServer, start_server

OFFLINE_PATHS = {"extractor": "deterministic", "planner": "deterministic", "clue_writer": "deterministic"}


@pytest.fixture
def answering(tmp_path: Path):
    chat = ScriptedChatModel(["Rex."])
    memory = Memory(Settings(store=str(tmp_path / "a.db"), **OFFLINE_PATHS), embedder=FakeEmbedder(), chat=chat)
    _, secret = create_key(memory.store.keys, ["alex"])
    server, thread, url = start_server(memory)
    live = LiveServer(url, memory, {"alex": secret}, server, thread)
    yield live, chat
    live.stop()


def test_answer_endpoint_with_an_llm(answering) -> None:
    live, chat = answering
    with live.client("alex") as client:
        assert client.post("/v1/answer", json={"question": "Dog?"}).status_code == 404  # nothing yet
        client.post("/v1/memories", json={"messages": SESSION}).raise_for_status()
        answered = client.post("/v1/answer", json={"question": "What is the dog called?"})
        assert answered.status_code == 200, answered.text
        body = answered.json()
        assert body["text"] == "Rex." and body["model"] == "scripted" and body["evidence"]
        chat.enqueue(ProviderUnavailableError("scripted: the endpoint timed out"))
        failed = client.post("/v1/answer", json={"question": "What is the dog called?"})
        assert failed.status_code == 502
        assert failed.json()["error"] == {
            "type": "ProviderUnavailableError", "message": "scripted: the endpoint timed out"
        }
        paths = client.get("/openapi.json").json()["paths"]
    assert "post" in paths["/v1/answer"]


def test_answer_tool_with_an_llm(tmp_path: Path) -> None:
    chat = ScriptedChatModel(["Rex."])
    memory = Memory(Settings(store=str(tmp_path / "t.db"), **OFFLINE_PATHS), embedder=FakeEmbedder(), chat=chat)
    memory.add(SESSION, namespace="kim")
    server = build_mcp(MemoryService(memory), lambda ctx: (Access.fixed("kim"), "kim"))

    async def ask():
        async with Client(server) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            result = await client.call_tool("answer", {"question": "What is the dog called?"})
            return names, result

    try:
        names, result = asyncio.run(ask())
    finally:
        memory.close()
    assert "answer" in names
    assert result.structured_content["answer"] == "Rex."
    assert any("Rex" in m["text"] for m in result.structured_content["memories"])
