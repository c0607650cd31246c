"""A tiny invented conversation in the JSONL chat format, and a CLI runner without env leaks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

CLEAN_ENV = {
    "RIPPLEMEM_STORE": None,
    "RIPPLEMEM_LLM_BASE_URL": None,
    "RIPPLEMEM_LLM_MODEL": None,
    "RIPPLEMEM_LLM_API_KEY": None,
    "RIPPLEMEM_RECIPE": None,
    "OPENAI_API_KEY": None,
    "OMP_NUM_THREADS": "1",
}

LINES = [
    {"session_id": "s1", "time": "2024-03-02T18:30", "speaker": "Maya",
     "text": "I adopted a grey cat named Pixel from the shelter in Porto."},
    {"session_id": "s1", "speaker": "Leo", "text": "That is lovely! How old is Pixel?"},
    {"session_id": "s1", "speaker": "Maya", "text": "Pixel is two years old and loves the balcony."},
    {"session_id": "s2", "time": "2024-04-10T09:00", "speaker": "Leo",
     "text": "I signed up for the Lisbon marathon in October."},
    {"session_id": "s2", "speaker": "Maya", "text": "Great, I will cheer for you with Pixel at home."},
]


@pytest.fixture
def chat_file(tmp_path: Path) -> Path:
    path = tmp_path / "chat.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in LINES) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner(env=CLEAN_ENV)
