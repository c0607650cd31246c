"""Cited answers through the real client and the scripted OpenAI server."""

from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem import LLMSettings, Memory, Settings
from ripplemem.errors import InvalidModelOutputError
from ripplemem.providers.openai_compat import OpenAICompatibleChat
from ripplemem.providers.structured import output_token_budget
from ripplemem.read.answering import compose_answer, split_citations
from ripplemem.records import Answer, Evidence
from ripplemem.testing import FakeEmbedder, Reply, ScriptedOpenAIServer, make_unit

FACTS = [
    "Maya moved to Lisbon in March 2024.",
    "Maya is allergic to shellfish.",
    "Sam recommended the bakery on Rua Augusta.",
    "Priya visited Maya in April.",
]
EVIDENCE = [
    Evidence(make_unit(f"u{n}", restatement=text, session_time=datetime(2024, 5, 1)), 1.0 / n, ())
    for n, text in enumerate(FACTS, 1)
]


def chat_for(server: ScriptedOpenAIServer) -> OpenAICompatibleChat:
    return OpenAICompatibleChat(server.llm_settings(max_retries=0), backoff_s=0.01)


def test_citations_name_the_memories_used_and_the_request_is_bounded() -> None:
    reply = {"answer": "Lisbon [1]", "citations": [1, 4, 9, 0, 4]}
    with ScriptedOpenAIServer([Reply.json(reply, usage=(300, 12))]) as server:
        composed = compose_answer(chat_for(server), "Where does Maya live?", EVIDENCE, None)
        (request,) = server.requests
    assert composed.text == "Lisbon"  # the inline marker leaves the text
    assert composed.citations == (1, 4)  # unknown numbers dropped, duplicates once
    assert composed.shown == 4 and composed.tokens == 312
    schema = request["response_format"]["json_schema"]["schema"]
    assert schema["properties"]["citations"]["maxItems"] == 5
    assert schema["properties"]["answer"]["maxLength"] == 300
    assert request["max_tokens"] == output_token_budget(schema)
    prompt = request["messages"][-1]["content"]
    assert "[2] (2024-05-01 00:00) Maya is allergic to shellfish." in prompt
    assert "citations" in request["messages"][0]["content"]


def test_an_uncited_answer_is_flagged_not_hidden() -> None:
    with ScriptedOpenAIServer([Reply.json({"answer": "I don't know", "citations": []})]) as server:
        composed = compose_answer(chat_for(server), "What is Maya's car?", EVIDENCE, None)
    answer = Answer(composed.text, tuple(EVIDENCE), composed.tokens, "m", composed.citations)
    assert answer.text == "I don't know" and answer.uncited and answer.cited == ()
    assert answer.to_json()["uncited"] is True
    assert Answer.from_json(answer.to_json()).uncited


def test_prose_replies_keep_their_markers_as_citations() -> None:
    with ScriptedOpenAIServer([Reply.text("She is allergic to shellfish [2].")]) as server:
        composed = compose_answer(chat_for(server), "What is Maya allergic to?", EVIDENCE, None)
    assert (composed.text, composed.citations) == ("She is allergic to shellfish.", (2,))
    assert split_citations("A [1, 3] and B [4]") == ("A and B", (1, 3, 4))


def test_a_cut_off_answer_is_asked_again_over_half_the_evidence() -> None:
    script = [
        Reply.loop('{"answer": "Lisbon', " and Lisbon"),
        Reply.json({"answer": "Lisbon", "citations": [1]}),
    ]
    with ScriptedOpenAIServer(script) as server:
        composed = compose_answer(chat_for(server), "Where does Maya live?", EVIDENCE, None)
        first, second = server.requests
    assert "[4]" in first["messages"][-1]["content"]
    assert "[3]" not in second["messages"][-1]["content"]
    assert composed.shown == 2 and composed.citations == (1,)


def test_broken_json_is_an_error_not_an_answer() -> None:
    with ScriptedOpenAIServer([Reply.malformed()]) as server, pytest.raises(InvalidModelOutputError):
        compose_answer(chat_for(server), "Where?", EVIDENCE, None)


def test_memory_answer_returns_the_cited_units(tmp_path) -> None:
    def responder(request: dict) -> Reply:
        prompt = request["messages"][-1]["content"]
        line = next(x for x in prompt.splitlines() if "Lisbon" in x)
        return Reply.json({"answer": "Lisbon", "citations": [int(line[1 : line.index("]")])]})

    with ScriptedOpenAIServer(responder=responder) as server:
        settings = Settings(
            store=tmp_path / "m.db", llm=LLMSettings(base_url=server.base_url, model="scripted"),
            extractor="deterministic", planner="deterministic", clue_writer="deterministic",
        )
        with Memory(settings, embedder=FakeEmbedder()) as memory:
            memory.add(
                [{"speaker": "Maya", "text": "I moved to Lisbon in March."},
                 {"speaker": "Sam", "text": "I love the bakeries there."}],
                user_id="maya", session_time="2024-05-01T10:00",
            )
            answer = memory.answer("Where does Maya live?", user_id="maya")
    assert answer.text == "Lisbon" and not answer.uncited
    (cited,) = answer.cited
    assert "Lisbon" in cited.unit.restatement
    assert answer.to_json()["citations"] == list(answer.citations)
