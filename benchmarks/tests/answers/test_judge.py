"""The judge and the answerer against a real local OpenAI-protocol server (no patching)."""

from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem.errors import ProviderError
from ripplemem.providers.openai_compat import OpenAICompatibleChat
from ripplemem.records import Evidence, MemoryUnit
from ripplemem.testing import Reply, ScriptedOpenAIServer
from ripplemem_bench.answers.answering import Answerer
from ripplemem_bench.answers.judge import Judge
from ripplemem_bench.answers.judge_prompt import TYPE_RULES, judge_kind

CORRECT = {"reasoning": "same city", "label": "CORRECT"}
WRONG = {"reasoning": "different city", "label": "WRONG"}


def _chat(server: ScriptedOpenAIServer, **overrides) -> OpenAICompatibleChat:
    return OpenAICompatibleChat(server.llm_settings(**overrides), backoff_s=0.0)


def test_verdict_is_read_from_json_at_temperature_zero() -> None:
    with ScriptedOpenAIServer([Reply.json(CORRECT, usage=(50, 7))], model="judge-m") as server:
        verdict = Judge(_chat(server)).judge("Where?", "Porto", "In Porto, Portugal")
        body = server.requests[0]
    assert verdict.label == "CORRECT" and verdict.correct
    assert verdict.tokens == 57 and verdict.attempts == 1
    assert body["temperature"] == 0.0
    assert body["response_format"]["type"] == "json_schema"
    assert "Gold answer: Porto" in body["messages"][1]["content"]


def test_malformed_json_is_re_asked_with_the_error_then_accepted() -> None:
    with ScriptedOpenAIServer([Reply.malformed(usage=(40, 5)), Reply.json(WRONG, usage=(60, 5))]) as server:
        verdict = Judge(_chat(server)).judge("Where?", "Porto", "Lisbon")
        second = server.requests[1]["messages"]
    assert verdict.label == "WRONG" and verdict.attempts == 2 and verdict.tokens == 110
    assert second[-1]["role"] == "user" and "could not be used" in second[-1]["content"]


def test_malformed_json_every_time_is_a_counted_failure_not_a_crash() -> None:
    with ScriptedOpenAIServer([Reply.malformed(), Reply.text("CORRECT, I think")]) as server:
        verdict = Judge(_chat(server), max_repairs=1).judge("Where?", "Porto", "Porto")
        assert len(server.requests) == 2
    assert verdict.label == "FAILED" and not verdict.correct
    assert verdict.error and "malformed verdict" in verdict.error


def test_429_is_retried_and_a_timeout_becomes_a_failure() -> None:
    script = [Reply.status(429, retry_after=0), Reply.json(CORRECT)]
    with ScriptedOpenAIServer(script) as server:
        assert Judge(_chat(server)).judge("q", "a", "a").label == "CORRECT"
        assert len(server.requests) == 2
    with ScriptedOpenAIServer([Reply.delay(1.0, Reply.json(CORRECT))]) as server:
        chat = _chat(server, timeout_s=0.2, max_retries=0)
        verdict = Judge(chat).judge("q", "a", "a")
    assert verdict.label == "FAILED" and "unavailable" in (verdict.error or "")


def test_a_rejected_request_stops_the_run() -> None:
    with ScriptedOpenAIServer([Reply.status(404)]) as server, pytest.raises(ProviderError):
        Judge(_chat(server)).judge("q", "a", "a")


@pytest.mark.parametrize("kind", sorted(TYPE_RULES))
def test_each_question_type_adds_its_rule(kind: str) -> None:
    with ScriptedOpenAIServer([Reply.json(CORRECT)]) as server:
        Judge(_chat(server)).judge("q", "gold", "answer", kind)
        prompt = server.requests[0]["messages"][1]["content"]
    assert TYPE_RULES[kind] in prompt
    assert all(rule not in prompt for other, rule in TYPE_RULES.items() if other != kind)


def test_judge_kind_puts_abstention_first() -> None:
    assert judge_kind("temporal-reasoning", abstention=True) == "abstention"
    assert judge_kind("temporal-reasoning") == "temporal-reasoning"
    assert judge_kind("multi-session") is None


def _evidence(text: str) -> Evidence:
    unit = MemoryUnit(
        id="u1", namespace="n", restatement=text, vector=None, participants=("Ana",),
        locations=("Porto",), time_span=None, episode_id="s1", turn_ids=("D1:3",),
        session_time=datetime(2023, 5, 8, 13, 56), created_at=datetime(2023, 5, 8),
    )
    return Evidence(unit=unit, score=1.0, hits=())


def test_answerer_uses_the_library_prompt_and_the_endpoints_usage() -> None:
    with ScriptedOpenAIServer([Reply.text(" Porto \n", usage=(321, 4))], model="answer-m") as server:
        answer = Answerer(_chat(server)).answer(
            "Where did Ana adopt her cat?", [_evidence("Ana adopted her cat in Porto.")],
            datetime(2023, 6, 1),
        )
        body = server.requests[0]
    assert answer.text == "Porto" and answer.error is None
    assert (answer.prompt_tokens, answer.completion_tokens) == (321, 4)
    assert answer.context_tokens > 5 and answer.seconds >= 0
    assert "Ana adopted her cat in Porto." in body["messages"][1]["content"]
    assert "2023-06-01" in body["messages"][1]["content"]
    assert body["temperature"] == 0.0


def test_answerer_records_an_unavailable_endpoint_as_an_empty_answer() -> None:
    with ScriptedOpenAIServer([Reply.status(503), Reply.status(503)]) as server:
        answer = Answerer(_chat(server, max_retries=1)).answer("q", [], None)
    assert answer.text == "" and answer.error and "503" in answer.error
