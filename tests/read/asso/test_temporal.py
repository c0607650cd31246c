"""Temporal alignment against the question date: spans, bare intent, recency."""

from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem.read.asso.temporal import recency, temporal_scores, time_constraint

from . import make_unit


def unit(unit_id: str, when: datetime | None, *, event: bool = False):
    from ripplemem.records import TimeSpan

    span = TimeSpan.day(when) if (event and when) else None
    return make_unit(unit_id, session_time=when, time_span=span)


ASKED = datetime(2023, 8, 10, 12, 0)


def test_last_may_prefers_may_then_nearby_months() -> None:
    constraint = time_constraint("What did I cook last May?", ASKED)
    assert constraint.kind == "span" and constraint.span is not None
    assert constraint.span.start.month == 5 and constraint.span.start.year == 2023
    may, june, march, undated = (
        unit("may", datetime(2023, 5, 14)),
        unit("june", datetime(2023, 6, 20)),
        unit("march", datetime(2023, 1, 2)),
        unit("none", None),
    )
    scores = temporal_scores([may, june, march, undated], constraint, ASKED)
    assert scores[0] == 1.0 and 1.0 > scores[1] > scores[2] > 0.0 and scores[3] == 0.0


def test_two_weekends_ago_is_grounded_against_the_question_date() -> None:
    constraint = time_constraint("Where did we hike two weekends ago?", ASKED)  # a Thursday
    assert constraint.span is not None
    assert constraint.span.start == datetime(2023, 7, 29)
    inside = unit("in", datetime(2023, 7, 30, 15, 0), event=True)
    week_off = unit("off", datetime(2023, 8, 5, 15, 0), event=True)
    assert temporal_scores([inside, week_off], constraint, ASKED)[0] == 1.0
    assert temporal_scores([inside, week_off], constraint, ASKED)[1] < 0.1


@pytest.mark.parametrize(
    "question",
    [
        "When did Maya adopt the dog?",
        "How many days between the concert and the hike?",
        "What did I buy the week before my trip?",
        "How many days did it take me to finish the book?",
    ],
)
def test_ungroundable_time_questions_favour_dated_units(question: str) -> None:
    constraint = time_constraint(question, ASKED)
    assert constraint.kind == "intent"
    dated = unit("dated", datetime(2023, 5, 1), event=True)
    said = unit("said", datetime(2023, 8, 9))
    assert temporal_scores([dated, said], constraint, ASKED) == [1.0, 0.0]


@pytest.mark.parametrize(
    "question",
    ["How many years older is my grandma than me?", "How many hours have I spent playing games?"],
)
def test_a_count_of_time_units_is_not_a_time_constraint(question: str) -> None:
    # an age difference or a total of hours is answered by statements, not by dated events
    assert time_constraint(question, ASKED).kind == "recency"


def test_no_time_named_falls_back_to_recency() -> None:
    constraint = time_constraint("What is my favourite tea?", ASKED)
    assert constraint.kind == "recency"
    fresh, old = unit("fresh", datetime(2023, 8, 9)), unit("old", datetime(2022, 8, 10))
    scores = temporal_scores([fresh, old], constraint, ASKED)
    assert scores[0] > scores[1] > 0
    assert scores[1] == pytest.approx(recency(365.5), abs=1e-3)


def test_recency_formula() -> None:
    import math

    assert recency(0) == pytest.approx(1.0)
    assert recency(30) == pytest.approx((math.exp(-10) + math.exp(-1 / 3) + math.exp(-30 / 365)) / 3)
    assert recency(-5) == pytest.approx(1.0)  # a unit dated after the question is not older
