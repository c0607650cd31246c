"""Stage: focus — inside the sessions the ranking found, the user's own statement that matches
the question comes up to its session.

A question about one's own past is answered by what the person said, and a long chat buries that
in passing: "by the way, I raised $250 at the charity walk" inside a message that asks for tips
on plastic bags. rho scores each unit against the whole question, so the session is often found
through the assistant's long reply about the topic (cut into many units, each close to the
question's words) or through the user's request, while the sentence that holds the answer ranks
below the budget or is never seen: on LongMemEval-S most gold sessions the ranking lost at k = 5
were sessions it had found, without their answer turn.

:func:`focus_sessions` reads the sessions of the first ``recipe.rank.focus_sessions`` distinct
episodes of the final list again: a dense and a lexical search restricted to the units said in
those sessions (the store's filter index on the time said: every unit of a session shares its
session time), fused by reciprocal rank. For each such episode the best-fused unit that is the
user's own statement (not said by the assistant or system role) and brings a turn the list does
not hold before that episode's first unit yet is placed right after that first unit; the units
after it move down one place each and the budget K is kept (the last units fall out). An episode
whose first unit is already the user's best-matching statement gets nothing. Lifted units take
the scores of their places (:func:`~ripplemem.read.rank.rescore`, term ``focus``); one brought
from outside the list carries a ``focus`` hit (rank: its fused rank among the episodes' units).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

import numpy as np

from ripplemem.read.rank import rescore
from ripplemem.records import Evidence, Hit, MemoryUnit, ScoreTerms
from ripplemem.records.filters import SearchFilter
from ripplemem.stores.base import MemoryStore

#: speakers whose words are not the user's own memories: the names the input edge gives the
#: assistant and system roles (``conversation_input.ROLE_NAMES``)
NOT_THE_USER = frozenset({"Assistant", "System"})
#: the reciprocal-rank constant of the fused restricted search (small lists: a small constant)
FUSION_K = 10
#: units said within this of a session's time count as said in that session
_SAME_TIME = timedelta(seconds=1)


def users_statement(unit: MemoryUnit) -> bool:
    """Whether ``unit`` holds something a person said: a speaker other than the assistant or
    system role (a unit without speakers counts as the user's)."""
    return not unit.speakers or any(s not in NOT_THE_USER for s in unit.speakers)


def head_episodes(evidence: Sequence[Evidence], count: int) -> list[MemoryUnit]:
    """The first unit of each of the first ``count`` distinct episodes with a session time."""
    firsts: dict[str, MemoryUnit] = {}
    for item in evidence:
        if len(firsts) >= count:
            break
        unit = item.unit
        if unit.session_time is not None and unit.episode_id not in firsts:
            firsts[unit.episode_id] = unit
    return list(firsts.values())


def session_units(store: MemoryStore, namespace: str, firsts: Sequence[MemoryUnit]) -> set[str]:
    """The ids of the units said at the session times of ``firsts`` (the filter index)."""
    allowed: set[str] = set()
    for time in {u.session_time for u in firsts if u.session_time is not None}:
        allowed |= store.select_units(
            namespace, SearchFilter(said_after=time, said_before=time + _SAME_TIME)
        )
    return allowed


def fused_order(
    dense: Sequence[tuple[str, float]], lexical: Sequence[tuple[str, float]]
) -> list[str]:
    """Unit ids by reciprocal-rank fusion of two ranked lists (ties: id)."""
    score: dict[str, float] = {}
    for found in (dense, lexical):
        for rank, (unit_id, _) in enumerate(found):
            score[unit_id] = score.get(unit_id, 0.0) + 1.0 / (FUSION_K + rank + 1)
    return sorted(score, key=lambda i: (-score[i], i))


def focus_sessions(
    evidence: Sequence[Evidence],
    *,
    store: MemoryStore,
    namespace: str,
    query: str,
    query_vector: np.ndarray,
    sessions: int,
    depth: int,
) -> tuple[list[Evidence], int]:
    """``evidence`` with each head episode's best-matching user statement placed after the
    episode's first unit (module docstring), the same length; and how many units were lifted."""
    items = list(evidence)
    firsts = head_episodes(items, sessions)
    if not firsts or depth <= 0:
        return items, 0
    allowed = session_units(store, namespace, firsts)
    if not allowed:
        return items, 0
    dense = store.search_dense_many(namespace, query_vector[None, :], depth, allowed=allowed)[0]
    lexical = store.search_lexical(namespace, query, depth, allowed=allowed)
    order = fused_order(dense, lexical)
    known = {e.unit.id: e.unit for e in items}
    fetched = {u.id: u for u in store.get_units(namespace, [i for i in order if i not in known])}
    units = {**fetched, **known}
    wanted = {u.episode_id: u for u in firsts}
    best: dict[str, tuple[int, MemoryUnit]] = {}
    for rank, unit_id in enumerate(order):
        unit = units.get(unit_id)
        if unit is None or unit.episode_id not in wanted or unit.episode_id in best:
            continue
        if users_statement(unit):
            best[unit.episode_id] = (rank, unit)
    return _lift(items, wanted, best)


def _lift(
    items: list[Evidence], wanted: dict[str, MemoryUnit], best: dict[str, tuple[int, MemoryUnit]]
) -> tuple[list[Evidence], int]:
    """Each episode's chosen unit moved (or brought) right after the episode's first unit."""
    budget = len(items)
    by_id = {e.unit.id: e for e in items}
    lifted: set[str] = set()
    result = list(items)
    for episode, first in wanted.items():
        if episode not in best:
            continue
        rank, unit = best[episode]
        place = next(i for i, e in enumerate(result) if e.unit.id == first.id)
        head = result[: place + 1]
        before = {t for e in head for t in e.unit.turn_ids}
        if any(e.unit.id == unit.id for e in head) or (
            unit.turn_ids and set(unit.turn_ids) <= before
        ):
            continue  # the statement is in the head already, or adds no turn to it
        item = by_id.get(unit.id) or _new_evidence(unit, rank, result[place].score)
        result = [e for e in result if e.unit.id != unit.id]
        result.insert(place + 1, item)
        lifted.add(unit.id)
    if not lifted:
        return items, 0
    kept = result[:budget]
    return rescore(kept, lifted, "focus"), len(lifted & {e.unit.id for e in kept})


def _new_evidence(unit: MemoryUnit, rank: int, score: float) -> Evidence:
    terms = ScoreTerms(alignment=0.0, provenance=0.0, anchor=0.0, total=score)
    return Evidence(unit, score, (Hit("focus", rank, 0.0),), terms, ())
