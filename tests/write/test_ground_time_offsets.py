"""Times told from another time (QA5 Q5-9), said on Wednesday 15 May 2024: a part of the day
before an ordinal day keeps its clause's tense as the bare ordinal does ("on the evening of the
14th" in a past sentence is this month's); "a week from / on Friday" is that Friday moved a week;
"three days before my birthday on June 20" is that date moved; "in a couple / a few of days" is
a vague future of a few of its units, as "a couple of days ago" is a vague past."""

from __future__ import annotations

from datetime import datetime

import pytest

from .grounded import spans

#: Wednesday 15 May 2024, 10:00
WEDNESDAY = datetime(2024, 5, 15, 10, 0)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("On the evening of the 14th we had a power cut.", ("2024-05-14", "2024-05-14")),
        ("On the morning of the 3rd I lost my keys.", ("2024-05-03", "2024-05-03")),
        ("The night of the 10th was awful.", ("2024-05-10", "2024-05-10")),
        ("On the afternoon of the 20th I'll see the dentist.", ("2024-05-20", "2024-05-20")),
        ("On the morning of the 2nd I'm flying out.", ("2024-06-02", "2024-06-02")),
    ],
)
def test_a_part_of_an_ordinal_day_is_the_day_its_clause_tense_names(text: str, expected: tuple[str, str]) -> None:
    assert spans(text, WEDNESDAY) == [expected]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A week from Friday I fly to Rome.", ("2024-05-24", "2024-05-24")),
        ("A week on Friday I fly to Rome.", ("2024-05-24", "2024-05-24")),
        ("Two weeks from Monday I start the new job.", ("2024-06-03", "2024-06-03")),
        ("The party is a week from Saturday.", ("2024-05-25", "2024-05-25")),
        ("The tiles arrive three days from Tuesday.", ("2024-05-24", "2024-05-24")),
    ],
)
def test_a_count_from_or_on_a_weekday_is_that_day_moved(text: str, expected: tuple[str, str]) -> None:
    assert spans(text, WEDNESDAY) == [expected]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Three days before my birthday on June 20 I got a puppy.", ("2023-06-17", "2023-06-17")),
        ("Two days after the wedding on May 4 I got sick.", ("2024-05-06", "2024-05-06")),
        ("A week before the exam on June 10 I'll start revising.", ("2024-06-03", "2024-06-03")),
        ("Two days after the party on Saturday I was still tired.", ("2024-05-13", "2024-05-13")),
    ],
)
def test_a_count_before_or_after_an_event_with_its_date_is_that_date_moved(
    text: str, expected: tuple[str, str]
) -> None:
    assert spans(text, WEDNESDAY) == [expected]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'll call the plumber in a couple of days.", ("2024-05-16", "2024-05-18")),
        ("In a few days I'm flying to Rome.", ("2024-05-17", "2024-05-20")),
        ("We'll know more in a couple of weeks.", ("2024-05-20", "2024-06-09")),
    ],
)
def test_in_a_couple_or_a_few_of_units_is_a_vague_future(text: str, expected: tuple[str, str]) -> None:
    assert spans(text, WEDNESDAY) == [expected]


def test_in_a_few_units_of_a_past_clause_is_no_time() -> None:
    assert spans("I hadn't seen her in a few days.", WEDNESDAY) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # one phrasing of each rule, kept apart while the rules were written
        ("We celebrated on the evening of the 9th.", ("2024-05-09", "2024-05-09")),
        ("We're moving a week on Saturday.", ("2024-05-25", "2024-05-25")),
        ("Three days after my surgery on April 2 I went home.", ("2024-04-05", "2024-04-05")),
        ("The parcel should arrive in a few days.", ("2024-05-17", "2024-05-20")),
    ],
)
def test_apart_offsets(text: str, expected: tuple[str, str]) -> None:
    assert spans(text, WEDNESDAY) == [expected]
