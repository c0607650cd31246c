"""``GET /v1/memories`` (and ``Memory.list``) pages in the order memories were stored, as its
documentation says, not by when they were said: an earlier conversation stored later lists
later."""

from __future__ import annotations

from .live import LiveServer

SAID = ["2024-05-03T09:00", "2024-05-01T09:00", "2024-05-02T09:00"]


def test_memories_list_in_the_order_stored_and_the_docs_say_so(live: LiveServer) -> None:
    with live.client("alex") as alex:
        for n, when in enumerate(SAID):
            added = alex.post("/v1/memories", json={"text": f"I visited museum number {n + 1}.",
                                                    "session_time": when})
            assert added.status_code == 200, added.text
        page = alex.get("/v1/memories").json()["memories"]
        assert [u["session_time"][:16] for u in page] == SAID
        assert [u["id"] for u in page] == [u.id for u in live.memory.list(namespace="alex")]
        listed = alex.get("/openapi.json").json()["paths"]["/v1/memories"]["get"]
    assert listed["summary"] == "List memories in the order stored"
    assert "oldest" not in listed.get("description", "")
