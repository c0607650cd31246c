"""The recall-planning prompt and its response model (reference §1, read step 3).

One schema-constrained call: given the question, its cues and the current evidence (numbered
units with ids, times, people, places), decide whether to continue, pick at most 3 anchors from
the evidence and describe the missing support as a *memory sentence* plus optional cues.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from ripplemem.providers.base import ChatMessage
from ripplemem.providers.structured import MaxItems, MaxLength
from ripplemem.records import Cues, Evidence

MAX_SHOWN_EVIDENCE = 30
MAX_RESTATEMENT_CHARS = 400

SYSTEM = """\
You plan the next step of recalling memories for a question. Memories are short factual \
sentences about past conversations, each with an id, the date it was said and, when known, \
the time of the event, the people and the places.

You see the question, the cues found in it and the evidence recalled so far. Decide:
1. "continue": true when the evidence does not yet support a complete answer (a fact the \
answer depends on is missing: a constraint, a preference, a date, another item of a list, \
the other side of a comparison); false when the evidence already suffices or nothing more \
can plausibly be found.
2. "anchors": up to 3 ids copied exactly from the evidence: memories that are directly \
useful AND likely linked to the missing memory (same people, place, time or topic).
3. "target_restatement": ONE sentence written exactly like a stored memory that would fill \
the gap, as a statement of fact, never a question or a search instruction. Good: "<person> is \
allergic to <food>." Bad: "Does <person> have any allergies?"
4. "target_participants", "target_locations": at most 3 names each that the missing memory \
would carry (may be empty); "target_time_start" / "target_time_end": ISO dates (YYYY-MM-DD) \
bounding when it happened, or null when unknown. Never invent people, places or dates.
5. "stop_reason": one short sentence explaining the decision.

Reply with one JSON object only:
{"continue": <true or false>, "anchors": ["<id>"], "target_restatement": "<one sentence>", \
"target_participants": ["<name>"], "target_locations": ["<place>"], "target_time_start": \
"<YYYY-MM-DD or null>", "target_time_end": "<YYYY-MM-DD or null>", "stop_reason": \
"<one sentence>"}"""


def is_placeholder(text: str) -> bool:
    """True when a target copies the prompt's placeholders (``<person>``, ``<one sentence>``)."""
    return "<" in text and ">" in text
Name = Annotated[str, MaxLength(40)]
Date = Annotated[str | None, MaxLength(25)]


class PlanningResponse(BaseModel):
    """The planner's decision ``(d_r, A_r, g_r, s_r)`` as the model writes it."""

    model_config = ConfigDict(populate_by_name=True, extra="ignore", title="recall_plan")

    proceed: bool = Field(
        alias="continue", description="true to look for missing support, false to stop"
    )
    anchors: Annotated[list[Annotated[str, MaxLength(40)]], MaxItems(3)] = Field(
        default_factory=list, description="at most 3 ids copied from the current evidence"
    )
    target_restatement: Annotated[str, MaxLength(240)] = Field(
        default="", description="the missing memory, written as a factual memory sentence"
    )
    target_participants: Annotated[list[Name], MaxItems(3)] = Field(default_factory=list)
    target_locations: Annotated[list[Name], MaxItems(3)] = Field(default_factory=list)
    target_time_start: Date = Field(default=None, description="ISO date or null")
    target_time_end: Date = Field(default=None, description="ISO date or null")
    stop_reason: Annotated[str, MaxLength(160)] = ""


def render_cues(cues: Cues) -> str:
    lines = [
        "keywords: " + (", ".join(cues.keywords) or "none"),
        "people: " + (", ".join(cues.participants) or "none"),
        "places: " + (", ".join(cues.locations) or "none"),
    ]
    if cues.time_span is not None:
        lines.append(f"time: {cues.time_span.start:%Y-%m-%d} to {cues.time_span.end:%Y-%m-%d}")
    else:
        lines.append("time: none")
    return "\n".join(lines)


def render_evidence(evidence: Sequence[Evidence]) -> str:
    """Numbered units: id, when said, event time, people, places, restatement."""
    if not evidence:
        return "(no evidence yet)"
    lines = []
    for number, item in enumerate(evidence[:MAX_SHOWN_EVIDENCE], 1):
        unit = item.unit
        parts = [f"[{number}] id={unit.id}"]
        parts.append(f"said {unit.session_time:%Y-%m-%d}" if unit.session_time else "said ?")
        if unit.time_span is not None:
            parts.append(f"event {unit.time_span.as_days()}")
        if unit.participants:
            parts.append("people: " + ", ".join(unit.participants))
        if unit.locations:
            parts.append("places: " + ", ".join(unit.locations))
        text = unit.restatement
        if len(text) > MAX_RESTATEMENT_CHARS:
            text = text[:MAX_RESTATEMENT_CHARS] + "..."
        lines.append(" | ".join(parts) + "\n    " + text)
    return "\n".join(lines)


def planning_messages(
    question: str, cues: Cues, evidence: Sequence[Evidence], *, max_anchors: int = 3
) -> list[ChatMessage]:
    user = (
        f"Question: {question}\n\n"
        f"Cues in the question:\n{render_cues(cues)}\n\n"
        f"Evidence recalled so far:\n{render_evidence(evidence)}\n\n"
        f"Choose at most {max_anchors} anchors. Reply with the JSON object only."
    )
    return [ChatMessage("system", SYSTEM), ChatMessage("user", user)]
