"""The viewer's JSON under /v1/viewer and its page at /ui, over a live server: the same keys as
/v1, and a key learns nothing about namespaces it does not hold."""

from __future__ import annotations

from server.live import SESSION, LiveServer
from server.test_isolation import ABSENT, two_tenants

__all__ = ["two_tenants"]  # the fixture: keys alex and bo, each with one session stored


def test_whoami_tells_each_key_its_own_rights(two_tenants) -> None:
    live, _, _ = two_tenants
    expected = {
        "alex": (["alex"], False, False, "alex"),
        "both": (["alex", "bo"], False, False, None),
        "reader": (["alex"], False, True, "alex"),
        "admin": (["alex", "bo"], True, False, None),
    }
    for name, (namespaces, any_namespace, read_only, default) in expected.items():
        with live.client(name) as client:
            who = client.get("/v1/viewer/whoami").json()
        assert (sorted(who["namespaces"]), who["any_namespace"], who["read_only"]) == (
            namespaces, any_namespace, read_only
        ), name
        assert who["default_namespace"] == default and who["auth"] is True
        assert who["key_id"].startswith("key_")
    with live.client() as anonymous:
        assert anonymous.get("/v1/viewer/whoami").status_code == 401


def test_graph_of_a_search_holds_its_evidence_and_the_edges_between_them(two_tenants) -> None:
    live, alex_ids, _ = two_tenants
    with live.client("alex") as alex:
        found = alex.post("/v1/search", json={"query": "What is my dog called?"}).json()
        seeds = [e["unit"]["id"] for e in found["evidence"]]
        graph = alex.post("/v1/viewer/graph", json={"ids": seeds, "hops": 1}).json()
        edges = {(e["src"], e["dst"]) for u in alex_ids
                 for e in alex.get(f"/v1/memories/{u}/edges").json()["edges"]}
    ids = [n["unit"]["id"] for n in graph["nodes"]]
    assert graph["namespace"] == "alex"
    assert ids[: len(seeds)] == seeds and set(ids) <= set(alex_ids)
    assert all(n["hop"] == 0 for n in graph["nodes"][: len(seeds)])
    assert all(n["unit"]["vector"] is None for n in graph["nodes"])
    assert graph["edges"], "the session's units are linked"
    for edge in graph["edges"]:
        assert edge["src"] in ids and edge["dst"] in ids
        assert (edge["src"], edge["dst"]) in edges


def test_graph_and_timeline_refuse_other_namespaces_alike(two_tenants) -> None:
    live, alex_ids, bo_ids = two_tenants
    with live.client("bo") as bo:
        for method, path, existing, absent in (
            ("POST", "/v1/viewer/graph", {"json": {"ids": alex_ids, "namespace": "alex"}},
             {"json": {"ids": alex_ids, "namespace": ABSENT}}),
            ("GET", "/v1/viewer/timeline", {"params": {"namespace": "alex"}},
             {"params": {"namespace": ABSENT}}),
        ):
            refused = bo.request(method, path, **existing)
            assert refused.status_code == 403
            assert refused.json() == bo.request(method, path, **absent).json()
        # ids of another namespace are simply not in one's own
        mine = bo.post("/v1/viewer/graph", json={"ids": alex_ids + bo_ids, "hops": 2}).json()
        assert {n["unit"]["id"] for n in mine["nodes"]} <= set(bo_ids)
        assert {n["unit"]["namespace"] for n in mine["nodes"]} == {"bo"}
        assert bo.post("/v1/viewer/graph", json={"ids": alex_ids}).json()["nodes"] == []
        line = bo.get("/v1/viewer/timeline").json()
        assert line["total"] == len(bo_ids)
        assert {u["unit"]["id"] for u in line["units"]} <= set(bo_ids)
        assert all(u["unit"]["vector"] is None for u in line["units"])  # the records' wire form
    with live.client("both") as both:
        assert both.get("/v1/viewer/timeline").status_code == 422  # several namespaces: name one
        assert both.get("/v1/viewer/timeline", params={"namespace": "alex"}).json()["total"] == len(alex_ids)
    with live.client() as anonymous:
        assert anonymous.post("/v1/viewer/graph", json={"ids": alex_ids}).status_code == 401
        assert anonymous.get("/v1/viewer/timeline").status_code == 401


def test_bad_requests_get_messages_that_say_what_to_do(two_tenants) -> None:
    live, alex_ids, _ = two_tenants
    with live.client("alex") as alex:
        bad_time = alex.get("/v1/viewer/timeline", params={"start": "last tuesday"})
        assert bad_time.status_code == 422
        assert "2024-05-08" in bad_time.json()["error"]["message"]
        too_many = alex.post("/v1/viewer/graph", json={"ids": ["x"] * 301})
        assert too_many.status_code == 422
        assert alex.post("/v1/viewer/graph", json={"ids": alex_ids, "max_nodes": 301}).status_code == 422
        capped = alex.post("/v1/viewer/graph", json={"ids": alex_ids, "max_nodes": 1}).json()
        assert len(capped["nodes"]) == 1 and capped["truncated"]


def test_the_page_and_its_assets_need_no_key_and_run_only_their_own_script(live: LiveServer) -> None:
    with live.client() as anonymous:
        page = anonymous.get("/ui", params={"namespace": "alex", "q": "dog"})
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert "script-src 'self'" in page.headers["content-security-policy"]
        assert '<script src="/ui/viewer.js"' in page.text
        for name, media in (("viewer.js", "text/javascript"), ("viewer.css", "text/css"),
                            ("favicon.svg", "image/svg+xml")):
            asset = anonymous.get(f"/ui/{name}")
            assert asset.status_code == 200 and asset.headers["content-type"].startswith(media)
        missing = anonymous.get("/ui/secrets.txt")
        assert missing.status_code == 404 and missing.json()["error"]["type"] == "NotFoundError"
        assert anonymous.get("/ui/..%2Fapp.py").status_code == 404
        paths = anonymous.get("/openapi.json").json()["paths"]
    assert {"/v1/viewer/whoami", "/v1/viewer/graph", "/v1/viewer/timeline"} <= set(paths)
    assert not any(path.startswith("/ui") for path in paths)


def test_no_auth_server_gives_every_namespace_and_a_default(make_server) -> None:
    live = make_server(auth=False)
    with live.client() as client:
        client.post("/v1/memories", json={"messages": SESSION, "namespace": "alex"}).raise_for_status()
        who = client.get("/v1/viewer/whoami").json()
    assert who["auth"] is False and who["any_namespace"] is True
    assert who["default_namespace"] == "default" and who["namespaces"] == ["alex"]
