"""Memories and questions in another language, through a real Memory: their time expressions are
read in their own language, and the time a question asks about finds the memory of that time."""

from __future__ import annotations

from datetime import datetime

from ripplemem import Memory, Settings

TOLD = [
    "Ich bin letzte Woche nach Berlin gezogen.",
    "Im Januar war ich mit meiner Schwester in Wien.",
    "Ich habe einen Hund, er heißt Bruno.",
]


def test_a_memory_and_a_question_in_german_meet_at_their_time() -> None:
    with Memory(Settings(store="memory://")) as memory:
        for text in TOLD:
            memory.add([{"speaker": "Lena", "text": text}], user_id="lena", session_time="2024-06-12T10:00:00")
        units = {u.restatement: u for u in memory.list(user_id="lena")}
        moved = next(u for r, u in units.items() if "Berlin" in r)
        assert moved.time_span is not None
        assert (moved.time_span.start, moved.time_span.end.date()) == (
            datetime(2024, 6, 3), datetime(2024, 6, 9).date()
        )  # the week before the one it was said in
        assert not any(u.time_span for r, u in units.items() if "Bruno" in r)
        found = memory.search("Was habe ich letzte Woche gemacht?", user_id="lena",
                              question_time="2024-06-14T10:00:00")
        asked = found.trace.cues.time_span if found.trace.cues else None
        assert asked is not None and asked.start == datetime(2024, 6, 3)
        assert "Berlin" in found.evidence[0].unit.restatement


def test_a_chinese_memory_is_dated_by_its_own_words() -> None:
    with Memory(Settings(store="memory://")) as memory:
        (unit,) = memory.add(
            [{"speaker": "Wei", "text": "我昨天去了北京。"}], user_id="wei", session_time="2024-06-12T10:00:00"
        ).units
        assert unit.time_span is not None and unit.time_span.start == datetime(2024, 6, 11)


def test_a_german_when_question_asks_for_the_memory_that_names_a_time() -> None:
    with Memory(Settings(store="memory://")) as memory:
        for text in ["Berlin ist eine tolle Stadt, ich liebe Berlin und die Berliner.",
                     "Ich bin letzte Woche nach Berlin gezogen."]:
            memory.add([{"speaker": "Lena", "text": text}], user_id="lena", session_time="2024-06-12T10:00:00")
        found = memory.search("Wann bin ich nach Berlin gezogen?", user_id="lena",
                              question_time="2024-06-14T10:00:00")
        assert any(note.startswith("kind:") for note in found.trace.notes), found.trace.notes
        assert "gezogen" in found.evidence[0].unit.restatement
