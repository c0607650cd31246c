"""Where LongMemEval gold sessions drop out of a recall: a per-stage diagnosis.

LongMemEval's session metrics read a recall as the order in which sessions first appear among the
returned user turns (:func:`~ripplemem_bench.retrieval.metrics.session_scores`). A gold session
missing from the first ``k`` distinct sessions dropped out at one of these stages, checked in
pipeline order (:func:`drop_stage`):

* ``found@k``: among the first ``k`` distinct sessions (not a miss);
* ``views``: no unit of the session in any view (dense and lexical to their full depth, the cue
  view) nor reached by diffusion — recall never saw it;
* ``other-turns``: the session was seen, but not its answer turn: only its assistant turns or
  its other user turns (LongMemEval scores user turns, and counts the user turns of an evidence
  session without the answer as a session of their own, ``noans_...``);
* ``budget``: a candidate, but ranked below the evidence budget K;
* ``order``: returned, but after ``k`` other sessions.

Each returned unit is also classed by what it adds: the first unit of a session (``new``), a
further unit of a session already returned (``repeat``), or a unit with no user turn
(``assistant``); a recall that fills its K slots with repeats returns few distinct sessions.
:func:`trail` reads one recall (its evidence and :class:`~ripplemem.records.RecallTrace`);
:func:`summarise` groups the trails by question type. ``ripplemem bench lme-sessions`` runs it.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from ripplemem import RecallRecipe
from ripplemem.datasets import LmeQuestion, session_of
from ripplemem.records import Evidence, MemoryUnit, RecallTrace

STAGES: tuple[str, ...] = ("views", "other-turns", "budget", "order")


def record_session(turn_id: str) -> str:
    """The official session id of a stored turn id (``"<session>[~n]_<index>"``)."""
    return session_of(turn_id).split("~")[0]


@dataclass(frozen=True, slots=True)
class UnitSessions:
    """The sessions a unit speaks for: through its user turns (scored) and through any turn."""

    scored: tuple[str, ...]
    any: tuple[str, ...]


def unit_sessions(unit: MemoryUnit, question: LmeQuestion) -> UnitSessions:
    scored = [
        session_of(question.corpus_id_of[t]) for t in unit.turn_ids if t in question.corpus_id_of
    ]
    every = [record_session(t) for t in unit.turn_ids]
    return UnitSessions(tuple(dict.fromkeys(scored)), tuple(dict.fromkeys(every)))


def session_ranks(evidence: Sequence[Evidence], question: LmeQuestion) -> dict[str, int]:
    """Each session's 1-based rank among the distinct sessions of the returned user turns, in
    the order they first appear: how the official session metrics read a recall (a session is
    ranked where its first unit is)."""
    ranks: dict[str, int] = {}
    for item in evidence:
        for session in unit_sessions(item.unit, question).scored:
            ranks.setdefault(session, len(ranks) + 1)
    return ranks


@dataclass(slots=True)
class SessionTrail:
    """What one recall did with one gold session."""

    session: str
    in_views: bool = False  # a unit of it in a view (any depth)
    in_c0: bool = False  # a unit of it in the initial evidence state C0
    by_expansion: bool = False  # a unit of it reached by diffusion
    seen_user_turn: bool = False  # some unit seen carries one of its user turns
    returned: bool = False  # some returned unit carries one of its user turns
    session_rank: int | None = None  # 1-based rank among the distinct returned sessions


@dataclass(slots=True)
class QuestionTrail:
    question_id: str
    question_type: str
    gold: list[SessionTrail]
    slots: dict[str, int] = field(default_factory=dict)  # new / repeat / assistant / context
    distinct_sessions: int = 0
    plan: str = ""  # the first plan's stop reason (ripple), "" otherwise


def drop_stage(trail: SessionTrail, k: int) -> str:
    """``found@k``, or the first stage at which the gold session was lost (module docstring)."""
    if trail.session_rank is not None and trail.session_rank <= k:
        return f"found@{k}"
    if trail.returned:
        return "order"
    if not (trail.in_views or trail.by_expansion):
        return "views"
    if not trail.seen_user_turn:
        return "other-turns"
    return "budget"


@dataclass(frozen=True, slots=True)
class _Reached:
    """What one recall's trace says it looked at (all empty without a trace)."""

    views: set[str]  # units any view returned
    c0: set[str]  # within each view's first k (the recipe's view sizes)
    expanded: set[str]  # units the expansion reached
    plan: str  # the planner's stop reason


def _reached(trace: RecallTrace | None, recipe: RecallRecipe) -> _Reached:
    if trace is None:
        return _Reached(set(), set(), set(), "")
    depth = {"dense": recipe.views.dense_k, "lexical": recipe.views.lexical_k,
             "cue": recipe.views.cue_k}
    views: set[str] = set()
    c0: set[str] = set()
    for view, found in trace.initial.items():
        views.update(unit_id for unit_id, _ in found)
        c0.update(unit_id for unit_id, _ in found[: depth.get(view, 0)])
    expanded = {path.nodes[-1] for path in trace.expansions}
    return _Reached(views, c0, expanded, trace.plans[0].stop_reason if trace.plans else "")


def _slots(evidence: Sequence[Evidence], sessions: dict[str, UnitSessions]) -> tuple[Counter, list[str]]:
    """What each returned slot brought (a new session, a repeat, an assistant turn, context), and
    the distinct sessions in rank order."""
    order: list[str] = []
    slots: Counter = Counter()
    for item in evidence:
        scored = sessions[item.unit.id].scored
        if not scored:
            slots["assistant"] += 1
        elif all(s in order for s in scored):
            slots["repeat"] += 1
        else:
            slots["new"] += 1
        if any(h.view == "context" for h in item.hits):
            slots["context"] += 1
        order.extend(s for s in scored if s not in order)
    return slots, order


def trail(
    question: LmeQuestion,
    evidence: Sequence[Evidence],
    trace: RecallTrace | None,
    units: Callable[[Iterable[str]], dict[str, MemoryUnit]],
    recipe: RecallRecipe,
) -> QuestionTrail:
    """Follow each gold session of ``question`` through one recall made with ``recipe``.

    ``units`` fetches units by id (the trace holds ids only); without a trace (baselines) only
    the returned evidence is read, as views.
    """
    reached = _reached(trace, recipe)
    returned = {e.unit.id: e.unit for e in evidence}
    fetched = units(sorted((reached.views | reached.expanded) - set(returned)))
    sessions = {
        unit_id: unit_sessions(unit, question) for unit_id, unit in {**fetched, **returned}.items()
    }
    gold = {s: SessionTrail(s) for s in question.gold_sessions}
    for unit_id, where in sessions.items():
        for session in (s for s in where.any if s in gold):
            item = gold[session]
            item.in_views |= unit_id in reached.views or unit_id in returned
            item.in_c0 |= unit_id in reached.c0
            item.by_expansion |= unit_id in reached.expanded
        for session in (s for s in where.scored if s in gold):
            gold[session].seen_user_turn = True
    slots, order = _slots(evidence, sessions)
    for rank, session in enumerate(order, start=1):
        if session in gold:
            gold[session].returned = True
            gold[session].session_rank = rank
    return QuestionTrail(
        question.id, question.question_type, list(gold.values()), dict(slots), len(order),
        reached.plan,
    )


def summarise(trails: Sequence[QuestionTrail], k: int) -> dict:
    """Per question type: questions, gold sessions, where each was lost at ``k``, the share of
    questions with every gold session found (recall_all), and the slots' make-up."""
    groups: dict[str, list[QuestionTrail]] = defaultdict(list)
    for item in trails:
        groups[item.question_type].append(item)
    groups["all"] = list(trails)
    result: dict = {}
    for name, members in sorted(groups.items()):
        stages: Counter = Counter()
        slots: Counter = Counter()
        complete = 0
        for item in members:
            lost = [drop_stage(g, k) for g in item.gold]
            stages.update(lost)
            slots.update(item.slots)
            complete += all(stage.startswith("found") for stage in lost)
        count = len(members)
        result[name] = {
            "questions": count,
            "gold_sessions": sum(len(item.gold) for item in members),
            "recall_all": 100.0 * complete / count if count else 0.0,
            "lost": {stage: stages.get(stage, 0) for stage in STAGES},
            "found": stages.get(f"found@{k}", 0),
            "slots_per_question": {
                kind: slots.get(kind, 0) / count if count else 0.0
                for kind in ("new", "repeat", "assistant", "context")
            },
            "distinct_sessions": sum(i.distinct_sessions for i in members) / count if count else 0.0,
        }
    return result
