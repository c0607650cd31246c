"""A REST update sent twice (a client's retry) stores the new text once, with one link."""

from __future__ import annotations

from .live import LiveServer


def test_a_retried_rest_update_stores_nothing_twice(live: LiveServer) -> None:
    with live.client("alex") as client:
        added = client.post(
            "/v1/memories",
            json={"messages": [{"speaker": "Alex", "text": "I live in Leeds."}], "session_time": "2024-05-08T13:56"},
        ).json()
        old = added["units"][0]["id"]
        first = client.post(f"/v1/memories/{old}/update", json={"text": "I moved to Bristol."})
        again = client.post(f"/v1/memories/{old}/update", json={"text": "I moved to Bristol."})
        assert first.status_code == again.status_code == 200
        assert len(first.json()["units"]) == 1
        assert again.json()["units"] == [] and again.json()["skipped"] == 1
        assert client.get("/v1/memories").json()["total"] == 2
        links = [e for e in client.get(f"/v1/memories/{old}/edges").json()["edges"] if e["kind"] == "supersedes"]
        assert len(links) == 1
        new = first.json()["units"][0]
        assert new["session_time"] == "2024-05-08T13:56:01"  # the old unit's time, one second on


def test_a_rest_update_that_holds_no_statement_is_refused(live: LiveServer) -> None:
    """"yes" yields no memory: a 422 that says what to send, and nothing stored; a retry of an
    update that was stored still answers as a repeated add."""
    with live.client("alex") as client:
        added = client.post(
            "/v1/memories",
            json={"messages": [{"speaker": "Alex", "text": "I live in Leeds."}], "session_time": "2024-05-08T13:56"},
        ).json()
        old = added["units"][0]["id"]
        refused = client.post(f"/v1/memories/{old}/update", json={"text": "yes"})
        assert refused.status_code == 422
        assert refused.json()["error"] == {
            "type": "InvalidInputError",
            "message": "the update's text holds no statement to store: give the new fact in a sentence",
        }
        assert client.get("/v1/memories").json()["total"] == 1
        assert client.get(f"/v1/memories/{old}/edges").json()["edges"] == []
        first = client.post(f"/v1/memories/{old}/update", json={"text": "I moved to Bristol."})
        again = client.post(f"/v1/memories/{old}/update", json={"text": "I moved to Bristol."})
        assert first.status_code == again.status_code == 200
        assert again.json()["units"] == [] and again.json()["skipped"] == 1


def test_a_rest_update_to_a_question_is_refused(live: LiveServer) -> None:
    """A question is no new value: a 422 that says to send the statement, and the chain as it was."""
    with live.client("alex") as client:
        added = client.post(
            "/v1/memories",
            json={"messages": [{"speaker": "Alex", "text": "I live in Hull."}], "session_time": "2024-05-08T13:56"},
        ).json()
        old = added["units"][0]["id"]
        refused = client.post(f"/v1/memories/{old}/update", json={"text": "Do I still live in Hull?"})
        assert refused.status_code == 422
        assert refused.json()["error"] == {
            "type": "InvalidInputError",
            "message": "the update's text is a question, not a statement to store: give the new fact as a "
            "statement (\"I live in Leeds now.\"), not as a question",
        }
        assert client.get("/v1/memories").json()["total"] == 1
        assert client.get(f"/v1/memories/{old}/edges").json()["edges"] == []
