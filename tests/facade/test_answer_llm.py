"""answer(), LLM extraction and LLM planning through a real local OpenAI-compatible server."""

from __future__ import annotations

from ripplemem import LLMSettings, Memory, Settings
from ripplemem.testing import Reply, ScriptedOpenAIServer

from .conftest import TRIP


def test_answer_uses_evidence_and_counts_tokens(tmp_path, embedder):
    def responder(request: dict) -> Reply:
        system = request["messages"][0]["content"]
        if "answer questions" in system:
            return Reply.text("Lisbon")
        return Reply.status(500, body="unexpected prompt")

    with ScriptedOpenAIServer(responder=responder) as server:
        settings = Settings(
            store=tmp_path / "m.db",
            llm=LLMSettings(base_url=server.base_url, model="scripted"),
            extractor="deterministic",
            planner="deterministic",
        )
        with Memory(settings, embedder=embedder) as memory:
            memory.add(TRIP, user_id="maya", session_time="2024-05-20T10:00")
            answer = memory.answer("Where did Maya go with Priya?", user_id="maya",
                                   question_time="2024-06-01")
        assert answer.text == "Lisbon" and answer.tokens > 0 and answer.evidence
        prompt = server.requests[-1]["messages"][-1]["content"]
        assert "Lisbon" in prompt and "2024-06-01" in prompt
