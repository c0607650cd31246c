"""Segmentation: check a conversation, then cut each session into overlapping windows.

Every window after the first starts with ``overlap`` turns carried over from the previous window.
Those turns are context only (:attr:`Window.focus_from` points past them), so every turn is a
focus turn of exactly one window and yields its units exactly once.
"""

from __future__ import annotations

from collections.abc import Sequence

from ripplemem.errors import InvalidInputError
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
        for turn in session.turns:
            where = (
                f"turn {turn.turn_id!r} (session {session.session_id!r}, speaker {turn.speaker!r})"
            )
            if not turn.turn_id:
                raise InvalidInputError(
                    f"a turn of session {session.session_id!r} has no turn_id: give every turn an "
                    "id unique within the conversation"
                )
            if turn.turn_id in seen:
                raise InvalidInputError(
                    f"{where} repeats the id already used in session {seen[turn.turn_id]!r}: "
                    "turn ids must be unique within a conversation"
                )
            seen[turn.turn_id] = session.session_id
            if not turn.speaker or not turn.speaker.strip():
                raise InvalidInputError(f"{where} has no speaker: name who said it")
            if not turn.text.strip() and not (turn.caption and turn.caption.strip()):
                raise InvalidInputError(
                    f"{where} has empty text and no image caption: drop the turn or give it text"
                )
            size = len(turn.text) + len(turn.caption or "")
            if size > max_message_chars:
                raise InvalidInputError(
                    f"{where} is {size:,} characters, over the limit of {max_message_chars:,}: "
                    "split the message into several turns or raise "
                    "WriteSettings.max_message_chars"
                )
