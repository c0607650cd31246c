"""The write path's time grounding stage (``write.pipeline.ground``) on drafts whose phrases an
extractor returned apart from their sentence (the LLM path): each phrase is read in the language
of the draft's restatement."""

from __future__ import annotations

from datetime import datetime

from ripplemem.records import UnitDraft
from ripplemem.write.pipeline import ground

SAID = datetime(2024, 6, 12, 10, 0)  # a Wednesday


def test_a_phrase_of_another_language_is_read_in_the_language_of_its_draft() -> None:
    draft = UnitDraft("Lena ist letzte Woche nach Berlin gezogen und wohnt jetzt dort.", ("s1:1",),
                      time_phrases=("letzte Woche",))
    grounded = ground(draft, SAID)
    assert grounded.time_span is not None
    assert (grounded.time_span.start, grounded.time_span.end.date()) == (
        datetime(2024, 6, 3), datetime(2024, 6, 9).date()
    )


def test_an_english_phrase_is_read_as_before() -> None:
    draft = UnitDraft("Lena moved to Berlin last week.", ("s1:1",), time_phrases=("last week",))
    grounded = ground(draft, SAID)
    assert grounded.time_span is not None and grounded.time_span.start == datetime(2024, 6, 3)


def test_a_phrase_no_language_reads_leaves_the_draft_without_a_span() -> None:
    draft = UnitDraft("Lena ist nach Berlin gezogen, und das ist schön.", ("s1:1",),
                      time_phrases=("irgendwann",))
    assert ground(draft, SAID).time_span is None
