"""Fixtures: tiny synthetic LoCoMo- and LongMemEval-shaped files in tmp_path."""

from __future__ import annotations

import json
import lzma
import os
from pathlib import Path

import pytest

from ripplemem.settings import VARIABLES

from .synthetic import lme_item, locomo_sample

# hermetic: the harness builds its settings from the RIPPLEMEM_* variables (Settings.from_env),
# so a developer's own must not reach the tests; a test that needs one passes it
for name in VARIABLES:
    os.environ.pop(name, None)


@pytest.fixture
def locomo_file(tmp_path: Path) -> Path:
    path = tmp_path / "locomo_tiny.json"
    path.write_text(json.dumps([locomo_sample()]), encoding="utf-8")
    return path


@pytest.fixture
def lme_items() -> list[dict]:
    abstention = lme_item("q2_abs")
    no_gold = lme_item("q3", answer_flags=(False, False))
    no_gold["question_type"] = "single-session-assistant"
    return [lme_item("q1"), abstention, no_gold]


@pytest.fixture
def lme_json(tmp_path: Path, lme_items: list[dict]) -> Path:
    path = tmp_path / "lme_tiny.json"
    path.write_text(json.dumps(lme_items, indent=1), encoding="utf-8")
    return path


@pytest.fixture
def lme_xz(tmp_path: Path, lme_items: list[dict]) -> Path:
    path = tmp_path / "lme_tiny.json.xz"
    with lzma.open(path, "wt", encoding="utf-8") as handle:
        json.dump(lme_items, handle)
    return path
