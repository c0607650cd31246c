"""What the supersession stage does not read as a value that replaces another: a shared image's
caption (an image captioner's description, not its speaker's statement) and the answers to a
question for what someone has done over time ("Which cities has Jon visited?": every visit
answers). Written before the rules, on conversations of their own."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

from ripplemem import Memory, Settings
from ripplemem.records import Conversation, Session, Turn


@pytest.fixture
def memory(embedder) -> Iterator[Memory]:
    with Memory(Settings(store="memory://"), embedder=embedder) as opened:
        yield opened


def _add(memory: Memory, sessions: list[tuple[str, list[Turn]]]) -> None:
    conversation = Conversation(
        "c1",
        tuple(Session(f"S{i + 1}", datetime.fromisoformat(day), tuple(turns)) for i, (day, turns) in enumerate(sessions)),
        ("Evan", "Sam"),
    )
    memory.add(conversation, namespace="evan")


def test_a_later_photo_caption_does_not_lead_the_speakers_statement(memory: Memory) -> None:
    _add(memory, [
        ("2024-01-10", [
            Turn("S1:1", "Evan", "I drive an old Toyota Prius, it's been great for road trips."),
            Turn("S1:2", "Sam", "Nice, they last forever."),
        ]),
        ("2024-03-05", [
            Turn("S2:1", "Evan", "Here's where we went last weekend.",
                 caption="a photo of a car parked near a lake with mountains in the background"),
            Turn("S2:2", "Sam", "Beautiful spot."),
        ]),
        ("2024-05-20", [
            Turn("S3:1", "Evan", "Look at this.", caption="a photo of a kayak seen from the front of the boat"),
            Turn("S3:2", "Sam", "Fun!"),
            Turn("S3:3", "Evan", "And this bloomed.", caption="a photo of a tree with pink flowers in a park"),
        ]),
    ])
    found = memory.search("What kind of car does Evan drive?", namespace="evan",
                          question_time=datetime(2024, 6, 1))
    texts = [e.unit.restatement for e in found.evidence]
    prius = next(i for i, t in enumerate(texts) if "Prius" in t)
    photos = [i for i, t in enumerate(texts) if "shared a photo" in t]
    assert photos and prius < min(photos), texts[:6]


def test_a_question_for_everything_done_keeps_the_ranking(memory: Memory) -> None:
    _add(memory, [
        ("2024-01-10", [Turn("S1:1", "Evan", "We spent a long weekend in Lisbon, the food was amazing.")]),
        ("2024-03-05", [Turn("S2:1", "Evan", "Just back from Krakow, we walked the old town every evening.")]),
        ("2024-05-20", [Turn("S3:1", "Evan", "Work sent me to Oslo for three days, freezing but lovely.")]),
    ])
    question = "Which cities has Evan visited?"
    kept = memory.search(question, namespace="evan", recipe="ripple-no-supersession",
                         question_time=datetime(2024, 6, 1))
    found = memory.search(question, namespace="evan", question_time=datetime(2024, 6, 1))
    assert [e.unit.id for e in found.evidence] == [e.unit.id for e in kept.evidence]
