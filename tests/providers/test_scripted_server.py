"""ScriptedOpenAIServer speaks the OpenAI protocol over a real socket (checked with plain httpx)."""

from __future__ import annotations

import json
import threading
from typing import Any

import httpx
import numpy as np
import pytest

from ripplemem.errors import UsageError
from ripplemem.testing import Reply, ScriptedOpenAIServer, scripted_embedding

CHAT = "/chat/completions"


def ask(server: ScriptedOpenAIServer, content: str = "hello", **extra: Any) -> httpx.Response:
    body = {"model": "m", "messages": [{"role": "user", "content": content}], **extra}
    return httpx.post(server.base_url + CHAT, json=body, timeout=5)


def test_chat_completion_has_the_openai_shape() -> None:
    with ScriptedOpenAIServer([Reply.text("hi there, friend")]) as server:
        assert server.base_url == f"http://127.0.0.1:{server.port}/v1"
        data = ask(server, "a prompt of some length").json()
    assert data["object"] == "chat.completion" and data["id"].startswith("chatcmpl-")
    assert data["model"] == "m"
    choice = data["choices"][0]
    assert choice["message"] == {"role": "assistant", "content": "hi there, friend"}
    assert choice["finish_reason"] == "stop"
    usage = data["usage"]
    assert usage["completion_tokens"] == len("hi there, friend") // 4
    assert usage["prompt_tokens"] == len("a prompt of some length") // 4
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]


def test_replies_come_out_in_fifo_order_then_the_responder() -> None:
    seen: list[dict] = []

    def responder(request: dict) -> Reply:
        seen.append(request)
        return Reply.text("from responder: " + request["messages"][0]["content"])

    with ScriptedOpenAIServer(
        [Reply.text("one"), Reply.json({"n": 2})], responder=responder
    ) as server:
        texts = [ask(server, f"q{i}").json()["choices"][0]["message"]["content"] for i in range(3)]
    assert texts == ["one", '{"n": 2}', "from responder: q2"]
    assert [r["messages"][0]["content"] for r in seen] == ["q2"]


def test_exhausted_script_answers_500_with_a_json_error() -> None:
    with ScriptedOpenAIServer() as server:
        response = ask(server)
    assert response.status_code == 500
    assert "script exhausted" in response.json()["error"]["message"]


def test_status_reply_sets_retry_after_and_body() -> None:
    script = [Reply.status(429, retry_after=1.5), Reply.status(418, body="plain text")]
    with ScriptedOpenAIServer(script) as server:
        first, second = ask(server), ask(server)
    assert first.status_code == 429 and first.headers["retry-after"] == "1.5"
    assert "error" in first.json()
    assert (second.status_code, second.text) == (418, "plain text")


def test_malformed_reply_content_is_not_json() -> None:
    with ScriptedOpenAIServer([Reply.malformed()]) as server:
        content = ask(server).json()["choices"][0]["message"]["content"]
    with pytest.raises(ValueError):
        json.loads(content)


def test_delay_holds_the_answer_back() -> None:
    server = ScriptedOpenAIServer([Reply.delay(0.6, then=Reply.text("late"))])
    with server, pytest.raises(httpx.ReadTimeout):
        httpx.post(server.base_url + CHAT, json={"messages": []}, timeout=0.2)


def test_embeddings_are_deterministic_unit_vectors() -> None:
    with ScriptedOpenAIServer(dim=12) as server:
        first = httpx.post(
            server.base_url + "/embeddings", json={"model": "e", "input": ["a", "b"]}
        ).json()
        single = httpx.post(
            server.base_url + "/embeddings", json={"model": "e", "input": "a"}
        ).json()
    assert first["object"] == "list" and first["model"] == "e"
    assert [row["index"] for row in first["data"]] == [0, 1]
    a, b = (np.asarray(row["embedding"]) for row in first["data"])
    assert a.shape == (12,) and abs(np.linalg.norm(a) - 1.0) < 1e-6
    assert not np.allclose(a, b)
    np.testing.assert_allclose(single["data"][0]["embedding"], a)
    np.testing.assert_allclose(a, scripted_embedding("a", 12), atol=1e-6)


def test_models_endpoint_and_unknown_routes() -> None:
    with ScriptedOpenAIServer(model="tiny") as server:
        models = httpx.get(server.base_url + "/models").json()
        missing = httpx.get(server.base_url + "/nope")
        bad_body = httpx.post(server.base_url + CHAT, content=b"not json")
    assert [m["id"] for m in models["data"]] == ["tiny"]
    assert missing.status_code == 404
    assert bad_body.status_code == 400


def test_api_key_is_enforced() -> None:
    with ScriptedOpenAIServer([Reply.text("ok")], api_key="secret") as server:
        refused = ask(server)
        allowed = httpx.post(
            server.base_url + CHAT,
            json={"messages": []},
            headers={"Authorization": "Bearer secret"},
        )
    assert refused.status_code == 401
    assert allowed.status_code == 200


def test_concurrent_requests_are_all_recorded() -> None:
    with ScriptedOpenAIServer(responder=lambda request: Reply.text("ok")) as server:
        threads = [threading.Thread(target=ask, args=(server, f"q{i}")) for i in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        contents = sorted(r["messages"][0]["content"] for r in server.requests)
    assert contents == sorted(f"q{i}" for i in range(8))


def test_stop_closes_the_port_and_start_stop_are_explicit() -> None:
    server = ScriptedOpenAIServer([Reply.text("ok")]).start()
    url = server.base_url
    assert ask(server).status_code == 200
    server.stop()
    with pytest.raises(httpx.ConnectError):
        httpx.get(url + "/models", timeout=1)
    with pytest.raises(UsageError, match="not running"):
        server.base_url  # noqa: B018 - the property raises
    server.stop()  # idempotent


def test_a_failing_responder_is_reported_as_a_500() -> None:
    def responder(request: dict) -> Reply:
        raise KeyError("system prompt not recognised")

    with ScriptedOpenAIServer(responder=responder) as server:
        response = ask(server)
    assert response.status_code == 500
    assert "responder raised KeyError" in response.json()["error"]["message"]
