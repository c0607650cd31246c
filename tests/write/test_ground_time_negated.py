"""A time its sentence negates is left out: "Scratch that, it's Tuesday not Monday" is of
Tuesday. Each language's negation right before the time (a preposition or an article between at
most); "not until Monday" is a bound, and "it's Tuesday" is no possessive before a noun. Session
time Thursday 16 May 2024 (QA3 Q3-4)."""

from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem import Memory

from .grounded import days


@pytest.mark.parametrize(
    "text",
    [
        "Scratch that, it's Tuesday not Monday.",
        "It's Tuesday, not Monday.",
        "Not Monday but Tuesday.",
        "Der Termin ist nicht am Montag, sondern am Dienstag.",
        "Ce n'est pas lundi mais mardi.",
        "La cita no es el lunes, es el martes.",
    ],
)
def test_a_negated_time_is_left_out(text: str) -> None:
    assert days(text) == ["2024-05-21"]


def test_a_portuguese_no_is_in_the() -> None:
    assert days("No ano passado perdi o emprego.") == ["2023-01-01"]


def test_the_correction_is_dated_to_the_day_it_names() -> None:
    memory = Memory.open("memory://")
    added = memory.add(
        [{"speaker": "Ann", "text": "Scratch that, it's Tuesday not Monday."}], user_id="a", session_time="2024-05-16T10:05"
    )
    span = added.units[0].time_span
    assert span is not None and (span.start, span.end) == (datetime(2024, 5, 21), datetime(2024, 5, 21, 23, 59, 59))
