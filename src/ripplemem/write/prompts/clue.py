"""The clue prompt (AssoMem, reference §2) and its response model: one call per session.

The model reads what the session's memory units say and returns one sentence naming the
session's topic — the clue the session's utterances hang from in the associative graph.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, Field, field_validator

from ripplemem.providers.base import ChatMessage
from ripplemem.providers.structured import MaxLength

MAX_STATEMENTS = 60
MAX_CHARS = 6_000


class ClueResponse(BaseModel):
    """The session's topic as one sentence."""

    clue: Annotated[str, MaxLength(240)] = Field(
        description="One sentence (at most 30 words) naming what the session is mainly about: "
        "the people, project, event or theme, specific enough to tell it from other sessions."
    )

    @field_validator("clue")
    @classmethod
    def _one_line(cls, value: str) -> str:
        text = " ".join(value.split())
        if not text:
            raise ValueError("the clue must not be empty")
        return text


SYSTEM = """You label sessions of a long conversation for a personal memory.

Given what was said in one session, write its clue: one sentence (at most 30 words) naming the \
main topic — who, which project, event, activity or theme — specific enough to tell this \
session apart from other sessions. No preamble, no list.

Reply with one JSON object: {"clue": "..."}."""


def clue_messages(statements: Sequence[str], session_time: datetime | None) -> list[ChatMessage]:
    """The system and user messages for one session (bounded in statements and characters)."""
    lines = [f"Session time: {session_time:%Y-%m-%d}" if session_time else "Session time: unknown"]
    lines.append("What was said:")
    used = 0
    for statement in list(statements)[:MAX_STATEMENTS]:
        text = " ".join(statement.split())
        if used + len(text) > MAX_CHARS:
            break
        lines.append(f"- {text}")
        used += len(text)
    return [ChatMessage("system", SYSTEM), ChatMessage("user", "\n".join(lines))]
