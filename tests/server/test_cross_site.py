"""No web page can write to the service: a state-changing request needs a content type a browser
sends only after a CORS preflight (which this server never grants), and under ``--no-auth`` a
request from another site's page (its ``Origin``) is refused outright."""

from __future__ import annotations

import httpx

from .live import SESSION, LiveServer

EVIL = "http://evil.example"
SIMPLE_TYPES = ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x")


def _export(live: LiveServer) -> bytes:
    """An export of one namespace (alex, through the admin key on a keyed server)."""
    with live.client("alex") as alex:
        alex.post("/v1/memories", json={"messages": SESSION})
        return alex.get("/v1/export").content


def test_an_import_needs_a_json_lines_content_type(live: LiveServer) -> None:
    export = _export(live)
    with live.client("bo") as bo:
        for kind in (*SIMPLE_TYPES, None):
            headers = {"content-type": kind} if kind else {}
            response = bo.post("/v1/import", content=export, headers=headers)
            assert response.status_code == 422, (kind, response.text)
            message = response.json()["error"]["message"]
            assert "Content-Type: application/x-ndjson" in message, message
            assert (repr(kind) if kind else "none") in message, message
        assert bo.get("/v1/memories").json()["total"] == 0
        for kind in ("application/x-ndjson", "application/jsonl", "application/json",
                     "application/x-ndjson; charset=utf-8"):
            bo.delete("/v1/memories")
            response = bo.post("/v1/import", content=export, headers={"content-type": kind})
            assert response.status_code == 200, (kind, response.text)
            assert response.json()["count"] > 0


def test_json_routes_refuse_other_content_types_saying_what_to_send(live: LiveServer) -> None:
    with live.client("alex") as alex:
        unit_id = alex.post("/v1/memories", json={"messages": SESSION}).json()["units"][0]["id"]
        stored = alex.get("/v1/memories").json()["total"]
        routes = [
            ("POST", "/v1/memories", b'{"text": "I keep bees."}'),
            ("POST", "/v1/search", b'{"query": "bees"}'),
            ("POST", f"/v1/memories/{unit_id}/update", b'{"text": "I keep wasps."}'),
            ("PUT", "/v1/person", b'{"name": "Alex"}'),
            ("POST", "/v1/answer", b'{"question": "What do I keep?"}'),
            ("POST", "/v1/viewer/graph", b'{"ids": ["%s"]}' % unit_id.encode()),
        ]
        for method, path, body in routes:
            for kind in (*SIMPLE_TYPES, None):
                headers = {"content-type": kind} if kind else {}
                response = alex.request(method, path, content=body, headers=headers)
                assert response.status_code == 422, (method, path, kind, response.text)
                error = response.json()["error"]
                assert error["type"] == "InvalidInputError"
                assert "send it with Content-Type: application/json" in error["message"], error
        assert alex.get("/v1/memories").json()["total"] == stored
        assert alex.get("/v1/person").json()["name"] is None


def test_a_keyless_server_refuses_writes_from_another_sites_pages(make_server) -> None:
    live = make_server(auth=False)
    export = _keyless_export(live)
    own = live.url  # http://127.0.0.1:<port>: the server's own pages (the viewer at /ui)
    jsonl = {"content-type": "application/x-ndjson"}
    writes = [
        ("POST", "/v1/import?namespace=victim", {"content": export, "headers": jsonl}),
        ("POST", "/v1/memories?namespace=victim", {"json": {"text": "My bank PIN is 0000."}}),
        ("POST", "/v1/search?namespace=victim", {"json": {"query": "PIN"}}),
        ("PUT", "/v1/person?namespace=victim", {"json": {"name": "Mallory"}}),
        ("DELETE", "/v1/memories?namespace=alex", {}),
        ("POST", "/mcp", {"json": {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                          "headers": {"accept": "application/json, text/event-stream"}}),
    ]
    with httpx.Client(base_url=live.url, timeout=30) as client:
        for origin in (EVIL, "null", own.replace("127.0.0.1", "127.0.0.1.nip.io"),
                       own.rsplit(":", 1)[0] + ":1"):
            for method, path, kwargs in writes:
                headers = {**kwargs.get("headers", {}), "origin": origin}
                response = client.request(method, path, **{**kwargs, "headers": headers})
                assert response.status_code == 403, (origin, method, path, response.text)
                error = response.json()["error"]
                assert error["type"] == "PermissionDeniedError"
                assert "--no-auth" in error["message"] and repr(origin) in error["message"]
        assert client.get("/v1/memories", params={"namespace": "victim"}).json()["total"] == 0
        assert client.get("/v1/memories", params={"namespace": "alex"}).json()["total"] > 0
        assert client.get("/v1/memories", headers={"origin": EVIL}).status_code == 200  # a read
        for origin in (own, own.replace("127.0.0.1", "localhost"), None):
            headers = {**jsonl, **({"origin": origin} if origin else {})}
            client.delete("/v1/memories", params={"namespace": "victim"})
            response = client.post("/v1/import", params={"namespace": "victim"}, content=export,
                                   headers={**headers, "host": _host(origin, own)})
            assert response.status_code == 200, (origin, response.text)


def _host(origin: str | None, own: str) -> str:
    """The Host a browser sends with ``origin``'s requests to this server."""
    return (origin or own).split("://", 1)[1]


def _keyless_export(live: LiveServer) -> bytes:
    with httpx.Client(base_url=live.url, timeout=30) as client:
        client.post("/v1/memories", params={"namespace": "alex"}, json={"messages": SESSION})
        return client.get("/v1/export", params={"namespace": "alex"}).content
