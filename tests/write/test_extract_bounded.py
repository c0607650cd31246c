"""Bounded extraction: schemas with limits, max_tokens, cut-off replies asked again for less,
echoed examples dropped, and the deterministic fallback for turns the model fails on — through
the real client and the scripted OpenAI server (truncation, loops and echoes scripted)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime

import pytest

from ripplemem import LLMSettings, Memory, Settings
from ripplemem.errors import InvalidModelOutputError, ProviderError
from ripplemem.providers.openai_compat import OpenAICompatibleChat
from ripplemem.providers.structured import output_token_budget
from ripplemem.records import Turn, Window, WindowDrafts
from ripplemem.testing import FakeEmbedder, Reply, ScriptedOpenAIServer
from ripplemem.write.entities import EntityRecognizer
from ripplemem.write.extract_llm import LLMExtractor
from ripplemem.write.extract_rules import DeterministicExtractor
from ripplemem.write.prompts.extraction import EXAMPLE_REPLY, EXAMPLE_UNIT

WHEN = datetime(2023, 5, 8, 13, 56)
TURNS = (
    Turn("D1:1", "Caroline", "I went to a LGBTQ support group yesterday in Boston."),
    Turn("D1:2", "Melanie", "That's great! I painted a sunrise over the lake last week."),
    Turn("D1:3", "Caroline", "I am reading Becoming Nicole by Amy Ellis Nutt."),
    Turn("D1:4", "Melanie", "My kids and I are going camping in the mountains in June."),
)
WINDOW = Window("S1", WHEN, TURNS, ("Caroline", "Melanie"))


def unit(turn: str, text: str) -> dict:
    return {"restatement": text, "source_turn_ids": [turn], "participants": [], "keywords": []}


@pytest.fixture(scope="module")
def rules() -> DeterministicExtractor:
    return DeterministicExtractor(EntityRecognizer())


@pytest.fixture
def server() -> Iterator[ScriptedOpenAIServer]:
    with ScriptedOpenAIServer() as running:
        yield running


@pytest.fixture
def extractor(server: ScriptedOpenAIServer, rules: DeterministicExtractor) -> Iterator[LLMExtractor]:
    with OpenAICompatibleChat(server.llm_settings(max_retries=0), backoff_s=0.01) as chat:
        yield LLMExtractor(chat, max_repairs=1, fallback=rules)


def _schema_is_bounded(node: object) -> list[str]:
    """Paths of every list without maxItems and every string without maxLength."""
    problems: list[str] = []

    def walk(value: object, path: str) -> None:
        if isinstance(value, dict):
            if value.get("type") == "array" and "maxItems" not in value:
                problems.append(path)
            if value.get("type") == "string" and "maxLength" not in value and "enum" not in value:
                problems.append(path)
            for key, child in value.items():
                walk(child, f"{path}/{key}")
        elif isinstance(value, list):
            for index, child in enumerate(value):
                walk(child, f"{path}/{index}")

    walk(node, "")
    return problems


def test_the_request_is_bounded(server: ScriptedOpenAIServer, extractor: LLMExtractor) -> None:
    server.enqueue(Reply.json({"units": [unit("D1:1", "Caroline went to a support group.")]}))
    (drafts,) = extractor.extract([WINDOW])
    assert [d.turn_ids for d in drafts] == [("D1:1",)]
    (request,) = server.requests
    schema = request["response_format"]["json_schema"]["schema"]
    assert _schema_is_bounded(schema) == []
    assert schema["properties"]["units"]["maxItems"] == 4  # one per new turn
    assert request["max_tokens"] == output_token_budget(schema)
    assert "Return at most 4 units." in request["messages"][-1]["content"]
    # the worked example is its own exchange, about made-up turns, not in the system prompt
    roles = [m["role"] for m in request["messages"]]
    assert roles == ["system", "user", "assistant", "user"]
    assert "ex:1" in request["messages"][1]["content"]
    assert "ex:1" not in request["messages"][0]["content"]


def test_a_cut_off_reply_is_asked_again_for_half_the_turns(
    server: ScriptedOpenAIServer, extractor: LLMExtractor
) -> None:
    server.enqueue(
        Reply.truncated('{"units": [{"restatement": "Caroline went'),
        Reply.json({"units": [unit("D1:1", "Caroline went to a support group in Boston.")]}),
        Reply.json({"units": [unit("D1:3", "Caroline is reading Becoming Nicole.")]}),
    )
    (drafts,) = extractor.extract([WINDOW])
    assert [d.turn_ids for d in drafts] == [("D1:1",), ("D1:3",)]
    first, second, third = server.requests
    # asked for less, never with a longer prompt: no re-ask carrying the cut-off reply
    assert len(second["messages"]) == len(third["messages"]) == len(first["messages"])
    assert "[D1:3]" not in second["messages"][-1]["content"]
    third_turns = third["messages"][-1]["content"].split("Turns to extract from:")[1]
    assert "[D1:3]" in third_turns and "[D1:1]" not in third_turns
    assert second["max_tokens"] < first["max_tokens"]
    assert isinstance(drafts, WindowDrafts) and drafts.fallbacks == ()


def test_a_loop_in_an_array_ends_at_max_tokens_and_falls_back_for_those_turns(
    server: ScriptedOpenAIServer, extractor: LLMExtractor
) -> None:
    looping = Reply.loop('{"units": [{"restatement": "x", "keywords": [', '"camping", ')
    server.enqueue(
        looping,  # the whole window
        Reply.json({"units": [unit("D1:1", "Caroline went to a support group in Boston.")]}),
        looping,  # the second half loops again: the deterministic extractor takes it
    )
    (drafts,) = extractor.extract([WINDOW])
    requests = server.requests
    assert len(requests) == 3
    assert all(r["max_tokens"] for r in requests)
    assert drafts[0].turn_ids == ("D1:1",) and drafts[0].provenance is None
    fallback = [d for d in drafts if d.provenance]
    assert fallback and all(set(d.turn_ids) <= {"D1:3", "D1:4"} for d in fallback)
    (record,) = drafts.fallbacks
    assert record.turn_ids == ("D1:3", "D1:4") and record.extractor == "deterministic"
    assert record.instead_of == "llm:scripted-model" and "cut off" in record.reason
    assert record.units == len(fallback)
    assert fallback[0].provenance == record.provenance()
    assert extractor.fallback_windows == 1


def test_an_echoed_worked_example_is_dropped(
    server: ScriptedOpenAIServer, extractor: LLMExtractor
) -> None:
    copied = dict(EXAMPLE_UNIT, source_turn_ids=["D1:1"])
    server.enqueue(
        Reply.echo(),  # the example's reply, verbatim: its ids are no turn of the window
        Reply.json({"units": [copied, unit("D1:4", "Melanie is going camping in June.")]}),
    )
    (verbatim,) = extractor.extract([WINDOW])
    (relabelled,) = extractor.extract([WINDOW])
    assert server.requests[0]["messages"][2]["content"] == EXAMPLE_REPLY
    assert verbatim == []
    assert [d.restatement for d in relabelled] == ["Melanie is going camping in June."]
    assert extractor.dropped == 4  # three units verbatim, one relabelled


def test_output_that_never_validates_falls_back(
    server: ScriptedOpenAIServer, extractor: LLMExtractor
) -> None:
    server.enqueue(Reply.text("I cannot do that."), Reply.text("Still no JSON."))
    (drafts,) = extractor.extract([WINDOW])
    assert drafts and all(d.provenance for d in drafts)
    (record,) = drafts.fallbacks
    assert "InvalidModelOutputError" in record.reason and record.turn_ids == tuple(
        t.turn_id for t in TURNS
    )


def test_an_unavailable_endpoint_falls_back_but_a_rejected_request_fails(
    server: ScriptedOpenAIServer, extractor: LLMExtractor
) -> None:
    server.enqueue(Reply.status(503))
    (drafts,) = extractor.extract([WINDOW])
    assert drafts.fallbacks and "ProviderUnavailableError" in drafts.fallbacks[0].reason
    server.enqueue(Reply.status(404, body={"error": {"message": "no such model"}}))
    with pytest.raises(ProviderError, match="HTTP 404"):
        extractor.extract([WINDOW])


def test_without_a_fallback_the_failure_is_raised(server: ScriptedOpenAIServer) -> None:
    server.enqueue(Reply.truncated("{"), Reply.truncated("{"), Reply.truncated("{"))
    with OpenAICompatibleChat(server.llm_settings(), backoff_s=0.01) as chat:
        bare = LLMExtractor(chat)
        with pytest.raises(InvalidModelOutputError, match="cut off at max_tokens twice"):
            bare.extract([WINDOW])


def test_add_keeps_the_fallback_turns_and_reports_them(tmp_path) -> None:
    """One window loops, the next is fine: the add stores both, says which turns fell back."""
    messages = [
        {"speaker": t.speaker, "text": t.text, "turn_id": f"t{n}"} for n, t in enumerate(TURNS, 1)
    ]

    def responder(request: dict) -> Reply:
        system = request["messages"][0]["content"]
        window = request["messages"][-1]["content"]
        if "memory units" not in system:
            return Reply.status(500, body="unexpected prompt")
        focus = window.split("Turns to extract from:")[1]
        if "LGBTQ" in focus:
            return Reply.loop('{"units": [{"keywords": [', '"group", ')
        if "camping" in focus:
            return Reply.json({"units": [unit("t4", "Melanie's family goes camping in June.")]})
        return Reply.json({"units": []})

    with ScriptedOpenAIServer(responder=responder) as server:
        settings = Settings(
            store=tmp_path / "m.db",
            llm=LLMSettings(base_url=server.base_url, model="scripted", max_retries=0),
            planner="deterministic", clue_writer="deterministic",
            write={"window_turns": 2, "window_overlap": 0},
        )
        with Memory(settings, embedder=FakeEmbedder()) as memory:
            result = memory.add(messages, user_id="mel", session_time=WHEN)
            stored = memory.list(user_id="mel")
    assert result.fallbacks, "the looping window was not reported"
    # the first window looped, then its first half looped again: only turn t1 fell back
    assert [f.turn_ids for f in result.fallbacks] == [("t1",)]
    by_turn = {u.turn_ids: u for u in stored}
    assert by_turn[("t4",)].extra.get("provenance") is None
    assert by_turn[("t1",)].extra["provenance"]["extractor"] == "deterministic"
    assert sum(f.units for f in result.fallbacks) == sum(1 for u in stored if "provenance" in u.extra)
    payload = result.to_json()
    assert payload["fallbacks"][0]["instead_of"] == "llm:scripted"
    assert json.loads(json.dumps(payload))["fallbacks"] == payload["fallbacks"]
