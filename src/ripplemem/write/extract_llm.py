"""The schema-guided LLM extractor: one structured call per window, then grounding checks.

The model's JSON is validated against :class:`~ripplemem.write.prompts.ExtractionResponse`
(with repairs, see :func:`~ripplemem.providers.structured.complete_structured`) and then checked
against the window, because a schema cannot tell invented from grounded:

* source turn ids must be focus turns of the window: unknown and context-only ids are dropped,
  and a unit left with no valid id is dropped;
* participants and locations must be a speaker or appear in the window's text, else dropped;
  keywords must have their words in the window's text (a word borrowed from the example is not);
  speakers get their canonical spelling;
* times must parse as ISO 8601 and be ordered, else the unit keeps only its time phrase (the
  pipeline may still ground that phrase against the session time); a date without a clock time
  ends at 23:59:59 of that day;
* an empty restatement drops the unit;
* a unit that copies the prompt's worked example (or a format placeholder) is dropped.

When a call fails the window is not lost: a reply cut off at ``max_tokens`` is asked again once
for less — each half of the window's new turns, or half as many units for a single turn —
and turns that still fail (a second cut-off, output that never validates, an endpoint still
unavailable after its retries) are extracted by the ``fallback`` extractor (the deterministic
one). Its drafts carry ``provenance`` and the window an
:class:`~ripplemem.records.ExtractionFallback`, which ``add`` returns in ``AddResult.fallbacks``.
A request the endpoint rejects outright (a wrong model name or key: HTTP 4xx) still fails the
add, since every window would fail the same way.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, time

from ripplemem.errors import (
    InvalidModelOutputError,
    ProviderUnavailableError,
    TruncatedOutputError,
)
from ripplemem.providers.base import ChatModel
from ripplemem.providers.structured import complete_structured
from ripplemem.records import ExtractionFallback, TimeSpan, UnitDraft, Window, WindowDrafts
from ripplemem.write.base import Extractor
from ripplemem.write.lexicon import Lexicon
from ripplemem.write.prompts.extraction import (
    ExtractedUnit,
    ExtractionResponse,
    extraction_messages,
    extraction_schema,
    is_example_echo,
    max_units,
)

log = logging.getLogger(__name__)
_REASON_CHARS = 200

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

    def keywords(self, values: Sequence[str]) -> tuple[str, ...]:
        """Keywords whose every word of 3+ letters occurs in the window (no borrowed words)."""
        kept: dict[str, None] = {}
        for value in values:
            clean = " ".join(str(value).split()).strip(" .,;:")
            words = [w for w in re.findall(r"\w+", clean.casefold()) if len(w) >= 3]
            if clean and all(re.search(r"(?<!\w)" + re.escape(w), self.text) for w in words):
                kept.setdefault(clean, None)
        return tuple(kept)

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
    if not restatement or not turn_ids or is_example_echo(restatement):
        return None
    phrase = " ".join((unit.time_phrase or "").split())
    return UnitDraft(
        restatement=restatement,
        turn_ids=turn_ids,
        participants=grounding.names(unit.participants),
        locations=grounding.names(unit.locations),
        time_span=time_span(unit.time_start, unit.time_end),
        time_phrases=(phrase,) if phrase else (),
        keywords=grounding.keywords(unit.keywords)[:_KEYWORDS],
    )


class LLMExtractor:
    """Extraction with any :class:`~ripplemem.providers.base.ChatModel`, one call per window.

    ``fallback`` extracts the turns the model fails on (see the module docstring); without one,
    such a failure raises and the add stores nothing."""

    def __init__(
        self, chat: ChatModel, *, max_repairs: int = 2, fallback: Extractor | None = None
    ) -> None:
        self.chat = chat
        self.max_repairs = max_repairs
        self.fallback = fallback
        self.name = f"llm:{chat.name}"
        self.tokens_used = 0  # summed over every call, repairs included
        self.calls = 0  # calls sent to the model
        self.dropped = 0  # units the grounding checks rejected
        self.fallback_windows = 0  # windows (or parts) the fallback extracted
        self._lock = threading.Lock()

    def extract(
        self, windows: Sequence[Window], *, lexicon: Lexicon | None = None
    ) -> list[list[UnitDraft]]:
        """One list of drafts per window (a :class:`WindowDrafts` naming its fallbacks);
        windows without focus turns cost no call. ``lexicon`` goes to the fallback."""
        return [self._extract_window(window, lexicon) for window in windows]

    def _extract_window(self, window: Window, lexicon: Lexicon | None) -> list[UnitDraft]:
        if not window.focus_turns:
            return []
        drafts: list[UnitDraft] = []
        fallbacks: list[ExtractionFallback] = []
        try:
            drafts = self._call(window, max_units(len(window.focus_turns)))
        except TruncatedOutputError as error:
            self._count(error.tokens)
            log.warning("extraction of %s was cut off at max_tokens; asking for less", _where(window))
            for part, limit in _smaller(window):
                try:
                    drafts += self._call(part, limit)
                except TruncatedOutputError as again:
                    self._count(again.tokens)
                    drafts += self._fall_back(
                        part, "the reply was cut off at max_tokens twice", fallbacks, lexicon
                    )
                except (InvalidModelOutputError, ProviderUnavailableError) as failure:
                    drafts += self._fall_back(part, _reason(failure), fallbacks, lexicon)
        except (InvalidModelOutputError, ProviderUnavailableError) as error:
            drafts = self._fall_back(window, _reason(error), fallbacks, lexicon)
        return WindowDrafts(drafts, fallbacks)

    def _call(self, window: Window, limit: int) -> list[UnitDraft]:
        reply = complete_structured(
            self.chat,
            extraction_messages(window, limit),
            ExtractionResponse,
            max_repairs=self.max_repairs,
            schema=extraction_schema(limit),
        )
        grounding = _Grounding(window)
        drafts = [to_draft(unit, grounding) for unit in reply.value.units]
        kept = [d for d in drafts if d is not None]
        self._count(reply.tokens, calls=1, dropped=len(drafts) - len(kept))
        return kept

    def _fall_back(
        self,
        window: Window,
        reason: str,
        fallbacks: list[ExtractionFallback],
        lexicon: Lexicon | None,
    ) -> list[UnitDraft]:
        if self.fallback is None:
            raise InvalidModelOutputError(
                f"extraction failed for {_where(window)}: {reason}. Give LLMExtractor a fallback "
                "extractor (Memory does: the deterministic one) to keep such turns."
            )
        log.warning(
            "extraction of %s falls back to %s: %s", _where(window), self.fallback.name, reason
        )
        (drafts,) = self.fallback.extract([window], lexicon=lexicon)
        record = ExtractionFallback(
            session_id=window.session_id,
            turn_ids=tuple(t.turn_id for t in window.focus_turns),
            extractor=self.fallback.name,
            instead_of=self.name,
            reason=reason,
            units=len(drafts),
        )
        fallbacks.append(record)
        with self._lock:
            self.fallback_windows += 1
        return [replace(d, provenance=record.provenance()) for d in drafts]

    def _count(self, tokens: int, *, calls: int = 1, dropped: int = 0) -> None:
        with self._lock:
            self.calls += calls
            self.tokens_used += tokens
            self.dropped += dropped


def _smaller(window: Window) -> list[tuple[Window, int]]:
    """What to ask after a cut-off reply: each half of the new turns (the turns before a half
    become its context), or, for a single new turn, half as many units."""
    focus = len(window.focus_turns)
    if focus < 2:
        return [(window, max(1, max_units(focus) // 2))]
    middle = window.focus_from + focus // 2
    first = replace(window, turns=window.turns[:middle])
    keep = max(0, middle - 2)  # two turns of context, as between windows
    second = replace(window, turns=window.turns[keep:], focus_from=middle - keep)
    return [(part, max_units(len(part.focus_turns))) for part in (first, second)]


def _where(window: Window) -> str:
    first, last = window.focus_turns[0].turn_id, window.focus_turns[-1].turn_id
    return f"session {window.session_id!r}, turns {first}..{last}"


def _reason(error: Exception) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text[:_REASON_CHARS]}"
