"""Conversation files in UTF-8 with the byte-order mark Windows editors write are read as any
other; UTF-16 and UTF-32 files are refused with what to do, whatever the loader."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ripplemem.datasets import detect_format, load_jsonl_chat, load_locomo
from ripplemem.errors import InvalidInputError

from .synthetic import locomo_sample

LINE = {"session_id": "s1", "time": "2024-03-02", "speaker": "Ann", "text": "I moved to Lisbon."}


def test_a_byte_order_mark_is_read_past(tmp_path: Path) -> None:
    chat = tmp_path / "chat.jsonl"
    chat.write_bytes(b"\xef\xbb\xbf" + (json.dumps(LINE) + "\n").encode())
    assert detect_format(chat) == "jsonl"
    assert load_jsonl_chat(chat).sessions[0].turns[0].text == "I moved to Lisbon."
    locomo = tmp_path / "locomo.json"
    locomo.write_bytes(b"\xef\xbb\xbf" + json.dumps([locomo_sample()]).encode())
    assert detect_format(locomo) == "locomo" and len(load_locomo(locomo)) == 1


@pytest.mark.parametrize(("encoding", "name"), [("utf-16", "UTF-16"), ("utf-16-le", "UTF-16"), ("utf-32", "UTF-32")])
def test_wide_encodings_are_named(tmp_path: Path, encoding: str, name: str) -> None:
    chat = tmp_path / "chat.jsonl"
    chat.write_text(json.dumps(LINE) + "\n", encoding=encoding)
    for read in (detect_format, load_jsonl_chat, load_locomo):
        with pytest.raises(InvalidInputError, match=f"is {name} text, not UTF-8: save it as UTF-8"):
            read(chat)
