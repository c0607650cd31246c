"""One door: every /v1 route that acts on a namespace takes ``namespace``, ``user_id``,
``agent_id`` and ``run_id`` as query parameters, the POST and PUT ones too, resolved as the body's
fields are; a query parameter that disagrees with the body is a 422 naming both."""

from __future__ import annotations

from .live import SESSION, LiveServer

IDS = ("namespace", "user_id", "agent_id", "run_id")


def _writes(unit_id: str, export: bytes) -> list[tuple[str, str, dict]]:
    """Every POST and PUT route that acts on a namespace, with a body it takes."""
    return [
        ("POST", "/v1/memories", {"json": {"text": "I book the flights to Tokyo."}}),
        ("POST", "/v1/memories?wait=false", {"json": {"text": "I book the flights to Tokyo."}}),
        ("POST", "/v1/search", {"json": {"query": "flights"}}),
        ("POST", f"/v1/memories/{unit_id}/update", {"json": {"text": "I moved to Bristol."}}),
        ("PUT", "/v1/person", {"json": {"name": "Alex"}}),
        ("POST", "/v1/answer", {"json": {"question": "Where do I fly?"}}),
        ("POST", "/v1/viewer/graph", {"json": {"ids": [unit_id]}}),
        ("POST", "/v1/import", {"content": export,
                                "headers": {"content-type": "application/x-ndjson"}}),
    ]


def test_an_agent_id_in_the_query_of_an_add_narrows_the_namespace(live: LiveServer) -> None:
    with live.client("alex") as alex:
        added = alex.post("/v1/memories", params={"agent_id": "planner"},
                          json={"text": "Planner note: book the flights to Tokyo."})
        assert added.status_code == 200, added.text
        assert {u["namespace"] for u in added.json()["units"]} == {"alex/agent:planner"}
        assert alex.get("/v1/memories", params={"agent_id": "planner"}).json()["total"] == 1
        assert alex.get("/v1/memories").json()["total"] == 0
        found = alex.post("/v1/search", params={"agent_id": "planner"}, json={"query": "flights"})
        assert found.json()["trace"]["namespace"] == "alex/agent:planner"
        assert [e["unit"]["namespace"] for e in found.json()["evidence"]] == ["alex/agent:planner"]


def test_a_namespace_in_the_query_is_checked_against_the_key_as_in_the_body(live: LiveServer) -> None:
    with live.client("alex") as alex:
        unit_id = alex.post("/v1/memories", json={"messages": SESSION}).json()["units"][0]["id"]
        export = alex.get("/v1/export").content
        for method, path, kwargs in _writes(unit_id, export):
            for name in ("namespace", "user_id"):
                by_query = alex.request(method, path, params={name: "bo"}, **kwargs)
                assert by_query.status_code == 403, (method, path, name, by_query.text)
                assert by_query.json()["error"] == {
                    "type": "PermissionDeniedError",
                    "message": "this key may not use that namespace",
                }
        body = alex.post("/v1/search", json={"query": "dog", "namespace": "bo"})
        assert body.status_code == 403 and body.json() == by_query.json()
        assert alex.get("/v1/person").json()["name"] is None  # nothing was written anywhere
    with live.client("bo") as bo:
        assert bo.get("/v1/memories").json()["total"] == 0


def test_an_admin_key_may_name_the_namespace_in_the_query_of_every_write(live: LiveServer) -> None:
    with live.client("admin") as admin:
        added = admin.post("/v1/memories", params={"namespace": "alex"}, json={"messages": SESSION})
        assert added.status_code == 200, added.text
        unit_id = added.json()["units"][0]["id"]
        found = admin.post("/v1/search", params={"namespace": "alex"}, json={"query": "dog"})
        assert found.status_code == 200 and found.json()["trace"]["namespace"] == "alex"
        named = admin.put("/v1/person", params={"user_id": "bo"}, json={"name": "Bo"})
        assert named.json() == {"namespace": "bo", "name": "Bo"}
        updated = admin.post(f"/v1/memories/{unit_id}/update", params={"namespace": "alex"},
                             json={"text": "I moved to Bristol."})
        assert updated.status_code == 200, updated.text
        graph = admin.post("/v1/viewer/graph", params={"namespace": "alex"}, json={"ids": [unit_id]})
        assert graph.json()["namespace"] == "alex"
        unnamed = admin.post("/v1/search", json={"query": "dog"})
        assert unnamed.status_code == 422
        assert "name one" in unnamed.json()["error"]["message"]


def test_a_query_parameter_that_disagrees_with_the_body_is_refused_naming_both(live: LiveServer) -> None:
    with live.client("both") as both:
        for name in IDS:
            response = both.post("/v1/search", params={name: "alex"}, json={"query": "dog", name: "bo"})
            assert response.status_code == 422, (name, response.text)
            message = response.json()["error"]["message"]
            assert name in message and "'alex'" in message and "'bo'" in message, message
            assert "query" in message and "body" in message, message
        agreeing = both.post("/v1/memories", params={"namespace": "bo"},
                             json={"text": "I play the cello.", "namespace": "bo"})
        assert agreeing.status_code == 200
        mixed = both.post("/v1/memories", params={"namespace": "bo"},
                          json={"text": "I play the cello.", "user_id": "alex"})
        assert mixed.status_code == 422 and "namespace or user_id" in mixed.text
        assert both.get("/v1/memories", params={"namespace": "alex"}).json()["total"] == 0


def test_the_openapi_document_declares_the_ids_on_every_route_that_takes_them(live: LiveServer) -> None:
    with live.client() as client:
        paths = client.get("/openapi.json").json()["paths"]
    for method, path, _ in _writes("{unit_id}", b""):
        path = path.split("?")[0]
        parameters = paths[path][method.lower()].get("parameters", [])
        in_query = {p["name"] for p in parameters if p["in"] == "query"}
        assert set(IDS) <= in_query, (method, path, in_query)


def test_a_blank_id_in_the_query_or_the_body_is_refused_not_read_as_the_keys_namespace(live: LiveServer) -> None:
    with live.client("alex") as alex:
        for name in IDS:
            by_query = alex.post("/v1/memories", params={name: "  "}, json={"text": "I book the flights."})
            assert by_query.status_code == 422, (name, by_query.text)
            by_body = alex.post("/v1/search", json={"query": "flights", name: ""})
            assert by_body.status_code == 422, (name, by_body.text)
        assert alex.get("/v1/memories").json()["total"] == 0  # nothing was written
