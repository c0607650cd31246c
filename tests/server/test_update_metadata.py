"""The update route's body field ``metadata`` and MCP ``update_memory``'s argument merge into the
old memory's metadata (which the update keeps), so a filtered search finds the new fact."""

from __future__ import annotations

import asyncio

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from .live import LiveServer


def test_a_rest_update_keeps_and_merges_metadata(live: LiveServer) -> None:
    with live.client("alex") as client:
        added = client.post(
            "/v1/memories", json={"text": "I live in Leeds.", "metadata": {"topic": "home", "source": "chat"}}
        ).json()
        old = added["units"][0]["id"]
        kept = client.post(f"/v1/memories/{old}/update", json={"text": "I moved to Bristol."})
        assert kept.status_code == 200 and kept.json()["units"][0]["metadata"] == {"topic": "home", "source": "chat"}
        merged = client.post(
            f"/v1/memories/{old}/update", json={"text": "I moved to York.", "metadata": {"source": "email"}}
        )
        assert merged.status_code == 200
        assert merged.json()["units"][0]["metadata"] == {"topic": "home", "source": "email"}
        refused = client.post(f"/v1/memories/{old}/update", json={"text": "I moved to Hull.", "metadata": [1]})
        assert refused.status_code == 422


def test_mcp_update_memory_takes_metadata(live: LiveServer) -> None:
    async def run() -> dict:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {live.keys['alex']}"}, timeout=30)
        async with Client(streamable_http_client(f"{live.url}/mcp", http_client=http)) as client:
            added = await client.call_tool("add_memory", {"text": "I work at Acme.", "metadata": {"topic": "work"}})
            old = added.structured_content["units"][0]["id"]
            updated = await client.call_tool(
                "update_memory", {"unit_id": old, "text": "Beta hired me.", "metadata": {"mood": "glad"}}
            )
            assert not updated.is_error, updated
            return updated.structured_content["units"][0]["metadata"]

    assert asyncio.run(run()) == {"topic": "work", "mood": "glad"}
