"""Times that were read as another day, worse than none (QA7 Q7-13), said on Thursday 16 May
2024: a Korean range of days whose end omits the month, a German or Dutch quarter named by its
ordinal ("dritten" is no 3rd day), and a day the month named has not ("the 30th of February" is
no 30 May)."""

from __future__ import annotations

import pytest

from .grounded import spans


@pytest.mark.parametrize(
    "text, first, last",
    [
        ("6월 3일부터 9일까지 휴가예요.", "2024-06-03", "2024-06-09"),
        ("6월 3일부터 6월 9일까지 휴가예요.", "2024-06-03", "2024-06-09"),
        ("6월 3일~9일 휴가예요.", "2024-06-03", "2024-06-09"),
        ("3월 3일부터 9일까지 휴가였어요.", "2024-03-03", "2024-03-09"),  # past: this March
        ("작년 6월 3일부터 9일까지 휴가였어요.", "2023-06-03", "2023-06-09"),
        ("2023년 12월 28일부터 1월 4일까지 휴가였어요.", "2023-12-28", "2024-01-04"),
    ],
)
def test_a_korean_range_whose_end_omits_the_month_keeps_the_start_month(text: str, first: str, last: str) -> None:
    assert spans(text) == [(first, last)]


@pytest.mark.parametrize(
    "text, first, last",
    [
        ("Ende des dritten Quartals ist der Bericht fällig.", "2024-07-01", "2024-09-30"),
        ("Im 3. Quartal 2023 war der Umsatz gut.", "2023-07-01", "2023-09-30"),
        ("Im vierten Quartal 2025 kommt das Produkt.", "2025-10-01", "2025-12-31"),
        ("Het derde kwartaal was goed.", "2024-07-01", "2024-09-30"),
        ("In het 2e kwartaal van 2023 was de omzet goed.", "2023-04-01", "2023-06-30"),
    ],
)
def test_a_quarter_named_by_its_ordinal_is_that_quarter(text: str, first: str, last: str) -> None:
    # as "Q3": the year written, else the nearest
    assert spans(text) == [(first, last)]


@pytest.mark.parametrize(
    "text",
    [
        "I'll be there on the 30th of February.",
        "I'll be there on February 30th.",
        "I'll be there on 30 February.",
        "I'll be there on April 31st, 2025.",
    ],
)
def test_a_day_the_month_named_has_not_is_no_time(text: str) -> None:
    assert spans(text) == []


@pytest.mark.parametrize(
    "text, day",
    [
        ("I'll be there on the 29th of February.", "2028-02-29"),  # the next leap day, not 28 February 2027
        ("I was there on February 29.", "2024-02-29"),
        ("I'll be there on May 30.", "2024-05-30"),
    ],
)
def test_a_day_the_month_has_is_that_day(text: str, day: str) -> None:
    assert spans(text) == [(day, day)]
