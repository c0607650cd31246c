"""Stage: a coverage cut — for a question that gathers several memories, the head of the final
list covers distinct episodes.

A question that asks for several things (a count, a list, a plural, a comparison, an order in
time: :func:`~ripplemem.read.planner.asks_for_several`) or for a span of time longer than a day
is answered by memories said in different sessions. rho scores each unit alone, so the head of
the list is often several units of the one session that matches the question best, and the
other sessions that each hold a part of the answer wait behind them.

:func:`cover_episodes` reorders the budget K greedily, in the manner of maximal marginal
relevance (Carbonell & Goldstein 1998) with the episode as the unit of redundancy: at each place
it takes the unit with the best ``(1 - weight) * r + weight * (1 - n / (n + 1))``, where ``r`` is
the unit's score min-max normalised over the list and ``n`` the number of units of its episode
already placed. A unit of an episode not yet in the head gains ``weight`` over a unit of an
episode with one placed unit ``weight / 2``, and so on; a unit much more relevant still goes
first, so a session that holds the answer in several turns keeps them near the top.
The set of units is unchanged (so recall at K and the context tokens are the same); only the
order changes. Moved units take the scores of their places (:func:`~ripplemem.read.rank.rescore`,
term ``coverage``). A question that asks for one thing is left as rho ordered it.

The other side (:func:`support_sessions`, ``recipe.rank.session_support``, off by default): a
question that asks for one thing is answered in one session, and the session that holds the
answer tends to hold other units that match the question too (the exchange around it), where a
unit that matches alone often stands in a session about something else. Each unit of the K
gains ``weight`` times the best score of another unit of its episode among the K (its session's
support, as passage rankers add a document's score), and the K are sorted again; the set of
units is unchanged. Measured on LoCoMo dev in docs/benchmarks/locomo.md: a handful of questions.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from ripplemem.read.planner import asks_for_several
from ripplemem.read.rank import rescore
from ripplemem.records import Cues, Evidence

#: a time span longer than this is a span of time, not one day
_ONE_DAY = timedelta(days=1)


def asks_for_coverage(query: str, cues: Cues) -> str:
    """Why the question's answer spans several episodes ("" when it asks for one thing): the
    planner's reading of several memories, or a time span longer than a day."""
    several = asks_for_several(query, cues)
    if several:
        return several
    span = cues.time_span
    if span is not None and span.end - span.start > _ONE_DAY:
        return "a span of time"
    return ""


def support_sessions(evidence: Sequence[Evidence], weight: float) -> list[Evidence]:
    """``evidence`` (best first) sorted again by each unit's score plus ``weight`` times the best
    score of another unit of its episode in ``evidence`` (see the module docstring)."""
    items = list(evidence)
    if weight <= 0 or len(items) < 3:
        return items
    best: dict[str, list[float]] = {}
    for item in items:
        top = best.setdefault(item.unit.episode_id, [])
        top.append(item.score)
        top.sort(reverse=True)
        del top[2:]

    def support(item: Evidence) -> float:
        top = best[item.unit.episode_id]
        if len(top) < 2:
            return 0.0
        # the best score of another unit: the second best when this unit is the best
        return max(top[1] if top[0] == item.score else top[0], 0.0)

    boosted = [item.score + weight * support(item) for item in items]
    order = sorted(range(len(items)), key=lambda i: (-boosted[i], i))
    ordered = [items[i] for i in order]
    # the units that passed a unit: the ones they passed keep their scores
    moved = {items[i].unit.id for place, i in enumerate(order) if place < i}
    return rescore(ordered, moved, "session_support")


def cover_episodes(evidence: Sequence[Evidence], weight: float) -> list[Evidence]:
    """``evidence`` (best first) reordered so each place goes to the unit with the best blend of
    its normalised score and the novelty of its episode (see the module docstring)."""
    items = list(evidence)
    if weight <= 0 or len(items) < 3:
        return items
    scores = [e.score for e in items]
    low, high = min(scores), max(scores)
    span = high - low
    relevance = [(s - low) / span if span > 0 else 1.0 for s in scores]
    placed: dict[str, int] = {}
    left = list(range(len(items)))
    order: list[int] = []
    while left:
        def gain(i: int) -> tuple[float, int]:
            n = placed.get(items[i].unit.episode_id, 0)
            return ((1 - weight) * relevance[i] + weight / (n + 1), -i)

        best = max(left, key=gain)
        left.remove(best)
        order.append(best)
        episode = items[best].unit.episode_id
        placed[episode] = placed.get(episode, 0) + 1
    ordered = [items[i] for i in order]
    moved = {items[i].unit.id for place, i in enumerate(order) if place != i}
    return rescore(ordered, moved, "coverage")
