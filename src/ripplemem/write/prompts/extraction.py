"""The schema-guided extraction prompt (paper §4.1) and its response model.

One call per window (or part of a window): the model sees the session time, the speakers and the
turns with their ids (overlap turns marked as context) and returns memory units as JSON matching
:class:`ExtractionResponse`. Every list and string of the schema is bounded and the prompt states
the same bounds (:func:`extraction_schema` narrows the number of units to the window's size).
The worked example is a separate user/assistant exchange about a made-up window whose turn ids
(``ex:1``) and speakers cannot occur in a real one, and whose unit
:func:`is_example_echo` recognises if a small model copies it. What the model returns is checked
again by :class:`~ripplemem.write.extract_llm.LLMExtractor` before anything is stored.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Annotated, Any

from pydantic import BaseModel, Field

from ripplemem.providers.base import ChatMessage
from ripplemem.providers.structured import MaxItems, MaxLength
from ripplemem.records import Turn, Window

#: the most units one call may return (the schema's maxItems); a call asks for at most
#: :func:`max_units` of them
MAX_UNITS = 16
RESTATEMENT_CHARS = 320
NAME_CHARS = 40
Name = Annotated[str, MaxLength(NAME_CHARS)]


class ExtractedUnit(BaseModel):
    """One memory unit as the model writes it."""

    restatement: Annotated[str, MaxLength(RESTATEMENT_CHARS)] = Field(
        description="One self-contained, lossless sentence (or two) that a reader understands "
        "without the dialogue: names instead of pronouns and speaker references."
    )
    source_turn_ids: Annotated[list[Annotated[str, MaxLength(24)]], MaxItems(4)] = Field(
        description="Ids of the turns (from 'Turns to extract from') this unit comes from."
    )
    participants: Annotated[list[Name], MaxItems(4)] = Field(
        default_factory=list, description="People involved, by name, as written in the dialogue."
    )
    locations: Annotated[list[Name], MaxItems(3)] = Field(
        default_factory=list, description="Places named in the dialogue for this event."
    )
    time_start: Annotated[str | None, MaxLength(25)] = Field(
        default=None, description="ISO 8601 start of the event time, or null when not grounded."
    )
    time_end: Annotated[str | None, MaxLength(25)] = Field(
        default=None, description="ISO 8601 end of the event time, or null when not grounded."
    )
    time_phrase: Annotated[str | None, MaxLength(NAME_CHARS)] = Field(
        default=None, description="The time expression as written in the dialogue, or null."
    )
    keywords: Annotated[list[Annotated[str, MaxLength(30)]], MaxItems(5)] = Field(
        default_factory=list, description="Up to 5 salient content words or short noun phrases."
    )


class ExtractionResponse(BaseModel):
    """All memory units of a window; an empty list when the window is chit-chat."""

    units: Annotated[list[ExtractedUnit], MaxItems(MAX_UNITS)] = Field(default_factory=list)


def max_units(focus_turns: int) -> int:
    """How many units one call asks for: one per new turn on average (a turn with several facts
    beside one with none), at least 2 and at most :data:`MAX_UNITS`."""
    return max(2, min(MAX_UNITS, focus_turns))


def extraction_schema(limit: int) -> dict[str, Any]:
    """The response schema sent for a call that asks for at most ``limit`` units."""
    schema = copy.deepcopy(ExtractionResponse.model_json_schema())
    schema["properties"]["units"]["maxItems"] = max(1, min(limit, MAX_UNITS))
    return schema


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
4. One unit per event, fact, preference or plan: split a turn that says several things, and \
never merge facts from different turns into one unit: a window of several informative turns \
gives several units. A short answer ("Yes, last week!") becomes a unit that restates the \
question it answers.
5. Ground every field in the dialogue. participants are people named or speaking in these turns; \
locations are places named in them. Leave a field empty (or null) rather than guess.
6. Greetings, thanks, small talk and acknowledgements with no information yield no units. An \
image shared in a turn ("[shares a photo of ...]") is information: restate what it shows.
7. source_turn_ids: the ids of the turns each unit comes from, only from "Turns to extract \
from". The context turns are there to resolve references; do not make units from them alone.

Reply with one JSON object: {"units": [{"restatement": "<sentence>", "source_turn_ids": \
["<turn id>"], "participants": ["<name>"], "locations": ["<place>"], "time_start": "<ISO 8601 or \
null>", "time_end": "<ISO 8601 or null>", "time_phrase": "<as written, or null>", "keywords": \
["<word>"]}]}, with at most as many units as the request says; for more \
facts than that, keep the most specific ones. Reply {"units": []} when there is nothing to \
remember. The first exchange below is an example about made-up people: never copy its units."""

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


#: the worked example: a made-up window (ids ``ex:*`` never occur in a real one) and its reply
EXAMPLE_WINDOW = """Session time: 2000-01-03 13:56 (Monday)
Speakers: Speaker A, Speaker B

Turns to extract from:
[ex:1] Speaker A: I went to a pottery class yesterday and it was so calming.
[ex:2] Speaker B: Wow, that's cool!
[ex:3] Speaker B: My brother Tom is moving to Oslo next month for a new job.
[ex:4] Speaker A: Oslo! Tell him to pack warm clothes.

Return at most 4 units."""
EXAMPLE_UNITS: list[dict] = [
    {
        "restatement": "Speaker A went to a pottery class on 2 January 2000 and found it very "
        "calming.",
        "source_turn_ids": ["ex:1"],
        "participants": ["Speaker A"],
        "locations": [],
        "time_start": "2000-01-02T00:00:00",
        "time_end": "2000-01-02T23:59:59",
        "time_phrase": "yesterday",
        "keywords": ["pottery class"],
    },
    {
        "restatement": "Tom, the brother of Speaker B, is moving to Oslo in February 2000 for a "
        "new job.",
        "source_turn_ids": ["ex:3"],
        "participants": ["Tom", "Speaker B"],
        "locations": ["Oslo"],
        "time_start": "2000-02-01T00:00:00",
        "time_end": "2000-02-29T23:59:59",
        "time_phrase": "next month",
        "keywords": ["moving", "new job"],
    },
    {
        "restatement": "Speaker A advised that Tom should pack warm clothes for Oslo.",
        "source_turn_ids": ["ex:4"],
        "participants": ["Speaker A", "Tom"],
        "locations": ["Oslo"],
        "time_start": None,
        "time_end": None,
        "time_phrase": None,
        "keywords": ["warm clothes"],
    },
]
EXAMPLE_UNIT = EXAMPLE_UNITS[0]
EXAMPLE_REPLY = json.dumps({"units": EXAMPLE_UNITS})
_EXAMPLE_TEXTS = {" ".join(str(u["restatement"]).casefold().split()) for u in EXAMPLE_UNITS}
_PLACEHOLDER = re.compile(r"^<[^<>]*>$")


def is_example_echo(restatement: str) -> bool:
    """True when a restatement is the worked example's or a format placeholder (``<sentence>``)."""
    text = " ".join(restatement.casefold().split())
    return text in _EXAMPLE_TEXTS or bool(_PLACEHOLDER.match(text))


def extraction_messages(window: Window, limit: int | None = None) -> list[ChatMessage]:
    """The messages for one window: the rules, the worked example as its own exchange, then the
    window, asking for at most ``limit`` units (default :func:`max_units`)."""
    local = window.local_time  # the speaker's clock: their "yesterday"
    when = (
        f"{local:%Y-%m-%d %H:%M} ({local:%A})"
        if local
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
    wanted = limit if limit is not None else max_units(len(window.focus_turns))
    lines += ["", f"Return at most {wanted} units."]
    return [
        ChatMessage("system", SYSTEM),
        ChatMessage("user", EXAMPLE_WINDOW),
        ChatMessage("assistant", EXAMPLE_REPLY),
        ChatMessage("user", "\n".join(lines)),
    ]
