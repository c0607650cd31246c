"""The answer prompt: a question plus the recalled evidence (with time, people, places)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ripplemem.providers.base import ChatMessage
from ripplemem.records import Evidence

SYSTEM = (
    "You answer questions about a user's past conversations using only the memories given. "
    "Each memory has the date it was said and, when known, the time of the event, the people "
    "and the places. Resolve relative dates against those dates. Answer in a short phrase "
    "(a name, a date, a few words). If the memories do not contain the answer, say "
    "\"I don't know\"."
)


def render_evidence(evidence: Sequence[Evidence]) -> str:
    lines = []
    for i, item in enumerate(evidence, 1):
        unit = item.unit
        said = unit.session_time.strftime("%Y-%m-%d %H:%M") if unit.session_time else "unknown date"
        parts = [f"[{i}] ({said}) {unit.restatement}"]
        if unit.time_span:
            parts.append(
                f"event time: {unit.time_span.start:%Y-%m-%d} to {unit.time_span.end:%Y-%m-%d}"
            )
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
    user = f"Memories:\n{render_evidence(evidence)}\n{asked}\nQuestion: {question}\nShort answer:"
    return [ChatMessage("system", SYSTEM), ChatMessage("user", user)]
