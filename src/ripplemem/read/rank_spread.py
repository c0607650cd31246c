"""Stage: spread the final ranking over source turns.

rho scores units, but what a recall delivers is evidence of what was said: turns. A long turn is
cut into many units (in user/assistant chats one reply runs to five or ten), and those pieces
match a query together: on LongMemEval-S the pieces of two or three replies filled most of the 30
slots, leaving room for a handful of other turns. Every further piece of a turn already in the
list tells the reader less than the best unit of a turn not in it yet.

:func:`spread_turns` keeps rho's order among the units that bring a turn no better-ranked unit
holds, and moves the others (pieces of turns already in) after them, still in rho order. Nothing
is dropped and no unit passes a better-ranked one that brings a new turn, so the first unit of
every turn keeps its relative place; only repeats wait. Units without turn ids count as new.
The repeats take the scores of their new places (:func:`~ripplemem.read.rank.rescore`, term
``spread``): evidence is always returned best score first.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from ripplemem.read.rank import rescore
from ripplemem.records import Evidence


def spread(
    ranked: Sequence[Evidence], brings_new: Callable[[Evidence, set[str]], Collection[str]]
) -> list[Evidence]:
    """First the items that bring a key not yet covered (in order), then the rest (in order).

    ``brings_new(item, covered)`` returns the keys the item would add (empty: a repeat)."""
    first, later = _split(ranked, brings_new)
    return first + later


def _split(
    ranked: Sequence[Evidence], brings_new: Callable[[Evidence, set[str]], Collection[str]]
) -> tuple[list[Evidence], list[Evidence]]:
    covered: set[str] = set()
    first: list[Evidence] = []
    later: list[Evidence] = []
    for item in ranked:
        new = brings_new(item, covered)
        if new:
            first.append(item)
            covered.update(new)
        else:
            later.append(item)
    return first, later


def spread_turns(ranked: Sequence[Evidence]) -> list[Evidence]:
    """Units that bring a new source turn first (rho order), further pieces of a turn after,
    scored for their new places."""

    def new_turns(item: Evidence, covered: set[str]) -> Collection[str]:
        turns = set(item.unit.turn_ids)
        return (turns - covered) if turns else {f"unit:{item.unit.id}"}

    first, later = _split(ranked, new_turns)
    return rescore(first + later, {e.unit.id for e in later}, "spread")
