"""The time-expression suite (``bench times``): reading a suite, scoring a message, the command."""

from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ripplemem.errors import InvalidInputError
from ripplemem.grounding.time_rules import GroundedTime
from ripplemem.records import TimeSpan
from ripplemem_bench.cli import bench_app
from ripplemem_bench.reports.sections import describe, section
from ripplemem_bench.results import TimesResult, load_result
from ripplemem_bench.times.cases import TimeCase, load_time_cases
from ripplemem_bench.times.run import run_times
from ripplemem_bench.times.score import day_span, score_case

from ..cli.conftest import CLEAN_ENV

SAID = "2024-03-13T18:30:00"  # a Wednesday


def case(text: str, *expect: tuple[str, str, str, str], split: str = "tune", lang: str = "en",
         category: str = "relative-day", id: str = "c1") -> dict:
    return {"id": id, "lang": lang, "category": category, "split": split, "said_at": SAID, "text": text,
            "expect": [{"phrase": p, "start": a, "end": b, "grain": g} for p, a, b, g in expect]}


@pytest.fixture
def suite_file(tmp_path: Path) -> Path:
    cases = [
        case("I called the plumber yesterday.", ("yesterday", "2024-03-12", "2024-03-12", "day"), id="en-1"),
        case("We moved in last week.", ("last week", "2024-03-04", "2024-03-10", "week"), id="en-2",
             category="week-weekend", split="holdout"),
        case("Room 101 costs 40 pounds.", id="en-3", category="none"),
        case("Ich bin gestern mit meiner Schwester zum Arzt gegangen.", ("gestern", "2024-03-12", "2024-03-12", "day"), id="de-1", lang="de"),
        # a wrong expectation: the grounder's right answer must fail it
        case("I called her yesterday.", ("yesterday", "2024-03-11", "2024-03-11", "day"), id="en-wrong"),
    ]
    path = tmp_path / "times_tiny.json"
    path.write_text(json.dumps({"about": "test", "cases": cases}), encoding="utf-8")
    return path


def _grounded(phrase: str, start: str, end: str) -> GroundedTime:
    return GroundedTime(phrase, TimeSpan(datetime.fromisoformat(start), datetime.fromisoformat(end)), "day")


def test_a_span_matches_within_its_grains_tolerance_and_a_message_with_no_time_wants_none() -> None:
    week = TimeCase.model_validate(case("We moved in last week.", ("last week", "2024-03-04", "2024-03-10", "week")))
    # Sunday to Saturday is the same week told another way; two days off is another week
    assert score_case(week, [_grounded("last week", "2024-03-03", "2024-03-09T23:59:59")]).passed
    assert not score_case(week, [_grounded("last week", "2024-03-02", "2024-03-08T23:59:59")]).passed
    day = TimeCase.model_validate(case("I went yesterday.", ("yesterday", "2024-03-12", "2024-03-12", "day")))
    assert not score_case(day, [_grounded("yesterday", "2024-03-11", "2024-03-11T23:59:59")]).passed
    none = TimeCase.model_validate(case("Room 101 costs 40 pounds.", category="none"))
    assert score_case(none, []).passed
    scored = score_case(none, [_grounded("101", "2024-01-01", "2024-12-31T23:59:59")])
    assert not scored.passed and scored.grounded == [("101", "2024-01-01", "2024-12-31")]


def test_an_end_at_midnight_closes_the_day_before() -> None:
    assert day_span(datetime(2024, 3, 4), datetime(2024, 3, 11)) == (date(2024, 3, 4), date(2024, 3, 10))
    assert day_span(datetime(2024, 3, 4), datetime(2024, 3, 4)) == (date(2024, 3, 4), date(2024, 3, 4))


def test_a_phrase_not_in_its_text_or_no_case_of_the_split_is_refused(tmp_path: Path, suite_file: Path) -> None:
    assert [c.id for c in load_time_cases(suite_file, split="holdout")] == ["en-2"]
    with pytest.raises(InvalidInputError, match="no case in split 'dev'"):
        load_time_cases(suite_file, split="dev")
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"cases": [case("I went.", ("yesterday", "2024-03-12", "2024-03-12", "day"))]}))
    with pytest.raises(InvalidInputError, match="phrases not in the text"):
        load_time_cases(broken)


def test_the_run_grounds_each_message_against_when_it_was_said(suite_file: Path) -> None:
    result = run_times(load_time_cases(suite_file))
    passed = {row["id"]: row["passed"] for row in result.rows}
    assert passed == {"en-1": True, "en-2": True, "en-3": True, "de-1": True, "en-wrong": False}
    assert result.by_language["en"].cases == 4 and result.by_language["en"].passed == 3
    assert result.by_language["all"].expressions == 4 and result.by_language["all"].found == 3
    assert list(result.by_language)[-1] == "all"
    assert result.by_category["none"].expressions == 0


def test_the_command_prints_the_tables_writes_a_typed_result_and_the_report_reads_it(
    suite_file: Path, tmp_path: Path
) -> None:
    out = tmp_path / "times.json"
    done = CliRunner(env={**CLEAN_ENV, "COLUMNS": "160"}).invoke(
        bench_app, ["times", str(suite_file), "--json", str(out), "--failures"]
    )
    assert done.exit_code == 0, done.output
    assert "messages right" in done.output and "en-wrong" in done.output and "en-1:" not in done.output
    result = load_result(out)
    assert isinstance(result, TimesResult) and (result.file, result.split, result.cases) == ("times_tiny.json", "all", 5)
    block = section(result)
    assert "| en | 75.0 % (3/4) | 2/3 |" in block and "| none | 100.0 % (1/1) | — |" in block
    assert describe(result) == ("time expressions: 5 messages in 2 languages", "times_tiny.json (all)")
