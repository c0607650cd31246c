"""A path with a trailing slash is not redirected: ``DELETE /v1/memories/`` (a client's empty
id) must not become ``DELETE /v1/memories``, which deletes the whole namespace."""

from __future__ import annotations

from .live import SESSION, LiveServer


def test_a_delete_with_an_empty_id_deletes_nothing(live: LiveServer) -> None:
    with live.client("alex") as alex:
        assert alex.post("/v1/memories", json={"messages": SESSION}).status_code == 200
        before = alex.get("/v1/memories").json()["total"]
        assert before > 0
        for path in ("/v1/memories/", "/v1/memories//"):
            refused = alex.request("DELETE", path, follow_redirects=True)
            assert refused.status_code == 404, refused.text
            assert refused.headers["content-type"].startswith("application/json")
        assert alex.get("/v1/memories").json()["total"] == before
