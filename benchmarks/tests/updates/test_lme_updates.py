"""LongMemEval knowledge-update ordering (``bench lme-updates``) on a tiny synthetic haystack."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ripplemem.datasets import LmeSample, load_longmemeval
from ripplemem.datasets.longmemeval import parse_sample
from ripplemem.records import Evidence
from ripplemem.testing import make_unit
from ripplemem_bench.cli import bench_app
from ripplemem_bench.results import LmeUpdatesResult, load_result
from ripplemem_bench.updates.lme import (
    answer_session,
    dated_gold,
    gold_order,
    normalise,
    run_lme_updates,
    summarise,
)

from ..cli.conftest import CLEAN_ENV


def _session(*user_texts: str, flag: bool | None = None) -> list[dict]:
    turns: list[dict] = []
    for text in user_texts:
        turn: dict = {"role": "user", "content": text}
        if flag is not None:
            turn["has_answer"] = flag
        turns += [turn, {"role": "assistant", "content": "Noted, thanks for telling me."}]
    return turns


def ku_item(
    question_id: str = "ku1", *, new_date: str = "2023/09/02 (Sat) 18:00",
    question: str = "Where do I keep my hiking boots now?", answer: str = "in the hallway cupboard",
) -> dict:
    """Old value (June) and update (September); the haystack lists the update first."""
    return {
        "question_id": question_id,
        "question_type": "knowledge-update",
        "question": question,
        "answer": answer,
        "question_date": "2023/10/01 (Sun) 10:00",
        "haystack_session_ids": ["answer_new", "noise_a", "answer_old", "noise_b"],
        "haystack_dates": [new_date, "2023/07/14 (Fri) 09:00", "2023/06/03 (Sat) 12:00",
                           "2023/08/20 (Sun) 20:00"],
        "haystack_sessions": [
            _session("I moved my hiking boots to the hallway cupboard, they smelled up the garage.",
                     flag=True),
            _session("Can you suggest a recipe for lentil soup with smoked paprika?"),
            _session("My hiking boots live in the garage next to the bikes.", flag=True)
            + _session("Also, what is a good stretch after a long walk?", flag=False),
            _session("I am planning a trip to Lisbon in the autumn, any tips on trams?"),
        ],
        "answer_session_ids": ["answer_new", "answer_old"],
    }


@pytest.fixture
def ku_file(tmp_path: Path) -> Path:
    abstention = ku_item("ku2_abs")
    for session in abstention["haystack_sessions"]:
        for turn in session:
            turn.pop("has_answer", None)
    other = ku_item("ss1")
    other["question_type"] = "single-session-user"
    same_day = ku_item("ku3", new_date="2023/06/03 (Sat) 12:00")
    path = tmp_path / "ku.json"
    path.write_text(json.dumps([ku_item(), abstention, other, same_day]), encoding="utf-8")
    return path


def _unit(turn_id: str):
    return replace(make_unit(turn_id), turn_ids=(turn_id,))


def test_gold_sessions_are_ordered_by_date_not_haystack_order(ku_file: Path) -> None:
    samples = {s.question.id: s for s in load_longmemeval(ku_file)}
    first = samples["ku1"]
    assert dated_gold(first.question, first.conversation).sessions == ("answer_old", "answer_new")
    assert dated_gold(samples["ku2_abs"].question, samples["ku2_abs"].conversation).skip == (
        "fewer than two gold sessions"
    )
    assert dated_gold(samples["ku3"].question, samples["ku3"].conversation).skip == (
        "gold sessions on one date"
    )


def test_latest_first_needs_both_found_and_the_later_one_above(ku_file: Path) -> None:
    question = next(iter(load_longmemeval(ku_file))).question
    sessions = ("answer_old", "answer_new")
    noise, old, new = _unit("noise_a_1"), _unit("answer_old_1"), _unit("answer_new_1")
    # the old session's turn without has_answer is a session of its own (noans_...), as officially
    stretch = _unit("answer_old_3")

    def read(*units, k: int = 10):
        evidence = [Evidence(u, 1.0 - i / 10, ()) for i, u in enumerate(units)]
        return gold_order(question, sessions, evidence, k)

    best = read(noise, new, stretch, old)
    assert best.ranks == (4, 2) and best.latest_first and best.all_found and best.latest_found
    wrong = read(old, noise, new)
    assert wrong.ranks == (1, 3) and not wrong.latest_first and wrong.all_found
    only_new = read(new, stretch)
    assert only_new.ranks == (None, 1) and only_new.latest_found and not only_new.latest_first
    shallow = read(noise, new, stretch, old, k=3)  # the old session is 4th: not found at k = 3
    assert not shallow.all_found and not shallow.latest_first and shallow.latest_found
    summary = summarise([best, wrong, only_new])
    assert summary.latest_first == 33.3 and summary.all_found == 66.7
    assert summary.latest_found == 100.0 and summary.latest_first_when_all_found == 50.0
    assert (summary.latest_first_count, summary.all_found_count, summary.questions) == (1, 2, 3)


def test_run_reads_only_knowledge_updates_and_reuses_the_kept_store(
    ku_file: Path, tmp_path: Path
) -> None:
    kept = tmp_path / "ku.db"
    first = run_lme_updates(ku_file, recipes=("bm25", "ripple"), keep=kept)
    assert first.questions == 1 and first.kind == "lme-updates"
    assert first.excluded == {"fewer than two gold sessions": 1, "gold sessions on one date": 1}
    assert first.ingest.conversations == 1 and first.ingest.reused_conversations == 0
    for name in ("bm25", "ripple"):
        (row,) = first.recipes[name].questions
        assert row.id == "ku1" and row.sessions == ["answer_old", "answer_new"]
        ranks = row.ranks
        assert row.all_found == all(r is not None and r <= 10 for r in ranks)
        assert row.latest_first == (row.all_found and ranks[1] < ranks[0])
        assert first.recipes[name].summary.latest_first == 100.0 * row.latest_first
    second = run_lme_updates(ku_file, recipes=("bm25", "ripple"), keep=kept)
    assert second.ingest.reused_conversations == 1
    assert [second.recipes[n].questions for n in ("bm25", "ripple")] == [
        first.recipes[n].questions for n in ("bm25", "ripple")
    ]


def test_cli_prints_the_shares_and_writes_json(ku_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "ku.json.out"
    result = CliRunner(env={**CLEAN_ENV, "COLUMNS": "160"}).invoke(
        bench_app, ["lme-updates", str(ku_file), "--recipes", "bm25", "--json", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "latest first" in result.output and "not scored" in result.output
    assert "answer first %" in result.output
    assert "answer session in 0 of 1 questions (0 not the latest)" in result.output
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written["k"] == 10 and list(written["recipes"]) == ["bm25"]
    assert written["recipes"]["bm25"]["summary"]["questions"] == 1
    assert written["kind"] == "lme-updates" and "skip" not in written
    assert isinstance(load_result(out), LmeUpdatesResult)  # the report reads it back typed


def _samples(*items: dict) -> list[LmeSample]:
    return [parse_sample(item) for item in items]


def _read(question, sessions, *turn_ids: str, answer: str | None = None, k: int = 10):
    evidence = [Evidence(_unit(t), 1.0 - i / 10, ()) for i, t in enumerate(turn_ids)]
    return gold_order(question, sessions, evidence, k, answer)


def test_normalise_keeps_whole_words_money_and_numbers() -> None:
    assert normalise("Paris.") == " paris "
    assert normalise("It was $400,000, I think.") == " it was $400,000 i think "
    assert normalise("7:30 am") == " 7 30 am "
    assert normalise("3.5 stars") == " 3.5 stars "
    assert " 5 " not in normalise("I have 15 of them")
    assert normalise("...") == " "


def test_an_earlier_answer_puts_the_earlier_session_first() -> None:
    """'Where did I initially keep ...?': the answer is in the old session, so the old session
    first is answer first, though not latest first."""
    (sample,) = _samples(ku_item(question="Where did I initially keep my hiking boots?",
                                 answer="the garage next to the bikes."))
    question, conversation = sample.question, sample.conversation
    sessions = dated_gold(question, conversation).sessions
    assert sessions == ("answer_old", "answer_new")
    answer = answer_session(question, conversation, sessions)
    assert answer == "answer_old"
    old_first = _read(question, sessions, "answer_old_1", "noise_a_1", "answer_new_1",
                      answer=answer)
    assert old_first.answer_first and not old_first.latest_first and old_first.earlier_answer
    new_first = _read(question, sessions, "answer_new_1", "answer_old_1", answer=answer)
    assert new_first.latest_first and not new_first.answer_first
    only_old = _read(question, sessions, "answer_old_1", "noise_a_1", answer=answer)
    assert not only_old.answer_first  # the later session is not found
    shallow = _read(question, sessions, "answer_old_1", "noise_a_1", "answer_new_1",
                    answer=answer, k=2)
    assert not shallow.answer_first
    row = old_first.row()
    assert row.answer_session == "answer_old" and row.answer_first and not row.latest_first
    summary = summarise([old_first, new_first])
    assert (summary.answer_first_count, summary.latest_first_count) == (1, 1)
    assert summary.answer_first == 50.0
    assert (summary.answer_sessions, summary.earlier_answers) == (2, 2)


def test_an_answer_in_both_sessions_or_in_neither_reads_as_latest() -> None:
    both = ku_item("both", question="What do I keep my boots away from?", answer="garage")
    neither = ku_item("neither", question="Do I still keep my boots in the shed?", answer="No.")
    # the answer only in the old session's turn without has_answer: not a gold turn
    aside = ku_item("aside", question="What stretch did I ask about?",
                    answer="a good stretch after a long walk")
    for sample in _samples(both, neither, aside):
        question, conversation = sample.question, sample.conversation
        sessions = dated_gold(question, conversation).sessions
        assert answer_session(question, conversation, sessions) is None, question.id
        old_first = _read(question, sessions, "answer_old_1", "answer_new_1")
        assert not old_first.answer_first and not old_first.latest_first
        new_first = _read(question, sessions, "answer_new_1", "answer_old_1")
        assert new_first.answer_first and new_first.latest_first
        assert not new_first.earlier_answer
    summary = summarise([new_first])
    assert (summary.answer_sessions, summary.earlier_answers, summary.answer_first_count) == (
        0, 0, 1)


def test_the_latest_holding_the_answer_is_an_answer_session_not_an_earlier_one() -> None:
    (sample,) = _samples(ku_item(answer="the hallway cupboard"))
    question, conversation = sample.question, sample.conversation
    sessions = dated_gold(question, conversation).sessions
    answer = answer_session(question, conversation, sessions)
    assert answer == "answer_new"
    read = _read(question, sessions, "answer_new_1", "answer_old_1", answer=answer)
    assert read.answer_first and read.latest_first and not read.earlier_answer
    summary = summarise([read])
    assert (summary.answer_sessions, summary.earlier_answers) == (1, 0)


def test_the_run_reads_the_answer_session_and_old_results_still_load(tmp_path: Path) -> None:
    path = tmp_path / "earlier.json"
    path.write_text(json.dumps([ku_item(question="Where did I initially keep my hiking boots?",
                                        answer="in the garage")]), encoding="utf-8")
    result = run_lme_updates(path, recipes=("bm25",))
    summary = result.recipes["bm25"].summary
    (row,) = result.recipes["bm25"].questions
    assert row.answer_session == "answer_old"
    assert row.answer_first == (row.all_found and row.ranks[0] < row.ranks[1])
    assert (summary.answer_sessions, summary.earlier_answers) == (1, 1)
    assert summary.answer_first_count == int(bool(row.answer_first))
    old = json.loads(result.model_dump_json())
    for field in ("answer_first", "answer_first_count", "answer_sessions", "earlier_answers"):
        del old["recipes"]["bm25"]["summary"][field]
    for field in ("answer_first", "answer_session"):
        del old["recipes"]["bm25"]["questions"][0][field]
    written = tmp_path / "old.json"
    written.write_text(json.dumps(old), encoding="utf-8")
    loaded = load_result(written)
    assert isinstance(loaded, LmeUpdatesResult)
    assert loaded.recipes["bm25"].summary.answer_first is None
    assert loaded.recipes["bm25"].questions[0].answer_session is None
