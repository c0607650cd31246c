from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem.read.query_cues import content_keywords, derive_cues, mentioned, query_time
from ripplemem.records import TimeSpan
from ripplemem.write.entities import EntityRecognizer

from . import NS, QUERY, build_store

PEOPLE = ["sam", "maya", "alex", "samantha", "priya"]
PLACES = ["harbor grill", "harbor", "chicago", "st. louis"]


def cues(query: str, **options):
    options.setdefault("reference_time", None)
    options.setdefault("people_vocabulary", PEOPLE)
    options.setdefault("place_vocabulary", PLACES)
    return derive_cues(query, **options)


def test_vocabulary_names_match_on_word_boundaries_with_possessives():
    found = cues(QUERY)
    assert found.participants == ("Sam", "Maya")
    assert found.locations == ("Harbor Grill",)  # the longer match wins over "harbor"
    assert found.text == QUERY


def test_names_inside_other_words_do_not_match():
    assert mentioned("Samantha met Mayan friends", ["sam", "maya", "samantha"]) == ["Samantha"]


def test_matching_is_case_insensitive_and_keeps_the_query_spelling():
    found = cues("what did PRIYA do in st. louis?")
    assert found.participants == ("PRIYA",)
    assert found.locations == ("st. louis",)


def test_keywords_are_content_words_without_question_or_time_words():
    found = cues("When did Maya adopt the cat in May 2023?")
    assert found.keywords == ("maya", "adopt", "cat")
    assert content_keywords("Should I follow Sam's advice?") == ("follow", "sam", "advice")


def test_absolute_time_is_grounded_without_a_reference():
    found = cues("What did Sam cook in May 2023?")
    assert found.time_span == TimeSpan(datetime(2023, 5, 1), datetime(2023, 5, 31, 23, 59, 59))


def test_relative_time_needs_the_question_time():
    assert cues("What did Sam cook last week?").time_span is None  # never against the wall clock
    grounded = cues("What did Sam cook last week?", reference_time=datetime(2023, 5, 10, 12))
    assert grounded.time_span is not None
    assert grounded.time_span.start == datetime(2023, 5, 1)
    assert grounded.time_span.end.date() == datetime(2023, 5, 7).date()


def test_nothing_is_invented():
    found = cues("what is the best way to relax?")
    assert found.participants == () and found.locations == () and found.time_span is None
    assert not found.has_structure


def test_recogniser_adds_people_and_places_outside_the_vocabulary():
    found = cues(
        "Did Jonathan visit Boston with Maya?",
        recognizer=EntityRecognizer(),
    )
    assert found.participants[0] == "Maya"  # vocabulary first
    assert set(found.participants) == {"Maya", "Jonathan"}
    assert "Boston" in found.locations


def test_vocabulary_of_a_real_store_grounds_the_paper_query():
    store = build_store(edges=False)
    found = derive_cues(
        QUERY,
        reference_time=None,
        people_vocabulary=store.cue_values(NS, "P"),
        place_vocabulary=store.cue_values(NS, "L"),
    )
    assert found.participants == ("Sam", "Maya")
    assert found.locations == ("Harbor Grill",)
    assert "recommendation" in found.keywords and "should" not in found.keywords


@pytest.mark.parametrize("query", ["", "   ", "?"])
def test_empty_queries_give_empty_cues(query):
    found = cues(query)
    assert found.keywords == () and not found.has_structure


def test_a_query_teaches_the_recogniser_nothing() -> None:
    """Extraction after a search finds what it finds without one (the write path shares the
    recogniser). Before: the lower-case "omar" of the query made a later sentence-initial
    "Omar" read as a common word, and "Jonas" joined the known people from a question."""
    fresh, asked = EntityRecognizer(), EntityRecognizer()
    cues = derive_cues(
        "did omar ever call Jonas from Kyoto?",
        reference_time=None,
        people_vocabulary=[],
        place_vocabulary=[],
        recognizer=asked,
    )
    assert "Jonas" in cues.participants  # the query's own cues still come from the model
    line = ["Omar called me yesterday."]
    speakers = ("Caroline", "Melanie")
    assert asked.find(line, people=speakers) == fresh.find(line, people=speakers)
    assert asked.known_people == fresh.known_people


def test_a_vocabulary_name_in_a_query_is_not_taken_for_a_place() -> None:
    """Georgia is a person of the store: the model's GPE reading of it is dropped."""
    cues = derive_cues(
        "When did Georgia visit Paris?",
        reference_time=None,
        people_vocabulary=["georgia"],
        place_vocabulary=[],
        recognizer=EntityRecognizer(),
    )
    assert cues.participants == ("Georgia",)
    assert cues.locations == ("Paris",)


def test_a_time_that_bounds_the_time_asked_about_is_not_its_time() -> None:
    """The time asked about lies on one side of it: without open intervals, no time of its own
    (the time stage would otherwise lower the very memories asked for). The grounder reads "7/22"
    alone here; a phrase it reads with its boundary word ("until 2021") it leaves ungrounded."""
    span, phrases = query_time("How many bass did I catch on the earlier trip before the 7/22 trip?", datetime(2023, 12, 1))
    assert "7/22" in phrases and span is None


def test_a_time_asked_about_keeps_its_span() -> None:
    span, _ = query_time("What movie did Joanna watch on 1 May, 2022?", datetime(2023, 12, 1))
    assert span is not None and span.start == datetime(2022, 5, 1)
