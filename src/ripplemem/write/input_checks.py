"""The input edge's checks: text every stage can process, and times every stage can compute with.

* Text (messages, speakers, captions, ids, queries) must be a ``str`` without NUL characters or
  lone surrogates (halves of a UTF-16 pair: they cannot be encoded as UTF-8, so neither stored
  nor embedded). Such input is refused with an :class:`InvalidInputError` naming the field, not
  cleaned silently: the caller decides what the text should have been.
* Times: a timezone-aware time is converted to UTC and kept without its zone (every stored time
  is naive UTC-or-local as the caller gave it; one ``add`` should not mix the two). A time must
  lie in ``[MIN_TIME, MAX_TIME]``: far enough from ``datetime``'s limits (years 1 and 9999) that
  date arithmetic on it (decades back, weeks ahead) cannot overflow.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime

from ripplemem.errors import InvalidInputError
from ripplemem.records import Conversation

MIN_TIME = datetime(1000, 1, 1)
MAX_TIME = datetime(8999, 12, 31, 23, 59, 59)
_FORBIDDEN = re.compile("[\x00\ud800-\udfff]")


def check_text(value: object, what: str) -> str:
    """``value`` if it is text every stage can process, else InvalidInputError naming ``what``."""
    if not isinstance(value, str):
        raise InvalidInputError(f"{what} must be a string, got {type(value).__name__}")
    bad = _FORBIDDEN.search(value)
    if bad is not None:
        char = bad.group()
        kind = "a NUL character" if char == "\x00" else f"a lone surrogate (U+{ord(char):04X})"
        raise InvalidInputError(
            f"{what} holds {kind} at position {bad.start()}: remove it (NUL: "
            "text.replace('\\x00', ''); surrogates: decode the original bytes as UTF-8, or "
            "text.encode('utf-8', 'replace').decode())"
        )
    return value


def check_query(query: object, max_chars: int) -> str:
    """A search query: text (as :func:`check_text`) of at most ``max_chars`` characters."""
    text = check_text(query, "the query")
    if len(text) > max_chars:
        raise InvalidInputError(
            f"the query is {len(text):,} characters, over the limit of {max_chars:,}: ask a "
            "shorter question, or raise Settings.max_query_chars"
        )
    return text


def check_page(limit: object, offset: object) -> None:
    """A page of a listing: ``limit`` a whole number >= 1 or None, ``offset`` one >= 0."""
    for name, value, least, optional in (("limit", limit, 1, True), ("offset", offset, 0, False)):
        if value is None and optional:
            continue
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            raise InvalidInputError(f"{name} must be a whole number >= {least}, got {value!r}")


def clean_time(value: datetime, what: str) -> datetime:
    """``value`` as a naive time (an aware one converted to UTC), inside the supported range."""
    if value.tzinfo is not None and value.utcoffset() is not None:
        try:
            value = value.astimezone(UTC)
        except OverflowError as error:
            raise InvalidInputError(
                f"{what} {value.isoformat()} cannot be converted to UTC: give a time between "
                f"{MIN_TIME.date()} and {MAX_TIME.date()}"
            ) from error
    value = value.replace(tzinfo=None)
    if not MIN_TIME <= value <= MAX_TIME:
        raise InvalidInputError(
            f"{what} {value.isoformat()} is outside the supported range "
            f"{MIN_TIME.date()} to {MAX_TIME.date()}: check the year"
        )
    return value


def clean_conversation(conversation: Conversation) -> Conversation:
    """The conversation with its session times cleaned (:func:`clean_time`) and every text field
    checked (:func:`check_text`); raises InvalidInputError naming the first bad field."""
    sessions = []
    for session in conversation.sessions:
        where = f"session {session.session_id!r}"
        check_text(session.session_id, f"the id of {where}")
        time = session.time
        if time is not None:
            if not isinstance(time, datetime):
                raise InvalidInputError(
                    f"the time of {where} must be a datetime, got {type(time).__name__}"
                )
            time = clean_time(time, f"the time of {where}")
        for index, turn in enumerate(session.turns):
            turn_where = f"turn {index + 1} of {where}"
            check_text(turn.turn_id, f"the id of {turn_where}")
            check_text(turn.speaker, f"the speaker of {turn_where}")
            check_text(turn.text, f"the text of {turn_where}")
            if turn.caption is not None:
                check_text(turn.caption, f"the caption of {turn_where}")
        sessions.append(session if time == session.time else replace(session, time=time))
    return replace(conversation, sessions=tuple(sessions))
