"""MCP tools take only their own arguments, as REST bodies do: an unknown one (``namespace``, a
misspelt ``sesion_time``) is a tool error naming it, and every input schema says
``additionalProperties: false``. The /mcp URL names the namespace as a REST query does."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from ripplemem.memory import AsyncMemory, Memory
from ripplemem.server.access import Access
from ripplemem.server.mcp_tools import build_mcp
from ripplemem.settings import Settings
from ripplemem.testing import FakeEmbedder

from .live import LiveServer


def _http(live: LiveServer, key: str, query: str = "") -> Client:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {live.keys[key]}"}, timeout=30)
    return Client(streamable_http_client(f"{live.url}/mcp{query}", http_client=http))


async def _calls(client: Client, calls: list[tuple[str, dict]]) -> list[tuple[bool, str]]:
    async with client:
        answered = []
        for name, arguments in calls:
            result = await client.call_tool(name, arguments)
            answered.append((result.is_error, result.content[0].text if result.content else ""))
        return answered


def test_unknown_tool_arguments_are_refused_by_name(live: LiveServer) -> None:
    async def schemas(client: Client) -> dict:
        async with client:
            return {t.name: t.input_schema for t in (await client.list_tools()).tools}

    for name, schema in asyncio.run(schemas(_http(live, "alex"))).items():
        assert schema.get("additionalProperties") is False, name
    (stamps, coins, search, nested, timed) = asyncio.run(_calls(_http(live, "alex"), [
        ("add_memory", {"text": "I collect stamps from Peru.", "namespace": "bo"}),
        ("add_memory", {"text": "I collect coins from Chile.", "sesion_time": "2024-01-01"}),
        ("search_memories", {"query": "stamps", "namespace": "bo"}),
        ("add_memory", {"messages": [{"rol": "user", "content": "hi"}]}),
        ("add_memory", {"messages": [{"role": "user", "content": "hi", "timestamp": "2024-01-01"}]}),
    ]))
    assert timed[0] and "messages.0.timestamp is not a field" in timed[1], timed
    assert "the add's session_time" in timed[1], timed  # where a message's time goes
    assert stamps[0] and stamps[1].startswith("InvalidInputError: namespace is not an argument")
    assert "the key" in stamps[1] and "user_id" in stamps[1], stamps[1]
    assert coins[0] and coins[1].startswith(
        "InvalidInputError: sesion_time is not an argument of add_memory"
    ), coins[1]
    assert "session_time" in coins[1]  # the arguments it does take
    assert search[0] and search[1].startswith("InvalidInputError: namespace is not an argument")
    assert nested == (True, "InvalidInputError: messages.0.rol is not a field this tool knows")
    for key in ("alex", "bo"):
        with live.client(key) as client:
            assert client.get("/v1/memories").json()["total"] == 0


def test_the_mcp_url_names_the_namespace_as_a_rest_query_does(live: LiveServer) -> None:
    with live.client("alex") as alex:
        alex.post("/v1/memories", json={"text": "I keep bees in Devon."})
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    headers = {"accept": "application/json, text/event-stream"}
    with httpx.Client(base_url=live.url, timeout=30) as http:
        bo = {**headers, "Authorization": f"Bearer {live.keys['bo']}"}
        refused = http.post("/mcp?user_id=alex", json=request, headers=bo)
        assert refused.status_code == 403, refused.text
        narrowed = http.post("/mcp?agent_id=planner", json=request, headers=bo)
        assert narrowed.status_code == 422
        assert "agent_id" in narrowed.json()["error"]["message"]
        admin = {**headers, "Authorization": f"Bearer {live.keys['admin']}"}
        both = http.post("/mcp?namespace=alex&user_id=bo", json=request, headers=admin)
        assert both.status_code == 422 and "namespace or user_id" in both.text
    listed = asyncio.run(_calls(_http(live, "admin", "?user_id=alex"), [("list_memories", {})]))
    assert listed[0][0] is False and '"total":1' in listed[0][1].replace(" ", "")


def test_ripplemem_mcp_refusals_name_its_namespace_not_a_key(tmp_path: Path) -> None:
    """``ripplemem mcp --namespace kim`` has no key: a refusal says what the server serves."""
    memory = Memory(Settings(store=str(tmp_path / "m.db")), embedder=FakeEmbedder())
    try:
        served = build_mcp(AsyncMemory(over=memory), lambda ctx: (Access.fixed("kim"), "kim"))
        (other,) = asyncio.run(_calls(Client(served), [("list_memories", {"user_id": "other"})]))
        read_only = Access.fixed("kim", read_only=True)
        frozen = build_mcp(AsyncMemory(over=memory), lambda ctx: (read_only, "kim"))
        (write,) = asyncio.run(_calls(Client(frozen), [("add_memory", {"text": "I keep bees."})]))
        (extra,) = asyncio.run(_calls(Client(served), [("list_memories", {"namespace": "x"})]))
    finally:
        memory.close()
    assert other == (
        True, "PermissionDeniedError: this server serves only namespace 'kim' (--namespace)"
    )
    assert write == (True, "PermissionDeniedError: this server is read-only (--read-only)")
    assert extra[0] and "key" not in extra[1] and "--namespace" in extra[1], extra[1]


def test_a_keyless_server_says_where_its_namespace_comes_from(make_server) -> None:
    live = make_server(auth=False)
    http = httpx2.AsyncClient(timeout=30)
    client = Client(streamable_http_client(f"{live.url}/mcp?namespace=kim", http_client=http))
    ((is_error, text),) = asyncio.run(_calls(client, [("list_memories", {"namespace": "x"})]))
    assert is_error and "runs without keys" in text and "key's" not in text, text
