"""Relative days and weekends other languages say in words their neighbours' equivalents of are
read ("avant-hier", "eergisteren", "前天", "모레", "two weekends ago"), and "the summer before
last" (QA7 Q7-18). Session time Thursday 16 May 2024."""

from __future__ import annotations

import pytest

from .grounded import spans


@pytest.mark.parametrize(
    "text, first, last",
    [
        ("Dopodomani ho l'esame.", "2024-05-18", "2024-05-18"),
        ("Anteontem perdi as chaves.", "2024-05-14", "2024-05-14"),
        ("おととい鍵をなくしました。", "2024-05-14", "2024-05-14"),
        ("一昨日鍵をなくしました。", "2024-05-14", "2024-05-14"),  # not "昨日", yesterday
        ("明後日試験があります。", "2024-05-18", "2024-05-18"),
        ("しあさって試験があります。", "2024-05-19", "2024-05-19"),
        ("그저께 열쇠를 잃어버렸어요.", "2024-05-14", "2024-05-14"),
        ("Vor zwei Wochenenden waren wir zelten.", "2024-05-04", "2024-05-05"),
        ("Hace dos fines de semana fuimos de camping.", "2024-05-04", "2024-05-05"),
        ("Il y a deux week-ends nous avons fait du camping.", "2024-05-04", "2024-05-05"),
        ("Due fine settimana fa siamo andati in campeggio.", "2024-05-04", "2024-05-05"),  # not this weekend
        ("Twee weekenden geleden gingen we kamperen.", "2024-05-04", "2024-05-05"),
        ("Há dois fins de semana fomos acampar.", "2024-05-04", "2024-05-05"),
        ("We went camping the summer before last.", "2022-06-01", "2022-08-31"),
        ("We went skiing the winter before last.", "2022-12-01", "2023-02-28"),
    ],
)
def test_a_relative_day_or_weekend_word_is_that_day(text: str, first: str, last: str) -> None:
    assert spans(text) == [(first, last)]


def test_a_few_days_ago_in_korean_is_no_day_before_yesterday() -> None:
    # "엊그저께": a few days ago, vague; "그저께" inside it is not the day before yesterday
    assert spans("엊그저께 열쇠를 잃어버렸어요.") == []
