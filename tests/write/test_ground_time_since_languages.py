"""Each language's "since / from" and "ago" (QA5 Q5-11), said on Thursday 16 May 2024: a time
its language's preposition of a span begun in the past governs ("seit 2019", "depuis mars",
"desde marzo", "da marzo") runs from its start up to the moment said, as English "since March"
does; Japanese "から" after a time in a clause that tells no future ("三月から…勉強しています") is
the same, and an onset ahead in one that does ("来月から働きます"); "二週間前" is two weeks ago, that
week, as "两周前" is; the kana of a verb's polite ending ("います") is no "いま" (now)."""

from __future__ import annotations

import pytest

from .grounded import spans


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Ich wohne seit 2019 in Hamburg.", ("2019-01-01", "2024-05-16")),
        ("Seit 2020 arbeite ich bei Siemens.", ("2020-01-01", "2024-05-16")),
        ("Ich lerne seit März Spanisch.", ("2024-03-01", "2024-05-16")),
        ("Depuis mars j'apprends l'espagnol.", ("2024-03-01", "2024-05-16")),
        ("Desde marzo estudio español.", ("2024-03-01", "2024-05-16")),
        ("Da marzo studio spagnolo.", ("2024-03-01", "2024-05-16")),
    ],
)
def test_since_a_month_or_a_year_in_another_language_runs_up_to_now(text: str, expected: tuple[str, str]) -> None:
    assert spans(text) == [expected]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("三月からスペイン語を勉強しています。", ("2024-03-01", "2024-05-16")),
        ("4月から新しい会社で働いています。", ("2024-04-01", "2024-05-16")),
        ("去年からピアノを習っています。", ("2023-01-01", "2024-05-16")),
        # a word after から that starts with a weekday's kanji (金融, 木村) is no weekday
        ("4月から金融の仕事をしています。", ("2024-04-01", "2024-05-16")),
        ("1月から木村さんと働いています。", ("2024-01-01", "2024-05-16")),
    ],
)
def test_japanese_kara_in_a_present_clause_runs_up_to_now(text: str, expected: tuple[str, str]) -> None:
    assert spans(text) == [expected]


def test_japanese_kara_told_ahead_is_the_onset() -> None:
    assert spans("来月から新しい会社で働きます。") == [("2024-06-01", "2024-06-30")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("二週間前に引っ越しました。", ("2024-04-29", "2024-05-05")),
        ("三日前に友達に会いました。", ("2024-05-13", "2024-05-13")),
        ("3か月前に仕事を辞めました。", ("2024-02-01", "2024-02-29")),
        ("2年前に結婚しました。", ("2022-01-01", "2022-12-31")),
    ],
)
def test_japanese_n_units_mae_is_that_unit_back(text: str, expected: tuple[str, str]) -> None:
    assert spans(text) == [expected]


def test_japanese_n_units_before_an_event_is_no_count_from_now() -> None:
    # "試験の二週間前に": two weeks before the exam, whose date is not said
    assert spans("試験の二週間前に勉強を始めました。") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # one phrasing of each rule, kept apart while the rules were written
        ("Ich spiele seit 2015 Gitarre.", ("2015-01-01", "2024-05-16")),
        ("Da gennaio lavoro a Torino.", ("2024-01-01", "2024-05-16")),
        ("2月から日本語を勉強しています。", ("2024-02-01", "2024-05-16")),
        ("一年前に東京に来ました。", ("2023-01-01", "2023-12-31")),
    ],
)
def test_apart_since_and_ago(text: str, expected: tuple[str, str]) -> None:
    assert spans(text) == [expected]
