"""The full-context baseline: the conversation itself to the reader, cut to its window."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from ripplemem.datasets import load_locomo
from ripplemem.providers.openai_compat import OpenAICompatibleChat
from ripplemem.testing import Reply, ScriptedOpenAIServer
from ripplemem_bench.answers.answering import Answerer
from ripplemem_bench.answers.judge import Judge
from ripplemem_bench.answers.setup import AnswerSetup
from ripplemem_bench.peers import make_peer
from ripplemem_bench.peers.full_context import FullContextPeer
from ripplemem_bench.retrieval.runners import run_locomo_bench
from ripplemem_bench.tokens import count_tokens


def test_the_window_keeps_the_latest_turns_said_before_the_question(locomo_file: Path) -> None:
    conversation = load_locomo(locomo_file)[0].conversation
    turns = [t for s in conversation.sessions for t in s.turns]
    everything = FullContextPeer(window_tokens=10**6)
    everything.ingest(conversation, "ns")
    whole = everything.search("ignored", "ns", None)
    assert [e.unit.turn_ids[0] for e in whole] == [t.turn_id for t in turns]
    assert whole[0].unit.restatement == f"{turns[0].speaker}: {turns[0].text}"

    last = count_tokens(whole[-1].unit.restatement) + count_tokens(whole[-2].unit.restatement)
    narrow = FullContextPeer(window_tokens=last)
    narrow.ingest(conversation, "ns")
    assert [e.unit.id for e in narrow.search("q", "ns", None)] == [e.unit.id for e in whole[-2:]]

    first_session = conversation.sessions[0].time
    assert first_session is not None
    early = everything.search("q", "ns", first_session)
    assert early and all(e.unit.session_time <= first_session for e in early)
    assert len(early) == len(conversation.sessions[0].turns)
    everything.drop("ns")
    assert everything.search("q", "ns", datetime(2100, 1, 1)) == []


def test_the_token_budget_is_the_window(locomo_file: Path) -> None:
    assert make_peer("full-context", None, 30, 512).window_tokens == 512  # type: ignore[arg-type]


def test_answers_with_and_without_memory_at_the_same_reader(locomo_file: Path) -> None:
    def responder(body: dict[str, Any]) -> Reply:
        if body["messages"][0]["content"].startswith("You grade"):
            return Reply.json({"reasoning": "-", "label": "WRONG"})
        return Reply.json({"answer": "Porto", "citations": [1]})

    with ScriptedOpenAIServer(responder=responder) as server:
        chat = OpenAICompatibleChat(server.llm_settings(), backoff_s=0.0)
        setup = AnswerSetup(Answerer(chat), Judge(chat), server.base_url)
        result = run_locomo_bench(
            locomo_file, recipes=("bm25", "full-context"), store="memory", answering=setup,
            token_budget=400,
        )
    block = result.recipes["full-context"]
    assert block.kind == "peer" and result.peers["full-context"]["window_tokens"] == 400
    answers, bm25 = block.answers, result.recipes["bm25"].answers
    assert answers is not None and bm25 is not None
    assert answers.questions == bm25.questions > 0
    assert answers.metrics["context_tokens"] <= 400 + 50  # rendered dates and numbers on top
    assert answers.metrics["cited"] == 1.0
