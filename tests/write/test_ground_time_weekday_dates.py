"""A weekday with a date names the date: Duckling reads the next day that is both, years away
when they disagree; the date is the occurrence its clause's tense names, never years away, and a
weekday in apposition with a date ("Am Donnerstag, dem 7. März") is that date. Session time
Thursday 16 May 2024 (QA3 Q3-2)."""

from __future__ import annotations

import pytest

from .grounded import days


@pytest.mark.parametrize(
    "text, day",
    [
        ("I flew to Graz on Thursday, March 7.", "2024-03-07"),
        ("I flew to Graz on Thursday the 7th of March.", "2024-03-07"),
        ("On Thursday 7 March I flew to Graz.", "2024-03-07"),
        ("I flew to Graz on Wednesday the 7th of March.", "2024-03-07"),  # they disagree: the date
        ("I'll fly to Graz on Thursday, March 7.", "2025-03-07"),  # the next one of a future clause
        ("I flew to Graz on Thursday the 7th.", "2024-05-07"),  # a day of the month
        ("I flew to Graz on Thursday 3/7.", "2024-03-07"),
        ("Le jeudi 7 mars, je suis allé à Graz.", "2024-03-07"),
    ],
)
def test_a_weekday_with_a_date_is_the_date_in_its_tense(text: str, day: str) -> None:
    assert days(text) == [day]


def test_a_weekday_in_apposition_with_a_date_is_that_date() -> None:
    assert days("Am Donnerstag, dem 7. März, bin ich nach Graz geflogen.") == ["2024-03-07"]


def test_weekdays_in_a_list_are_each_a_day() -> None:
    assert days("I'll do yoga on Monday, Wednesday, and Friday.") == ["2024-05-20", "2024-05-22", "2024-05-17"]


def test_a_holiday_on_a_weekday_keeps_its_day() -> None:
    assert days("We're going to my grandparents' for Easter Sunday.") == ["2025-04-20"]
