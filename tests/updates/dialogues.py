"""Small conversations written as (day, [(speaker, text), ...]) per session, and where the first
memory holding some words ranks: what the tests of single read rules share."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ripplemem import Memory
from ripplemem.records import Conversation, Session, Turn

#: one session: its day (ISO) and its turns, (speaker, text)
Sessions = Sequence[tuple[str, Sequence[tuple[str, str]]]]


def add_sessions(memory: Memory, people: tuple[str, ...], sessions: Sessions, namespace: str = "n") -> None:
    """Write ``sessions`` as one conversation of ``people`` into ``namespace``."""
    conversation = Conversation(
        "c1",
        tuple(
            Session(f"S{i + 1}", datetime.fromisoformat(day),
                    tuple(Turn(f"S{i + 1}:{j + 1}", who, text) for j, (who, text) in enumerate(turns)))
            for i, (day, turns) in enumerate(sessions)
        ),
        people,
    )
    memory.add(conversation, namespace=namespace)


def one_a_day(memory: Memory, texts: Sequence[str], speaker: str = "Sam", user_id: str = "sam") -> list[str]:
    """Write each of ``texts`` as ``speaker``'s memory of its own, one every five days from 3 May
    2024 (a new user's first statements); their units' ids, in that order."""
    return [
        memory.add([{"speaker": speaker, "text": text}], user_id=user_id,
                   session_time=f"2024-05-{3 + 5 * day:02d}T10:00:00").units[0].id
        for day, text in enumerate(texts)
    ]


def first_rank(
    memory: Memory, question: str, *words: str, when: datetime = datetime(2024, 1, 1), namespace: str = "n"
) -> int:
    """The rank of the first memory that holds every one of ``words`` (case-folded) for
    ``question`` asked at ``when``; the number of memories returned when none does."""
    found = memory.search(question, namespace=namespace, question_time=when)
    texts = [e.unit.restatement.casefold() for e in found.evidence]
    wanted = [w.casefold() for w in words]
    return min((i for i, t in enumerate(texts) if all(w in t for w in wanted)), default=len(texts))
