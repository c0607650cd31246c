"""REST reads a message's role as the library does (QA7 Q7-16): LangChain's "human" is the
namespace's person, an unknown role is refused with a 422 that says what to do, and nothing of the
add is stored."""

from __future__ import annotations

from .live import LiveServer


def test_rest_reads_aliases_and_refuses_unknown_roles(live: LiveServer) -> None:
    with live.client("alex") as client:
        assert client.put("/v1/person", json={"name": "Alex"}).status_code == 200
        refused = client.post("/v1/memories", json={"messages": [
            {"role": "human", "content": "I prefer metric units."},
            {"role": "usr", "content": "I live in Leeds."},
        ]})
        assert refused.status_code == 422, refused.text
        message = refused.json()["error"]["message"]
        assert "'role' must be 'user', 'assistant' or 'system'" in message and "'usr'" in message
        assert live.memory.list(user_id="alex") == []
        added = client.post("/v1/memories", json={"messages": [
            {"role": "human", "content": "I prefer metric units."},
            {"role": "ai", "content": "Noted, metric it is."},
        ]})
        assert added.status_code == 200, added.text
    assert {u.speakers for u in live.memory.list(user_id="alex")} == {("Alex",), ("Assistant",)}
