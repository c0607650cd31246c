"""The time a question names (read/when.py): a unit of another time scores lower, one of that
time, or without a time, keeps its score."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import pytest

from ripplemem import Memory, Settings
from ripplemem.providers.local_embedder import MiniLMFloatEmbedder
from ripplemem.read.when import another_time, prefer_the_time
from ripplemem.recipes import get_recipe
from ripplemem.records import Evidence, TimeSpan
from ripplemem.testing.builders import make_unit

MAY_3 = TimeSpan(datetime(2023, 5, 3), datetime(2023, 5, 3, 23, 59, 59))


def _item(unit_id: str, score: float, span: TimeSpan | None = None, said: datetime | None = None) -> Evidence:
    return Evidence(make_unit(unit_id, time_span=span, session_time=said), score, ())


def test_units_of_another_time_go_below_and_the_others_keep_their_score() -> None:
    april = _item("rome", 2.0, TimeSpan(datetime(2023, 4, 3), datetime(2023, 4, 7, 23, 59, 59)))
    dentist = _item("dentist", 1.9, MAY_3)
    said_that_day = _item("said", 1.75, said=datetime(2023, 5, 3, 18, 0))  # no span: the day said
    timeless = _item("timeless", 1.7)
    ordered, outside = prefer_the_time([april, dentist, said_that_day, timeless], MAY_3, 0.2)
    assert outside == 1
    assert [e.unit.id for e in ordered] == ["dentist", "rome", "said", "timeless"]
    assert [e.score for e in ordered] == sorted(e.score for e in ordered)[::-1]
    rome = next(e for e in ordered if e.unit.id == "rome")
    assert rome.terms is not None and rome.terms.extra["time"] == -0.2 and rome.score == pytest.approx(1.8)
    assert prefer_the_time([april, dentist], None, 0.2)[0] == [april, dentist]  # no time named
    assert prefer_the_time([april, dentist], MAY_3, 0.0)[0] == [april, dentist]  # off


def test_for_a_single_day_a_unit_of_another_time_goes_further_down() -> None:
    april = _item("rome", 2.0, TimeSpan(datetime(2023, 4, 3), datetime(2023, 4, 7, 23, 59, 59)))
    said_that_day = _item("said", 1.75, said=datetime(2023, 5, 3, 18, 0))
    ordered, _ = prefer_the_time([april, said_that_day], MAY_3, 0.2, 0.6)
    assert [e.unit.id for e in ordered] == ["said", "rome"]  # 2.0 - 0.6 < 1.75 (with 0.2 it stays first)
    may = TimeSpan(datetime(2023, 5, 1), datetime(2023, 5, 31, 23, 59, 59))
    ordered, _ = prefer_the_time([april, said_that_day], may, 0.2, 0.6)
    assert [e.unit.id for e in ordered] == ["rome", "said"]  # a month: the plain penalty


def test_a_span_that_overlaps_is_the_same_time() -> None:
    week = _item("week", 1.0, TimeSpan(datetime(2023, 5, 1), datetime(2023, 5, 7, 23, 59, 59)))
    assert not another_time(week, MAY_3)
    assert another_time(_item("june", 1.0, TimeSpan(datetime(2023, 6, 1), datetime(2023, 6, 2))), MAY_3)


@pytest.fixture(scope="module")
def memory():
    with Memory(Settings(store="memory://"), embedder=MiniLMFloatEmbedder()) as opened:
        for text in ("I was in Rome from 3 to 7 April, the food was amazing.",
                     "We went to the dentist on the 3rd, two fillings.",
                     "Last summer we rented a cottage in Cornwall."):
            opened.add([{"speaker": "Maya", "text": text}], user_id="maya", session_time="2023-05-10")
        yield opened


def test_the_recipe_lowers_the_memories_of_another_day(memory: Memory) -> None:
    question = "What did Maya do on 3 May?"

    def ranked(recipe: str) -> list[Evidence]:
        found = memory.search(question, user_id="maya", recipe=get_recipe(recipe), question_time="2023-06-01")
        return list(found.evidence)

    on, off = ranked("ripple"), ranked("ripple-no-time")
    rome = next(e for e in on if "Rome" in e.unit.restatement)
    # April 3-7 is another day: 0.6 lower, and below the memory of the day that answers
    assert rome.terms is not None and rome.terms.extra.get("time", 0.0) <= -0.6
    dentist = next(e for e in on if "dentist" in e.unit.restatement)  # "on the 3rd" of May
    assert dentist.terms is not None and "time" not in dentist.terms.extra
    gap = {name: next(e.score for e in items if "Rome" in e.unit.restatement)
           - next(e.score for e in items if "dentist" in e.unit.restatement)
           for name, items in (("on", on), ("off", off))}
    assert gap["on"] < gap["off"]  # the day's memory comes closer


def test_a_memory_of_several_times_is_of_each_of_them() -> None:
    """A memory that names times far apart keeps them all (``extra["time_spans"]``): it is of
    any of them, though its one span (the narrowest, when their hull is long) is another."""
    wedding = make_unit("wedding", time_span=TimeSpan(datetime(2019, 12, 6), datetime(2019, 12, 6, 23, 59, 59)))
    spans = [[datetime(2019, 12, 6).isoformat(), datetime(2019, 12, 6, 23, 59, 59).isoformat()],
             [datetime(2023, 5, 1).isoformat(), datetime(2023, 5, 31, 23, 59, 59).isoformat()]]
    wedding = replace(wedding, extra={"time_spans": spans})
    assert not another_time(Evidence(wedding, 1.0, ()), MAY_3)
    assert another_time(Evidence(wedding, 1.0, ()), TimeSpan(datetime(2021, 1, 1), datetime(2021, 1, 31)))


def test_a_sentence_of_several_times_is_found_by_each(memory_of_times: Memory) -> None:
    found = memory_of_times.search("What did we buy in April 2024?", user_id="sam", question_time="2024-06-21T12:00:00")
    house = next(e for e in found.evidence if "bought the house last April" in e.unit.restatement)
    assert len(house.unit.extra["time_spans"]) == 3  # 6 Dec 2019, 2020-2022, April 2024
    assert house.terms is not None and "time" not in house.terms.extra  # of April too
    bike = next(e for e in found.evidence if "bike" in e.unit.restatement)
    assert bike.terms is not None and bike.terms.extra.get("time") == -0.2  # March only


@pytest.fixture(scope="module")
def memory_of_times():
    with Memory(Settings(store="memory://"), embedder=MiniLMFloatEmbedder()) as opened:
        for text in ("We got married on 12/06/2019, the kids were born in 2020 and 2022, and we bought the house last April.",
                     "I bought a new bike in March.", "I bought a sofa in May."):
            opened.add([{"speaker": "Sam", "text": text}], user_id="sam", session_time="2024-06-20T10:00:00")
        yield opened
