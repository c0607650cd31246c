"""Two keys crossed over every endpoint: a key reaches its own namespaces and learns nothing
about any other (a refusal reads the same whether the other namespace exists or not)."""

from __future__ import annotations

import time

import pytest

from .live import SESSION, LiveServer

OTHER_SESSION = [
    {"role": "user", "content": "Bo plays the cello in a quartet in Oslo."},
    {"role": "assistant", "content": "Which piece are you rehearsing?"},
]
ABSENT = "nobody-has-this-namespace"


@pytest.fixture
def two_tenants(live: LiveServer) -> tuple[LiveServer, list[str], list[str]]:
    with live.client("alex") as alex, live.client("bo") as bo:
        alex_ids = [u["id"] for u in alex.post("/v1/memories", json={"messages": SESSION}).json()["units"]]
        bo_ids = [u["id"] for u in bo.post("/v1/memories", json={"messages": OTHER_SESSION}).json()["units"]]
    assert alex_ids and bo_ids
    return live, alex_ids, bo_ids


def _requests(namespace: str, unit_id: str, export: bytes) -> list[tuple[str, str, dict]]:
    """Every /v1 endpoint, naming ``namespace``."""
    return [
        ("POST", "/v1/memories", {"json": {"messages": SESSION, "namespace": namespace}}),
        ("POST", "/v1/memories?wait=false", {"json": {"messages": SESSION, "namespace": namespace}}),
        ("POST", "/v1/search", {"json": {"query": "dog", "namespace": namespace}}),
        ("GET", "/v1/memories", {"params": {"namespace": namespace}}),
        ("GET", f"/v1/memories/{unit_id}", {"params": {"namespace": namespace}}),
        ("GET", f"/v1/memories/{unit_id}/edges", {"params": {"namespace": namespace}}),
        ("DELETE", f"/v1/memories/{unit_id}", {"params": {"namespace": namespace}}),
        ("DELETE", "/v1/memories", {"params": {"namespace": namespace}}),
        ("GET", "/v1/export", {"params": {"namespace": namespace}}),
        ("POST", "/v1/import", {"params": {"namespace": namespace}, "content": export}),
    ]


def test_another_namespace_is_refused_the_same_whether_it_exists_or_not(two_tenants) -> None:
    live, alex_ids, _ = two_tenants
    with live.client("alex") as alex:
        export = alex.get("/v1/export").content
    with live.client("bo") as bo:
        for (method, path, kwargs), (_, _, absent_kwargs) in zip(
            _requests("alex", alex_ids[0], export), _requests(ABSENT, alex_ids[0], export)
        ):
            existing = bo.request(method, path, **kwargs)
            absent = bo.request(method, path, **absent_kwargs)
            assert existing.status_code == 403, (method, path, existing.text)
            assert (absent.status_code, absent.json()) == (existing.status_code, existing.json())
            assert existing.json()["error"]["message"] == "this key may not use that namespace"
    with live.client("alex") as alex:  # nothing of alex's changed
        assert alex.get("/v1/memories").json()["total"] == len(alex_ids)


def test_ids_of_another_namespace_are_not_found_in_ones_own(two_tenants) -> None:
    live, alex_ids, bo_ids = two_tenants
    with live.client("bo") as bo:
        for unit_id in alex_ids:
            for method, path in (
                ("GET", f"/v1/memories/{unit_id}"),
                ("GET", f"/v1/memories/{unit_id}/edges"),
                ("DELETE", f"/v1/memories/{unit_id}"),
            ):
                response = bo.request(method, path)
                unknown = bo.request(method, path.replace(unit_id, "0" * len(unit_id)))
                assert response.status_code == unknown.status_code == 404
                assert response.json()["error"]["message"] == (
                    f"no memory {unit_id!r} in namespace 'bo'"
                )
        found = bo.post("/v1/search", json={"query": "dog named Rex in Lisbon", "limit": 50}).json()
        assert {e["unit"]["id"] for e in found["evidence"]} <= set(bo_ids)
        listed = bo.get("/v1/memories", params={"limit": 1000}).json()
        assert {u["id"] for u in listed["memories"]} == set(bo_ids)
        exported = bo.get("/v1/export").text
        assert not any(unit_id in exported for unit_id in alex_ids)
        assert bo.delete("/v1/memories").json() == {"count": len(bo_ids)}
    with live.client("alex") as alex:
        assert alex.get("/v1/memories").json()["total"] == len(alex_ids)
        assert all(alex.get(f"/v1/memories/{i}").status_code == 200 for i in alex_ids)


def test_jobs_are_visible_only_to_keys_of_their_namespace(two_tenants) -> None:
    live, _, _ = two_tenants
    with live.client("alex") as alex, live.client("bo") as bo, live.client("both") as both:
        job = alex.post("/v1/memories?wait=false", json={"messages": SESSION}).json()
        other = bo.get(f"/v1/jobs/{job['id']}")
        unknown = bo.get("/v1/jobs/job_000000000000000000000000")
        assert other.status_code == unknown.status_code == 404
        assert other.json()["error"]["message"] == unknown.json()["error"]["message"].replace(
            "job_000000000000000000000000", job["id"]
        )
        deadline = time.monotonic() + 20
        while both.get(f"/v1/jobs/{job['id']}").json()["status"] != "done":
            assert time.monotonic() < deadline
            time.sleep(0.05)


def test_no_key_a_wrong_key_and_a_revoked_key_get_401_everywhere(two_tenants) -> None:
    live, alex_ids, _ = two_tenants
    revoked = live.keys["reader"]
    key_id = next(k.id for k in live.memory.keys.list() if k.read_only)
    live.memory.keys.revoke(key_id)
    headers = [
        {},
        {"Authorization": "Bearer rmk_not-a-real-key"},
        {"Authorization": f"Basic {live.keys['alex']}"},
        {"Authorization": f"Bearer {revoked}"},
    ]
    with live.client() as client:
        for header in headers:
            for method, path, kwargs in _requests("alex", alex_ids[0], b""):
                response = client.request(method, path, headers=header, **kwargs)
                assert response.status_code == 401, (header, method, path)
                assert response.json()["error"]["type"] == "AuthenticationError"
                assert response.headers["www-authenticate"] == "Bearer"
            assert client.get("/v1/jobs/job_x", headers=header).status_code == 401


def test_read_only_keys_read_but_never_write(two_tenants) -> None:
    live, alex_ids, _ = two_tenants
    with live.client("reader") as reader:
        assert reader.post("/v1/search", json={"query": "dog"}).status_code == 200
        assert reader.get(f"/v1/memories/{alex_ids[0]}").status_code == 200
        assert reader.get("/v1/export").status_code == 200
        for method, path, kwargs in _requests("alex", alex_ids[0], b""):
            if method == "DELETE" or path.startswith(("/v1/memories?", "/v1/import")) or (
                method == "POST" and path == "/v1/memories"
            ):
                response = reader.request(method, path, **kwargs)
                assert response.status_code == 403, (method, path)
                assert "read-only" in response.json()["error"]["message"]
    with live.client("alex") as alex:
        assert alex.get("/v1/memories").json()["total"] == len(alex_ids)


def test_several_namespaces_must_name_one_and_admin_may_name_any(two_tenants) -> None:
    live, alex_ids, bo_ids = two_tenants
    with live.client("both") as both, live.client("admin") as admin:
        unnamed = both.get("/v1/memories")
        assert unnamed.status_code == 422
        assert unnamed.json()["error"]["message"].endswith("name one of: alex, bo")
        assert both.get("/v1/memories", params={"namespace": "bo"}).json()["total"] == len(bo_ids)
        assert admin.get("/v1/memories").status_code == 422
        assert admin.get("/v1/memories", params={"namespace": "alex"}).json()["total"] == len(alex_ids)
