"""A simple JSONL chat format for your own conversations.

One JSON object per line, in conversation order; blank lines are skipped. Two line shapes:

* speaker form: ``{"session_id": "s1", "time": "2024-03-02T18:30", "speaker": "Alice",
  "text": "I moved to Lisbon last week."}``
* chat form: ``{"role": "user", "content": "..."}`` (roles ``user`` / ``assistant`` become the
  speakers ``User`` / ``Assistant``), optionally with ``session_id`` and ``time`` too.

Optional keys on either shape: ``turn_id`` (default ``"<session_id>_<k>"``, k counting the session's
lines from 1) and ``caption`` (an image caption shared with the message). Any other key is
refused with the line's number and the keys there are (a time as ``session_time``, a line's own
``metadata``: the reader would drop them unread). ``session_id`` defaults to
``"session_1"``; the lines with the same ``session_id`` form a session, sessions in order of first
appearance. ``time`` is ISO 8601 (``2024-03-02``, ``2024-03-02T18:30``, ``2024-03-02 18:30:00``); a
session's time is the first time given on its lines (None when no line gives one); one with a UTC
offset keeps it, and the writer converts it to UTC as it does an ``add``'s session time.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from ripplemem.datasets.encoding import read_utf8
from ripplemem.errors import InvalidInputError
from ripplemem.records import Conversation, Session, Turn
from ripplemem.records.roles import TIME_KEYS, role_speaker, unknown_role

DEFAULT_SESSION = "session_1"
#: the keys a line may have; any other is refused (a time or metadata under another name would
#: be dropped unread)
KEYS = ("session_id", "time", "speaker", "text", "role", "content", "turn_id", "caption")


def load_jsonl_chat(path: str | Path, *, conversation_id: str | None = None) -> Conversation:
    """Read a JSONL chat file into one conversation (named after the file unless given)."""
    path = Path(path)
    try:
        lines = read_utf8(path).splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidInputError(f"cannot read chat file {path}: {error}") from error
    return parse_jsonl_chat(lines, conversation_id=conversation_id or path.stem, where=str(path))


def parse_jsonl_chat(
    lines: list[str], *, conversation_id: str = "chat", where: str = "input"
) -> Conversation:
    order: list[str] = []
    turns: dict[str, list[Turn]] = {}
    times: dict[str, datetime | None] = {}
    seen_ids: set[str] = set()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        at = f"{where} line {number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise InvalidInputError(
                f"{at}: not valid JSON ({error.msg}); each line must be one JSON object"
            ) from error
        if not isinstance(record, dict):
            raise InvalidInputError(f"{at}: expected a JSON object, got {type(record).__name__}")
        speaker, text = _speaker_and_text(record, at)
        _check_keys(record, at)
        session_id = str(record.get("session_id") or DEFAULT_SESSION)
        if session_id not in turns:
            order.append(session_id)
            turns[session_id] = []
            times[session_id] = None
        if times[session_id] is None and record.get("time"):
            times[session_id] = _parse_time(record["time"], at)
        turn_id = str(record.get("turn_id") or f"{session_id}_{len(turns[session_id]) + 1}")
        if turn_id in seen_ids:
            raise InvalidInputError(f"{at}: turn_id {turn_id!r} is used twice; turn ids must be unique")
        seen_ids.add(turn_id)
        caption = record.get("caption")
        turns[session_id].append(
            Turn(turn_id=turn_id, speaker=speaker, text=text, caption=str(caption) if caption else None)
        )
    if not order:
        raise InvalidInputError(f"{where}: no messages; write one JSON object per line")
    sessions = tuple(Session(sid, times[sid], tuple(turns[sid])) for sid in order)
    return Conversation(conversation_id=conversation_id, sessions=sessions)


def _check_keys(record: dict, at: str) -> None:
    unknown = [key for key in record if key not in KEYS]
    if not unknown:
        return
    hints = []
    if any(key in TIME_KEYS for key in unknown):
        hints.append("a line's time is 'time', ISO 8601 such as '2024-03-02T18:30'")
    if "metadata" in unknown:
        hints.append("""metadata for every line: ripplemem ingest --metadata '{"topic": "pets"}'""")
    names = ", ".join(repr(key) for key in unknown)
    raise InvalidInputError(
        f"{at}: unknown key{'s' if len(unknown) > 1 else ''} {names}"
        + (f" ({'; '.join(hints)})" if hints else "")
        + "; a line's keys are 'speaker' and 'text' (or 'role' and 'content'), and optionally "
        "'session_id', 'time', 'turn_id' and 'caption'"
    )


def _speaker_and_text(record: dict, at: str) -> tuple[str, str]:
    if "speaker" in record or "text" in record:
        speaker, text = record.get("speaker"), record.get("text")
        if not isinstance(speaker, str) or not speaker.strip():
            raise InvalidInputError(f"{at}: 'speaker' must be a non-empty string")
        if not isinstance(text, str):
            raise InvalidInputError(f"{at}: 'text' must be a string")
        return speaker.strip(), text
    if "role" in record or "content" in record:
        role, content = record.get("role"), record.get("content")
        said_by = role_speaker(role) if isinstance(role, str) else None
        if said_by is None:
            raise InvalidInputError(f"{at}: {unknown_role(role)}")
        if not isinstance(content, str):
            raise InvalidInputError(f"{at}: 'content' must be a string")
        return said_by, content
    raise InvalidInputError(
        f"{at}: a line needs either 'speaker' and 'text' or 'role' and 'content'"
    )


def _parse_time(value: object, at: str) -> datetime:
    if isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.strip())
        except ValueError:
            pass
        else:
            return moment  # with its offset, if given: the writer converts it to UTC
    raise InvalidInputError(
        f"{at}: cannot parse time {value!r}; use ISO 8601 such as '2024-03-02T18:30'"
    )
