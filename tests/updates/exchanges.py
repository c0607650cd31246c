"""Update situations told in a dialogue: the later value in the other speaker's words (a question,
congratulations) that the holder confirms, or in the holder's short answer to a question ("At
the Guardian now."). Shared by test_round8_cases.py and test_round8_apart.py."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ripplemem import Memory

from . import round4
from .round4 import SMALL_TALK, Kind

#: (who, text): "a" is the holder, any other name speaks as given
Turns = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Exchange:
    """Like round 4's :class:`~tests.updates.round4.Case`, with turns in place of one text."""

    id: str
    kind: Kind
    holder: str
    earlier: tuple[str, Turns]  # (date, turns)
    later: tuple[str, Turns]
    question: str
    first: str
    below: str


def conversation(case: Exchange) -> Iterator[tuple[str, list[dict[str, str]]]]:
    for day, turns in (case.earlier, case.later):
        talk = [{"speaker": who.format(a=case.holder), "text": t} for who, t in SMALL_TALK]
        said = [{"speaker": case.holder if who == "a" else who, "text": t} for who, t in turns]
        yield day, talk[:2] + said + talk[2:]


def build(cases: Sequence[Exchange], embedder) -> Memory:
    return round4.build(cases, embedder, conversation)


holds = round4.holds
