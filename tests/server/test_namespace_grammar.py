"""A namespace is ``<user>[/agent:<agent_id>][/run:<run_id>]`` on every face and for every key: a
namespace written in full may be given with the same agent or run again, but never nested into
another one (``alex/run:conc/run:conc``), and a value outside the grammar is 422 whatever the key
may use, before the key is asked."""

from __future__ import annotations

import asyncio
from urllib.parse import quote

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from .live import LiveServer

FACT = {"text": "I keep my kayak at the harbour.", "session_time": "2024-05-08T13:56"}
MALFORMED = ["alex/run:", "alex/agent:", "alex/run:r/agent:q", "alex/agent:p/agent:q",
             "alex/run:conc/run:conc", "alex/run:conc/bob", "agent:p"]


def test_a_full_namespace_with_its_own_run_again_is_that_namespace(live: LiveServer) -> None:
    with live.client("alex") as alex:
        added = alex.post("/v1/memories?namespace=alex%2Frun%3Aconc&run_id=conc", json=FACT)
        assert added.status_code == 200, added.text
        assert {u["namespace"] for u in added.json()["units"]} == {"alex/run:conc"}
        listed = alex.get("/v1/memories", params={"namespace": "alex/run:conc", "run_id": "conc"})
        assert listed.json()["total"] == len(added.json()["units"]) > 0


@pytest.mark.parametrize("given", [
    {"namespace": "alex/run:conc", "run_id": "other"},
    {"namespace": "alex/run:r", "agent_id": "q"},
    {"user_id": "alex/agent:p", "agent_id": "q"},
])
def test_a_full_namespace_with_another_agent_or_run_is_refused(live: LiveServer, given: dict) -> None:
    with live.client("alex") as alex:
        refused = alex.post("/v1/memories", params=given, json=FACT)
        assert refused.status_code == 422, refused.text
        assert refused.json()["error"]["type"] == "InvalidInputError"
        assert "<user>[/agent:<agent_id>][/run:<run_id>]" in refused.json()["error"]["message"]
    assert live.memory.namespaces() == []  # nothing was written anywhere


def test_a_key_bound_to_an_agent_cannot_nest_another_agent(live: LiveServer) -> None:
    live.keys["carl"] = live.memory.keys.create(["carl/agent:a"])[1]
    with live.client("carl") as carl:
        refused = carl.post("/v1/memories", params={"agent_id": "b"}, json=FACT)
        assert refused.status_code == 422, refused.text
        assert "already names agent 'a'" in refused.json()["error"]["message"]
        same = carl.post("/v1/memories", params={"agent_id": "a"}, json=FACT)
        assert {u["namespace"] for u in same.json()["units"]} == {"carl/agent:a"}
        narrowed = carl.post("/v1/memories", params={"run_id": "r"}, json=FACT)
        assert {u["namespace"] for u in narrowed.json()["units"]} == {"carl/agent:a/run:r"}


@pytest.mark.parametrize("namespace", MALFORMED)
def test_a_namespace_outside_the_grammar_is_422_for_every_key(live: LiveServer, namespace: str) -> None:
    said = set()
    for key in ("alex", "admin", "both"):
        with live.client(key) as client:
            for refused in (
                client.get("/v1/memories", params={"namespace": namespace}),
                client.get("/v1/export", params={"user_id": namespace}),
                client.post("/v1/search", json={"query": "kayak", "namespace": namespace}),
                client.post("/v1/memories", json={**FACT, "namespace": namespace}),
            ):
                assert refused.status_code == 422, (key, namespace, refused.text)
                said.add(refused.json()["error"]["message"].replace("user_id ", "namespace ", 1))
    assert len(said) == 1 and repr(namespace) in said.pop()  # the same words for every key


def test_mcp_refuses_the_same_namespaces(live: LiveServer) -> None:
    async def listed(query: str, arguments: dict) -> tuple[bool, str]:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {live.keys['admin']}"}, timeout=30)
        async with Client(streamable_http_client(f"{live.url}/mcp{query}", http_client=http)) as client:
            result = await client.call_tool("list_memories", arguments)
            return result.is_error, str(result.structured_content or result.content[0].text)

    failed, said = asyncio.run(listed("?namespace=alex", {"user_id": "alex/run:r", "agent_id": "q"}))
    assert failed and "the agent comes before the run" in said
    failed, said = asyncio.run(listed("?namespace=alex", {"user_id": "alex/run:", "run_id": "r"}))
    assert failed and "empty run id" in said
    refused = httpx2.get(f"{live.url}/mcp?namespace={quote('alex/run:r/run:r', safe='')}",
                         headers={"Authorization": f"Bearer {live.keys['admin']}"})
    assert refused.status_code == 422 and "at most one agent, then at most one run" in refused.text
