"""The small-memory update suites (benchmarks/data/updates_small.json, updates_hobbies.json) are what
their generators write."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from ripplemem_bench.updates.cases import load_cases

DATA = Path(__file__).resolve().parents[2] / "data"


def _generator(name: str = "updates_small"):
    spec = importlib.util.spec_from_file_location(name, DATA / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["updates_small", "updates_hobbies"])
def test_the_committed_suite_is_the_generators_output(tmp_path: Path, name: str) -> None:
    written = tmp_path / f"{name}.json"
    _generator(name).main(written)
    assert json.loads(written.read_text(encoding="utf-8")) == json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))


def test_each_question_wants_its_statement_first_and_the_splits_hold_what_they_say() -> None:
    tune = load_cases(DATA / "updates_small.json", split="tune")
    holdout = load_cases(DATA / "updates_small.json", split="holdout")
    assert (len(tune), len(holdout)) == (48, 24)  # sets a and b; set c
    for case in tune + holdout:
        turns = {t.turn_id for s in case.model.sessions for t in s.turns}
        assert all(len(s.turns) == 1 for s in case.model.sessions)  # one statement a day
        for question in case.model.questions:
            assert set(question.stale) == turns - set(question.evidence)  # every other statement below
    kinds = {q.kind for c in holdout for q in c.model.questions}
    assert {q.kind for c in tune for q in c.model.questions} == {"control"} and kinds == {"control", "current"}
    assert sum(q.kind == "current" for c in holdout for q in c.model.questions) == 24


def test_the_pastimes_suite_asks_each_statement_first_in_its_splits() -> None:
    tune = load_cases(DATA / "updates_hobbies.json", split="tune")
    holdout = load_cases(DATA / "updates_hobbies.json", split="holdout")
    assert (len(tune), len(holdout)) == (30, 30)  # set t; set h
    said = {split: {t.text for c in cases for s in c.model.sessions for t in s.turns} for split, cases in
            (("tune", tune), ("holdout", holdout))}
    assert not said["tune"] & said["holdout"]  # no statement of one set in the other
    for case in tune + holdout:
        turns = {t.turn_id for s in case.model.sessions for t in s.turns}
        assert 4 <= len(turns) <= 6 and len(case.model.questions) == len(turns)
        for question in case.model.questions:
            assert question.kind == "control" and set(question.stale) == turns - set(question.evidence)
