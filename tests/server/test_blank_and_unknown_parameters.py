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
