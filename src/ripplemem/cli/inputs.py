"""Conversation files for ``ripplemem ingest``: pick the loader by format (or detect it)."""

from __future__ import annotations

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

        conversations = [load_jsonl_chat(path)]
    return conversations[:limit] if limit else conversations
