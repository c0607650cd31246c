"""With an LLM configured (here the shipped scripted model): POST /v1/answer and the answer tool;
a failing LLM is a 502 with the provider's message."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from mcp import Client

from ripplemem.errors import ProviderUnavailableError
from ripplemem.memory import AsyncMemory, Memory
from ripplemem.server.access import Access
from ripplemem.server.mcp_tools import build_mcp
from ripplemem.settings import Settings
from ripplemem.testing import FakeEmbedder, ScriptedChatModel

from .live import SESSION, LiveServer, start_server

OFFLINE_PATHS = {"extractor": "deterministic", "planner": "deterministic", "clue_writer": "deterministic"}


CITED = {"answer": "Rex.", "citations": [1]}


@pytest.fixture
def answering(tmp_path: Path):
    chat = ScriptedChatModel([CITED, "Rex, I think."])
    memory = Memory(Settings(store=str(tmp_path / "a.db"), **OFFLINE_PATHS), embedder=FakeEmbedder(), chat=chat)
    keys = {name: memory.keys.create([name])[1] for name in ("alex", "bo")}
    server, thread, url = start_server(memory)
    live = LiveServer(url, memory, keys, server, thread)
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
        assert body["citations"] == [1] and body["uncited"] is False
        prose = client.post("/v1/answer", json={"question": "What is the dog called?"}).json()
        assert prose["text"] == "Rex, I think." and prose["uncited"] is True
        chat.enqueue(ProviderUnavailableError("scripted: the endpoint timed out"))
        failed = client.post("/v1/answer", json={"question": "What is the dog called?"})
        assert failed.status_code == 502
        assert failed.json()["error"] == {
            "type": "ProviderUnavailableError", "message": "scripted: the endpoint timed out"
        }
        paths = client.get("/openapi.json").json()["paths"]
    assert "post" in paths["/v1/answer"]


def test_answer_tool_with_an_llm(tmp_path: Path) -> None:
    chat = ScriptedChatModel([CITED])
    memory = Memory(Settings(store=str(tmp_path / "t.db"), **OFFLINE_PATHS), embedder=FakeEmbedder(), chat=chat)
    memory.add(SESSION, namespace="kim")
    server = build_mcp(AsyncMemory(over=memory), lambda ctx: (Access.fixed("kim"), "kim"))

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
    content = result.structured_content  # the wire form of POST /v1/answer
    assert content["text"] == "Rex." and content["citations"] == [1]
    assert content["uncited"] is False
    assert any("Rex" in e["unit"]["restatement"] for e in content["evidence"])


def test_answer_never_crosses_namespaces(answering) -> None:
    live, chat = answering
    with live.client("alex") as alex:
        alex.post("/v1/memories", json={"messages": SESSION}).raise_for_status()
        alex_ids = {u["id"] for u in alex.get("/v1/memories").json()["memories"]}
    with live.client("bo") as bo:
        for namespace in ("alex", "nobody-has-this"):
            refused = bo.post("/v1/answer", json={"question": "Dog?", "namespace": namespace})
            assert refused.status_code == 403
            assert refused.json()["error"]["message"] == "this key may not use that namespace"
        assert bo.post("/v1/answer", json={"question": "What is the dog called?"}).status_code == 404
        bo.post("/v1/memories", json={"messages": [{"role": "user", "content": "Bo rows a kayak."}]})
        chat.enqueue("A kayak.")
        own = bo.post("/v1/answer", json={"question": "What is the dog called?"}).json()
    assert own["evidence"] and not {e["unit"]["id"] for e in own["evidence"]} & alex_ids


def test_mcp_tools_of_one_tenant_never_reach_another(tmp_path: Path) -> None:
    """add_memory lands in the caller's namespace only; answer cites only its memories."""
    chat = ScriptedChatModel(["Rex.", "A kayak."])
    memory = Memory(Settings(store=str(tmp_path / "x.db"), **OFFLINE_PATHS), embedder=FakeEmbedder(), chat=chat)
    memory.add(SESSION, namespace="alex")
    alex_ids = {u.id for u in memory.list(namespace="alex")}
    server = build_mcp(AsyncMemory(over=memory), lambda ctx: (Access.fixed("bo"), "bo"))

    async def as_bo():
        async with Client(server) as client:
            added = await client.call_tool(
                "add_memory", {"messages": [{"role": "user", "content": "I row a kayak in Oslo."}]}
            )
            answered = await client.call_tool("answer", {"question": "What is the dog called?"})
            return added, answered

    try:
        added, answered = asyncio.run(as_bo())
        assert not added.is_error and added.structured_content["units"]
        assert {u.id for u in memory.list(namespace="alex")} == alex_ids
        assert {u.id for u in memory.list(namespace="bo")} == {
            u["id"] for u in added.structured_content["units"]
        }
        cited = {e["unit"]["id"] for e in answered.structured_content["evidence"]}
        assert cited and not cited & alex_ids
    finally:
        memory.close()
