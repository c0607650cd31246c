"""complete_structured over a real chat client and the scripted server."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from ripplemem.errors import InvalidModelOutputError, ProviderError, ProviderUnavailableError
from ripplemem.providers.base import ChatMessage
from ripplemem.providers.openai_compat import OpenAICompatibleChat
from ripplemem.providers.structured import Structured, complete_structured, extract_json
from ripplemem.testing import Reply, ScriptedOpenAIServer


class Fact(BaseModel):
    subject: str
    year: int


ASK = [ChatMessage(role="user", content="When did Maya move to Berlin?")]


def chat_for(server: ScriptedOpenAIServer) -> OpenAICompatibleChat:
    return OpenAICompatibleChat(server.llm_settings(model="tiny-model"), backoff_s=0.01)


def test_valid_json_on_the_first_attempt() -> None:
    with ScriptedOpenAIServer([Reply.json({"subject": "Maya", "year": 2021})]) as server:
        result = complete_structured(chat_for(server), ASK, Fact)
        body = server.requests[0]
    assert isinstance(result, Structured)
    assert result.value == Fact(subject="Maya", year=2021)
    assert result.attempts == 1
    assert result.raw == '{"subject": "Maya", "year": 2021}'
    assert body["response_format"]["json_schema"]["schema"] == Fact.model_json_schema()
    assert body["temperature"] == 0.0


def test_malformed_then_valid_repairs_and_sums_tokens() -> None:
    script = [
        Reply.malformed(usage=(10, 5)),
        Reply.json({"subject": "Maya", "year": 2021}, usage=(30, 7)),
    ]
    with ScriptedOpenAIServer(script) as server:
        result = complete_structured(chat_for(server), ASK, Fact)
        second = server.requests[1]["messages"]
    assert result.value.year == 2021
    assert (result.attempts, result.tokens) == (2, 52)
    # the re-ask carries the bad output and the validation error
    assert second[0] == {"role": "user", "content": ASK[0].content}
    assert second[1]["role"] == "assistant" and second[1]["content"].startswith('{"answer"')
    assert second[2]["role"] == "user"
    assert "Invalid JSON" in second[2]["content"] and "corrected JSON only" in second[2]["content"]


def test_schema_violation_is_repaired_too() -> None:
    script = [
        Reply.json({"subject": "Maya", "year": "last year"}),
        Reply.json({"subject": "Maya", "year": 2022}),
    ]
    with ScriptedOpenAIServer(script) as server:
        result = complete_structured(chat_for(server), ASK, Fact)
        repair = server.requests[1]["messages"][-1]["content"]
    assert result.value.year == 2022 and result.attempts == 2
    assert "year" in repair


def test_fenced_json_with_prose_is_accepted() -> None:
    text = 'Sure! Here it is:\n```json\n{"subject": "Maya", "year": 2020}\n```\nAnything else?'
    with ScriptedOpenAIServer([Reply.text(text)]) as server:
        result = complete_structured(chat_for(server), ASK, Fact)
    assert result.value == Fact(subject="Maya", year=2020)
    assert (result.attempts, result.raw) == (1, text)


def test_invalid_every_time_raises_after_max_repairs() -> None:
    with ScriptedOpenAIServer([Reply.malformed()] * 2 + [Reply.text("no idea")]) as server:
        with pytest.raises(InvalidModelOutputError) as caught:
            complete_structured(chat_for(server), ASK, Fact, max_repairs=2)
        assert len(server.requests) == 3
        assert server.pending == 0
    message = str(caught.value)
    assert "'tiny-model'" in message and "Fact" in message and "3 attempt" in message
    assert "stronger model" in message and "json_mode" in message


def test_zero_repairs_means_one_attempt() -> None:
    with ScriptedOpenAIServer(
        [Reply.malformed(), Reply.json({"subject": "x", "year": 1})]
    ) as server:
        with pytest.raises(InvalidModelOutputError):
            complete_structured(chat_for(server), ASK, Fact, max_repairs=0)
        assert len(server.requests) == 1


def test_provider_errors_propagate_unchanged() -> None:
    server = ScriptedOpenAIServer([Reply.status(400)])
    with server, pytest.raises(ProviderError) as caught:
        complete_structured(chat_for(server), ASK, Fact)
    assert type(caught.value) is ProviderError
    with ScriptedOpenAIServer([Reply.malformed()]) as server:  # then the script runs dry: 500s
        chat = OpenAICompatibleChat(server.llm_settings(max_retries=1), backoff_s=0.01)
        with pytest.raises(ProviderUnavailableError, match="script exhausted"):
            complete_structured(chat, ASK, Fact)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": 1}', '{"a": 1}'),
        ('```\n{"a": 1}\n```', '{"a": 1}'),
        ('```JSON {"a": 1}```', '{"a": 1}'),
        ('The answer is {"a": {"b": 2}} as requested.', '{"a": {"b": 2}}'),
        ("nothing here", "nothing here"),
    ],
)
def test_extract_json(text: str, expected: str) -> None:
    assert extract_json(text) == expected
