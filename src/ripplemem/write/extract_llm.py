"""The schema-guided LLM extractor: one structured call per window, then grounding checks.

The model's JSON is validated against :class:`~ripplemem.write.prompts.ExtractionResponse`
(with repairs, see :func:`~ripplemem.providers.structured.complete_structured`) and then checked
against the window, because a schema cannot tell invented from grounded:

* source turn ids must be focus turns of the window: unknown and context-only ids are dropped,
  and a unit left with no valid id is dropped;
* participants and locations must be a speaker or appear in the window's text, else dropped;
  speakers get their canonical spelling;
* times must parse as ISO 8601 and be ordered, else the unit keeps only its time phrase (the
  pipeline may still ground that phrase against the session time); a date without a clock time
  ends at 23:59:59 of that day;
* an empty restatement drops the unit.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from datetime import datetime, time

from ripplemem.errors import InvalidModelOutputError
from ripplemem.providers.base import ChatModel
from ripplemem.providers.structured import complete_structured
from ripplemem.records import TimeSpan, UnitDraft, Window
from ripplemem.write.prompts.extraction import (
    ExtractedUnit,
    ExtractionResponse,
    extraction_messages,
)

_DATE_ONLY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_KEYWORDS = 6


def _parse_time(value: str | None, *, end: bool) -> datetime | None:
    if not value or not value.strip():
        return None
    text = value.strip().replace("Z", "+00:00")
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    moment = moment.replace(tzinfo=None)
    if end and _DATE_ONLY.match(value.strip()):
        moment = datetime.combine(moment.date(), time(23, 59, 59))
    return moment


def time_span(start: str | None, end: str | None) -> TimeSpan | None:
    """A span from the model's ISO strings, or None when they do not parse or are out of order.

    A lone start gives that whole day when it is a date, else that instant.
    """
    begin = _parse_time(start, end=False)
    if begin is None:
        return None
    finish = _parse_time(end, end=True)
    if finish is None:
        if end and end.strip():
            return None  # an end that does not parse: trust neither
        finish = _parse_time(start, end=True) if _DATE_ONLY.match((start or "").strip()) else begin
    if finish is None or finish < begin:
        return None
    return TimeSpan(begin, finish)


class _Grounding:
    """What a window can support: its focus turn ids, speakers and text."""

    def __init__(self, window: Window) -> None:
        self.focus_ids = [t.turn_id for t in window.focus_turns]
        names = [*window.speakers, *(t.speaker for t in window.turns)]
        self.speakers = {n.casefold(): n for n in names}
        parts = [f"{t.speaker} {t.text} {t.caption or ''}" for t in window.turns]
        self.text = " ".join(" ".join(parts).casefold().replace("’", "'").split())

    def turn_ids(self, ids: Sequence[str]) -> tuple[str, ...]:
        wanted = {i.strip().strip("[]").strip() for i in ids}
        return tuple(i for i in self.focus_ids if i in wanted)

    def names(self, values: Sequence[str]) -> tuple[str, ...]:
        kept: dict[str, None] = {}
        for value in values:
            clean = " ".join(str(value).split()).strip(" .,;:")
            if not clean:
                continue
            key = clean.casefold().replace("’", "'")
            if key in self.speakers:
                kept.setdefault(self.speakers[key], None)
            elif re.search(r"(?<!\w)" + re.escape(key) + r"(?!\w)", self.text):
                kept.setdefault(clean, None)
        return tuple(kept)


def to_draft(unit: ExtractedUnit, grounding: _Grounding) -> UnitDraft | None:
    """The unit as a draft if it is grounded in the window, else None."""
    restatement = " ".join(unit.restatement.split())
    turn_ids = grounding.turn_ids(unit.source_turn_ids)
    if not restatement or not turn_ids:
        return None
    phrase = " ".join((unit.time_phrase or "").split())
    keywords = [" ".join(k.split()) for k in unit.keywords if k and k.strip()]
    return UnitDraft(
        restatement=restatement,
        turn_ids=turn_ids,
        participants=grounding.names(unit.participants),
        locations=grounding.names(unit.locations),
        time_span=time_span(unit.time_start, unit.time_end),
        time_phrases=(phrase,) if phrase else (),
        keywords=tuple(dict.fromkeys(keywords))[:_KEYWORDS],
    )


class LLMExtractor:
    """Extraction with any :class:`~ripplemem.providers.base.ChatModel`, one call per window."""

    def __init__(self, chat: ChatModel, *, max_repairs: int = 2) -> None:
        self.chat = chat
        self.max_repairs = max_repairs
        self.name = f"llm:{chat.name}"
        self.tokens_used = 0  # summed over every call, repairs included
        self.calls = 0  # windows sent to the model
        self.dropped = 0  # units the grounding checks rejected
        self._lock = threading.Lock()

    def extract(self, windows: Sequence[Window]) -> list[list[UnitDraft]]:
        """One list of drafts per window; windows without focus turns cost no call."""
        return [self._extract_one(window) for window in windows]

    def _extract_one(self, window: Window) -> list[UnitDraft]:
        if not window.focus_turns:
            return []
        try:
            reply = complete_structured(
                self.chat,
                extraction_messages(window),
                ExtractionResponse,
                max_repairs=self.max_repairs,
            )
        except InvalidModelOutputError as error:
            first, last = window.focus_turns[0].turn_id, window.focus_turns[-1].turn_id
            raise InvalidModelOutputError(
                f"extraction failed for session {window.session_id!r}, turns {first}..{last}: "
                f"{error}"
            ) from error
        grounding = _Grounding(window)
        drafts = [to_draft(unit, grounding) for unit in reply.value.units]
        kept = [d for d in drafts if d is not None]
        with self._lock:
            self.calls += 1
            self.tokens_used += reply.tokens
            self.dropped += len(drafts) - len(kept)
        return kept
