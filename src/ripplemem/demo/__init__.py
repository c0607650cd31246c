"""The demo's data: a small multi-session conversation we wrote and questions whose evidence
spans sessions (``ripplemem demo`` ingests and asks them: :mod:`ripplemem.cli.demo`)."""

from __future__ import annotations

import json
from importlib import resources

from ripplemem.records import Conversation, Session, Turn


def load_demo() -> tuple[Conversation, list[dict]]:
    raw = json.loads(resources.files(__package__).joinpath("conversation.json").read_text("utf-8"))
    from ripplemem.conversation_input import parse_time

    sessions = []
    for s in raw["sessions"]:
        turns = tuple(
            Turn(turn_id=f"{s['session_id']}:{i + 1}", speaker=t["speaker"], text=t["text"],
                 caption=t.get("caption"))
            for i, t in enumerate(s["turns"])
        )
        sessions.append(Session(s["session_id"], parse_time(s["time"]), turns))
    conversation = Conversation(raw["conversation_id"], tuple(sessions), tuple(raw["speakers"]))
    return conversation, raw["questions"]
