"""A verbless heading before a clause ("Correction: my flight is on Saturday", "Sorry, typo
earlier - my brother is called John") is a heading, as "Big news:" is: the clause after it is the
sentence's statement. From the real parse, with no word lists."""

from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem.records import MemoryUnit
from ripplemem.statements import StatementReader, clauses_of
from ripplemem.statements.reader import heading
from ripplemem.write.entities import EntityRecognizer


@pytest.fixture(scope="module")
def recognizer() -> EntityRecognizer:
    return EntityRecognizer()


@pytest.fixture(scope="module")
def reader(recognizer: EntityRecognizer) -> StatementReader:
    return StatementReader(recognizer.parse)


def _unit(text: str, speaker: str = "Maya") -> MemoryUnit:
    return MemoryUnit(
        "u-1", "ns", text, None, (speaker, "Sam"), (), None, "s1", ("s1:1",), None, datetime(2024, 1, 1),
    )


@pytest.mark.parametrize(
    ("text", "subject", "value"),
    [
        ("Correction: my flight to Oslo is on Saturday.", "flight", "saturday"),
        ("Quick correction: my meeting with the bank is at 3pm.", "meeting", "3"),
        ("Update: my sister lives in Hove now.", "sister", "hove"),
        ("Sorry, typo earlier - my brother is called John.", "brother", "john"),
        ("Correction to what I said: my gym is PureGym.", "gym", "puregym"),
    ],
)
def test_the_clause_after_a_verbless_heading_is_the_statement(
    reader: StatementReader, text: str, subject: str, value: str
) -> None:
    (clauses,) = reader.clauses([_unit(text)])
    stating = [c for c in clauses if c.asserted and c.subject == subject]
    assert stating, [(c.text, c.subject) for c in clauses]
    assert any(value in c.named or any(value in w for _, w in c.places) for c in stating)


@pytest.mark.parametrize(
    ("text", "split"),
    [
        ("Correction: my flight is on Saturday.", ("Correction", "my flight is on Saturday.")),
        ("Sorry, typo earlier - my brother is John.", ("Sorry, typo earlier", "my brother is John.")),
        ("My flight is at 3:30 on Friday.", None),  # a time's colon
        ("I moved to Leeds - it was time.", ("I moved to Leeds", "it was time.")),  # split, then not verbless
        ("Correction:", None),
    ],
)
def test_what_may_head_a_sentence(text: str, split: tuple[str, str] | None) -> None:
    assert heading(text) == split


@pytest.mark.parametrize(
    "text",
    [
        "I have one rule: never pay full price for a sofa.",  # a clause, not a heading
        "My plan: move to Leeds next year.",  # the rest has no subject: a heading of what it is
    ],
)
def test_a_heading_with_a_verb_or_a_rest_with_no_subject_is_parsed_whole(
    reader: StatementReader, recognizer: EntityRecognizer, text: str
) -> None:
    (clauses,) = reader.clauses([_unit(text, "John")])
    (doc,) = recognizer.parse([text])
    assert [c.text for c in clauses] == [c.text for c in clauses_of(doc, "john", ["John", "Sam"])]
