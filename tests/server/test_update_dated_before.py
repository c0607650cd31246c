"""REST ``POST /v1/memories/{id}/update`` and MCP ``update_memory`` refuse an update dated before
the memory it replaces, as the library does (tests/updates/test_update_dated_before.py): a 422
and a tool error saying the time to give, and nothing stored."""

from __future__ import annotations

import asyncio

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from .live import LiveServer

TIME = "give a session_time at or after 2024-05-01T00:00:00"


def test_rest_and_mcp_refuse_an_update_dated_before_the_memory(live: LiveServer) -> None:
    with live.client("alex") as client:
        added = client.post("/v1/memories", json={"text": "I work at Acme.", "session_time": "2024-05-01"})
        old = added.json()["units"][0]["id"]
        refused = client.post(f"/v1/memories/{old}/update", json={"text": "I work at Beta.", "session_time": "2024-01-01"})
        assert refused.status_code == 422
        assert refused.json()["error"]["type"] == "InvalidInputError" and TIME in refused.json()["error"]["message"]
        assert client.get("/v1/memories").json()["total"] == 1
        offset = client.post(f"/v1/memories/{old}/update",
                             json={"text": "I work at Beta.", "session_time": "2024-05-01T03:00:00+05:00"})
        assert "give a session_time at or after 2024-05-01T05:00:00+05:00" in offset.json()["error"]["message"]
        taken = client.post(f"/v1/memories/{old}/update",
                            json={"text": "I work at Beta.", "session_time": "2024-05-01T05:00:00+05:00"})
        assert taken.status_code == 200 and len(taken.json()["units"]) == 1

    async def run() -> tuple[bool, str]:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {live.keys['alex']}"}, timeout=30)
        async with Client(streamable_http_client(f"{live.url}/mcp", http_client=http)) as client:
            result = await client.call_tool(
                "update_memory", {"unit_id": old, "text": "I work at Beta.", "session_time": "2024-01-01"}
            )
            return result.is_error, result.content[0].text

    is_error, said = asyncio.run(run())
    assert is_error and TIME in said
    assert [v.valid_until is None for v in live.memory.history(old, user_id="alex")] == [False, True]
