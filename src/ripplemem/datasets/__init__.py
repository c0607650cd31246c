"""Benchmark and chat-file loaders that turn files into :mod:`ripplemem.records`.

``detect_format`` guesses a file's format from its content: ``"locomo"``, ``"longmemeval"`` or
``"jsonl"`` (see :mod:`ripplemem.datasets.jsonl_chat`). The loaders need only the standard
library and :mod:`ripplemem.records`; they read UTF-8 with or without a byte-order mark and refuse
UTF-16 with what to do (:mod:`ripplemem.datasets.encoding`).
"""

from __future__ import annotations

import lzma
from pathlib import Path

from ripplemem.datasets.encoding import check_utf8
from ripplemem.datasets.jsonl_chat import load_jsonl_chat
from ripplemem.datasets.locomo import (
    ANSWERABLE_CATEGORIES,
    CATEGORY_NAMES,
    LocomoSample,
    Question,
    load_locomo,
)
from ripplemem.datasets.longmemeval import LmeQuestion, LmeSample, load_longmemeval, session_of
from ripplemem.errors import InvalidInputError

FORMATS = ("locomo", "longmemeval", "jsonl")
_PEEK = 1 << 16


def detect_format(path: str | Path) -> str:
    """``"locomo"`` / ``"longmemeval"`` / ``"jsonl"`` from the first bytes of the file."""
    path = Path(path)
    try:
        if path.suffix == ".xz":
            with lzma.open(path, "rt", encoding="utf-8-sig") as handle:
                head = handle.read(_PEEK)
        else:
            with path.open("rb") as raw:
                data = raw.read(_PEEK)
            check_utf8(data, str(path))
            head = data.decode("utf-8-sig", errors="replace")
    except (OSError, lzma.LZMAError, EOFError) as error:
        raise InvalidInputError(f"cannot read {path}: {error}") from error
    start = head.lstrip()
    if not start:
        raise InvalidInputError(
            f"{path} is empty: nothing to ingest. Write one JSON object per line (a chat), "
            "or pass a LoCoMo / LongMemEval file"
        )
    if start.startswith("{"):
        return "jsonl"
    if start.startswith("["):
        marks = {
            "longmemeval": _first(head, ('"question_id"', '"haystack_sessions"')),
            "locomo": _first(head, ('"sample_id"', '"qa"', '"speaker_a"')),
        }
        found = {name: at for name, at in marks.items() if at >= 0}
        if found:
            return min(found, key=found.__getitem__)
    raise InvalidInputError(
        f"cannot tell the format of {path}: pass --format locomo, longmemeval or jsonl"
    )


def _first(text: str, needles: tuple[str, ...]) -> int:
    hits = [at for needle in needles if (at := text.find(needle)) >= 0]
    return min(hits) if hits else -1


__all__ = [
    "ANSWERABLE_CATEGORIES",
    "CATEGORY_NAMES",
    "FORMATS",
    "LmeQuestion",
    "LmeSample",
    "LocomoSample",
    "Question",
    "detect_format",
    "load_jsonl_chat",
    "load_locomo",
    "load_longmemeval",
    "session_of",
]
