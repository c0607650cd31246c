"""MCP: the SDK's own client over Streamable HTTP (same keys as REST), in-process and over stdio.
The tools answer the records' one wire form, as REST does."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import httpx2
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from ripplemem.memory import AsyncMemory, Memory
from ripplemem.records import AddResult, MemoryUnit, Recall
from ripplemem.server.access import Access
from ripplemem.server.mcp_tools import build_mcp
from ripplemem.settings import Settings
from ripplemem.testing import FakeEmbedder

from .live import SESSION, LiveServer

TOOLS = {
    "add_memory", "search_memories", "get_memory", "list_memories", "delete_memory",
    "delete_all_memories", "memory_history", "update_memory", "answer",
}


def _http(live: LiveServer, key: str | None, query: str = "") -> Client:
    headers = {"Authorization": f"Bearer {live.keys[key]}"} if key else {}
    http = httpx2.AsyncClient(headers=headers, timeout=30)
    return Client(streamable_http_client(f"{live.url}/mcp{query}", http_client=http))


def _run(coroutine):
    return asyncio.run(coroutine)


async def _exercise(client: Client) -> dict:
    """Every tool once; returns what they answered."""
    seen: dict = {}
    tools = (await client.list_tools()).tools
    seen["tools"] = {t.name for t in tools}
    seen["schemas"] = {t.name: t.input_schema for t in tools}
    added = await client.call_tool("add_memory", {"messages": SESSION, "session_time": "2024-05-08"})
    assert not added.is_error, added
    seen["added"] = AddResult.from_json(added.structured_content).units
    found = await client.call_tool("search_memories", {"query": "What is the dog called?", "limit": 3})
    seen["found"] = found.structured_content
    first = seen["added"][0].id
    seen["got"] = (await client.call_tool("get_memory", {"unit_id": first})).structured_content
    seen["page"] = (await client.call_tool("list_memories", {"limit": 2})).structured_content
    updated = await client.call_tool(
        "update_memory", {"unit_id": first, "text": "I moved to Bristol.", "session_time": "2024-06-01"}
    )
    assert not updated.is_error, updated
    seen["updated"] = updated.structured_content["units"]
    seen["history"] = (await client.call_tool("memory_history", {"unit_id": first})).structured_content
    seen["deleted"] = (await client.call_tool("delete_memory", {"unit_id": first})).structured_content
    again = await client.call_tool("get_memory", {"unit_id": first})
    seen["missing"] = (again.is_error, again.content[0].text)
    fact = await client.call_tool(
        "add_memory", {"text": "I play the cello on Sundays.", "metadata": {"topic": "music"}}
    )
    seen["fact"] = fact.structured_content["units"]
    music = await client.call_tool(
        "search_memories", {"query": "What do I do on Sundays?", "filters": {"topic": "music"}}
    )
    seen["music"] = music.structured_content
    unanswered = await client.call_tool("answer", {"question": "What is the dog called?"})
    seen["unanswered"] = (unanswered.is_error, unanswered.content[0].text)
    neither = await client.call_tool("add_memory", {})
    seen["neither"] = (neither.is_error, neither.content[0].text)
    seen["cleared"] = (await client.call_tool("delete_all_memories", {})).structured_content
    empty = await client.call_tool("search_memories", {"query": "cello"})
    seen["empty"] = empty.structured_content
    return seen


def _check(seen: dict, namespace: str) -> None:
    assert seen["tools"] == TOOLS  # answer too: without an LLM it says how to configure one
    is_error, text = seen["unanswered"]
    assert is_error and "LLMNotConfiguredError: answering needs an LLM" in text
    assert "RIPPLEMEM_LLM_BASE_URL" in text
    music = Recall.from_json(seen["music"])
    assert music.evidence and all(e.unit.metadata == {"topic": "music"} for e in music.evidence)
    assert all(unit["metadata"] == {"topic": "music"} for unit in seen["fact"])
    for schema in seen["schemas"].values():  # the tenant comes from the connection
        properties = set(schema.get("properties", {}))
        assert not {"namespace", "tenant"} & properties
        assert {"user_id", "agent_id", "run_id"} <= properties
    assert any("Rex" in unit.restatement for unit in seen["added"])
    found = Recall.from_json(seen["found"])  # the wire form of POST /v1/search
    assert found.evidence and len(found.evidence) <= 3
    assert "Rex" in found.evidence[0].unit.restatement and found.evidence[0].score > 0
    assert found.trace.recipe == "ripple" and found.trace.initial and found.trace.namespace == namespace
    assert MemoryUnit.from_json(seen["got"]).id == seen["added"][0].id
    assert seen["page"]["total"] == len(seen["added"]) and len(seen["page"]["memories"]) == 2
    versions = seen["history"]["versions"]
    assert [v["unit"]["id"] for v in versions] == [seen["added"][0].id, seen["updated"][0]["id"]]
    assert versions[0]["superseded_by"] == seen["updated"][0]["id"] and versions[0]["valid_until"]
    assert seen["deleted"] == {"count": 1}
    is_error, text = seen["missing"]
    assert is_error and f"UnknownUnitError: no memory '{seen['added'][0].id}' in namespace '{namespace}'" in text
    assert any("cello" in unit["restatement"] for unit in seen["fact"])
    is_error, text = seen["neither"]
    assert is_error and "InvalidInputError: give either messages" in text
    added = len(seen["added"]) + len(seen["updated"]) + len(seen["fact"]) - 1
    assert seen["cleared"] == {"count": added}
    assert seen["empty"]["evidence"] == [] and seen["empty"]["trace"]["notes"] == [
        "the namespace holds no memory yet"
    ]


async def _session(client: Client, work):
    async with client:
        return await work(client)


def test_mcp_over_streamable_http_with_a_key(live: LiveServer) -> None:
    seen = _run(_session(_http(live, "alex"), _exercise))
    _check(seen, "alex")


def test_mcp_http_refuses_missing_keys_and_foreign_namespaces(live: LiveServer) -> None:
    import httpx

    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    headers = {"accept": "application/json, text/event-stream"}
    with httpx.Client(base_url=live.url, timeout=30) as http:
        assert http.post("/mcp", json=request, headers=headers).status_code == 401
        bo = {**headers, "Authorization": f"Bearer {live.keys['bo']}"}
        refused = http.post("/mcp?namespace=alex", json=request, headers=bo)
        absent = http.post("/mcp?namespace=nobody", json=request, headers=bo)
        assert refused.status_code == absent.status_code == 403
        assert refused.json() == absent.json()
        via_header = http.post("/mcp", json=request, headers={**bo, "RippleMem-Namespace": "alex"})
        assert via_header.status_code == 403
        both = {**headers, "Authorization": f"Bearer {live.keys['both']}"}
        assert http.post("/mcp", json=request, headers=both).status_code == 422


def test_mcp_tools_of_one_key_never_reach_another_namespace(live: LiveServer) -> None:
    with live.client("alex") as alex:
        alex_ids = [u["id"] for u in alex.post("/v1/memories", json={"messages": SESSION}).json()["units"]]

    async def cross(client: Client) -> dict:
        found = await client.call_tool("search_memories", {"query": "dog named Rex in Lisbon"})
        results = {"found": [e["unit"]["id"] for e in found.structured_content["evidence"]]}
        results["get"] = [(await client.call_tool("get_memory", {"unit_id": i})).is_error for i in alex_ids]
        results["delete"] = [
            (await client.call_tool("delete_memory", {"unit_id": i})).is_error for i in alex_ids
        ]
        results["list"] = (await client.call_tool("list_memories", {})).structured_content["total"]
        results["clear"] = (await client.call_tool("delete_all_memories", {})).structured_content
        sneaky = await client.call_tool(
            "list_memories", {"namespace": "alex"}  # not an argument: refused or ignored
        )
        results["sneaky"] = sneaky.is_error or sneaky.structured_content["total"] == 0
        other = await client.call_tool("list_memories", {"user_id": "alex"})  # checked by the key
        results["other"] = other.is_error and other.content[0].text.endswith(
            "PermissionDeniedError: this key may not use that namespace"
        )
        narrowed = await client.call_tool(
            "add_memory", {"text": "I sail on Tuesdays.", "agent_id": "coach"}
        )
        results["narrowed"] = {u["namespace"] for u in narrowed.structured_content["units"]}
        return results

    results = _run(_session(_http(live, "bo"), cross))
    assert results == {
        "found": [], "get": [True] * len(alex_ids), "delete": [True] * len(alex_ids), "list": 0,
        "clear": {"count": 0}, "sneaky": True,
        "other": True,
        "narrowed": {"bo/agent:coach"},
    }
    # the admin key picks a namespace with the query parameter
    admin_list = _run(_session(
        _http(live, "admin", "?namespace=alex"),
        lambda c: c.call_tool("list_memories", {}),
    ))
    assert admin_list.structured_content["total"] == len(alex_ids)
    with live.client("alex") as alex:
        assert alex.get("/v1/memories").json()["total"] == len(alex_ids)


def test_read_only_keys_get_tool_errors_for_writes(live: LiveServer) -> None:
    async def write(client: Client):
        return await client.call_tool("add_memory", {"messages": SESSION})

    result = _run(_session(_http(live, "reader"), write))
    assert result.is_error and "read-only" in result.content[0].text


def test_mcp_in_process(tmp_path: Path) -> None:
    memory = Memory(Settings(store=str(tmp_path / "m.db")), embedder=FakeEmbedder())
    access = Access.fixed("kim")
    server = build_mcp(AsyncMemory(over=memory), lambda ctx: (access, "kim"))
    try:
        seen = _run(_session(Client(server), _exercise))
    finally:
        memory.close()
    _check(seen, "kim")


@pytest.mark.slow
def test_ripplemem_mcp_over_stdio(tmp_path: Path) -> None:
    """The `ripplemem mcp` command as a desktop client starts it (the shipped embedder)."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "ripplemem.cli.main", "mcp", "--store", str(tmp_path / "s.db"), "--namespace", "kim"],
        env={**os.environ, "RIPPLEMEM_LLM_BASE_URL": ""},
    )
    seen = _run(_session(Client(params), _exercise))
    _check(seen, "kim")


async def _update_with_nothing_to_store(client: Client) -> dict:
    added = await client.call_tool("add_memory", {"text": "I live in Leeds.", "session_time": "2024-05-08"})
    old = added.structured_content["units"][0]["id"]
    refused = await client.call_tool("update_memory", {"unit_id": old, "text": "yes"})
    listed = await client.call_tool("list_memories", {})
    stored = await client.call_tool("update_memory", {"unit_id": old, "text": "I moved to Bristol."})
    again = await client.call_tool("update_memory", {"unit_id": old, "text": "I moved to Bristol."})
    return {
        "refused": (refused.is_error, refused.content[0].text),
        "listed": listed.structured_content["total"],
        "stored": (stored.is_error, len(stored.structured_content["units"])),
        "again": (again.is_error, again.structured_content["units"], again.structured_content["skipped"]),
    }


def test_an_mcp_update_that_holds_no_statement_is_a_tool_error(tmp_path: Path) -> None:
    memory = Memory(Settings(store=str(tmp_path / "m.db")), embedder=FakeEmbedder())
    server = build_mcp(AsyncMemory(over=memory), lambda ctx: (Access.fixed("kim"), "kim"))
    try:
        seen = _run(_session(Client(server), _update_with_nothing_to_store))
    finally:
        memory.close()
    assert seen["refused"] == (
        True,
        "InvalidInputError: the update's text holds no statement to store: give the new fact in a sentence",
    )
    assert seen["listed"] == 1  # nothing stored
    assert seen["stored"] == (False, 1) and seen["again"] == (False, [], 1)


async def _update_to_a_question(client: Client) -> dict:
    added = await client.call_tool("add_memory", {"text": "I live in Hull.", "session_time": "2024-05-08"})
    old = added.structured_content["units"][0]["id"]
    refused = await client.call_tool("update_memory", {"unit_id": old, "text": "¿Sigo viviendo en Hull?"})
    listed = await client.call_tool("list_memories", {})
    return {"refused": (refused.is_error, refused.content[0].text), "listed": listed.structured_content["total"]}


def test_an_mcp_update_to_a_question_is_a_tool_error(tmp_path: Path) -> None:
    memory = Memory(Settings(store=str(tmp_path / "m.db")), embedder=FakeEmbedder())
    server = build_mcp(AsyncMemory(over=memory), lambda ctx: (Access.fixed("kim"), "kim"))
    try:
        seen = _run(_session(Client(server), _update_to_a_question))
    finally:
        memory.close()
    assert seen["refused"] == (
        True,
        (
            "InvalidInputError: the update's text is a question, not a statement to store: give the new fact as "
            "a statement (\"I live in Leeds now.\"), not as a question"
        ),
    )
    assert seen["listed"] == 1  # nothing stored


async def _describe_and_refuse(client: Client) -> dict:
    tools = (await client.list_tools()).tools
    texts = {t.name: t.description for t in tools}
    for tool in tools:
        for name, prop in tool.input_schema.get("properties", {}).items():
            texts[f"{tool.name}.{name}"] = prop.get("description")
    calls = {
        "limit": ("search_memories", {"query": "Rex", "limit": "many"}),
        "plain": ("add_memory", {"messages": "I like tea."}),
        "field": ("add_memory", {"messages": [{"rol": "user", "content": "hi"}]}),
        "missing": ("get_memory", {}),
        "filter": ("search_memories", {"query": "Rex", "filters": {"topic": {"in": ["a"]}}}),
    }
    refused = {}
    for key, (name, arguments) in calls.items():
        result = await client.call_tool(name, arguments)
        refused[key] = (result.is_error, result.content[0].text)
    return {"texts": texts, "refused": refused}


def test_mcp_tools_describe_themselves_and_refuse_in_plain_words(tmp_path: Path) -> None:
    """What a model reads: one-line descriptions for every tool and argument (no docstring
    indentation, none missing), and errors that name the argument and what to write, one line,
    the error's type first, never the SDK's pydantic dump."""
    memory = Memory(Settings(store=str(tmp_path / "m.db")), embedder=FakeEmbedder())
    server = build_mcp(AsyncMemory(over=memory), lambda ctx: (Access.fixed("kim"), "kim"))
    try:
        seen = _run(_session(Client(server), _describe_and_refuse))
    finally:
        memory.close()
    for where, text in seen["texts"].items():
        assert text, f"{where} has no description"
        assert text == text.strip() and "\n" not in text and "  " not in text, (where, text)
    refused = seen["refused"]
    for key, (is_error, text) in refused.items():
        assert is_error, key
        assert "\n" not in text and "pydantic" not in text and "validation error" not in text, text
        assert not text.startswith("Error executing tool"), text
    assert refused["limit"][1].startswith("InvalidInputError: limit: ")
    assert refused["plain"][1].startswith("InvalidInputError: messages: ")
    assert "one fact in plain words as text" in refused["plain"][1]
    assert refused["field"][1] == "InvalidInputError: messages.0.rol is not a field this tool knows"
    assert refused["missing"][1] == "InvalidInputError: unit_id is required"
    assert refused["filter"][1].startswith("FilterError: filters['topic'] is an object")
