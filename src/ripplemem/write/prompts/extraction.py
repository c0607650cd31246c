"""The schema-guided extraction prompt (paper §4.1) and its response model.

One call per window: the model sees the session time, the speakers and the turns with their ids
(overlap turns marked as context) and returns memory units as JSON matching
:class:`ExtractionResponse`. What the model returns is checked again by
:class:`~ripplemem.write.extract_llm.LLMExtractor` before anything is stored.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

from ripplemem.providers.base import ChatMessage
from ripplemem.records import Turn, Window


class ExtractedUnit(BaseModel):
    """One memory unit as the model writes it."""

    restatement: str = Field(
        description="One self-contained, lossless sentence (or two) that a reader understands "
        "without the dialogue: names instead of pronouns and speaker references."
    )
    source_turn_ids: list[str] = Field(
        description="Ids of the turns (from 'Turns to extract from') this unit comes from."
    )
    participants: list[str] = Field(
        default_factory=list, description="People involved, by name, as written in the dialogue."
    )
    locations: list[str] = Field(
        default_factory=list, description="Places named in the dialogue for this event."
    )
    time_start: str | None = Field(
        default=None, description="ISO 8601 start of the event time, or null when not grounded."
    )
    time_end: str | None = Field(
        default=None, description="ISO 8601 end of the event time, or null when not grounded."
    )
    time_phrase: str | None = Field(
        default=None, description="The time expression as written in the dialogue, or null."
    )
    keywords: list[str] = Field(
        default_factory=list, description="Up to 6 salient content words or short noun phrases."
    )


class ExtractionResponse(BaseModel):
    """All memory units of a window; an empty list when the window is chit-chat."""

    units: list[ExtractedUnit] = Field(default_factory=list)


SYSTEM = """You turn a window of a conversation into memory units for a long-term memory.

Rules:
1. Write each unit's restatement as a self-contained, lossless sentence: someone who never saw \
the dialogue must understand it. Keep every concrete detail (names, numbers, titles, objects, \
opinions, plans, reasons). Do not summarise details away.
2. Resolve every pronoun and speaker reference to an explicit name: "I" / "me" / "my" -> the \
speaker's name, "you" / "your" -> the person addressed, "she" / "he" / "they" -> who they refer \
to, "that place" -> the place's name. Never leave "I", "you", "he", "she" in a restatement.
3. Make relative time absolute only when the session time supports it: "yesterday" said in a \
session on 2023-05-08 -> time_start 2023-05-07T00:00:00, time_end 2023-05-07T23:59:59, \
time_phrase "yesterday"; "last week" -> Monday to Sunday of the previous week. Put the absolute \
date in the restatement too ("on 7 May 2023"). When the time cannot be grounded (no session \
time, "recently", "the other day"), leave time_start and time_end null and keep time_phrase.
4. One unit per event, fact, preference or plan: split a turn that says several things. A short \
answer ("Yes, last week!") becomes a unit that restates the question it answers.
5. Ground every field in the dialogue. participants are people named or speaking in these turns; \
locations are places named in them. Leave a field empty (or null) rather than guess.
6. Greetings, thanks, small talk and acknowledgements with no information yield no units. An \
image shared in a turn ("[shares a photo of ...]") is information: restate what it shows.
7. source_turn_ids: the ids of the turns each unit comes from, only from "Turns to extract \
from". The context turns are there to resolve references; do not make units from them alone.

Reply with one JSON object: {"units": [{"restatement": ..., "source_turn_ids": [...], \
"participants": [...], "locations": [...], "time_start": ..., "time_end": ..., \
"time_phrase": ..., "keywords": [...]}]}. Reply {"units": []} when there is nothing to remember.

Example. Session time: 2023-05-08 13:56 (Monday).
[D1:3] Caroline: I went to a LGBTQ support group yesterday and it was so powerful.
[D1:4] Melanie: Wow, that's cool!
->
{"units": [{"restatement": "Caroline went to an LGBTQ support group on 7 May 2023 and found it \
very powerful.", "source_turn_ids": ["D1:3"], "participants": ["Caroline"], "locations": [], \
"time_start": "2023-05-07T00:00:00", "time_end": "2023-05-07T23:59:59", "time_phrase": \
"yesterday", "keywords": ["LGBTQ support group"]}]}"""


_PHOTO = re.compile(r"^(?:a |an )?(?:photo|photograph|picture|image)s? of\s+", re.IGNORECASE)


def render_turn(turn: Turn) -> str:
    """A turn as the prompt shows it: ``[id] Speaker: text [shares a photo of ...]``."""
    text = " ".join(turn.text.split())
    caption = " ".join((turn.caption or "").split()).strip("[] ")
    if caption:
        match = _PHOTO.match(caption)
        shown = f"a photo of {caption[match.end() :]}" if match else f"a photo: {caption}"
        text = f"{text} [shares {shown}]".strip()
    return f"[{turn.turn_id}] {turn.speaker}: {text}"


def extraction_messages(window: Window) -> list[ChatMessage]:
    """The system and user messages for one window."""
    when = (
        f"{window.session_time:%Y-%m-%d %H:%M} ({window.session_time:%A})"
        if window.session_time
        else "unknown (leave every time_start and time_end null)"
    )
    speakers = ", ".join(dict.fromkeys([*window.speakers, *(t.speaker for t in window.turns)]))
    lines = [f"Session time: {when}", f"Speakers: {speakers}", ""]
    context = window.turns[: window.focus_from]
    if context:
        lines.append("Context turns (already processed; only for resolving references):")
        lines.extend(render_turn(t) for t in context)
        lines.append("")
    lines.append("Turns to extract from:")
    lines.extend(render_turn(t) for t in window.focus_turns)
    return [ChatMessage("system", SYSTEM), ChatMessage("user", "\n".join(lines))]
