"""The answer prompt and its response model: a question, the recalled evidence (numbered, with
time, people and places), and a short answer that cites the numbers of the memories it used.

The reply is JSON, ``{"answer": ..., "citations": [n, ...]}``, bounded like every schema the
library has a model fill; the format line uses placeholders, never an example answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, Field

from ripplemem.providers.base import ChatMessage
from ripplemem.providers.structured import MaxItems, MaxLength
from ripplemem.records import Evidence

MAX_CITATIONS = 5
ANSWER_CHARS = 300

SYSTEM = (
    "You answer questions about a user's past conversations using only the memories given. "
    "Each memory has a number [n], the date it was said and, when known, the time of the event, "
    "the people and the places. Resolve relative dates against those dates. Answer in a short "
    "phrase (a name, a date, a few words). In \"citations\" give the numbers of the memories "
    f"the answer rests on (at most {MAX_CITATIONS}). If the memories do not contain the answer, "
    "answer \"I don't know\" with no citations. Reply with one JSON object: "
    '{"answer": "<short answer>", "citations": [<memory number>]}'
)


class AnswerResponse(BaseModel):
    """The model's answer and the numbers of the memories it used."""

    answer: Annotated[str, MaxLength(ANSWER_CHARS)] = Field(description="a short phrase")
    citations: Annotated[list[Annotated[int, Field(ge=0)]], MaxItems(MAX_CITATIONS)] = Field(
        default_factory=list, description="numbers [n] of the memories the answer rests on"
    )


def render_evidence(evidence: Sequence[Evidence]) -> str:
    lines = []
    for i, item in enumerate(evidence, 1):
        unit = item.unit
        said = unit.session_time.strftime("%Y-%m-%d %H:%M") if unit.session_time else "unknown date"
        parts = [f"[{i}] ({said}) {unit.restatement}"]
        if unit.time_span:
            parts.append(f"event time: {unit.time_span.as_days()}")
        if unit.participants:
            parts.append("people: " + ", ".join(unit.participants))
        if unit.locations:
            parts.append("places: " + ", ".join(unit.locations))
        lines.append(" | ".join(parts))
    return "\n".join(lines)


def answer_messages(
    question: str, evidence: Sequence[Evidence], question_time: datetime | None
) -> list[ChatMessage]:
    asked = f"\nThe question is asked on {question_time:%Y-%m-%d}." if question_time else ""
    user = (
        f"Memories:\n{render_evidence(evidence) or '(none)'}\n{asked}\nQuestion: {question}\n"
        "Reply with the JSON object only."
    )
    return [ChatMessage("system", SYSTEM), ChatMessage("user", user)]
