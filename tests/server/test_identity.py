"""The identity rule and the empty-namespace policy over REST: user_id, agent_id and run_id name
namespaces as the library does, the key is checked against the user, and a namespace with no
memory yet is an empty answer, never an error."""

from __future__ import annotations

import json

from .live import LiveServer

FACT = {"text": "I keep my kayak at the harbour.", "session_time": "2024-05-08T13:56"}


def test_user_agent_and_run_ids_name_the_namespaces_the_library_names(live: LiveServer) -> None:
    with live.client("alex") as client:
        plain = client.post("/v1/memories", json={**FACT, "user_id": "alex"})
        coached = client.post("/v1/memories", json={**FACT, "agent_id": "coach", "run_id": "r1"})
        assert plain.status_code == coached.status_code == 200, (plain.text, coached.text)
        assert {u["namespace"] for u in plain.json()["units"]} == {"alex"}
        assert {u["namespace"] for u in coached.json()["units"]} == {"alex/agent:coach/run:r1"}
        narrowed = {"agent_id": "coach", "run_id": "r1"}
        listed = client.get("/v1/memories", params=narrowed).json()
        assert [u["id"] for u in listed["memories"]] == [u["id"] for u in coached.json()["units"]]
        found = client.post("/v1/search", json={"query": "Where is the kayak?", **narrowed}).json()
        assert found["trace"]["namespace"] == "alex/agent:coach/run:r1" and found["evidence"]
        unit_id = coached.json()["units"][0]["id"]
        assert client.get(f"/v1/memories/{unit_id}", params=narrowed).status_code == 200
        missing = client.get(f"/v1/memories/{unit_id}")  # not in plain 'alex'
        assert missing.status_code == 404
        assert missing.json()["error"]["message"] == f"no memory {unit_id!r} in namespace 'alex'"
        exported = [json.loads(line) for line in client.get("/v1/export", params=narrowed).text.splitlines()]
        assert exported[0]["type"] == "meta" and len(exported) > len(coached.json()["units"])
        assert {row["namespace"] for row in exported[1:]} == {"alex/agent:coach/run:r1"}
        both = client.post("/v1/search", json={"query": "kayak", "namespace": "alex", "user_id": "bo"})
        assert both.status_code == 422 and "either namespace or user_id" in both.text
        job = client.post("/v1/memories?wait=false", json={**FACT, "agent_id": "coach"}).json()
        assert job["namespace"] == "alex/agent:coach"
        assert client.get(f"/v1/jobs/{job['id']}").status_code == 200  # its owner sees it
        slash = client.post("/v1/search", json={"query": "kayak", "agent_id": "a/b"})
        assert slash.status_code == 422 and "holds a '/'" in slash.text
    with live.client("bo") as bo:  # the key is checked against the user, whatever agent or run
        for body in ({"user_id": "alex"}, {"user_id": "alex", "agent_id": "coach", "run_id": "r1"}):
            refused = bo.post("/v1/search", json={"query": "kayak", **body})
            assert refused.status_code == 403
            assert refused.json()["error"]["message"] == "this key may not use that namespace"
        assert bo.get(f"/v1/jobs/{job['id']}").status_code == 404


def test_a_namespace_with_no_memory_yet_answers_empty_everywhere(live: LiveServer) -> None:
    with live.client("bo") as bo:
        found = bo.post("/v1/search", json={"query": "anything", "agent_id": "new"})
        assert found.status_code == 200
        assert found.json()["evidence"] == []
        assert found.json()["trace"]["notes"] == ["the namespace holds no memory yet"]
        page = bo.get("/v1/memories").json()
        assert page == {"memories": [], "total": 0, "limit": 50, "offset": 0}
        assert bo.delete("/v1/memories").json() == {"count": 0}
        assert len(bo.get("/v1/export").text.splitlines()) == 1  # the meta line
        assert bo.get("/v1/viewer/timeline").json()["total"] == 0
        missing = bo.get("/v1/memories/u1")
        assert missing.status_code == 404 and "alex" not in missing.text
        empty_query = bo.post("/v1/search", json={"query": "   "})
        assert empty_query.status_code == 422 and "the query is empty" in empty_query.text
