"""With an LLM configured, the write path asks it which earlier memories a new one updates
(one bounded structured call per new unit with candidates), against the shipped scripted server."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from ripplemem import Memory, Settings
from ripplemem.components import build_components
from ripplemem.testing import Reply, ScriptedOpenAIServer
from ripplemem.write.prompts.update import MAX_CANDIDATES, MAX_TOKENS, SYSTEM


def _update_calls(server: ScriptedOpenAIServer) -> list[dict[str, Any]]:
    return [b for b in server.requests if b.get("messages", [{}])[0].get("content") == SYSTEM]


def _model(body: dict[str, Any]) -> Reply:
    """A scripted model: a new memory naming another city updates an earlier one naming a city;
    anything else only adds."""
    text = body["messages"][-1]["content"]
    new = text.split("\n", 1)[0]
    earlier = re.findall(r"^(\d+)\. \(.*?\) (.*)$", text, flags=re.MULTILINE)
    cities = {"Leeds", "Bristol", "York"}
    verdicts = [
        {"memory": int(n), "relation": "updates" if cities & set(re.findall(r"\w+", t)) and
         cities & set(re.findall(r"\w+", new)) else "adds"}
        for n, t in earlier
    ]
    return Reply.json({"verdicts": verdicts})


def _settings(tmp_path: Path, server: ScriptedOpenAIServer, **extra) -> Settings:
    return Settings(
        store=str(tmp_path / "m.db"), llm=server.llm_settings(max_retries=0), extractor="deterministic",
        planner="deterministic", clue_writer="deterministic", updates="llm", **extra,
    )


def _replaced(memory: Memory, unit_id: str) -> set[str]:
    return {e.dst for e in memory.edges(unit_id, user_id="u") if e.kind == "supersedes" and e.src == unit_id}


def test_the_models_update_becomes_a_supersedes_edge(tmp_path: Path, embedder) -> None:
    with ScriptedOpenAIServer(responder=_model) as server, \
            Memory(_settings(tmp_path, server), embedder=embedder) as memory:
        old = memory.add([{"speaker": "Maya", "text": "I have been renting a flat in Leeds."}],
                         user_id="u", session_time="2023-02-10").units[0]
        assert _update_calls(server) == []  # nothing to compare the first memory with
        added = memory.add([{"speaker": "Maya", "text": "Big news: I moved to Bristol last month."}],
                           user_id="u", session_time="2023-06-03")
        new = added.units[0]
        assert added.tokens > 0  # the update call's tokens count with the add's
        assert _replaced(memory, new.id) == {old.id}
        calls = _update_calls(server)
        assert len(calls) == 1  # one call for the new unit with a candidate
        body = calls[0]
        assert body["max_tokens"] == MAX_TOKENS
        schema = body["response_format"]["json_schema"]["schema"]
        assert schema["properties"]["verdicts"]["maxItems"] == MAX_CANDIDATES
        assert "Leeds" in body["messages"][1]["content"] and "Bristol" in body["messages"][1]["content"]
        found = memory.search("Where does Maya live now?", user_id="u")
        ids = [e.unit.id for e in found.evidence]
        assert ids.index(new.id) < ids.index(old.id)


def test_adds_and_unrelated_link_nothing(tmp_path: Path, embedder) -> None:
    with ScriptedOpenAIServer(responder=_model) as server, \
            Memory(_settings(tmp_path, server), embedder=embedder) as memory:
        memory.add([{"speaker": "Maya", "text": "I have been renting a flat in Leeds."}],
                   user_id="u", session_time="2023-02-10")
        new = memory.add([{"speaker": "Maya", "text": "I also rent a garage for my bikes."}],
                         user_id="u", session_time="2023-06-03").units[0]
        assert len(_update_calls(server)) == 1
        assert _replaced(memory, new.id) == set()


def test_invalid_replies_decide_nothing_and_lose_nothing(tmp_path: Path, embedder) -> None:
    with ScriptedOpenAIServer() as server, Memory(_settings(tmp_path, server), embedder=embedder) as memory:
        memory.add([{"speaker": "Maya", "text": "I have been renting a flat in Leeds."}],
                   user_id="u", session_time="2023-02-10")
        server.enqueue(Reply.malformed(), Reply.json({"verdicts": [{"memory": 9, "relation": "updates"}]}))
        new = memory.add([{"speaker": "Maya", "text": "I moved to Bristol last month."}],
                         user_id="u", session_time="2023-06-03").units[0]
        assert memory.get(new.id, user_id="u").restatement  # stored all the same
        assert _replaced(memory, new.id) == set()
        assert server.pending == 0 and len(_update_calls(server)) == 2  # the reply, one repair


def test_at_most_five_candidates_are_shown(tmp_path: Path, embedder) -> None:
    with ScriptedOpenAIServer(responder=_model) as server, \
            Memory(_settings(tmp_path, server), embedder=embedder) as memory:
        memory.add([{"speaker": "Maya", "text": f"I lived on street number {n} in Leeds."} for n in range(12)],
                   user_id="u", session_time="2023-02-10")
        before = len(_update_calls(server))
        memory.add([{"speaker": "Maya", "text": "I live in York now."}], user_id="u", session_time="2023-06-03")
        (call,) = _update_calls(server)[before:]
        shown = re.findall(r"^\d+\. ", call["messages"][1]["content"], flags=re.MULTILINE)
        assert 1 <= len(shown) <= MAX_CANDIDATES
        assert json.dumps(call).count("York") >= 1


@pytest.mark.parametrize(
    ("llm", "extractor", "choice", "expected"),
    [
        (False, "auto", "auto", None),  # no LLM: the parse decides
        (True, "auto", "deterministic", None),
        (True, "deterministic", "auto", None),  # "auto" follows the extractor
        (True, "auto", "auto", "llm"),
        (True, "deterministic", "llm", "llm"),
    ],
)
def test_the_deterministic_path_stays_the_default(
    tmp_path: Path, embedder, llm: bool, extractor: str, choice: str, expected
) -> None:
    with ScriptedOpenAIServer() as server:
        settings = Settings(
            store=str(tmp_path / "d.db"), llm=server.llm_settings() if llm else None, updates=choice,
            extractor=extractor, planner="deterministic", clue_writer="deterministic",
        )
        parts = build_components(settings, embedder=embedder)
        try:
            judge = parts.update_judge
            if expected is None:
                assert judge is None
            else:
                assert judge is not None and judge.name.startswith("llm:")
        finally:
            parts.store.close()
