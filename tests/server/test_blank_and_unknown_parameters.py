"""A parameter the caller gives is the caller's word: a blank id (on the ``/mcp`` URL, on any GET
route) is refused with 422 like a blank field, never read as the key's namespace; a parameter
given twice, or one the route does not take, is a 422 naming it, never silently dropped."""

from __future__ import annotations

import httpx

from .live import LiveServer

MCP_LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
MCP_HEADERS = {"accept": "application/json, text/event-stream"}


def _mcp(live: LiveServer, key: str, query: str, headers: dict | None = None) -> httpx.Response:
    with live.client(key) as client:
        return client.post(f"/mcp{query}", json=MCP_LIST, headers={**MCP_HEADERS, **(headers or {})})


def test_a_blank_namespace_on_the_mcp_url_is_refused_not_read_as_the_keys(live: LiveServer) -> None:
    for key in ("alex", "admin"):
        for query in ("?namespace=", "?namespace=%20", "?user_id=", "?user_id=%20",
                      "?agent_id=", "?run_id=%20%20"):
            refused = _mcp(live, key, query)
            assert refused.status_code == 422, (key, query, refused.text)
            assert refused.json()["error"]["type"] == "InvalidInputError", refused.text
        for value in ("",):  # (a client strips a header value's blanks)
            by_header = _mcp(live, key, "", {"RippleMem-Namespace": value})
            assert by_header.status_code == 422, (key, repr(value), by_header.text)
    assert _mcp(live, "alex", "").status_code == 200  # left out: the key's one namespace
    assert _mcp(live, "alex", "?namespace=alex").status_code == 200


def test_a_blank_id_on_every_get_route_is_refused(live: LiveServer) -> None:
    with live.client("alex") as alex:
        unit_id = alex.post("/v1/memories", json={"text": "I adopted a dog named Rex."}).json()["units"][0]["id"]
        paths = [
            "/v1/memories", f"/v1/memories/{unit_id}", f"/v1/memories/{unit_id}/edges",
            f"/v1/memories/{unit_id}/history", "/v1/person", "/v1/export",
            "/v1/viewer/timeline",
        ]
        for path in paths:
            assert alex.get(path).status_code == 200, (path, alex.get(path).text)
            for name, value in (("namespace", ""), ("user_id", " "), ("agent_id", ""), ("run_id", "  ")):
                refused = alex.get(path, params={name: value})
                assert refused.status_code == 422, (path, name, refused.text)


def _routes(unit_id: str) -> list[tuple[str, str, dict]]:
    """Every /v1 route that acts on a namespace, with a body it takes."""
    return [
        ("POST", "/v1/memories", {"json": {"text": "Planner says: the hotel is booked."}}),
        ("POST", "/v1/search", {"json": {"query": "hotel"}}),
        ("GET", "/v1/memories", {}),
        ("GET", f"/v1/memories/{unit_id}", {}),
        ("GET", f"/v1/memories/{unit_id}/edges", {}),
        ("GET", f"/v1/memories/{unit_id}/history", {}),
        ("POST", f"/v1/memories/{unit_id}/update", {"json": {"text": "I moved to Bristol."}}),
        ("DELETE", "/v1/memories/nope", {}),
        ("DELETE", "/v1/memories", {}),
        ("GET", "/v1/person", {}),
        ("PUT", "/v1/person", {"json": {"name": "Alex"}}),
        ("GET", "/v1/export", {}),
        ("POST", "/v1/import", {"content": b"", "headers": {"content-type": "application/x-ndjson"}}),
        ("POST", "/v1/viewer/graph", {"json": {"ids": [unit_id]}}),
        ("GET", "/v1/viewer/timeline", {}),
    ]


def test_an_unknown_query_parameter_is_refused_listing_the_ones_the_route_takes(live: LiveServer) -> None:
    with live.client("alex") as alex:
        unit_id = alex.post("/v1/memories", json={"text": "I adopted a dog named Rex."}).json()["units"][0]["id"]
        for method, path, kwargs in _routes(unit_id):
            refused = alex.request(method, path, params={"agnt_id": "planner"}, **kwargs)
            assert refused.status_code == 422, (method, path, refused.text)
            message = refused.json()["error"]["message"]
            assert "'agnt_id'" in message, message
            assert all(name in message for name in ("namespace", "user_id", "agent_id", "run_id")), message
        assert alex.get("/v1/memories").json()["total"] == 1  # nothing was written or deleted
        listed = alex.get("/v1/memories", params={"limit": 5, "ofset": 1}).json()["error"]["message"]
        assert "'ofset'" in listed and "offset" in listed and "limit" in listed, listed
        assert alex.get("/v1/memories", params={"limit": 5, "offset": 0}).status_code == 200


def test_a_query_parameter_given_twice_is_refused_naming_it(live: LiveServer) -> None:
    with live.client("admin") as admin:
        added = admin.post("/v1/memories?namespace=alex", json={"text": "I adopted a dog named Rex."})
        unit_id = added.json()["units"][0]["id"]
        for method, path, kwargs in _routes(unit_id):
            refused = admin.request(method, f"{path}?namespace=alex&namespace=bo", **kwargs)
            assert refused.status_code == 422, (method, path, refused.text)
            assert "'namespace'" in refused.json()["error"]["message"], refused.text
        twice = admin.get("/v1/memories?namespace=alex&limit=1&limit=2")
        assert twice.status_code == 422 and "'limit'" in twice.json()["error"]["message"]
        assert admin.get("/v1/memories", params={"namespace": "bo"}).json()["total"] == 0
        assert admin.get("/v1/memories", params={"namespace": "alex"}).json()["total"] == 1


def test_the_mcp_url_refuses_unknown_and_repeated_parameters(live: LiveServer) -> None:
    unknown = _mcp(live, "alex", "?nmspace=alex")
    assert unknown.status_code == 422 and "'nmspace'" in unknown.json()["error"]["message"]
    twice = _mcp(live, "admin", "?namespace=alex&namespace=bo")
    assert twice.status_code == 422 and "'namespace'" in twice.json()["error"]["message"]
