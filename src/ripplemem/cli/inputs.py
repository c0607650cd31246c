"""Conversation files for ``ripplemem ingest``: pick the loader by format (or detect it). A file
given to the other command (an export to ``ingest``, a conversation to ``import``) is refused with
a message naming the command that reads it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from ripplemem.errors import InvalidInputError

if TYPE_CHECKING:
    from ripplemem.records import Conversation


def load_conversations(path: Path, format: str | None, limit: int | None) -> list[Conversation]:
    """The conversations of ``path`` (the first ``limit`` ones), in file order."""
    from ripplemem.datasets import FORMATS, detect_format

    chosen = format or detect_format(path)
    if chosen not in FORMATS:
        raise InvalidInputError(f"unknown format {chosen!r}: use one of {', '.join(FORMATS)}")
    if chosen == "locomo":
        from ripplemem.datasets.locomo import load_locomo

        conversations = [sample.conversation for sample in load_locomo(path)]
    elif chosen == "longmemeval":
        from ripplemem.datasets.longmemeval import load_longmemeval

        conversations = []
        for sample in load_longmemeval(path):
            if limit is not None and len(conversations) >= limit:
                break
            conversations.append(sample.conversation)
    else:
        from ripplemem.datasets.jsonl_chat import load_jsonl_chat

        try:
            conversations = [load_jsonl_chat(path)]
        except InvalidInputError as error:
            if _first_line(path).get("type") == "meta":
                raise InvalidInputError(
                    f"{path} is a ripplemem export (its first line is the meta line), not a "
                    f"conversation: read it back with ripplemem import {path}; nothing was ingested"
                ) from error
            raise
    return conversations[:limit] if limit else conversations


def chat_file_refused(path: Path, error: InvalidInputError) -> InvalidInputError:
    """What ``ripplemem import`` says when it refuses ``path`` with ``error``: that ``ingest``
    adds it when it is a conversation (its first line has a speaker and text, or a role and
    content), else ``error`` itself."""
    first = _first_line(path)
    if "type" in first or not ({"speaker", "text"} <= first.keys() or {"role", "content"} <= first.keys()):
        return error
    return InvalidInputError(
        f"{path} is a conversation (its lines hold {'a speaker and text' if 'speaker' in first else 'a role and content'}), "
        f"not a ripplemem export: add it with ripplemem ingest {path}; import reads only files "
        "written by ripplemem export; nothing was imported"
    )


def _first_line(path: Path) -> dict:
    """The first non-blank line of ``path`` as a JSON object ({} when it is none or unreadable)."""
    try:
        with path.open(encoding="utf-8") as lines:
            for line in lines:
                if line.strip():
                    record = json.loads(line)
                    return record if isinstance(record, dict) else {}
    except (OSError, UnicodeDecodeError, ValueError):
        pass
    return {}
