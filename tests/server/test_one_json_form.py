"""One JSON form on every face: REST, the MCP tools and the command line's --json answer the same
records' wire form for the same verb over the same store."""

from __future__ import annotations

import asyncio
import json

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from typer.testing import CliRunner

from ripplemem.cli.main import app
from ripplemem.providers.factory import EMBEDDERS, register_embedder
from ripplemem.testing import FakeEmbedder

from .live import SESSION, LiveServer

QUERY = "What is the dog called?"


def _same_recall(first: dict, second: dict) -> None:
    """Equal but for the times a recall takes."""
    for recall in (first, second):
        recall["trace"].pop("timings_ms")
    assert first == second


async def _tools(live: LiveServer, unit_id: str) -> dict:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {live.keys['alex']}"}, timeout=30)
    async with Client(streamable_http_client(f"{live.url}/mcp", http_client=http)) as client:
        return {
            "search": (await client.call_tool("search_memories", {"query": QUERY, "limit": 5})).structured_content,
            "get": (await client.call_tool("get_memory", {"unit_id": unit_id})).structured_content,
            "list": (await client.call_tool("list_memories", {"limit": 2})).structured_content,
            "history": (await client.call_tool("memory_history", {"unit_id": unit_id})).structured_content,
        }


@pytest.fixture
def fake_embedder_by_name():
    """The command line builds its embedder by name: name the live server's fake one."""
    register_embedder("fake-bow", FakeEmbedder, replace=True)
    yield
    EMBEDDERS.pop("fake-bow", None)


def test_rest_mcp_and_the_command_line_answer_the_same_json(live: LiveServer, fake_embedder_by_name) -> None:
    with live.client("alex") as client:
        unit_id = client.post("/v1/memories", json={"messages": SESSION}).json()["units"][0]["id"]
        rest = {
            "search": client.post("/v1/search", json={"query": QUERY, "limit": 5}).json(),
            "get": client.get(f"/v1/memories/{unit_id}").json(),
            "list": client.get("/v1/memories", params={"limit": 2}).json(),
            "history": client.get(f"/v1/memories/{unit_id}/history").json(),
        }
    tools = asyncio.run(_tools(live, unit_id))
    assert rest["get"] == tools["get"] and rest["list"] == tools["list"]
    assert rest["history"] == tools["history"]
    store = str(live.memory.store.url)
    runner = CliRunner(env={"RIPPLEMEM_EMBEDDER": "fake-bow", "RIPPLEMEM_LLM_BASE_URL": None})

    def cli(*args: str) -> dict:
        result = runner.invoke(app, [*args, "--store", store, "-n", "alex", "--json"])
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    assert cli("show", unit_id) == rest["get"]
    assert cli("list", "--limit", "2") == rest["list"]
    searched = cli("search", QUERY, "--limit", "5")
    _same_recall(searched, json.loads(json.dumps(rest["search"])))
    _same_recall(tools["search"], rest["search"])
