"""With no statement of the holder's that answers, the holder's own words of what is not so now go
below a memory of theirs that answers without being read ("Lyon in winter is grey but the food
makes up for it"): what did not happen or happens only on a condition ("If I moved to Spain I'd
finally learn to surf", "I nearly took the job in Berlin"), or a stay of bounded length in the
past ("I was in Rome for a week in May"). The one may say how things are, the other says they
are not so. A wish with a modal alone ("I'd like a bigger flat") is no such thing: it may well
come. Conversations of their own, written before the rule."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

from ripplemem import Memory, Settings
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
        ("Leo", "Lu"),
    )
    memory.add(conversation, namespace="n")


def _first(memory: Memory, question: str, word: str) -> int:
    found = memory.search(question, namespace="n", question_time=datetime(2024, 1, 1))
    texts = [e.unit.restatement.casefold() for e in found.evidence]
    return min((i for i, t in enumerate(texts) if word in t), default=len(texts))


@pytest.mark.parametrize(
    "later",
    [
        "If I moved to Spain I'd finally learn to surf.",
        "I very nearly moved to Spain last spring, the flat fell through.",
        "I was in Spain for a week in May, the food!",
    ],
)
def test_what_did_not_happen_goes_below_an_unread_memory(memory: Memory, later: str) -> None:
    _add(memory, [
        ("2022-01-10", [("Leo", "Lyon in winter is grey but the food makes up for it."), ("Lu", "Sounds good.")]),
        ("2023-02-02", [("Leo", later), ("Lu", "Do it.")]),
    ])
    question = "Where does Leo live?"
    assert _first(memory, question, "lyon") < _first(memory, question, "spain")


@pytest.mark.parametrize(
    ("text", "irrealis"),
    [
        ("If I moved to Spain I would finally learn to surf.", [True, True, True]),
        ("I nearly took the job in Berlin.", [True]),
        ("They offered me the job but I turned it down.", [False, True]),
        ("I would like a four-week strength block.", [False]),  # a wish: it may well come
        ("I live in Lyon.", [False]),
    ],
)
def test_irrealis_is_read_from_the_parse(text: str, irrealis: list[bool]) -> None:
    (doc,) = EntityRecognizer().parse([text])
    assert [c.irrealis for c in clauses_of(doc, "leo")] == irrealis
