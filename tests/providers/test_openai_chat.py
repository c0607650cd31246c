"""OpenAICompatibleChat against a real local OpenAI-protocol server (ScriptedOpenAIServer)."""

from __future__ import annotations

import socket
import time

import pytest

from ripplemem.errors import ConfigurationError, ProviderError, ProviderUnavailableError
from ripplemem.providers.base import ChatMessage, ChatModel
from ripplemem.providers.openai_compat import OpenAICompatibleChat, retry_after_seconds
from ripplemem.settings import LLMSettings
from ripplemem.testing import Reply, ScriptedOpenAIServer

HELLO = [ChatMessage(role="system", content="Be brief."), ChatMessage(role="user", content="Hi")]
SCHEMA = {"title": "Person record", "type": "object", "properties": {"name": {"type": "string"}}}


def chat_for(server: ScriptedOpenAIServer, **overrides: object) -> OpenAICompatibleChat:
    return OpenAICompatibleChat(server.llm_settings(**overrides), backoff_s=0.01)


def test_plain_text_reply_with_usage_tokens() -> None:
    with ScriptedOpenAIServer([Reply.text("Hello there", usage=(12, 3))]) as server:
        with chat_for(server) as chat:
            assert isinstance(chat, ChatModel)
            result = chat.complete(HELLO, temperature=0.3, max_tokens=50)
        body = server.requests[0]
    assert result.text == "Hello there"
    assert (result.prompt_tokens, result.completion_tokens, result.total_tokens) == (12, 3, 15)
    assert result.model == "scripted-model"
    assert chat.name == "scripted-model"
    assert body["model"] == "scripted-model"
    assert body["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Hi"},
    ]
    assert (body["temperature"], body["max_tokens"]) == (0.3, 50)
    assert "response_format" not in body


def test_missing_usage_counts_as_zero_tokens() -> None:
    bare = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}}]}
    with ScriptedOpenAIServer([Reply.status(200, body=bare)]) as server:
        result = chat_for(server, model="m1").complete(HELLO)
    assert (result.text, result.total_tokens, result.model) == ("ok", 0, "m1")


def test_bearer_key_and_json_schema_response_format_are_sent() -> None:
    with ScriptedOpenAIServer([Reply.json({"name": "Maya"})], api_key="sk-test") as server:
        result = chat_for(server).complete(HELLO, json_schema=SCHEMA)
        recorded = server.recorded[0]
    assert result.text == '{"name": "Maya"}'
    assert recorded.headers["authorization"] == "Bearer sk-test"
    assert recorded.path == "/v1/chat/completions"
    assert recorded.body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "Person_record", "schema": SCHEMA, "strict": False},
    }
    assert "max_tokens" not in recorded.body


@pytest.mark.parametrize(
    ("json_mode", "expected"),
    [("json_object", {"type": "json_object"}), ("none", None)],
)
def test_json_mode_is_vendor_data(json_mode: str, expected: dict | None) -> None:
    with ScriptedOpenAIServer([Reply.json({})]) as server:
        chat_for(server, json_mode=json_mode).complete(HELLO, json_schema=SCHEMA)
        body = server.requests[0]
    assert body.get("response_format") == expected


def test_no_key_means_no_authorization_header() -> None:
    with ScriptedOpenAIServer([Reply.text("hi")]) as server:
        chat_for(server).complete(HELLO)
        assert "authorization" not in server.recorded[0].headers


def test_unknown_json_mode_is_a_configuration_error() -> None:
    with pytest.raises(ConfigurationError, match="json_mode.*'json_schema', 'json_object' or 'none'"):
        LLMSettings(base_url="http://127.0.0.1:9/v1", model="m", json_mode="xml")


def test_429_with_retry_after_is_retried_honouring_the_header() -> None:
    script = [Reply.status(429, retry_after=0), Reply.text("after the rate limit")]
    with ScriptedOpenAIServer(script) as server:
        # a long backoff shows that Retry-After: 0 replaced it
        chat = OpenAICompatibleChat(server.llm_settings(), backoff_s=5.0)
        started = time.monotonic()
        result = chat.complete(HELLO)
        elapsed = time.monotonic() - started
        assert len(server.requests) == 2
    assert result.text == "after the rate limit"
    assert elapsed < 2.0


def test_500_then_success() -> None:
    with ScriptedOpenAIServer([Reply.status(500), Reply.status(503), Reply.text("up")]) as server:
        assert chat_for(server).complete(HELLO).text == "up"
        assert len(server.requests) == 3


def test_a_reply_slower_than_the_timeout_is_retried() -> None:
    script = [Reply.delay(1.0, then=Reply.text("too late")), Reply.text("in time")]
    with ScriptedOpenAIServer(script) as server:
        chat = chat_for(server, timeout_s=0.3)
        assert chat.complete(HELLO).text == "in time"
        assert len(server.requests) == 2


def test_persistent_429_gives_up_with_provider_unavailable() -> None:
    script = [Reply.status(429, retry_after=0)] * 3
    with ScriptedOpenAIServer(script) as server:
        chat = chat_for(server, max_retries=2)
        with pytest.raises(ProviderUnavailableError) as caught:
            chat.complete(HELLO)
        assert len(server.requests) == 3
        url = f"{server.base_url}/chat/completions"
    message = str(caught.value)
    assert url in message
    assert "HTTP 429" in message
    assert "API key" in message and "rate limit" in message


def test_400_is_a_provider_error_and_is_not_retried() -> None:
    bad = {"error": {"message": "model 'nope' does not exist"}}
    with ScriptedOpenAIServer([Reply.status(400, body=bad), Reply.text("unused")]) as server:
        with pytest.raises(ProviderError, match="HTTP 400.*does not exist") as caught:
            chat_for(server).complete(HELLO)
        assert not isinstance(caught.value, ProviderUnavailableError)
        assert len(server.requests) == 1
        assert server.pending == 1


def test_a_wrong_key_is_rejected_without_retries() -> None:
    with ScriptedOpenAIServer([Reply.text("unused")], api_key="right") as server:
        chat = chat_for(server, api_key="wrong")
        with pytest.raises(ProviderError, match="HTTP 401"):
            chat.complete(HELLO)
        assert len(server.requests) == 1


def test_unreachable_endpoint_gives_up_naming_the_url() -> None:
    with socket.socket() as probe:  # a port that nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings = LLMSettings(base_url=f"http://127.0.0.1:{port}/v1/", model="m", max_retries=1)
    chat = OpenAICompatibleChat(settings, backoff_s=0.01)
    with pytest.raises(ProviderUnavailableError, match=f"127.0.0.1:{port}/v1/chat/completions"):
        chat.complete(HELLO)


def test_a_body_without_choices_is_a_provider_error() -> None:
    script = [Reply.status(200, body={"unexpected": True})]
    with ScriptedOpenAIServer(script) as server, pytest.raises(ProviderError, match="choices"):
        chat_for(server).complete(HELLO)


@pytest.mark.parametrize(
    ("header", "expected"),
    [("0", 0.0), ("2.5", 2.5), ("100", 30.0), ("-3", 0.0), ("soon", None), (None, None)],
)
def test_retry_after_header_parsing(header: str | None, expected: float | None) -> None:
    assert retry_after_seconds(header) == expected


def test_retry_after_as_http_date() -> None:
    seconds = retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT")  # in the past
    assert seconds == 0.0


def test_every_retry_is_logged_with_its_reason(caplog: pytest.LogCaptureFixture) -> None:
    script = [Reply.delay(1.0, then=Reply.text("late")), Reply.status(503), Reply.text("up")]
    with (
        ScriptedOpenAIServer(script) as server,
        caplog.at_level("WARNING", logger="ripplemem.providers.openai_compat"),
    ):
        assert chat_for(server, timeout_s=0.3).complete(HELLO).text == "up"
    reasons = [r.getMessage() for r in caplog.records]
    assert len(reasons) == 2
    assert "attempt 1 of 4" in reasons[0] and "timed out" in reasons[0]
    assert "attempt 2 of 4" in reasons[1] and "HTTP 503" in reasons[1]


def test_finish_reason_is_read_from_the_reply() -> None:
    with ScriptedOpenAIServer([Reply.truncated("{\"a\": [1,"), Reply.text("ok")]) as server:
        chat = chat_for(server)
        assert chat.complete(HELLO, max_tokens=5).finish_reason == "length"
        assert chat.complete(HELLO).finish_reason == "stop"


@pytest.mark.parametrize(
    "base_url, timeout",
    [
        ("https://api.example.com/v1", 60.0),
        ("http://127.0.0.1:8081/v1", 1800.0),
        ("http://localhost:8000/v1", 1800.0),
        ("http://user@[::1]:9/v1", 1800.0),
    ],
)
def test_the_default_timeout_is_generous_for_a_local_endpoint(base_url: str, timeout: float) -> None:
    settings = LLMSettings(base_url=base_url, model="m")
    assert settings.resolved_timeout_s() == timeout
    assert OpenAICompatibleChat(settings).timeout_s == timeout
    assert LLMSettings(base_url=base_url, model="m", timeout_s=5).resolved_timeout_s() == 5


def test_the_timeout_comes_from_the_environment_and_the_command_line(tmp_path) -> None:
    from typer.testing import CliRunner

    from ripplemem.cli.main import app
    from ripplemem.settings import Settings

    env = {"RIPPLEMEM_LLM_BASE_URL": "http://127.0.0.1:9/v1", "RIPPLEMEM_LLM_TIMEOUT_S": "900"}
    assert Settings.from_env(env).llm.timeout_s == 900.0  # type: ignore[union-attr]
    assert Settings.from_env(env, llm_timeout_s=30).llm.timeout_s == 30.0  # type: ignore[union-attr]
    with pytest.raises(ConfigurationError, match="RIPPLEMEM_LLM_TIMEOUT_S"):
        Settings.from_env({**env, "RIPPLEMEM_LLM_TIMEOUT_S": "soon"})
    with pytest.raises(ConfigurationError, match="needs an LLM endpoint"):
        Settings.from_env({}, llm_timeout_s=30)
    # ripplemem --llm-timeout S <command>: the command's settings carry it
    answers: list[str] = []

    def responder(body: dict) -> Reply:
        if "plan the next step" in body["messages"][0]["content"]:
            return Reply.json({"continue": False, "stop_reason": "enough"})
        answers.append(body["messages"][-1]["content"])
        reply = Reply.json({"answer": "Lisbon", "citations": [1]})
        return Reply.delay(1.0, then=reply) if len(answers) == 1 else reply

    with ScriptedOpenAIServer(responder=responder) as server:
        runner = CliRunner()
        ingest = tmp_path / "chat.jsonl"
        ingest.write_text('{"speaker": "Maya", "text": "I moved to Lisbon.", "time": "2024-05-01"}\n')
        cli_env = {
            "RIPPLEMEM_LLM_BASE_URL": server.base_url, "RIPPLEMEM_LLM_MODEL": "m",
            "RIPPLEMEM_LLM_TIMEOUT_S": None, "OMP_NUM_THREADS": "1",
        }
        base = ["--store", str(tmp_path / "m.db")]
        stored = runner.invoke(
            app, ["ingest", str(ingest), *base], env={**cli_env, "RIPPLEMEM_LLM_BASE_URL": None}
        )
        assert stored.exit_code == 0, stored.output
        done = runner.invoke(
            app, ["--llm-timeout", "0.3", "answer", "Where does Maya live?", *base], env=cli_env
        )
        assert done.exit_code == 0, done.output
    assert len(answers) == 2  # the slow answer timed out at 0.3 s and was asked again
    assert "Lisbon" in done.output
