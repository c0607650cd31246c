"""The LLM extractor's attribute field: grounded, stored with the unit, and linking updates."""

from __future__ import annotations

from pathlib import Path

from ripplemem import Memory, Settings
from ripplemem.testing import Reply, ScriptedOpenAIServer


def _unit(text: str, turn: str, attribute: dict | None) -> dict:
    return {
        "restatement": text, "source_turn_ids": [turn], "participants": ["Maya"],
        "locations": [], "keywords": [], "attribute": attribute,
    }


def test_llm_attributes_link_an_update_and_skip_an_ungrounded_holder(tmp_path: Path, embedder) -> None:
    with ScriptedOpenAIServer() as server:
        server.enqueue(
            Reply.json({"units": [_unit("Maya lives in Leeds.", "s1:1", {
                "holder": "Maya", "name": "residence", "value": "Leeds", "update": False})]}),
            Reply.json({"units": [
                _unit("Maya now lives in Bristol.", "s2:1", {
                    "holder": "Maya", "name": "residence", "value": "Bristol", "update": True}),
                _unit("Maya's friend Zed moved to Rome.", "s2:2", {
                    "holder": "Zed", "name": "residence", "value": "Rome", "update": True}),
            ]}),
        )
        settings = Settings(
            store=str(tmp_path / "m.db"), llm=server.llm_settings(), extractor="llm",
            planner="deterministic", clue_writer="deterministic",
        )
        with Memory(settings, embedder=embedder) as memory:
            memory.add([{"speaker": "Maya", "text": "I live in Leeds."}], user_id="m",
                       session_time="2023-01-01T10:00", session_id="s1")
            memory.add([{"speaker": "Maya", "text": "I'm in Bristol now."},
                        {"speaker": "Maya", "text": "My friend moved to Rome."}],
                       user_id="m", session_time="2023-06-01T10:00", session_id="s2")
            units = {u.restatement: u for u in memory.list(user_id="m")}
            old, new = units["Maya lives in Leeds."], units["Maya now lives in Bristol."]
            assert new.extra["attribute"] == {
                "holder": "Maya", "name": "residence", "value": "Bristol", "update": True
            }
            assert "attribute" not in units["Maya's friend Zed moved to Rome."].extra  # Zed is not in the window
            chain = memory.history(old.id, user_id="m")
            assert [v.unit.id for v in chain] == [old.id, new.id]
