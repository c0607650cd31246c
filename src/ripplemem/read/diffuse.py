"""Stage: anchor-local diffusion towards the missing-support goal (reference §1, read step 4).

From the plan's anchors, walk at most ``recipe.expansion.hops`` hops, **separately** along the semantic and
the structural edges. Walks pass through units already in evidence but never return them.
Each reached unit keeps its best path per channel: fewest hops first, then the strongest path
(product of edge weights); at most ``recipe.expansion.read_candidates`` per channel, the
closest, are read and scored against the goal:

* semantic channel: cosine of the goal restatement's vector with the unit's vector;
* structural channel: :func:`~ripplemem.structure.structural_score` of the goal's participants /
  locations / time with the unit's (same β and τ as the linker; a unit with no comparable cue
  gets ``NO_CUE_FACTOR * path_weight``), blended half and half with the goal restatement's
  cosine when the goal has one: in a two-person chat every unit shares the speakers and many
  share the day, so cues alone cannot rank them.

Each channel keeps its top ``expand_semantic_top`` / ``expand_structural_top`` (ties: fewer
hops, stronger path, id). Ablations: ``structural_channel=False`` walks the semantic edges only;
``goal=False`` (or a plan without a goal) ranks by path strength alone — blind expansion with the
same budget, ``goal_score`` 0.

The result is ``[(unit id, path)]`` in channel-rank order (semantic #1, structural #1, semantic
#2, ...); a unit found by both channels appears once per channel so both paths are kept. The
ranker reads a unit's expansion rank as its best rank within a channel.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

import numpy as np

from ripplemem.recipes import RecallRecipe
from ripplemem.records import Cues, EdgeKind, ExpansionPath, MemoryUnit, RecallPlan, TimeSpan
from ripplemem.stores.base import MemoryStore
from ripplemem.structure import cue_set, structural_score, structural_time

#: Goal score of a structural candidate that shares no comparable cue type with the goal.
NO_CUE_FACTOR = 0.2
#: Share of the goal's cue match in a structural candidate's score; the rest is the cosine of
#: the goal restatement with the unit ([open] in the reference: the exact scoring formula).
STRUCTURAL_CUE_SHARE = 0.5
GoalVector = np.ndarray | Callable[[], np.ndarray | None] | None

#: At most this many units are expanded per hop (the strongest paths), so cost stays bounded.
MAX_FRONTIER = 64


@dataclass(frozen=True, slots=True)
class Reach:
    anchor: str
    nodes: tuple[str, ...]
    weight: float

    @property
    def hops(self) -> int:
        return len(self.nodes) - 1


def walk(
    store: MemoryStore,
    namespace: str,
    anchors: Collection[str],
    kind: EdgeKind,
    hops: int,
) -> dict[str, Reach]:
    """Every unit within ``hops`` edges of ``kind`` from the anchors, with its best path."""
    frontier = {a: Reach(a, (a,), 1.0) for a in anchors}
    visited = set(frontier)
    reached: dict[str, Reach] = {}
    for _ in range(max(0, hops)):
        if not frontier:
            break
        neighbours = store.neighbours(namespace, list(frontier), kind)
        found: dict[str, Reach] = {}
        for src, edges in neighbours.items():
            base = frontier.get(src)
            if base is None:
                continue
            for dst, weight in edges:
                if dst in visited:
                    continue
                strength = base.weight * float(weight)
                kept = found.get(dst)
                # the stronger path; of two as strong, the smaller node sequence (a Reach is
                # built only for a path that is kept)
                if (
                    kept is None
                    or strength > kept.weight
                    or (strength == kept.weight and kept.nodes > base.nodes + (dst,))
                ):
                    found[dst] = Reach(base.anchor, base.nodes + (dst,), strength)
        visited.update(found)
        reached.update(found)
        strongest = sorted(found.items(), key=lambda item: (-item[1].weight, item[0]))
        frontier = dict(strongest[:MAX_FRONTIER])
    return reached


@dataclass(frozen=True, slots=True)
class GoalCues:
    """The goal's structural cues, normalised once per diffusion."""

    participants: frozenset[str]
    locations: frozenset[str]
    time_span: TimeSpan | None

    @classmethod
    def of(cls, goal: Cues | None) -> GoalCues | None:
        if goal is None:
            return None
        return cls(cue_set(goal.participants), cue_set(goal.locations), goal.time_span)


def goal_match(
    channel: EdgeKind,
    unit: MemoryUnit,
    reach: Reach,
    goal: GoalCues | None,
    goal_vector: np.ndarray | None,
) -> float:
    """How well a reached unit matches the goal through its channel."""
    if channel == "semantic":
        if goal_vector is None or unit.vector is None:
            return NO_CUE_FACTOR * reach.weight
        return float(np.dot(goal_vector, unit.vector))
    if goal is None:
        return NO_CUE_FACTOR * reach.weight
    score = structural_score(
        goal.participants,
        goal.locations,
        goal.time_span,
        cue_set(unit.participants),
        cue_set(unit.locations),
        structural_time(unit),
    )
    cue_match = NO_CUE_FACTOR * reach.weight if score is None else score
    if goal_vector is None or unit.vector is None:
        return cue_match
    # Who/where/when alone cannot separate units that share the same speakers and day (every
    # turn of a two-person chat does), so the goal restatement's meaning weighs in equally.
    return STRUCTURAL_CUE_SHARE * cue_match + (1 - STRUCTURAL_CUE_SHARE) * max(
        0.0, float(np.dot(goal_vector, unit.vector))
    )


def diffuse(
    store: MemoryStore,
    namespace: str,
    plan: RecallPlan,
    *,
    evidence_ids: Collection[str],
    goal_vector: GoalVector,
    recipe: RecallRecipe,
    other_episodes: Collection[str] = (),
) -> list[tuple[str, ExpansionPath]]:
    """Goal-directed (or, with ``recipe.expansion.goal=False``, blind) expansion from the plan's anchors.

    ``goal_vector`` is the goal restatement's vector, or a zero-argument callable returning it:
    then it is called only when the semantic channel reaches a new unit, so no embedding is
    spent when no semantic edge leads anywhere new (common: semantic edges need cosine >= 0.85).
    ``other_episodes`` (a question that gathers several memories): the semantic channel keeps
    only units outside these episodes (the anchors'), so its slots go to other sessions; the
    structural channel still completes the anchors' own exchanges.
    """
    if not plan.anchors:
        return []
    channels: list[tuple[EdgeKind, int]] = [("semantic", recipe.expansion.semantic_top)]
    if recipe.expansion.structural_channel:
        channels.append(("structural", recipe.expansion.structural_top))
    excluded = set(evidence_ids) | set(plan.anchors)
    leave = set(other_episodes)
    reached: dict[str, dict[str, Reach]] = {}
    for kind, top in channels:
        if top <= 0:
            continue
        found = walk(store, namespace, plan.anchors, kind, recipe.expansion.hops)
        closest = sorted(
            ((i, r) for i, r in found.items() if i not in excluded),
            key=lambda item: (item[1].hops, -item[1].weight, item[0]),
        )
        reached[kind] = dict(closest[: recipe.expansion.read_candidates])
    wanted = sorted({unit_id for found in reached.values() for unit_id in found})
    units = {u.id: u for u in store.get_units(namespace, wanted)} if wanted else {}
    directed = recipe.expansion.goal and plan.goal is not None
    goal = GoalCues.of(plan.goal)
    if directed and callable(goal_vector):
        goal_vector = goal_vector() if any(reached.values()) else None
    ranked: list[list[tuple[str, ExpansionPath]]] = []
    for kind, top in channels:
        scored: list[tuple[tuple, str, ExpansionPath]] = []
        for unit_id, reach in reached.get(kind, {}).items():
            unit = units.get(unit_id)
            if unit is None:  # deleted meanwhile
                continue
            if kind == "semantic" and unit.episode_id in leave:
                continue
            if directed:
                score = goal_match(kind, unit, reach, goal, goal_vector)  # type: ignore[arg-type]
                key: tuple = (-score, reach.hops, -reach.weight, unit_id)
            else:  # blind: path strength only
                score = 0.0
                key = (-reach.weight, reach.hops, unit_id)
            path = ExpansionPath(reach.anchor, kind, reach.nodes, reach.weight, score)
            scored.append((key, unit_id, path))
        scored.sort(key=lambda item: item[0])
        ranked.append([(unit_id, path) for _, unit_id, path in scored[:top]])
    merged: list[tuple[str, ExpansionPath]] = []
    for position in range(max((len(r) for r in ranked), default=0)):
        merged.extend(r[position] for r in ranked if position < len(r))
    return merged
