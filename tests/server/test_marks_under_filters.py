"""REST ``POST /v1/search`` and MCP ``search_memories`` mark a memory the store says was replaced,
as the library does, when the filter leaves its successor out; and not under a ``before`` bound
that ends before the successor was said (tests/updates/test_marks_under_filters.py)."""

from __future__ import annotations

import asyncio

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from .live import LiveServer

FILTERS = [{"source": "chat"}, {"source": "chat", "before": "2024-07-01"}, {"before": "2024-03-01"}]


def _chain(live: LiveServer) -> tuple[str, str]:
    with live.client("alex") as client:
        added = client.post("/v1/memories", json={
            "text": "I work at Acme.", "session_time": "2024-01-01", "metadata": {"source": "chat"},
        })
        old = added.json()["units"][0]["id"]
        updated = client.post(f"/v1/memories/{old}/update", json={
            "text": "I work at Beta.", "session_time": "2024-06-01", "metadata": {"source": "email"},
        })
        assert updated.status_code == 200, updated.text
        return old, updated.json()["units"][0]["id"]


def _marks(evidence: list[dict]) -> dict[str, tuple[str | None, str | None]]:
    return {e["unit"]["id"]: (e["superseded_by"], e["valid_until"]) for e in evidence}


def test_rest_and_mcp_mark_as_the_library_does(live: LiveServer) -> None:
    old, new = _chain(live)
    stale = (new, "2024-06-01T00:00:00")
    expected = [{old: stale}, {old: stale}, {old: (None, None)}]
    library = [
        {e.unit.id: (e.superseded_by, e.valid_until and e.valid_until.isoformat()) for e in
         live.memory.search("Where do I work?", user_id="alex", filters=filters).evidence}
        for filters in FILTERS
    ]
    assert library == expected
    with live.client("alex") as client:
        rest = [
            _marks(client.post("/v1/search", json={"query": "Where do I work?", "filters": filters}).json()["evidence"])
            for filters in FILTERS
        ]
    assert rest == expected

    async def run() -> list[dict]:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {live.keys['alex']}"}, timeout=30)
        async with Client(streamable_http_client(f"{live.url}/mcp", http_client=http)) as client:
            found = []
            for filters in FILTERS:
                result = await client.call_tool("search_memories", {"query": "Where do I work?", "filters": filters})
                assert not result.is_error, result
                found.append(_marks(result.structured_content["evidence"]))
            return found

    assert asyncio.run(run()) == expected
