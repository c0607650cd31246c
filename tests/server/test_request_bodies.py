"""What a body is refused for, said plainly: JSON nested past the limit says so (not "send UTF-8
JSON"), and a background add (``wait=false``) the synchronous path would refuse is refused the
same way at once, not queued as a job bound to fail."""

from __future__ import annotations

from ripplemem.server.schemas import MAX_NESTING

from .live import LiveServer


def _nested(depth: int) -> str:
    return '{"a": ' * depth + "1" + "}" * depth


def _body(template: str, inner: str) -> bytes:
    """``template`` with ``inner`` (JSON text) in place of its ``@``."""
    return template.replace("@", inner).encode()


def test_json_nested_too_deep_is_refused_naming_the_limit(live: LiveServer) -> None:
    json = {"content-type": "application/json"}
    with live.client("alex") as alex:
        for depth in (3_000, 100_000, MAX_NESTING + 1):
            body = _body('{"text": "I like deep tea.", "metadata": @}', _nested(depth))
            response = alex.post("/v1/memories", content=body, headers=json)
            assert response.status_code == 422, (depth, response.text)
            message = response.json()["error"]["message"]
            assert f"at most {MAX_NESTING} levels" in message and "UTF-8" not in message, message
        lists = _body('{"text": "I like green tea.", "metadata": {"a": @}}', "[" * 5_000 + "]" * 5_000)
        assert "at most" in alex.post("/v1/memories", content=lists, headers=json).text
        message = _body('{"messages": [{"role": "user", "content": "Hi.", "metadata": @}]}', _nested(40))
        assert "at most" in alex.post("/v1/memories", content=message, headers=json).text
        search = _body('{"query": "tea", "filters": @}', _nested(40))
        assert "at most" in alex.post("/v1/search", content=search, headers=json).text
        assert alex.get("/v1/memories").json()["total"] == 0
        deep_enough = _body('{"text": "I like black tea.", "metadata": @}', _nested(MAX_NESTING))
        kept = alex.post("/v1/memories", content=deep_enough, headers=json)
        assert kept.status_code == 200, kept.text


def test_a_background_add_is_checked_before_it_is_queued(live: LiveServer) -> None:
    refused = [
        {"text": "I drive a red Volvo.", "session_time": "2024-02-30"},
        {"text": "   "},
        {"messages": [{"role": "user", "content": "I like tea. " * 2_000}]},
        {"messages": [{"content": "no speaker"}]},
        {"text": "I drive a red Volvo.", "session_id": "s\u0000"},
        {"text": "I drive a red Volvo.", "metadata": {"note": "x" * 20_000}},
    ]
    with live.client("alex") as alex:
        for body in refused:
            waited = alex.post("/v1/memories", json=body)
            queued = alex.post("/v1/memories", params={"wait": "false"}, json=body)
            assert waited.status_code == 422, (body, waited.text)
            assert (queued.status_code, queued.json()) == (422, waited.json()), body
        assert alex.get("/healthz").json()["jobs_pending"] == 0
        fine = alex.post("/v1/memories", params={"wait": "false"},
                         json={"text": "I drive a green Volvo.", "session_time": "2024-02-29"})
        assert fine.status_code == 202 and fine.json()["status"] in ("queued", "running", "done")


def test_a_field_a_body_does_not_have_is_named_with_what_to_send(live: LiveServer) -> None:
    """A message with a time of its own, or a field no message has, is refused naming the
    fields there are and where a time goes (the request's session_time), as Memory.add says."""
    with live.client("alex") as alex:
        timed = alex.post("/v1/memories", json={
            "messages": [{"role": "user", "content": "I moved to Leeds.", "timestamp": "2024-05-01"}],
        })
        assert timed.status_code == 422, timed.text
        said = timed.json()["error"]["message"]
        assert "body.messages.0.timestamp" in said and "session_time" in said, said
        assert "'role'" in said and "'content'" in said, said
        odd = alex.post("/v1/memories", json={"messages": [{"role": "user", "content": "Hi.", "mood": "happy"}]})
        said = odd.json()["error"]["message"]
        assert odd.status_code == 422 and "body.messages.0.mood" in said and "'speaker'" in said, said
        body = alex.post("/v1/memories", json={"text": "I like tea.", "sessiontime": "2024-05-01"})
        said = body.json()["error"]["message"]
        assert body.status_code == 422 and "body.sessiontime" in said and "'session_time'" in said, said
        search = alex.post("/v1/search", json={"query": "tea", "date": "2024-05-01"})
        said = search.json()["error"]["message"]  # a search takes no session_time: no hint of one
        assert search.status_code == 422 and "body.date" in said and "session_time" not in said, said
        assert alex.get("/v1/memories").json()["total"] == 0
