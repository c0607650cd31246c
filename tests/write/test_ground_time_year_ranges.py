"""A range of years or of months, in the languages the time parser reads, is those years or
months whole, the last one with them: "von 2019 bis 2023" is 2019 to the end of 2023, not a
few days of December 2023 (the first two digits of "2019" were once read as a day of the last
month), and Spanish "de marzo a junio" ends with June, not with May (the parser closes a
Spanish range of years or months where its last one begins)."""

from __future__ import annotations

from datetime import datetime

import pytest

from .grounded import spans

#: Monday 20 May 2024, noon
MONDAY = datetime(2024, 5, 20, 12, 0)
YEARS = ("2019-01-01", "2023-12-31")


@pytest.mark.parametrize(
    "text",
    [
        "Von 2019 bis 2023 wohnte ich mit meiner Familie in Köln.",
        "Ho vissuto a Roma con la mia famiglia dal 2019 al 2023.",
        "Vivo en Valencia; antes, de 2019 a 2023, estuve en Sevilla.",
        "Entre 2019 y 2023 estuve viviendo en Sevilla con mi familia.",
        "Morei em Lisboa com a minha família de 2019 a 2023.",
        "Ik woonde van 2019 tot 2023 met mijn familie in Gent.",
        "J'ai vécu à Lyon avec ma famille entre 2019 et 2023.",
        "I lived in Seville with my family from 2019 to 2023.",
    ],
)
def test_a_range_of_years_is_those_years(text: str) -> None:
    assert spans(text, MONDAY) == [YEARS]


@pytest.mark.parametrize(
    "text",
    [
        "Estuve trabajando en Sevilla de marzo a abril, y luego volví a casa.",
        "Ich war von März bis April in Köln und bin dann zurückgekommen.",
        "I worked in Seville from March to April and then came home.",
        "Trabajé allí de marzo a abril de 2024, y luego volví a casa.",
    ],
)
def test_a_range_of_months_ends_with_its_last_month(text: str) -> None:
    assert spans(text, MONDAY) == [("2024-03-01", "2024-04-30")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a range of days whose start names no month is still that month's (the rule the year
        # ranges fell into)
        ("Ich war vom 4. bis 11. März in Rom, es war wunderbar.", ("2024-03-04", "2024-03-11")),
        ("Estive em Lisboa de 7 a 11 de março com a minha família.", ("2024-03-07", "2024-03-11")),
        ("Estuve en Sevilla del 3 al 7 de marzo con mi familia.", ("2024-03-03", "2024-03-07")),
    ],
)
def test_a_range_of_days_stays_its_days(text: str, expected: tuple[str, str]) -> None:
    assert spans(text, MONDAY) == [expected]
