"""The update suite in eight languages (benchmarks/data/updates_lang.json) loads and holds what it says."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from ripplemem_bench.updates.cases import load_cases

DATA = Path(__file__).resolve().parents[2] / "data"
LANGUAGES = ("de", "fr", "es", "it", "pt", "nl", "ja", "zh")


def test_every_question_names_turns_its_conversation_holds_and_both_splits_are_filled() -> None:
    tune = load_cases(DATA / "updates_lang.json", split="tune")
    holdout = load_cases(DATA / "updates_lang.json", split="holdout")
    assert (len(tune), len(holdout)) == (24, 24)
    for case in tune + holdout:
        turns = {t.turn_id for s in case.model.sessions for t in s.turns}
        assert case.model.questions
        for question in case.model.questions:
            assert set(question.evidence) <= turns and set(question.stale) <= turns
            assert not set(question.evidence) & set(question.stale)
            assert (question.kind == "history") == (not question.stale)
    for split in (tune, holdout):
        per_language = Counter(case.id.split("-")[1] for case in split)
        assert per_language == dict.fromkeys(LANGUAGES, 3)
