"""A weekday in another language is dated by its clause's tense as in English: the last one in a
past clause, the coming one in a present or future clause (an appointment told in the present is
ahead). The tense is read from each language's closed classes: its auxiliaries and copulas, the
participles they take, its future and simple-past endings, its complementizers (a reported
clause has its own tense) and its prepositions of a goal ("para el martes"). Session time
Thursday 16 May 2024 (QA3 Q3-3)."""

from __future__ import annotations

import pytest

from ripplemem.language import tense_in

from .grounded import days


@pytest.mark.parametrize(
    "text",
    [
        "Am Montag fliege ich nach Wien.",
        "Mein Zahnarzttermin ist am Montag.",
        "Lundi, je pars à Rome.",
        "Mon rendez-vous est lundi.",
        "Mi cita es el lunes.",
        "Il mio appuntamento è lunedì.",
        "Mijn afspraak is maandag.",
        "我的牙医预约在星期一。",
        "歯医者の予約は月曜日です。",
        # simple futures, in sentences too short for the language model to tell their language
        "Je partirai à Rome lundi.",
        "Iré a Madrid el lunes.",
        "El lunes voy a Madrid.",
        # "que viene" is "el próximo": next week's
        "El lunes que viene tengo cita con el dentista.",
    ],
)
def test_a_weekday_in_a_present_or_future_clause_is_the_coming_one(text: str) -> None:
    assert days(text) == ["2024-05-20"]


@pytest.mark.parametrize(
    "text, day",
    [
        ("Am Dienstag habe ich meinen Schlüssel im Büro vergessen.", "2024-05-14"),  # no "ge-"
        ("Maandag ben ik naar de huisarts gegaan voor mijn rug.", "2024-05-13"),
        ("Lundi j'ai enfin rendu mon mémoire.", "2024-05-13"),  # an "-re" verb's participle
        ("Compré las entradas el sábado, qué ilusión.", "2024-05-11"),  # a simple past's ending
        ("Segunda eu fiz a prova de direção.", "2024-05-13"),  # an irregular simple past
        ("月曜日に歯医者に行ってきた。", "2024-05-13"),  # the plain past
    ],
)
def test_a_weekday_in_a_past_clause_is_the_last_one(text: str, day: str) -> None:
    assert days(text) == [day]


@pytest.mark.parametrize(
    "text, day",
    [
        # what a verb of saying reports has its own tense
        ("Mi madre me dijo ayer que mi tía llega el lunes.", "2024-05-20"),
        ("Minha mãe disse ontem que a minha tia chega no sábado.", "2024-05-18"),
        # a time something is moved or meant for is ahead
        ("El técnico ha cambiado la cita para el martes.", "2024-05-21"),
        ("Der Handwerker hat den Termin auf Montag verschoben.", "2024-05-20"),
        # "is planned" is a passive, a present: not the past of "être" with a verb of motion
        ("Ma soutenance est prévue le 21 novembre.", "2024-11-21"),
    ],
)
def test_a_clause_of_its_own_and_a_goal(text: str, day: str) -> None:
    assert days(text)[-1] == day  # ("ayer", "ontem": the day before)


@pytest.mark.parametrize(
    "clause, language, tense",
    [
        ("Ich habe bestimmt am Montag Zeit", "de", ""),  # no participle at the clause's end
        ("Ich habe am Montag vor, ins Kino zu gehen", "de", ""),  # "zu gehen": an infinitive
        ("La réunion a lieu lundi", "fr", ""),  # "lieu" is no participle
        ("je suis allée au cinéma", "fr", "past"),
        ("è previsto per lunedì", "it", ""),
        ("Quedamos para un café el lunes", "es", ""),  # "café" after an article: a noun
        ("estou feliz", "pt", ""),
        ("comprarei um carro", "pt", "future"),
    ],
)
def test_the_closed_classes_of_a_tense(clause: str, language: str, tense: str) -> None:
    assert tense_in(clause, language) == tense


@pytest.mark.parametrize(
    "text, day",
    [
        ("Am Donnerstag war ich im Kino.", "2024-05-16"),
        ("I went to the cinema on Thursday.", "2024-05-16"),
        ("I'm flying to Graz on Thursday.", "2024-05-16"),
        ("I didn't get to bed until 2 AM, which made Thursday morning a struggle.", "2024-05-16"),
        ("I went to the cinema on Wednesday.", "2024-05-15"),
    ],
)
def test_a_weekday_said_on_that_weekday_is_that_day(text: str, day: str) -> None:
    # the occurrence in the tense's direction that holds the moment said: people name the day
    # they are in by its weekday too (LongMemEval's "Thursday morning", "my class on Friday")
    assert days(text) == [day]


def test_an_english_text_with_a_french_name_stays_english() -> None:
    assert days("We went to Mardi Gras.") == []
