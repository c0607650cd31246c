"""The small-memory update suite (benchmarks/data/updates_small.json) is what its generator writes."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from ripplemem_bench.updates.cases import load_cases

DATA = Path(__file__).resolve().parents[2] / "data"


def _generator():
    spec = importlib.util.spec_from_file_location("updates_small", DATA / "updates_small.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_suite_is_the_generators_output(tmp_path: Path) -> None:
    written = tmp_path / "updates_small.json"
    _generator().main(written)
    assert json.loads(written.read_text(encoding="utf-8")) == json.loads((DATA / "updates_small.json").read_text(encoding="utf-8"))


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
