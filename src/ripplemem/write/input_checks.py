"""The input edge's checks: text every stage can process, and times every stage can compute with.

* Text (messages, speakers, captions, ids, queries) must be a ``str`` without NUL characters or
  lone surrogates (halves of a UTF-16 pair: they cannot be encoded as UTF-8, so neither stored
  nor embedded). Such input is refused with an :class:`InvalidInputError` naming the field, not
  cleaned silently: the caller decides what the text should have been. Accepted text is taken
  in Unicode's composed form (NFC, :func:`composed`): "zoë" typed as "e" and a combining
  diaeresis (as macOS file names and PDF copies give it) is the same id, name, word or query as
  "zoë" typed with "ë".
* Times: a timezone-aware time is converted to UTC and kept without its zone (every stored time
  is naive UTC-or-local as the caller gave it; one ``add`` should not mix the two). A time must
  lie in ``[MIN_TIME, MAX_TIME]``: far enough from ``datetime``'s limits (years 1 and 9999) that
  date arithmetic on it (decades back, weeks ahead) cannot overflow.
* Metadata (``add(..., metadata=...)``, a message's ``metadata``) must be a JSON object with text
  keys, at most :data:`MAX_METADATA_BYTES` as JSON; it is stored as that JSON.
* Names: a namespace is text, not blank, without spaces at its ends, of at most
  :data:`MAX_NAMESPACE_CHARS` characters; a person's name (``set_person``) of at most
  :data:`MAX_PERSON_CHARS`. An import checks the names its file holds by the same rules.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import replace
from datetime import UTC, datetime

from ripplemem.errors import RAISE_QUERY_LIMIT, InvalidInputError
from ripplemem.records import Conversation

MIN_TIME = datetime(1000, 1, 1)
MAX_TIME = datetime(8999, 12, 31, 23, 59, 59)
_FORBIDDEN = re.compile("[\x00\ud800-\udfff]")
MAX_METADATA_BYTES = 16 * 1024
MAX_NAMESPACE_CHARS = 200
#: the largest limit or offset a call takes: far beyond any store's size, and far below the
#: largest integer SQLite and PostgreSQL hold (2**63 - 1), whatever a stage multiplies it by
MAX_COUNT = 1_000_000_000
MAX_PERSON_CHARS = 200


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


def composed(text: str) -> str:
    """``text`` in Unicode's composed form (NFC): one form for what looks the same."""
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def check_namespace_name(value: object, what: str = "the namespace") -> str:
    """``value`` if it can name a namespace (see the module notes), else InvalidInputError."""
    name = check_text(value, what)
    if not name.strip():
        raise InvalidInputError(f"{what} is empty")
    if name != name.strip():
        raise InvalidInputError(f"{what} {name!r} starts or ends with spaces: remove them")
    if len(name) > MAX_NAMESPACE_CHARS:
        raise InvalidInputError(
            f"{what} {name[:40]!r}... is {len(name)} characters, over the limit of "
            f"{MAX_NAMESPACE_CHARS}: use shorter ids"
        )
    return name


def check_person_name(value: object, what: str = "the person's name") -> str:
    """A person's name without the spaces at its ends: text, not blank, at most
    :data:`MAX_PERSON_CHARS` characters; else InvalidInputError."""
    name = composed(check_text(value, what).strip())
    if not name:
        raise InvalidInputError(f"{what} is empty: give the person's name")
    if len(name) > MAX_PERSON_CHARS:
        raise InvalidInputError(
            f"{what} is {len(name)} characters, over the limit of {MAX_PERSON_CHARS}: give a "
            "shorter name"
        )
    return name


def check_query(query: object, max_chars: int) -> str:
    """A search query: text (as :func:`check_text`) of at most ``max_chars`` characters."""
    text = composed(check_text(query, "the query"))
    if len(text) > max_chars:
        raise InvalidInputError(
            f"the query is {len(text):,} characters, over the limit of {max_chars:,}: ask a "
            f"shorter question{RAISE_QUERY_LIMIT}"
        )
    return text


def check_count(value: object, name: str, least: int, most: int = MAX_COUNT) -> int:
    """``value`` if it is a whole number from ``least`` to ``most``, else InvalidInputError
    naming ``name`` and the range."""
    if not isinstance(value, int) or isinstance(value, bool) or not least <= value <= most:
        raise InvalidInputError(
            f"{name} must be a whole number from {least} to {most:,}, got {value!r}"
        )
    return value


def check_page(limit: object, offset: object) -> None:
    """A page of a listing: ``limit`` a whole number from 1 to :data:`MAX_COUNT` or None,
    ``offset`` one from 0."""
    if limit is not None:
        check_count(limit, "limit", 1)
    check_count(offset, "offset", 0)


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


def check_metadata(value: object, what: str) -> dict:
    """``value`` as a JSON object (a new dict of plain JSON values), else InvalidInputError."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InvalidInputError(
            f"{what} must be a JSON object (a dict such as {{'topic': 'food'}}), "
            f"got {type(value).__name__}"
        )
    for key in value:
        if not isinstance(key, str) or not key.strip():
            raise InvalidInputError(f"{what} has the key {key!r}: keys must be non-empty strings")
        check_text(key, f"a key of {what}")
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, sort_keys=True)
    except (TypeError, ValueError) as error:
        raise InvalidInputError(
            f"{what} is not plain JSON ({error}): use text, numbers, true/false, null, "
            "lists and objects"
        ) from None
    check_text(text, what)
    size = len(text.encode("utf-8"))
    if size > MAX_METADATA_BYTES:
        raise InvalidInputError(
            f"{what} is {size:,} bytes as JSON, over the limit of {MAX_METADATA_BYTES:,}: keep "
            "metadata to labels and ids, and the content in the messages"
        )
    loaded: dict = json.loads(text)
    return loaded


def clean_conversation(conversation: Conversation) -> Conversation:
    """The conversation with its session times cleaned (:func:`clean_time`: an aware time in UTC,
    its offset kept as the session's ``utc_offset``) and every text field checked
    (:func:`check_text`); raises InvalidInputError naming the first bad field."""
    sessions = []
    for session in conversation.sessions:
        where = f"session {session.session_id!r}"
        check_text(session.session_id, f"the id of {where}")
        time, offset = session.time, session.utc_offset
        if time is not None:
            if not isinstance(time, datetime):
                raise InvalidInputError(
                    f"the time of {where} must be a datetime, got {type(time).__name__}"
                )
            offset = time.utcoffset() if time.tzinfo is not None else offset  # the speaker's clock
            time = clean_time(time, f"the time of {where}")
        for index, turn in enumerate(session.turns):
            turn_where = f"turn {index + 1} of {where}"
            check_text(turn.turn_id, f"the id of {turn_where}")
            check_text(turn.speaker, f"the speaker of {turn_where}")
            check_text(turn.text, f"the text of {turn_where}")
            if turn.caption is not None:
                check_text(turn.caption, f"the caption of {turn_where}")
        same = time == session.time and offset == session.utc_offset
        sessions.append(session if same else replace(session, time=time, utc_offset=offset))
    return replace(conversation, sessions=tuple(sessions))
