"""Turning what users pass to ``Memory.add`` into a :class:`Conversation` (the input edge).

Who a role-style message (``{"role": "user", ...}``) was said by: its ``name`` when it has one,
else for ``role: user`` the namespace's person (``Memory.set_person``) when one is set, else
"User" (and "Assistant", "System" for the other roles; LangChain's "human" and "ai" are "user" and
"assistant", and a role no table names is refused: :mod:`ripplemem.records.roles`). So "I" in a
user's messages becomes the person's name in the memories, and a namespace does not hold "User"
and "Alex" as two people.

Text: every turn's speaker, text and caption are taken in Unicode's composed form (NFC).

Metadata: the add's ``metadata`` and each message's own ``metadata`` (which wins on a shared key)
are stored on every unit the message yields.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from ripplemem.errors import InvalidInputError
from ripplemem.records import Conversation, Session, Turn
from ripplemem.records.roles import ROLE_SPEAKERS, TIME_KEYS, role_speaker, unknown_role
from ripplemem.write.input_checks import check_metadata, check_text, clean_time, composed

#: the speaker of each role-style message's role (:mod:`ripplemem.records.roles`)
ROLE_NAMES = ROLE_SPEAKERS


def parse_time(value: datetime | str | None, *, what: str = "session_time") -> datetime | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        return clean_time(value, what)
    if not isinstance(value, str):
        raise InvalidInputError(
            f"{what} must be a datetime or an ISO 8601 string, got {type(value).__name__}"
        )
    text = check_text(value, what).strip()
    for parse in (datetime.fromisoformat, _locomo_time, _longmemeval_time, _dotted_time):
        try:
            parsed = parse(text)
        except ValueError:
            continue
        return clean_time(parsed, what)
    raise InvalidInputError(
        f"cannot parse {what} {value!r}: use ISO 8601 such as '2023-05-08T13:56' "
        "(or '1:56 pm on 8 May, 2023', '2023/05/08 (Mon) 13:56', or '08.05.2023 13:56')"
    )


def offset_of(value: datetime | str | None) -> timedelta | None:
    """The UTC offset a time was given with (``"...T12:00+05:00"``: 5 hours; ``Z``: 0), None for
    a time without one: what a message about the time says it in (:func:`parse_time` keeps the
    instant, in UTC)."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.strip())
        except ValueError:
            return None
    return value.utcoffset() if isinstance(value, datetime) else None


def _locomo_time(text: str) -> datetime:
    return datetime.strptime(text, "%I:%M %p on %d %B, %Y")


def _dotted_time(text: str) -> datetime:
    """"16.05.2024", "16.05.2024 14:30": a date with dots is day first, as the time grounding
    reads it in a message (ripplemem.grounding.time_rules)."""
    try:
        return datetime.strptime(text, "%d.%m.%Y %H:%M")
    except ValueError:
        return datetime.strptime(text, "%d.%m.%Y")


def _longmemeval_time(text: str) -> datetime:
    return datetime.strptime(text, "%Y/%m/%d (%a) %H:%M")


def _turn(
    message: Mapping,
    index: int,
    session_id: str,
    *,
    person: str | None = None,
    metadata: Mapping | None = None,
) -> Turn:
    number = index + 1  # messages are named from 1, as the errors of later checks name them
    if not isinstance(message, Mapping):
        raise InvalidInputError(
            f"message {number} is a {type(message).__name__}; pass dicts like "
            "{'role': 'user', 'content': '...'} or {'speaker': 'Maya', 'text': '...'}"
        )
    for key in ("name", "speaker", "role", "caption", "image_caption", "blip_caption"):
        if message.get(key) is not None:
            check_text(message[key], f"the {key!r} of message {number}")
    timed = next((key for key in TIME_KEYS if message.get(key) is not None), None)
    if timed is not None:
        raise InvalidInputError(
            f"message {number} has a {timed!r}: an add is one session, said at its session_time "
            "(add(messages, session_time='2024-03-02T18:30')); leave the message's time out, and "
            "give messages said at another time an add of their own"
        )
    role = message.get("role")
    said_by = role_speaker(role) if role else None
    if role and said_by is None:
        raise InvalidInputError(f"message {number}: {unknown_role(role)}")
    speaker = message.get("name") or message.get("speaker")
    if not speaker:
        speaker = person if said_by == ROLE_SPEAKERS["user"] and person else said_by
    own = check_metadata(message.get("metadata"), f"the metadata of message {number}")
    text = message.get("content", message.get("text"))
    if not speaker:
        raise InvalidInputError(f"message {number} has no 'role', 'name' or 'speaker'")
    if text is None or not isinstance(text, str):
        raise InvalidInputError(f"message {number} has no text: give it a 'content' or 'text' string")
    check_text(text, f"the text of message {number}")
    caption = message.get("caption") or message.get("image_caption") or message.get("blip_caption")
    raw_id = message.get("turn_id") or message.get("id")
    if raw_id is not None and not isinstance(raw_id, (str, int)):
        raise InvalidInputError(
            f"the id of message {number} must be a string or a number, got {type(raw_id).__name__}"
        )
    turn_id = check_text(str(raw_id or f"{session_id}:{index + 1}"), f"the id of message {number}")
    return Turn(
        turn_id=turn_id, speaker=str(speaker), text=text, caption=caption,
        metadata={**(metadata or {}), **own},
    )


def to_conversation(
    messages: Sequence[Mapping] | Conversation | Session,
    *,
    session_time: datetime | str | None = None,
    session_id: str | None = None,
    metadata: Mapping | None = None,
    person: str | None = None,
) -> Conversation:
    """``messages`` as a conversation; ``metadata`` goes on every message, ``person`` names the
    speaker of role ``user`` messages without a ``name`` (see the module notes)."""
    shared = check_metadata(metadata, "the metadata of add()")
    if isinstance(messages, Conversation):
        return _composed(_with_metadata(messages, shared))
    if isinstance(messages, Session):
        return _composed(_with_metadata(
            Conversation(conversation_id=messages.session_id, sessions=(messages,)), shared
        ))
    if isinstance(messages, (str, bytes)) or not isinstance(messages, Sequence):
        raise InvalidInputError(
            "add() takes a list of messages, a Session or a Conversation; "
            f"got {type(messages).__name__}. Wrap a single message in a list."
        )
    if not messages:
        raise InvalidInputError("add() got no messages: pass at least one message")
    when = parse_time(session_time)
    for index, message in enumerate(messages):
        _turn(message, index, "s")  # refuse bad messages before the id is derived from them
    if session_id is None:
        # without metadata: re-adding the same messages is a no-op, whatever their labels
        said = [{k: v for k, v in dict(m).items() if k != "metadata"} for m in messages]
        try:
            payload = json.dumps(said, sort_keys=True, default=str).encode()
        except (TypeError, ValueError):  # keys that do not sort, a circular value
            payload = repr(list(messages)).encode("utf-8", "surrogatepass")
        digest = hashlib.sha1(payload + str(when).encode()).hexdigest()[:10]
        session_id = f"s-{digest}"
    check_text(session_id, "session_id")
    turns = tuple(
        _turn(m, i, session_id, person=person, metadata=shared) for i, m in enumerate(messages)
    )
    session = Session(session_id=session_id, time=when, turns=turns, utc_offset=offset_of(session_time))
    return _composed(Conversation(conversation_id=session_id, sessions=(session,)))


def _composed(conversation: Conversation) -> Conversation:
    """Every turn's speaker, text and caption in Unicode's composed form (NFC): "Zoë" typed
    with "ë" or with "e" and a combining mark is one speaker, and "Köln" one word, however the
    keyboard or the copied text wrote it (:func:`~ripplemem.write.input_checks.composed`)."""

    def turn(t: Turn) -> Turn:
        caption = composed(t.caption) if t.caption else t.caption
        if (t.speaker, t.text, t.caption) == (composed(t.speaker), composed(t.text), caption):
            return t
        return replace(t, speaker=composed(t.speaker), text=composed(t.text), caption=caption)

    sessions = tuple(replace(s, turns=tuple(turn(t) for t in s.turns)) for s in conversation.sessions)
    return replace(conversation, sessions=sessions)


def _with_metadata(conversation: Conversation, metadata: dict) -> Conversation:
    """Every turn with the add's metadata under its own."""
    if not metadata:
        return conversation
    sessions = tuple(
        replace(s, turns=tuple(replace(t, metadata={**metadata, **t.metadata}) for t in s.turns))
        for s in conversation.sessions
    )
    return replace(conversation, sessions=sessions)
