"""A span that began in the past and runs up to now is told by its preposition ("since",
"seit", "depuis", "sinds"; "desde" and "da" when no end follows and the clause tells no future):
its time is the last one, whatever the clause's tense; a span with a start and no end told ahead
("ab Montag", "à partir de lundi") is its onset. Session time Thursday 16 May 2024 (QA4 Q4-1,
Q4-3)."""

from __future__ import annotations

import pytest

from .grounded import spans


@pytest.mark.parametrize(
    "text",
    [
        "Ich bin seit Montag krank.",
        "Ich bin seit letztem Montag krank.",
        "Seit Montag wohne ich in Wien.",
        "Je suis malade depuis lundi.",
        "J'habite à Lyon depuis lundi.",
        "Estoy enfermo desde el lunes.",
        "Vivo en Madrid desde el lunes.",
        "Ik ben sinds maandag ziek.",
        "Sono malato da lunedì.",
    ],
)
def test_since_a_weekday_in_another_language_is_the_last_one(text: str) -> None:
    found = spans(text)
    assert found and found[0][0] == "2024-05-13", found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a span with an end after its start: from ... to, told ahead
        ("Estaré en Madrid desde el lunes hasta el viernes.", ("2024-05-20", "2024-05-20")),
        # an onset ahead
        ("Ab Montag arbeite ich bei Siemens.", ("2024-05-20", "2024-05-20")),
        ("Da lunedì lavorerò a Milano.", ("2024-05-20", "2024-05-20")),
    ],
)
def test_a_span_from_a_weekday_told_ahead_starts_on_the_coming_one(text: str, expected: tuple[str, str]) -> None:
    assert spans(text)[0] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I haven't seen him since Monday.", ("2024-05-13", "2024-05-16")),
        ("I've been sick since Monday.", ("2024-05-13", "2024-05-16")),
        ("I have been in Paris since Tuesday.", ("2024-05-14", "2024-05-16")),
        ("I've been waiting since the 20th.", ("2024-04-20", "2024-05-16")),
        ("I have been here since Christmas.", ("2023-12-25", "2024-05-16")),
    ],
)
def test_since_a_weekday_or_a_day_of_the_month_runs_from_the_last_one(text: str, expected: tuple[str, str]) -> None:
    assert spans(text) == [expected]
