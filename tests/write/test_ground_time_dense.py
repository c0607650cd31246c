"""Sentences that name several times, as people write them: each time is read whole and none is
lost beside another. A range of months with one year ("From January to March 2023") is those
months of that year (the year's month alone was read: March 2023); a date after a time our rules
read ("in two weeks, on the 3rd of June") is still read (the parser glued the two into one find,
which the rules' time then masked whole); "my last day" is a day of its own, not yesterday; a
year and "onwards" is from that year up to now; "one in March" is March, not its 1st."""

from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem.grounding.ground_time import ground_times

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
        ("The surgery is on the 29th, so I need to take that Wednesday off.",
         [("2024-05-29", "2024-05-29"), ("2024-05-29", "2024-05-29")]),
        ("We landed on 3 May and that Friday we drove to Porto.",
         [("2024-05-03", "2024-05-03"), ("2024-05-03", "2024-05-03")]),
        ("We landed on 6 May and that Friday we drove to Porto.",
         [("2024-05-06", "2024-05-06"), ("2024-05-10", "2024-05-10")]),
    ],
)
def test_that_weekday_is_of_the_week_named_before_it(text: str, expected: list[tuple[str, str]]) -> None:
    assert spans(text, MONDAY) == expected


@pytest.mark.parametrize(
    ("text", "phrase", "expected"),
    [
        ("The exam is on June 14, so I'll revise this week and leave the week before the exam for past papers.",
         "the week before", ("2024-06-03", "2024-06-09")),
        ("We move on June 18; the week before I'll pack, and the day after the move the internet gets installed.",
         "the day after", ("2024-06-19", "2024-06-19")),
        # the thing named was given no time: counted from the time before it, as before
        ("We land on June 18, and the day after the wedding we fly home.", "the day after", ("2024-06-19", "2024-06-19")),
    ],
)
def test_an_anaphor_counts_from_the_thing_it_names(text: str, phrase: str, expected: tuple[str, str]) -> None:
    """"the week before the exam": from the exam's day, not from the last time said before it."""
    found = {g.phrase: g.span for g in ground_times(text, MONDAY)}
    span = found.get(phrase)
    assert span is not None, found
    assert (span.start.date().isoformat(), span.end.date().isoformat()) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'll ask my boss on Thursday if I can take the extra days.", [("2024-05-23", "2024-05-23")]),
        ("Boss's Day is on a Wednesday this year.", [("2024-10-16", "2024-10-16")]),
    ],
)
def test_a_boss_is_no_holiday(text: str, expected: list[tuple[str, str]]) -> None:
    assert spans(text, MONDAY)[:1] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'll do chapters 1-4 this week and 5-8 next week.", [("2024-05-20", "2024-05-26"), ("2024-05-27", "2024-06-02")]),
        ("I'll read pages 10-20 tomorrow.", [("2024-05-21", "2024-05-21")]),
        ("We won 3-1 on Saturday.", [("2024-05-18", "2024-05-18")]),
        ("The meeting is 4-6 pm on Friday.", [("2024-05-24", "2024-05-24")]),
        ("I was in Rome May 6-12.", [("2024-05-06", "2024-05-12")]),
        ("I was away 6–12 May.", [("2024-05-06", "2024-05-12")]),
    ],
)
def test_a_range_of_counts_before_a_time_leaves_the_time(text: str, expected: list[tuple[str, str]]) -> None:
    """"chapters 1-4 this week": the parser read "4 this week" as four o'clock, and a score or a
    range of pages glued to a day dropped the day with it."""
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
