"""Ranges of days as people write them (QA5 Q5-10), asked or said on Monday 20 May 2024: two days
joined by any dash ("6–12 May", as British text and auto-correct write it); "between the 6th and
the 12th" with no month is this month's or the next by its clause's tense, as a bare ordinal day
is; German "zwischen dem 6. und 12. Mai" with its articles."""

from __future__ import annotations

from datetime import datetime

import pytest

from .grounded import spans

#: Monday 20 May 2024, noon
MONDAY = datetime(2024, 5, 20, 12, 0)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("What did I do 6–12 May?", ("2024-05-06", "2024-05-12")),
        ("I was in Rome May 6–12.", ("2024-05-06", "2024-05-12")),
        ("I was away 6th—12th May.", ("2024-05-06", "2024-05-12")),
        ("We're off 3 – 7 June.", ("2024-06-03", "2024-06-07")),
        ("Was habe ich 6.–12. Mai gemacht?", ("2024-05-06", "2024-05-12")),
    ],
)
def test_a_range_joined_by_any_dash_is_its_days(text: str, expected: tuple[str, str]) -> None:
    assert spans(text, MONDAY) == [expected]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("What did I do between the 6th and the 12th?", ("2024-05-06", "2024-05-12")),
        ("I was in Paris between the 1st and the 4th.", ("2024-05-01", "2024-05-04")),
        ("I'll be away between the 3rd and the 7th.", ("2024-06-03", "2024-06-07")),
    ],
)
def test_between_two_ordinal_days_is_the_month_its_clause_tense_names(text: str, expected: tuple[str, str]) -> None:
    assert spans(text, MONDAY) == [expected]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Was habe ich zwischen dem 6. und 12. Mai gemacht?", ("2024-05-06", "2024-05-12")),
        ("Ich war zwischen dem 6. und dem 12. Mai in Rom.", ("2024-05-06", "2024-05-12")),
        ("Wir fahren zwischen dem 3. und 7. Juni weg.", ("2024-06-03", "2024-06-07")),
    ],
)
def test_german_between_with_its_articles_is_the_range(text: str, expected: tuple[str, str]) -> None:
    assert spans(text, MONDAY) == [expected]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # one phrasing of each rule, kept apart while the rules were written
        ("What did I do 13–17 May?", ("2024-05-13", "2024-05-17")),
        ("What happened between the 10th and the 15th?", ("2024-05-10", "2024-05-15")),
        ("Zwischen dem 1. und 4. Mai war ich krank.", ("2024-05-01", "2024-05-04")),
    ],
)
def test_apart_ranges(text: str, expected: tuple[str, str]) -> None:
    assert spans(text, MONDAY) == [expected]
