"""``Settings.date_order``: how a memory's and a question's dates in numbers are read when either
order makes a day ("12/06/2019"), through a real Memory."""

from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem import Memory, Settings
from ripplemem.errors import ConfigurationError

TOLD = "We got married on 12/06/2019 at the town hall."


def _married(order: str) -> tuple[datetime | None, datetime | None]:
    """The day the memory names, and the day the question asks about."""
    with Memory(Settings(store="memory://", date_order=order)) as memory:
        (unit,) = memory.add([{"speaker": "Sam", "text": TOLD}], user_id="sam", session_time="2024-05-08").units
        found = memory.search("What did we do on 12/06/2019?", user_id="sam")
        asked = found.trace.cues.time_span if found.trace.cues else None
        return (unit.time_span.start if unit.time_span else None), (asked.start if asked else None)


def test_day_first_reads_the_memory_and_the_question_alike() -> None:
    assert _married("day-first") == (datetime(2019, 6, 12), datetime(2019, 6, 12))


def test_month_first_is_the_default() -> None:
    assert Settings().date_order == "month-first"
    assert _married("month-first") == (datetime(2019, 12, 6), datetime(2019, 12, 6))


def test_the_order_comes_from_the_environment_and_a_wrong_one_says_what_to_give() -> None:
    assert Settings.from_env({"RIPPLEMEM_DATE_ORDER": "day-first"}).date_order == "day-first"
    with pytest.raises(ConfigurationError, match="day-first"):
        Settings.from_env({"RIPPLEMEM_DATE_ORDER": "dmy"})




def test_the_asso_recipes_read_the_question_the_same_way() -> None:
    """AssoMem's time constraint reads the question as the setting says: the wedding (its text
    shows the day-first order) is of 12 June either way, the concert of 6 December; the question
    "on 12/06/2019" is about the one or the other."""
    told = ["We got married on 12/06/2019 and moved on 25/06/2019.", "We went to a concert on 6 December 2019."]

    def asked(order: str) -> tuple[str, dict[str, float]]:
        with Memory(Settings(store="memory://", date_order=order)) as memory:
            for text in told:
                memory.add([{"speaker": "Sam", "text": text}], user_id="sam", session_time="2024-05-08")
            question = "What did we do on 12/06/2019?"
            notes = " ".join(memory.search(question, user_id="sam", recipe="asso").trace.notes)
            found = memory.search(question, user_id="sam", recipe="ripple+asso").evidence
            temporal = {("wedding" if "married" in e.unit.restatement else "concert"): e.terms.extra["temporal"]
                        for e in found if e.terms is not None}
            return notes, temporal

    day_notes, day = asked("day-first")
    month_notes, month = asked("month-first")
    assert "2019-06-12T00:00:00" in day_notes and "2019-12-06T00:00:00" in month_notes
    assert day["wedding"] > day["concert"] and month["concert"] > month["wedding"]
