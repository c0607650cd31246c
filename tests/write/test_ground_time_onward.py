"""An onset ahead ("from July we'll be paying 1350", "Starting 1 Aug I work 4 days a week", "ab
Juli"): its phrase names the time the change starts, and what it tells of holds from that start
on, so the memory's time is open towards the future, as "since" runs from the past up to the day
said (QA7 Q7-11). Session time Thursday 16 May 2024."""

from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem import Memory
from ripplemem.grounding.ground_time import ground_times
from ripplemem.records import TimeSpan

from .grounded import THURSDAY


@pytest.mark.parametrize(
    "text, start",
    [
        ("Landlord sent the renewal, from July we'll be paying 1350.", "2024-07-01"),
        ("Starting 1 Aug I work 4 days a week.", "2024-08-01"),
        ("Starting in August I work 4 days a week.", "2024-08-01"),
        ("As of June 1 the gym costs 35.", "2024-06-01"),
        ("From next month I'll be working from home.", "2024-06-01"),
        ("Ab Juli zahlen wir mehr Miete.", "2024-07-01"),
        ("À partir de juillet nous paierons plus.", "2024-07-01"),
    ],
)
def test_an_onset_ahead_holds_from_its_start_on(text: str, start: str) -> None:
    onsets = [g for g in ground_times(text, THURSDAY) if g.onward]
    assert len(onsets) == 1, ground_times(text, THURSDAY)
    held = onsets[0].held()
    assert held is not None and held.open_ended and held.start == datetime.fromisoformat(start)


@pytest.mark.parametrize(
    "text",
    [
        "From June to August I'm in Rome.",  # a range
        "I moved the meeting from Friday to Monday.",
        "From March I worked at the bank.",  # behind the day said
        "Since July we've been paying 1350.",
        "We are paying 1350 in July.",
    ],
)
def test_a_time_that_is_no_onset_ahead_is_closed(text: str) -> None:
    found = ground_times(text, THURSDAY)
    assert found and not any(g.onward or (g.held() is not None and g.held().open_ended) for g in found), found


def test_the_memory_of_an_onset_ahead_holds_from_it_on() -> None:
    memory = Memory.open("memory://")
    said = "2024-06-02T10:00"
    for user, text, start in [
        ("tom", "Landlord sent the renewal, from July we'll be paying 1350.", datetime(2024, 7, 1)),
        ("kim", "Starting 1 Aug I work 4 days a week.", datetime(2024, 8, 1)),
    ]:
        span = memory.add([{"speaker": user.title(), "text": text}], user_id=user, session_time=said).units[0].time_span
        assert span is not None and span.start == start and span.open_ended, span


def test_an_open_span_is_shown_from_its_start_on() -> None:
    assert TimeSpan.onward(datetime(2024, 7, 1)).as_days() == "2024-07-01 onward"
    assert TimeSpan.onward(datetime(2024, 7, 1)).midpoint == datetime(2024, 7, 1)


def test_a_time_question_is_not_answered_by_every_onset_before_it() -> None:
    # a change from July on tells of July: a question about September does not lift it above
    # what happened in September (it keeps its place, neither of the time nor of another)
    memory = Memory.open("memory://")
    memory.add([{"speaker": "Tom", "text": "From July I'll be going to the gym on Mondays."}], user_id="t",
               session_time="2024-06-02T10:00")
    memory.add([{"speaker": "Tom", "text": "I went to Rome with Ana."}], user_id="t", session_time="2024-09-14T10:00")
    found = memory.search("What did Tom do in September?", user_id="t", question_time="2024-10-01")
    assert "Rome" in found.evidence[0].unit.restatement, [e.unit.restatement for e in found.evidence]
