"""Denoising fine-tuning export: chat JSONL, gold always present, deterministic for a seed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ripplemem.errors import InvalidInputError
from ripplemem.training.finetune import SYSTEM_PROMPT, export_finetune
from ripplemem.training.fit_weights import half_of
from ripplemem.training.gold_questions import iter_gold

from .asso_fixtures import wide_locomo


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return wide_locomo(tmp_path_factory.mktemp("finetune") / "locomo_wide.json", conversations=1)


@pytest.fixture(scope="module")
def exported(data: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    out = tmp_path_factory.mktemp("out") / "train.jsonl"
    summary = export_finetune(data, out, store="memory", seed=13, copies=6, top=6, recipe="dense")
    return out, summary


def test_chat_format_and_counts(exported: tuple[Path, object]) -> None:
    out, summary = exported
    lines = _lines(out)
    assert summary.questions == 13 and summary.examples == 13 * 6 == len(lines)
    for line in lines:
        assert set(line) == {"messages"}
        roles = [message["role"] for message in line["messages"]]
        assert roles == ["system", "user", "assistant"]
        assert line["messages"][0]["content"] == SYSTEM_PROMPT
        assert all(isinstance(message["content"], str) for message in line["messages"])
        assert line["messages"][2]["content"].startswith("[")


def test_gold_turns_are_in_every_copy(data: Path, exported: tuple[Path, object]) -> None:
    out, _ = exported
    lines = _lines(out)
    (conversation, questions), = list(iter_gold(data))
    texts = {t.turn_id: t.text for s in conversation.sessions for t in s.turns}
    for index, question in enumerate(questions):
        copies = lines[6 * index: 6 * index + 6]
        prompts = [copy["messages"][1]["content"] for copy in copies]
        assert all(prompt.endswith(question.text) for prompt in prompts)
        for turn_id in question.gold_turns:
            assert all(texts[turn_id] in prompt for prompt in prompts)
        target = copies[0]["messages"][2]["content"]
        assert target == f"[{question.benchmark_type}] {question.answer}"
    # the copies differ: the noise is subsampled and shuffled
    assert len({line["messages"][1]["content"] for line in lines[:6]}) > 1


def test_same_seed_same_file_other_seed_other_file(data: Path, exported, tmp_path: Path) -> None:
    out, _ = exported
    again = tmp_path / "again.jsonl"
    export_finetune(data, again, store="memory", seed=13, recipe="dense")
    assert again.read_bytes() == out.read_bytes()
    other = tmp_path / "other.jsonl"
    export_finetune(data, other, store="memory", seed=14, recipe="dense")
    assert other.read_bytes() != out.read_bytes()


def test_half_and_argument_checks(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "a.jsonl"
    summary = export_finetune(data, out, store="memory", recipe="dense", half="A", copies=1)
    (_, questions), = list(iter_gold(data))
    assert summary.questions == sum(half_of(q.id) == "A" for q in questions)
    with pytest.raises(InvalidInputError):
        export_finetune(data, out, store="memory", recipe="dense", copies=0)
