"""The REST API over a real server: each endpoint, its JSON and its errors."""

from __future__ import annotations

import time

from ripplemem.records import AddResult, MemoryUnit, Recall

from .live import SESSION, DownEmbedder, LiveServer


def _add(client, namespace: str | None = None, messages=SESSION, **extra) -> dict:
    body = {"messages": messages, "session_time": "2024-05-08T13:56", **extra}
    if namespace:
        body["namespace"] = namespace
    response = client.post("/v1/memories", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def test_add_then_search_returns_evidence_with_its_trace(live: LiveServer) -> None:
    with live.client("alex") as client:
        added = AddResult.from_json(_add(client))
        assert added.units and all(u.namespace == "alex" for u in added.units)
        response = client.post("/v1/search", json={"query": "What is the dog called?", "limit": 5})
    assert response.status_code == 200
    recall = Recall.from_json(response.json())
    assert recall.trace.namespace == "alex" and recall.trace.recipe == "ripple"
    assert any("Rex" in e.unit.restatement for e in recall.evidence)
    assert len(recall.evidence) <= 5
    assert all(e.unit.vector is None for e in recall.evidence)  # vectors stay out of responses


def test_search_of_an_empty_namespace_is_empty_not_an_error(live: LiveServer) -> None:
    with live.client("bo") as client:
        response = client.post("/v1/search", json={"query": "anything"})
    assert response.status_code == 200
    body = response.json()
    assert body["evidence"] == [] and body["trace"]["notes"] == ["the namespace holds no memory yet"]


def test_list_get_edges_delete(live: LiveServer) -> None:
    with live.client("alex") as client:
        units = _add(client)["units"]
        page = client.get("/v1/memories", params={"limit": 1, "offset": 1}).json()
        assert page["total"] == len(units) and page["limit"] == 1 and page["offset"] == 1
        assert [u["id"] for u in page["memories"]] == [units[1]["id"]]
        unit_id = units[0]["id"]
        got = client.get(f"/v1/memories/{unit_id}")
        assert MemoryUnit.from_json(got.json()).restatement == units[0]["restatement"]
        edges = client.get(f"/v1/memories/{unit_id}/edges").json()
        assert edges["unit_id"] == unit_id
        assert all(unit_id in (e["src"], e["dst"]) for e in edges["edges"])
        assert client.delete(f"/v1/memories/{unit_id}").json() == {"count": 1}
        missing = client.get(f"/v1/memories/{unit_id}")
        assert missing.status_code == 404
        assert missing.json()["error"] == {
            "type": "UnknownUnitError",
            "message": f"no memory {unit_id!r} in namespace 'alex'",
        }
        assert client.delete(f"/v1/memories/{unit_id}").status_code == 404
        assert client.delete("/v1/memories").json() == {"count": len(units) - 1}
        assert client.get("/v1/memories").json()["total"] == 0


def test_update_then_history(live: LiveServer) -> None:
    with live.client("alex") as client:
        old = _add(client, messages=[{"speaker": "Alex", "text": "I live in Leeds."}])["units"][0]
        response = client.post(
            f"/v1/memories/{old['id']}/update",
            json={"text": "I moved to Bristol.", "session_time": "2024-06-01T10:00"},
        )
        assert response.status_code == 200, response.text
        new = AddResult.from_json(response.json()).units[0]
        chain = client.get(f"/v1/memories/{old['id']}/history").json()
        assert chain["unit_id"] == old["id"]
        assert [v["unit"]["id"] for v in chain["versions"]] == [old["id"], new.id]
        assert chain["versions"][0]["superseded_by"] == new.id
        assert chain["versions"][0]["valid_until"].startswith("2024-06-01")
        assert client.get("/v1/memories/nope/history").status_code == 404
        assert client.post("/v1/memories/nope/update", json={"text": "x"}).status_code == 404
        for end in (old["id"], new.id):  # the supersedes edge runs new -> old, whichever end is asked
            edges = client.get(f"/v1/memories/{end}/edges").json()["edges"]
            assert [(e["src"], e["dst"]) for e in edges if e["kind"] == "supersedes"] == [(new.id, old["id"])]


def test_add_without_waiting_returns_a_job_that_reports_the_result(live: LiveServer) -> None:
    with live.client("alex") as client:
        response = client.post("/v1/memories", params={"wait": "false"}, json={"messages": SESSION})
        assert response.status_code == 202
        job = response.json()
        assert job["status"] in ("queued", "running") and job["namespace"] == "alex"
        deadline = time.monotonic() + 20
        while job["status"] not in ("done", "failed") and time.monotonic() < deadline:
            time.sleep(0.05)
            job = client.get(f"/v1/jobs/{job['id']}").json()
    assert job["status"] == "done", job
    assert AddResult.from_json(job["result"]).units
    assert job["finished_at"] is not None


def test_a_failed_job_reports_the_library_error(make_server) -> None:
    live = make_server(embedder=DownEmbedder())
    with live.client("alex") as client:
        doomed = {"text": "I adopted a dog named DOWN in Lisbon."}  # passes every input check
        job = client.post("/v1/memories?wait=false", json=doomed).json()
        deadline = time.monotonic() + 20
        while job["status"] not in ("done", "failed") and time.monotonic() < deadline:
            time.sleep(0.05)
            job = client.get(f"/v1/jobs/{job['id']}").json()
        assert client.get("/v1/memories").json()["total"] == 0
    assert job["status"] == "failed"
    assert job["error"]["type"] == "ProviderUnavailableError"
    assert job["error"]["message"] == "the embedding endpoint did not answer (a test's)"


def test_export_then_import_into_another_namespace(live: LiveServer) -> None:
    with live.client("both") as client:
        units = _add(client, "alex")["units"]
        exported = client.get("/v1/export", params={"namespace": "alex"})
        assert exported.status_code == 200
        assert exported.headers["content-type"].startswith("application/x-ndjson")
        lines = exported.text.splitlines()
        assert '"type": "meta"' in lines[0] and len(lines) >= 1 + len(units)
        imported = client.post(
            "/v1/import", params={"namespace": "bo"}, content=exported.content,
            headers={"content-type": "application/x-ndjson"},
        )
        assert imported.json() == {"count": len(units)}
        copied = client.get("/v1/memories", params={"namespace": "bo"}).json()
        assert sorted(u["restatement"] for u in copied["memories"]) == sorted(
            u["restatement"] for u in units
        )
        assert {u["namespace"] for u in copied["memories"]} == {"bo"}
        again = client.post(
            "/v1/import", params={"namespace": "bo"}, content=exported.content,
            headers={"content-type": "application/jsonl"},
        )
        assert again.json() == {"count": 0}  # idempotent


def test_a_bad_import_is_refused_whole(live: LiveServer) -> None:
    with live.client("alex") as client:
        meta = b'{"type": "meta", "format": "ripplemem.jsonl/2", "embedder": "x", "dim": 1}'
        jsonl = {"content-type": "application/x-ndjson"}
        response = client.post("/v1/import", content=meta + b"\nnot json\n", headers=jsonl)
        unknown = client.post("/v1/import", content=b'{"type": "meta"}\n', headers=jsonl)
        assert client.get("/v1/memories").json()["total"] == 0
    assert response.status_code == 422
    assert response.json()["error"]["message"].startswith("the import, line 2 is not JSON")
    assert unknown.status_code == 422 and "unknown format" in unknown.json()["error"]["message"]


def test_library_errors_are_json_with_their_message(live: LiveServer) -> None:
    with live.client("alex") as client:
        _add(client)
        recipe = client.post("/v1/search", json={"query": "dog", "recipe": "nope"})
        assert recipe.status_code == 422
        assert recipe.json()["error"]["type"] == "UnknownRecipeError"
        assert "choose one of" in recipe.json()["error"]["message"]
        when = client.post("/v1/search", json={"query": "dog", "question_time": "someday"})
        assert when.status_code == 422 and "cannot parse question_time" in when.text
        empty = client.post("/v1/memories", json={"messages": [{"role": "user", "content": "  "}]})
        assert empty.status_code == 422 and empty.json()["error"]["type"] == "InvalidInputError"
        shape = client.post("/v1/search", json={"query": "dog", "limit": 0})
        assert shape.status_code == 422 and shape.json()["error"]["details"][0]["loc"] == [
            "body", "limit"
        ]
        broken = client.post("/v1/search", content=b"{", headers={"content-type": "application/json"})
        assert broken.status_code == 422 and "Traceback" not in broken.text
        unknown = client.get("/v1/nothing-here")
        assert unknown.status_code == 404 and unknown.json()["error"]["type"] == "NotFound"


def test_healthz_needs_no_key_and_openapi_is_complete(live: LiveServer) -> None:
    with live.client() as client:
        health = client.get("/healthz").json()
        schema = client.get("/openapi.json").json()
    assert health == {"status": "ok", "version": health["version"], "backend": "sqlite",
                      "auth": True, "jobs_pending": 0, "search_processes": 0,
                      "ready": health["ready"]}
    paths = schema["paths"]
    expected = {
        ("post", "/v1/memories"), ("get", "/v1/memories"), ("delete", "/v1/memories"),
        ("get", "/v1/memories/{unit_id}"), ("delete", "/v1/memories/{unit_id}"),
        ("get", "/v1/memories/{unit_id}/edges"), ("get", "/v1/jobs/{job_id}"),
        ("get", "/v1/memories/{unit_id}/history"), ("post", "/v1/memories/{unit_id}/update"),
        ("post", "/v1/search"), ("get", "/v1/export"), ("post", "/v1/import"), ("get", "/healthz"),
    }
    assert expected <= {(m, p) for p, ops in paths.items() for m in ops}
    assert ("post", "/v1/answer") in {(m, p) for p, ops in paths.items() for m in ops}  # 422 here
    for path, operations in paths.items():
        for method, operation in operations.items():
            for status, response in operation["responses"].items():
                content = response.get("content", {})
                assert content, f"{method} {path} {status} has no response schema"
            if path.startswith("/v1"):
                assert {"401", "403", "422"} <= set(operation["responses"]), (method, path)
    added = paths["/v1/memories"]["post"]["responses"]
    assert added["202"]["content"]["application/json"]["schema"]["$ref"].endswith("/JobModel")
    assert "RecallModel" in schema["components"]["schemas"]
