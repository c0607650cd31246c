"""Segmentation: check a conversation, then cut each session into overlapping windows.

Every window after the first starts with ``overlap`` turns carried over from the previous window.
Those turns are context only (:attr:`Window.focus_from` points past them), so every turn is a
focus turn of exactly one window and yields its units exactly once.
"""

from __future__ import annotations

from collections.abc import Sequence

from ripplemem.errors import RAISE_MESSAGE_LIMIT, InvalidInputError
from ripplemem.records import Conversation, Session, Window

DEFAULT_MAX_MESSAGE_CHARS = 20_000


def segment(
    session: Session,
    *,
    speakers: Sequence[str],
    window_turns: int = 40,
    overlap: int = 2,
) -> list[Window]:
    """Cut ``session`` into windows of at most ``window_turns`` turns, ``overlap`` of them carried over."""
    if window_turns < 1:
        raise InvalidInputError(f"window_turns must be at least 1, got {window_turns}")
    if not 0 <= overlap < window_turns:
        raise InvalidInputError(
            f"overlap must be >= 0 and smaller than window_turns ({window_turns}), got {overlap}"
        )
    turns = session.turns
    names = tuple(speakers) or tuple(dict.fromkeys(t.speaker for t in turns))
    windows: list[Window] = []
    start = 0  # index of the first focus turn of the next window
    while start < len(turns):
        carried = min(overlap, start)
        new = window_turns - carried
        windows.append(
            Window(
                session_id=session.session_id,
                session_time=session.time,
                turns=turns[start - carried : start + new],
                speakers=names,
                focus_from=carried,
                utc_offset=session.utc_offset,
            )
        )
        start += new
    return windows


def validate_conversation(
    conversation: Conversation, *, max_message_chars: int = DEFAULT_MAX_MESSAGE_CHARS
) -> None:
    """Raise :class:`InvalidInputError` naming the first problem and how to fix it."""
    cid = conversation.conversation_id or "<no id>"
    if not conversation.sessions:
        raise InvalidInputError(
            f"conversation {cid!r} has no sessions: add at least one session with one turn"
        )
    seen: dict[str, str] = {}
    for session in conversation.sessions:
        if not session.turns:
            raise InvalidInputError(
                f"session {session.session_id!r} of conversation {cid!r} has no turns: "
                "drop the empty session or add its messages"
            )
        for position, turn in enumerate(session.turns, 1):
            where = _message(conversation, session, position)
            if not turn.turn_id:
                raise InvalidInputError(
                    f"a turn of session {session.session_id!r} has no turn_id: give every turn an "
                    "id unique within the conversation"
                )
            if turn.turn_id in seen:
                raise InvalidInputError(
                    f"{where} repeats the id {turn.turn_id!r} already used in session "
                    f"{seen[turn.turn_id]!r}: turn ids must be unique within a conversation"
                )
            seen[turn.turn_id] = session.session_id
            if not turn.speaker or not turn.speaker.strip():
                raise InvalidInputError(f"{where} has no speaker: name who said it")
            if not turn.text.strip() and not (turn.caption and turn.caption.strip()):
                raise InvalidInputError(
                    f"{where} has empty text and no image caption: give it text, or leave it out"
                )
            size = len(turn.text) + len(turn.caption or "")
            if size > max_message_chars:
                raise InvalidInputError(
                    f"{where} is {size:,} characters, over the limit of {max_message_chars:,}: "
                    f"split the message into several turns{RAISE_MESSAGE_LIMIT}"
                )


def _message(conversation: Conversation, session: Session, position: int) -> str:
    """How a message error names the turn at ``position`` (1 = the first) of ``session``: by its
    place, with its session when there are several, and its id and speaker when the caller gave
    the id (an id ripplemem derived, ``<session>:<position>``, means nothing to the caller)."""
    where = f"message {position}"
    if len(conversation.sessions) > 1:
        where += f" of session {session.session_id!r}"
    turn = session.turns[position - 1]
    if turn.turn_id != f"{session.session_id}:{position}":
        where += f" (turn {turn.turn_id!r}, speaker {turn.speaker!r})"
    return where
