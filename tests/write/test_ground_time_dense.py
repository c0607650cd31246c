"""Sentences that name several times, as people write them: each time is read whole and none is
lost beside another. A range of months with one year ("From January to March 2023") is those
months of that year (the year's month alone was read: March 2023); a date after a time our rules
read ("in two weeks, on the 3rd of June") is still read (the parser glued the two into one find,
which the rules' time then masked whole); "my last day" is a day of its own, not yesterday; a
year and "onwards" is from that year up to now; "one in March" is March, not its 1st."""

from __future__ import annotations

from datetime import datetime

import pytest

from .grounded import spans

#: Monday 20 May 2024, noon
MONDAY = datetime(2024, 5, 20, 12, 0)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("From January to March 2023 I was in Peru, and in April I went back to work.",
         [("2023-01-01", "2023-03-31"), ("2024-04-01", "2024-04-30")]),
        ("I was in Peru between January and March 2023.", [("2023-01-01", "2023-03-31")]),
        ("I was in Peru Jan–Mar 2023.", [("2023-01-01", "2023-03-31")]),
        ("We lived in Perth from November to February 2023.", [("2022-11-01", "2023-02-28")]),
    ],
)
def test_a_range_of_months_with_one_year_is_those_months(text: str, expected: list[tuple[str, str]]) -> None:
    assert spans(text, MONDAY) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We had one in March and another in July.", [("2024-03-01", "2024-03-31"), ("2023-07-01", "2023-07-31")]),
        ("I ran 3 in April, all of them slow.", [("2024-04-01", "2024-04-30")]),
        ("I bought a new one on Friday.", [("2024-05-17", "2024-05-17")]),
        ("We met on May 1 at the station.", [("2024-05-01", "2024-05-01")]),
    ],
)
def test_a_count_before_a_month_is_no_day_of_it(text: str, expected: list[tuple[str, str]]) -> None:
    assert spans(text, MONDAY) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Our anniversary is in two weeks, on the 3rd of June.",
         [("2024-06-03", "2024-06-09"), ("2024-06-03", "2024-06-03")]),
        ("My last day at the old job was 30 April, and I started the new one in May.",
         [("2024-04-30", "2024-04-30"), ("2024-05-01", "2024-05-31")]),
        ("From 2020 onwards I've worked remotely.", [("2020-01-01", "2024-05-20")]),
    ],
)
def test_no_time_is_lost_beside_another(text: str, expected: list[tuple[str, str]]) -> None:
    assert spans(text, MONDAY) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Last week was busy, and my last week at the old job was quiet.", [("2024-05-13", "2024-05-19")]),
        ("I was in Rome last week and in Paris on Friday.", [("2024-05-13", "2024-05-19"), ("2024-05-17", "2024-05-17")]),
        ("I lived in Berlin from 2019 to 2023.", [("2019-01-01", "2023-12-31")]),
    ],
)
def test_what_stays(text: str, expected: list[tuple[str, str]]) -> None:
    assert spans(text, MONDAY) == expected
