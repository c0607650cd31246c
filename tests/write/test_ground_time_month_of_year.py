"""A month said with the year it is of, in the languages the time parser reads: "No ano passado,
em maio", "去年の5月", "Vorig jaar in mei" are May of last year, not this May beside last year
(the parser finds the two apart), and "En mai l'année dernière" stays a month (a unit word
widens a count, "il y a trois mois", not a named month). A day or month after a preposition of
"since" is the span from it up to now whoever reads it ("Seit April 2023", "Seit dem 1. April
2023": the rules read "April 2023" first, as in English)."""

from __future__ import annotations

from datetime import datetime

import pytest

from .grounded import spans

#: Monday 20 May 2024, noon
MONDAY = datetime(2024, 5, 20, 12, 0)
LAST_MAY = ("2023-05-01", "2023-05-31")


@pytest.mark.parametrize(
    "text",
    [
        "No ano passado, em maio, mudei-me para Leeds com a família.",
        "Em maio do ano passado mudei-me para Leeds com a família.",
        "El año pasado en mayo me mudé a Leeds con mi familia.",
        "L'anno scorso a maggio mi sono trasferito a Leeds con la famiglia.",
        "Vorig jaar in mei ben ik met mijn familie naar Leeds verhuisd.",
        "去年の5月にリーズに引っ越しました。",
        "En mai l'année dernière, j'ai déménagé à Leeds avec ma famille.",
        "In mei vorig jaar ben ik met mijn familie naar Leeds verhuisd.",
        "I moved to Leeds with my family in May last year.",
        # the year in a form of its own after the month (a genitive, a contraction), which the
        # parser does not read as a time
        "Im Mai letzten Jahres bin ich mit meiner Familie nach Leeds gezogen.",
        "Im Mai des vergangenen Jahres bin ich mit meiner Familie nach Leeds gezogen.",
        "En mayo del año pasado me mudé a Leeds con mi familia.",
        "A maggio dell'anno scorso mi sono trasferito a Leeds con la famiglia.",
        "A maggio dello scorso anno mi sono trasferito a Leeds con la famiglia.",
    ],
)
def test_a_month_said_with_its_year_is_of_that_year(text: str) -> None:
    assert spans(text, MONDAY) == [LAST_MAY]


@pytest.mark.parametrize(
    "text",
    [
        "Im Juni nächsten Jahres ziehen wir mit der Familie nach Leeds.",
        "En junio del año que viene nos mudamos a Leeds con la familia.",
        "A giugno dell'anno prossimo ci trasferiamo a Leeds con la famiglia.",
    ],
)
def test_a_month_of_next_year_is_next_years(text: str) -> None:
    assert spans(text, MONDAY) == [("2025-06-01", "2025-06-30")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Seit April 2023 wohne ich mit meiner Familie in Hamburg.", ("2023-04-01", "2024-05-20")),
        ("Seit dem 1. April 2023 wohne ich mit meiner Familie in Hamburg.", ("2023-04-01", "2024-05-20")),
        ("Ich bin am 1. April 2023 mit meiner Familie nach Hamburg gezogen.", ("2023-04-01", "2023-04-01")),
        ("Depuis avril 2023, j'habite à Lyon avec ma famille.", ("2023-04-01", "2024-05-20")),
        ("I've lived in Hamburg with my family since April 2023.", ("2023-04-01", "2024-05-20")),
    ],
)
def test_since_a_month_or_day_is_up_to_now(text: str, expected: tuple[str, str]) -> None:
    assert spans(text, MONDAY) == [expected]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a count of units is still read at its unit's grain
        ("Hace dos años me mudé a Leeds con mi familia.", ("2022-01-01", "2022-12-31")),
        ("Vor zwei Wochen bin ich mit meiner Familie umgezogen.", ("2024-05-06", "2024-05-12")),
        # a month and a year said apart, in another sentence, are not one time
        ("Em maio fui a Lisboa. O ano passado foi difícil para a família.",
         ("2024-05-01", "2024-05-31")),
    ],
)
def test_what_stays_as_read(text: str, expected: tuple[str, str]) -> None:
    assert spans(text, MONDAY)[0] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("W maju zeszłego roku przeprowadziłem się z rodziną do Krakowa.", [LAST_MAY]),
        ("从2019年到2023年我住在北京。", [("2019-01-01", "2023-12-31")]),
        ("我从2019年至2023年住在北京。", [("2019-01-01", "2023-12-31")]),
        # two years said apart are two times
        ("我2019年去了北京，2023年去了上海。", [("2019-01-01", "2019-12-31"), ("2023-01-01", "2023-12-31")]),
    ],
)
def test_polish_last_year_and_a_chinese_range_of_years(text: str, expected: list[tuple[str, str]]) -> None:
    assert spans(text, MONDAY) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Vorletzte Woche war ich mit meiner Schwester in Berlin.", [("2024-05-06", "2024-05-12")]),
        ("Vorletztes Jahr war ich mit meiner Schwester in Berlin.", [("2022-01-01", "2022-12-31")]),
        ("Im vorletzten Monat war ich mit meiner Schwester in Berlin.", [("2024-03-01", "2024-03-31")]),
        ("La semana antepasada estuve en Madrid con mi hermana.", [("2024-05-06", "2024-05-12")]),
        ("El año antepasado estuve en Madrid con mi hermana.", [("2022-01-01", "2022-12-31")]),
        # a weekday of a week keeps its day
        ("Können wir unser Treffen auf Mittwoch nächste Woche legen?", [("2024-05-29", "2024-05-29")]),
        ("Wir treffen uns am Freitag nächste Woche in Berlin.", [("2024-05-31", "2024-05-31")]),
    ],
)
def test_the_unit_before_last_and_a_weekday_of_a_week(text: str, expected: list[tuple[str, str]]) -> None:
    assert spans(text, MONDAY) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Die Steuererklärung muss bis zum 31. Juli raus, sagt mein Steuerberater.", [("2024-07-31", "2024-07-31")]),
        ("Devo consegnare la relazione entro il 31 luglio al mio capo.", [("2024-07-31", "2024-07-31")]),
        ("Ik moet het verslag tot 31 juli inleveren bij mijn baas.", [("2024-07-31", "2024-07-31")]),
        ("Bis Freitag muss ich das für meine Chefin erledigen.", [("2024-05-24", "2024-05-24")]),
    ],
)
def test_a_bound_in_another_language_is_the_day_it_names(text: str, expected: list[tuple[str, str]]) -> None:
    """As English "by Friday", "until the 20th": the day a deadline names."""
    assert spans(text, MONDAY) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Le dentiste a avancé mon rendez-vous à jeudi, quelle chance.", [("2024-05-23", "2024-05-23")]),
        ("La réunion de lancement a été repoussée au 4 juin.", [("2024-06-04", "2024-06-04")]),
        ("Il medico ha spostato la visita a giovedì, per fortuna.", [("2024-05-23", "2024-05-23")]),
        ("El médico ha movido la cita al jueves, por suerte.", [("2024-05-23", "2024-05-23")]),
        # where one went is no arrangement; a summer is one
        ("Je suis allé à Paris jeudi avec ma sœur.", [("2024-05-16", "2024-05-16")]),
        ("L'été dernier, nous sommes allés en Bretagne.", [("2023-06-21", "2023-09-23")]),
    ],
)
def test_a_time_an_arrangement_was_moved_to_lies_ahead(text: str, expected: list[tuple[str, str]]) -> None:
    """As English "moved my check-up to Thursday": the time it was moved to, not the last one."""
    assert spans(text, MONDAY) == expected


@pytest.mark.parametrize(
    "text",
    [
        "De huisarts zei vanochtend dat ik over twee weken terug moet komen.",
        "Vanmiddag ga ik met mijn zus naar de stad.",
    ],
)
def test_dutch_this_morning_and_afternoon_are_today(text: str) -> None:
    assert spans(text, MONDAY)[0] == ("2024-05-20", "2024-05-20")
