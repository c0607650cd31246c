"""Dates in the forms people write them: the year first with slashes or dots, "the Tuesday after
next", a count back from a named day ("3 weeks ago last Friday"), a weekday of a named week in
Japanese and Chinese, a date in numbers told in the present (the next one; month first, as the
README says), and a session time written with dots. Session time Thursday 16 May 2024 (QA3 Q3-8)."""

from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem import Memory
from ripplemem.grounding.ground_time import ground_times

from .grounded import THURSDAY, spans


@pytest.mark.parametrize(
    "text, day",
    [
        ("I flew to Kiev on 2024/03/07.", "2024-03-07"),
        ("I flew to Kiev on 2024/3/7.", "2024-03-07"),
        ("I flew to Graz on 2024.03.07.", "2024-03-07"),
        ("I have a dentist appointment the Tuesday after next.", "2024-05-28"),
        ("I met Tom 3 weeks ago last Friday.", "2024-04-19"),
        ("I met Tom a week ago yesterday.", "2024-05-08"),
        ("先週の金曜日に東京で田中さんに会いました。", "2024-05-10"),  # no "いま" read inside "会いました"
        ("下个星期一我去上海。", "2024-05-20"),  # a day, not its week
        ("The meeting is on 12/06.", "2024-12-06"),  # the next one; month first
        ("The meeting was on 12/06.", "2023-12-06"),
    ],
)
def test_a_written_date_is_its_day(text: str, day: str) -> None:
    assert spans(text) == [(day, day)]


@pytest.mark.parametrize("text", ["Version 2024.1.2 is out.", "I flew to Graz on 2024.13.07."])
def test_numbers_that_are_no_date(text: str) -> None:
    assert spans(text) == []


def test_a_past_date_told_with_a_verb_the_past_class_leaves_out_is_the_nearest() -> None:
    # "broke" is left out of the irregular past (an adjective too): no present verb, the nearest
    assert spans("On 2 May my car broke down.") == [("2024-05-02", "2024-05-02")]


def test_a_session_time_with_dots_is_day_first() -> None:
    memory = Memory.open("memory://")
    added = memory.add([{"speaker": "Ann", "text": "I flew to Graz yesterday."}], user_id="d", session_time="16.05.2024")
    span = added.units[0].time_span
    assert span is not None and span.start == datetime(2024, 5, 15)
    added = memory.add([{"speaker": "Ann", "text": "I met Tom today."}], user_id="d", session_time="16.05.2024 14:30")
    span = added.units[0].time_span
    assert span is not None and span.start == datetime(2024, 5, 16)


@pytest.mark.parametrize(
    "text",
    ["I was away 2024/3/7-2024/3/9.", "I was away 2024.03.07 – 2024.03.09.", "I was away 2024/3/7 - 2024/3/9."],
)
def test_two_year_first_dates_joined_by_a_dash_are_a_range(text: str) -> None:
    assert spans(text) == [("2024-03-07", "2024-03-09")]


@pytest.mark.parametrize(
    "text, first, last",
    [
        ("The launch is on 2024-07-01T09:00+02:00.", "2024-07-01", "2024-07-01"),
        ("The launch is on 2024-07-01T09:00.", "2024-07-01", "2024-07-01"),
        ("The launch is on 2024-07-01T09:00:00.123-05:00, be there.", "2024-07-01", "2024-07-01"),
        ("Launch: 2024-07-01 09:00 UTC.", "2024-07-01", "2024-07-01"),
        ("The launch is on 2024-07-01 at 9am.", "2024-07-01", "2024-07-01"),
        ("Deploy window: 2024-07-01T09:00Z to 2024-07-01T11:00Z.", "2024-07-01", "2024-07-01"),
        ("Deploy window: 2024-07-01 09:00-11:00.", "2024-07-01", "2024-07-01"),
        ("Freeze from 2024-07-01T09:00Z until 2024-07-03T18:00Z.", "2024-07-01", "2024-07-03"),
    ],
)
def test_an_iso_date_with_its_clock_time_is_the_day_written(text: str, first: str, last: str) -> None:
    # a timestamp as agents paste it (QA7 Q7-14): the day (or days) written, in its own zone
    assert spans(text) == [(first, last)]


def test_an_iso_timestamp_on_no_calendar_day_is_no_time() -> None:
    assert spans("We shipped 2024-02-30T09:00 apparently.") == []


@pytest.mark.parametrize(
    "text, day",
    [
        ("２０２４年５月３日に大阪に行きました。", "2024-05-03"),
        ("５月３日に大阪に行きました。", "2024-05-03"),
        ("我５月３日去了上海。", "2024-05-03"),
        ("I flew home on ５ May.", "2024-05-05"),
        ("３日前に大阪に行きました。", "2024-05-13"),
    ],
)
def test_full_width_digits_are_read_as_digits(text: str, day: str) -> None:
    # as Japanese and Chinese input methods type them (QA7 Q7-15): the day, not the month or none
    assert spans(text) == [(day, day)]


def test_a_phrase_with_full_width_digits_is_kept_as_written() -> None:
    # the readers of a phrase look for it in the text ("５月３日", not "5月3日")
    assert [g.phrase for g in ground_times("我５月３日去了上海。", THURSDAY)] == ["５月３日"]
