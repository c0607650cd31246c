"""A key reaches its user's agents and runs written in full, as every unit reports its namespace
(``?namespace=alex/run:conc``), on every route and in MCP, exactly as ``run_id=conc`` does; another
user's namespace, written any way, is still refused."""

from __future__ import annotations

import asyncio
import json
from urllib.parse import quote

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from ripplemem.core.identity import lies_within

from .live import LiveServer

FACT = {"text": "I keep my kayak at the harbour.", "session_time": "2024-05-08T13:56"}
FULL = "alex/run:conc"


def _export(client: httpx.Client, params: dict) -> list[dict]:
    return [json.loads(line) for line in client.get("/v1/export", params=params).text.splitlines()[1:]]


def test_a_key_reaches_its_own_run_written_in_full_on_every_route(live: LiveServer) -> None:
    with live.client("alex") as alex:
        added = alex.post("/v1/memories", json={**FACT, "run_id": "conc"})
        assert added.status_code == 200, added.text
        unit = added.json()["units"][0]
        assert unit["namespace"] == FULL
        by_run, in_full = {"run_id": "conc"}, {"namespace": FULL}
        listed = alex.get("/v1/memories", params=in_full)
        assert listed.status_code == 200, listed.text
        assert listed.json() == alex.get("/v1/memories", params=by_run).json()
        assert listed.json()["total"] == len(added.json()["units"])
        assert alex.get(f"/v1/memories/{unit['id']}", params=in_full).json()["id"] == unit["id"]
        history = alex.get(f"/v1/memories/{unit['id']}/history", params=in_full)
        assert history.status_code == 200, history.text
        found = alex.post("/v1/search", json={"query": "Where is the kayak?", **in_full}).json()
        assert found["trace"]["namespace"] == FULL and found["evidence"]
        assert _export(alex, in_full) == _export(alex, by_run) and _export(alex, in_full)
        updated = alex.post(f"/v1/memories/{unit['id']}/update?namespace={quote(FULL, safe='')}",
                            json={"text": "I keep my kayak at the lake now."})
        assert updated.status_code == 200, updated.text
        job = alex.post("/v1/memories?wait=false", json={**FACT, **in_full}).json()
        assert job["namespace"] == FULL
        deeper = alex.post("/v1/memories", json={**FACT, "namespace": "alex/agent:coach/run:r1"})
        assert {u["namespace"] for u in deeper.json()["units"]} == {"alex/agent:coach/run:r1"}
        assert alex.delete("/v1/memories", params=in_full).json()["count"] > 0
    with live.client("both") as both:  # a key of several users: each one's runs
        assert both.get("/v1/memories", params={"namespace": "bo/agent:x"}).status_code == 200


@pytest.mark.parametrize("other", [
    "bo/run:conc", "alexa/run:conc", "alex/bob", "bo", "alex/../bo", "alex/bob/run:conc",
])
def test_another_users_namespace_is_refused_however_written(live: LiveServer, other: str) -> None:
    with live.client("alex") as alex:
        for refused in (
            alex.get("/v1/memories", params={"namespace": other}),
            alex.get("/v1/export", params={"namespace": other}),
            alex.post("/v1/search", json={"query": "kayak", "namespace": other}),
            alex.post("/v1/memories", json={**FACT, "namespace": other}),
        ):
            assert refused.status_code == 403, (other, refused.text)
            assert refused.json()["error"]["message"] == "this key may not use that namespace"


def test_mcp_takes_the_full_form_too(live: LiveServer) -> None:
    with live.client("alex") as alex:
        ids = [u["id"] for u in alex.post("/v1/memories", json={**FACT, "run_id": "conc"}).json()["units"]]

    async def listed(query: str, arguments: dict) -> tuple[bool, object]:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {live.keys['alex']}"}, timeout=30)
        async with Client(streamable_http_client(f"{live.url}/mcp{query}", http_client=http)) as client:
            result = await client.call_tool("list_memories", arguments)
            return result.is_error, result.structured_content or result.content[0].text

    def ids_of(page: object) -> list[str]:
        assert isinstance(page, dict), page
        return [u["id"] for u in page["memories"]]

    failed, page = asyncio.run(listed(f"?namespace={quote(FULL, safe='')}", {}))
    assert not failed and ids_of(page) == ids
    failed, page = asyncio.run(listed("", {"user_id": FULL}))
    assert not failed and ids_of(page) == ids
    failed, said = asyncio.run(listed("", {"user_id": "bo/run:conc"}))
    assert failed and str(said).endswith("this key may not use that namespace")


def test_what_lies_within_a_namespace() -> None:
    assert lies_within("alex", "alex")
    for inside in ("alex/run:r1", "alex/agent:p", "alex/agent:p/run:r1"):
        assert lies_within(inside, "alex"), inside
    for outside in ("alexa", "alexa/run:r1", "alex/bob", "alex/run:", "alex/agent:p/x", "bo/run:r1", "al",
                    "alex/run:r/agent:p", "alex/run:r/run:s"):
        assert not lies_within(outside, "alex"), outside
    assert lies_within("team/agent:p/run:1", "team/agent:p")
    assert not lies_within("team/run:1", "team/agent:p") and not lies_within("team/agent:q", "team/agent:p")
    assert not lies_within("team/agent:p", "team/agent:p/run:1")
