"""Round-4 update situations: two sessions of one holder among small talk, a question, and which turn must come first.

Shared by test_round4_cases.py (the part the rules may be developed against) and
test_round4_apart.py (the part kept apart: reported once, never iterated on)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import pytest

from ripplemem import Memory, Settings

from .ranking import rank_of

Kind = Literal["current", "control", "earlier"]

#: small talk of the holder and a friend around each fact
SMALL_TALK = [
    ("{a}", "It has rained every single day this week."),
    ("Sam", "Did you watch the final on Sunday?"),
    ("{a}", "Only the highlights, I was busy with the garden."),
    ("Sam", "I finally sorted out the boxes in my loft."),
]


@dataclass(frozen=True)
class Case:
    """``first`` (words of one turn) must rank above ``below``; for ``current`` also in the top 3."""

    id: str
    kind: Kind
    holder: str  # who says the two facts
    earlier: tuple[str, str]  # (date, text)
    later: tuple[str, str]
    question: str
    first: str
    below: str


def conversation(case: Case) -> Iterator[tuple[str, list[dict[str, str]]]]:
    for day, text in (case.earlier, case.later):
        turns = [{"speaker": who.format(a=case.holder), "text": t} for who, t in SMALL_TALK]
        turns.insert(2, {"speaker": case.holder, "text": text})
        yield day, turns


def build(cases: Sequence[Any], embedder, talk: Callable[[Any], Iterator[tuple[str, list[dict[str, str]]]]] = conversation) -> Memory:
    """One memory of ``cases``, each in its own namespace (its id), told by ``talk``."""
    opened = Memory(Settings(store="memory://"), embedder=embedder)
    for case in cases:
        for day, turns in talk(case):
            opened.add(turns, user_id=case.id, session_time=day)
    return opened


def holds(memory: Memory, case: Any) -> bool:
    """``case.first`` ranks above ``case.below`` for ``case.question`` (a round's case of any shape)."""
    first = rank_of(memory, case.question, case.id, case.first)
    below = rank_of(memory, case.question, case.id, case.below)
    return first < below and (case.kind != "current" or first < 3)


def with_reasons(cases: Sequence[Case], not_yet: Mapping[str, str]) -> list[Any]:
    """``cases`` as pytest parameters named by their ids; each one of ``not_yet`` is a strict
    xfail that gives its reason."""
    return [
        pytest.param(c, id=c.id, marks=pytest.mark.xfail(strict=True, reason=not_yet[c.id]))
        if c.id in not_yet else pytest.param(c, id=c.id)
        for c in cases
    ]
