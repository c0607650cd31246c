"""Times a language writes with a word said once or after them (QA6 Q6-6 to Q6-9), said on
Sunday 10 May 2026: a Japanese or Chinese range of days whose end omits the month (it inherits
the start's), Portuguese "há N ..." (ago) and "daqui a N ..." (from now), a range between two
holidays told in the past, and a day and month followed by a word for last or next ("le 9 mai
dernier": the latest such day not after the day said; "le 9 mai prochain": the first not before)."""

from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem import Memory

from .grounded import spans

#: Sunday 10 May 2026, 10:00
SUNDAY = datetime(2026, 5, 10, 10, 0)


@pytest.mark.parametrize(
    "text, first, last",
    [
        ("3月3日から3月7日まで札幌にいました。", "2026-03-03", "2026-03-07"),  # the month written twice
        ("3月3日から7日まで出張でした。", "2026-03-03", "2026-03-07"),  # not 3 March 00:00-07:59
        ("5月20日から25日まで休みます。", "2026-05-20", "2026-05-25"),
        ("12月28日から1月4日まで実家に帰りました。", "2025-12-28", "2026-01-04"),  # across the new year, past
        ("我5月20日到25日休假。", "2026-05-20", "2026-05-25"),
        ("我3月3日到7日在北京。", "2026-03-03", "2026-03-07"),
        ("三月三号到七号我在北京出差。", "2026-03-03", "2026-03-07"),
        ("2024年3月3日から7日まで大阪にいました。", "2024-03-03", "2024-03-07"),  # the year written
        ("去年3月3日到7日我在北京。", "2025-03-03", "2025-03-07"),  # last year
    ],
)
def test_a_cjk_range_whose_end_omits_the_month_keeps_the_start_month(text: str, first: str, last: str) -> None:
    assert spans(text, SUNDAY) == [(first, last)]


def test_a_cjk_count_of_days_after_a_date_is_no_range() -> None:
    # "から7日間": for seven days from 3 March (a duration), not a range ending on the 7th
    assert ("2026-03-03", "2026-03-07") not in spans("3月3日から7日間出張でした。", SUNDAY)


@pytest.mark.parametrize(
    "text, first, last",
    [
        ("Há três semanas fui a Lisboa.", "2026-04-13", "2026-04-19"),  # the week three back
        ("Fui ao médico há dois dias.", "2026-05-08", "2026-05-08"),
        ("Fui ao médico há 2 dias.", "2026-05-08", "2026-05-08"),
        ("Fui a Lisboa há um mês.", "2026-04-01", "2026-04-30"),
        ("Vou para Lisboa daqui a três semanas.", "2026-05-25", "2026-05-31"),
        ("Daqui a dois dias começo o novo trabalho.", "2026-05-12", "2026-05-12"),
        ("Em três semanas vou para Lisboa.", "2026-05-25", "2026-05-31"),  # read before, kept
    ],
)
def test_portuguese_counts_back_and_ahead(text: str, first: str, last: str) -> None:
    assert spans(text, SUNDAY) == [(first, last)]


def test_portuguese_ha_that_is_there_is_is_no_time() -> None:
    # "há" is also "there is": "there are three days of festival in the city" names no time back
    assert spans("Há três dias de festa na cidade.", SUNDAY) == []


@pytest.mark.parametrize(
    "text, first, last",
    [
        ("Between Christmas and New Year I was in Rome.", "2025-12-25", "2026-01-01"),
        ("From Christmas to New Year I was ill.", "2025-12-25", "2026-01-01"),
        ("Between Christmas and New Year I will be in Rome.", "2026-12-25", "2027-01-01"),  # ahead
    ],
)
def test_a_range_between_holidays_takes_its_clause_tense(text: str, first: str, last: str) -> None:
    assert spans(text, SUNDAY) == [(first, last)]


@pytest.mark.parametrize(
    "text, said, day",
    [
        ("Je suis arrivée à Lyon le 9 mai dernier.", SUNDAY, "2026-05-09"),
        ("Je suis arrivée à Lyon le 3 mars dernier.", datetime(2026, 3, 4, 10, 0), "2026-03-03"),
        ("Je suis arrivée à Lyon le 3 mars dernier.", SUNDAY, "2026-03-03"),
        ("Je suis arrivée à Lyon le 11 mai dernier.", SUNDAY, "2025-05-11"),  # not yet this year
        ("Sono arrivata a Roma il 9 maggio scorso.", SUNDAY, "2026-05-09"),
        ("Llegué a Sevilla el 9 de mayo pasado.", SUNDAY, "2026-05-09"),
        ("Llegué a Sevilla el pasado 9 de mayo.", SUNDAY, "2026-05-09"),  # control
        ("Je pars le 12 mai prochain.", SUNDAY, "2026-05-12"),
        ("Je pars le 9 mai prochain.", SUNDAY, "2027-05-09"),
    ],
)
def test_a_word_for_last_or_next_after_a_date_counts_from_the_day_said(text: str, said: datetime, day: str) -> None:
    assert spans(text, said) == [(day, day)]


@pytest.mark.parametrize(
    "speaker, text, first, last",
    [
        ("Yuki", "3月3日から7日まで出張でした。", "2026-03-03", "2026-03-07"),
        ("Wei", "三月三号到七号我在北京出差。", "2026-03-03", "2026-03-07"),
        ("João", "Há três semanas fui a Lisboa.", "2026-04-13", "2026-04-19"),
        ("João", "Daqui a dois dias começo o novo trabalho.", "2026-05-12", "2026-05-12"),
        ("Alex", "Between Christmas and New Year I was in Rome.", "2025-12-25", "2026-01-01"),
        ("Claire", "Je suis arrivée à Lyon le 9 mai dernier.", "2026-05-09", "2026-05-09"),
    ],
)
def test_the_stored_unit_holds_that_time(speaker: str, text: str, first: str, last: str) -> None:
    memory = Memory.open("memory://")
    unit = memory.add([{"speaker": speaker, "text": text}], user_id="u", session_time="2026-05-10T10:00").units[0]
    assert unit.time_span is not None
    assert (unit.time_span.start.date().isoformat(), unit.time_span.end.date().isoformat()) == (first, last)
