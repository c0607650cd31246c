"""Another speaker's advice to the holder ("You should try keto", "Why not move to Leeds?" is a
question and says nothing) is no value of the holder's: an aside, and what is not so now, so it
goes below the holder's own statement that answers. Conversations of their own, written before
the rule."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

from ripplemem import Memory, Settings
from ripplemem.read.latest_first import Holder, _advice
from ripplemem.records import Conversation, Session, Turn
from ripplemem.statements.clauses import clauses_of
from ripplemem.write.entities import EntityRecognizer


@pytest.fixture
def memory(embedder) -> Iterator[Memory]:
    with Memory(Settings(store="memory://"), embedder=embedder) as opened:
        yield opened


def _add(memory: Memory, sessions: list[tuple[str, list[tuple[str, str]]]]) -> None:
    conversation = Conversation(
        "c1",
        tuple(
            Session(f"S{i + 1}", datetime.fromisoformat(day),
                    tuple(Turn(f"S{i + 1}:{j + 1}", who, text) for j, (who, text) in enumerate(turns)))
            for i, (day, turns) in enumerate(sessions)
        ),
        ("Xia", "Lu"),
    )
    memory.add(conversation, namespace="n")


def _first(memory: Memory, question: str, word: str) -> int:
    found = memory.search(question, namespace="n", question_time=datetime(2024, 1, 1))
    texts = [e.unit.restatement.casefold() for e in found.evidence]
    return min((i for i, t in enumerate(texts) if word in t), default=len(texts))


def test_advice_goes_below_the_holders_statement(memory: Memory) -> None:
    _add(memory, [
        ("2022-01-10", [("Xia", "I'm vegetarian, have been for years."), ("Lu", "Respect.")]),
        ("2023-02-02", [("Lu", "You should try the keto diet, I lost loads."), ("Xia", "Maybe one day.")]),
    ])
    question = "What diet does Xia follow?"
    assert _first(memory, question, "vegetarian") < _first(memory, question, "keto")


@pytest.mark.parametrize(
    ("said_by", "text", "advice"),
    [
        ("Lu", "Xia should try the keto diet.", True),  # Lu's advice, "you" resolved to Xia
        ("Lu", "Xia could move to Leeds with us.", True),
        ("Lu", "Should Xia move to Leeds?", False),  # a question says nothing
        ("Lu", "Xia moved to Leeds.", False),  # asserted: someone else's report, an aside as before
        ("Xia", "I should try the keto diet.", False),  # the holder's own words: not advice
        ("Lu", "I should try the keto diet.", False),  # about Lu
    ],
)
def test_advice_is_another_speakers_unasserted_words_about_the_holder(
    said_by: str, text: str, advice: bool
) -> None:
    (doc,) = EntityRecognizer().parse([text])
    holder = Holder("xia", frozenset({"diet", "live"}))
    assert any(_advice(c, holder) for c in clauses_of(doc, said_by, ["Xia", "Lu"])) is advice
