"""The update prompt and its response model: one small call per new memory with candidates.

The model reads a new memory and the few most similar earlier memories of the same person
(numbered, with the day each was said) and says, for each earlier memory, whether the new one
*updates* it (the same fact of the same person, a new value: a move, a new job, a renamed pet,
a rescheduled event), *contradicts* it (says it is no longer or never was so), merely *adds*
to it (both stay true), or is *unrelated*. Like mem0's update step the call is bounded: at most
:data:`MAX_CANDIDATES` candidates, texts cut to :data:`MAX_TEXT_CHARS`, a schema whose list has
``maxItems`` and whose strings have ``maxLength``, and a ``max_tokens`` cap
(:data:`MAX_TOKENS`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ripplemem.providers.base import ChatMessage

MAX_CANDIDATES = 5
MAX_TEXT_CHARS = 400
MAX_TOKENS = 300

Relation = Literal["updates", "contradicts", "adds", "unrelated"]


class Verdict(BaseModel):
    """What the new memory does to one earlier memory."""

    model_config = ConfigDict(extra="forbid")

    memory: int = Field(ge=1, le=MAX_CANDIDATES, description="The earlier memory's number.")
    relation: Relation = Field(
        description="updates: the same fact of the same person has a new value; contradicts: the "
        "earlier memory is no longer (or never was) true; adds: both stay true; unrelated."
    )
    reason: str = Field(default="", max_length=120, description="A few words, optional.")


class UpdateResponse(BaseModel):
    """One verdict per earlier memory."""

    model_config = ConfigDict(extra="forbid")

    verdicts: list[Verdict] = Field(default_factory=list, max_length=MAX_CANDIDATES)


SYSTEM = """You keep a person's long-term memory up to date.

You get a NEW memory and a numbered list of EARLIER memories of the same person. For each earlier \
memory decide what the new memory does to it:
- "updates": it states the same fact about the same person or thing with a new value (moved to \
another city, a new job or employer, a new partner, a pet renamed or replaced, a new car, a \
changed diet, a count or amount that changed, an event moved to another date or place);
- "contradicts": it says the earlier memory is no longer true or never was;
- "adds": both stay true (another fact, a second pet, more detail, an opinion);
- "unrelated": it is about something else.
A hypothetical, a wish, a plan not carried out, an offer declined, a visit or a temporary stay, \
a question, or a change that happened to someone else updates nothing: answer "adds" or \
"unrelated" for those.

Reply with one JSON object: {"verdicts": [{"memory": 1, "relation": "updates", "reason": "..."}]}."""


def update_messages(
    new: str, new_time: datetime | None, earlier: Sequence[tuple[str, datetime | None]]
) -> list[ChatMessage]:
    """The messages for one new memory and its (at most :data:`MAX_CANDIDATES`) candidates."""
    lines = [f"NEW ({_day(new_time)}): {_cut(new)}", "", "EARLIER:"]
    for number, (text, when) in enumerate(list(earlier)[:MAX_CANDIDATES], start=1):
        lines.append(f"{number}. ({_day(when)}) {_cut(text)}")
    return [ChatMessage("system", SYSTEM), ChatMessage("user", "\n".join(lines))]


def _day(when: datetime | None) -> str:
    return f"{when:%Y-%m-%d}" if when else "date unknown"


def _cut(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_TEXT_CHARS else text[: MAX_TEXT_CHARS - 3] + "..."
