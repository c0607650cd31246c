"""Stage: the recall planner ``(d_r, A_r, g_r, s_r) = Pi(q, c_q, C)`` (reference §1, read step 3).

:class:`Planner` is the seam; :class:`DeterministicPlanner` is the offline default (no LLM) and
the fallback of :class:`~ripplemem.read.planner_llm.LLMPlanner`.

How the deterministic planner decides:

* **Coverage.** A query cue is covered by an evidence unit when the unit carries it: a participant
  or location in its cue fields or named in its restatement, the query time overlapping its time
  (event span, else the day it was said), a keyword among its restatement's / keywords' terms.
* **Continue or stop.** Stop when there is no evidence, when the query has no cue to look for,
  or when every query cue is covered by at least ``SUPPORT_MIN`` evidence units and the question
  does not ask for several memories. Otherwise continue: some cue is uncovered (missing
  support), covered by one unit only (thin support — a single memory may be the wrong one), or
  the answer gathers several memories ("how many", "before", a plural such as "books": the
  paper's list example). The paper's answerable questions triggered a second round 61 % of the
  time; continuing costs one bounded, local diffusion, so doubt resolves towards continuing.
* **Anchors** (at most ``recipe.expansion.max_anchors``), greedily by
  ``ALIGN_WEIGHT * a(e) + GATEWAY_WEIGHT * (g(e) + g_new(e)) / 2`` where ``a`` is the unit's
  normalised query alignment (its ranking term), ``g`` the share of the query's structural cue
  values (people, places, time) the unit carries in its cue fields — structural edges are built
  from exactly those fields, so such a unit is a gateway to other memories of the same people,
  places and days — and ``g_new`` the share not yet carried by the anchors picked before (spreads
  the anchors over the query's cues). Directly useful *and* a gateway.
  For a question that gathers several memories (``asks_for_several``) and
  ``recipe.expansion.gather``, each anchor comes from a different episode while the evidence
  holds one: the answer is spread over sessions, and anchors in one session reach the same ones.
* **Goal.** Cues for the missing support: the query's uncovered participants / locations / time
  and keywords; when everything is covered but thin, all of the query's structural cues and its
  thinly covered keywords. The goal text is a memory-style statement built from those words and
  names ("Caroline talked about allergies at Harbor Grill."), never a question: it is matched
  against restatements, which are statements.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from operator import attrgetter
from typing import Protocol, runtime_checkable

from ripplemem.recipes import RecallRecipe
from ripplemem.records import Cues, Evidence, MemoryUnit, RecallPlan, TimeSpan, normalise_cue
from ripplemem.structure import cue_set, structural_time

SUPPORT_MIN = 2
#: Phrases of questions whose answer gathers several memories (counts, lists, comparisons).
SEVERAL_MARKERS = (
    "how many",
    "how often",
    "how long",
    "all",
    "every",
    "each",
    "list",
    "both",
    "ever",
    "times",
    "different",
    "other",
    "else",
    "first",
    "last",
    "before",
    "after",
)
ALIGN_WEIGHT = 0.6
GATEWAY_WEIGHT = 0.4
MAX_GOAL_WORDS = 8


@runtime_checkable
class Planner(Protocol):
    """Decides whether recall continues, from which anchors, and towards which goal."""

    def plan(
        self, query: str, cues: Cues, evidence: Sequence[Evidence], *, recipe: RecallRecipe
    ) -> RecallPlan: ...


@dataclass(frozen=True, slots=True)
class Coverage:
    """How many evidence units carry each query cue, up to :data:`SUPPORT_MIN` (``time`` is
    None when no time is asked)."""

    participants: dict[str, int]
    locations: dict[str, int]
    time: int | None
    keywords: dict[str, int]

    def missing(self) -> tuple[list[str], list[str], bool, list[str]]:
        return (
            _below(self.participants, 1),
            _below(self.locations, 1),
            self.time == 0,
            _below(self.keywords, 1),
        )

    def thin(self) -> tuple[list[str], list[str], bool, list[str]]:
        return (
            _below(self.participants, SUPPORT_MIN),
            _below(self.locations, SUPPORT_MIN),
            self.time is not None and self.time < SUPPORT_MIN,
            _below(self.keywords, SUPPORT_MIN),
        )


def _below(counts: dict[str, int], minimum: int) -> list[str]:
    return [cue for cue, n in counts.items() if n < minimum]


def _named(name: str, text: str) -> bool:
    return _name_pattern(name).search(text) is not None


@lru_cache(maxsize=1024)
def _name_pattern(name: str) -> re.Pattern[str]:
    """``name`` on word boundaries, any spacing and case (built once per name, not per unit)."""
    pattern = (
        r"(?<!\w)" + r"\s+".join(re.escape(p) for p in normalise_cue(name).split()) + r"(?!\w)"
    )
    return re.compile(pattern, flags=re.IGNORECASE)


@lru_cache(maxsize=8192)
def _term_set(text: str) -> frozenset[str]:
    """The index terms of ``text`` (a unit's restatement is read by every recall it is in)."""
    from ripplemem.stores.text import terms

    return frozenset(terms(text))


def coverage(cues: Cues, units: Sequence[MemoryUnit]) -> Coverage:
    """Count, per query cue, the evidence units that carry it, up to :data:`SUPPORT_MIN`: the
    planner reads no more (missing: none, thin: fewer), so a cue stops being looked for in the
    units once that many carry it, and a unit's words are read only when a keyword is looked
    for in it."""
    words: dict[str, frozenset[str]] = {}

    def unit_words(unit: MemoryUnit) -> frozenset[str]:
        found = words.get(unit.id)
        if found is None:
            found = words[unit.id] = _term_set(unit.restatement) | _term_set(" ".join(unit.keywords))
        return found

    def count_names(name: str, of_unit: Callable[[MemoryUnit], tuple[str, ...]]) -> int:
        key = normalise_cue(name)
        return _count(u for u in units if key in cue_set(of_unit(u)) or _named(name, u.restatement))

    time = None
    if cues.time_span is not None:
        span = cues.time_span
        time = _count(u for u in units if (s := structural_time(u)) is not None and s.overlaps(span))
    return Coverage(
        participants={p: count_names(p, attrgetter("participants")) for p in cues.participants},
        locations={loc: count_names(loc, attrgetter("locations")) for loc in cues.locations},
        time=time,
        keywords={k: _count(u for u in units if _term_set(k) <= unit_words(u)) for k in cues.keywords},
    )


def _count(found: Iterable[object]) -> int:
    """How many ``found`` yields, counting no further than :data:`SUPPORT_MIN`."""
    return sum(1 for _ in islice(found, SUPPORT_MIN))


def asks_for_several(query: str, cues: Cues) -> str:
    """The marker of a question whose answer spans several memories ("how many", a plural
    content word such as "books"), or "" when there is none."""
    from ripplemem.stores.text import terms

    folded = " ".join(query.casefold().split())
    for marker in SEVERAL_MARKERS:
        if re.search(r"(?<!\w)" + re.escape(marker) + r"(?!\w)", folded):
            return repr(marker)
    names = {w for n in (*cues.participants, *cues.locations) for w in normalise_cue(n).split()}
    for word in cues.keywords:
        if word in names or not word.endswith("s") or word.endswith("ss"):
            continue
        if terms(word) and terms(word)[0] != word:
            return f"plural {word!r}"
    return ""


def carried(unit: MemoryUnit, cues: Cues) -> set[str]:
    """The query's structural cue values (tagged P:/L:/T:) that the unit carries in its fields."""
    people, places = cue_set(unit.participants), cue_set(unit.locations)
    values = {f"P:{p}" for p in cue_set(cues.participants) if p in people}
    values |= {f"L:{loc}" for loc in cue_set(cues.locations) if loc in places}
    span = structural_time(unit)
    if cues.time_span is not None and span is not None and span.overlaps(cues.time_span):
        values.add("T:")
    return values


def cue_count(cues: Cues) -> int:
    return len(cues.participants) + len(cues.locations) + (1 if cues.time_span else 0)


def alignment_of(evidence: Sequence[Evidence]) -> dict[str, float]:
    """Each item's normalised query alignment (its ranking term, else its min-max score)."""
    if all(e.terms is not None for e in evidence):
        return {e.unit.id: e.terms.alignment for e in evidence}  # type: ignore[union-attr]
    scores = [e.score for e in evidence]
    low, high = min(scores), max(scores)
    span = high - low
    return {e.unit.id: (e.score - low) / span if span > 0 else 1.0 for e in evidence}


def anchor_score(alignment: float, carries: set[str], covered: set[str], total: int) -> float:
    """``ALIGN_WEIGHT * a + GATEWAY_WEIGHT * (g + g_new) / 2`` (see the module docstring)."""
    if not total:
        return ALIGN_WEIGHT * alignment
    g = len(carries) / total
    g_new = len(carries - covered) / total
    return ALIGN_WEIGHT * alignment + GATEWAY_WEIGHT * (g + g_new) / 2


def pick_anchors(
    cues: Cues, evidence: Sequence[Evidence], limit: int, *, across_episodes: bool = False
) -> tuple[str, ...]:
    """Greedy: directly useful (alignment) and gateways to more of the query's cues.

    Ties go to the earlier (better-ranked) evidence item. ``across_episodes`` (a question that
    gathers several memories): each anchor comes from an episode no earlier anchor is in, while
    the evidence holds one — three anchors in one session walk the same neighbourhood."""
    aligned = alignment_of(evidence)
    total = cue_count(cues)
    carries = {e.unit.id: carried(e.unit, cues) if total else set() for e in evidence}
    position = {e.unit.id: i for i, e in reversed(list(enumerate(evidence)))}
    pool = list(position)
    episode = {e.unit.id: e.unit.episode_id for e in evidence}
    chosen: list[str] = []
    covered: set[str] = set()
    while pool and len(chosen) < limit:
        taken = {episode[i] for i in chosen}
        fresh = [i for i in pool if episode[i] not in taken] if across_episodes else pool
        best = max(
            fresh or pool,
            key=lambda i: (anchor_score(aligned[i], carries[i], covered, total), -position[i]),
        )
        chosen.append(best)
        covered |= carries[best]
        pool.remove(best)
    return tuple(chosen)


def describe_time(span: TimeSpan) -> str:
    start, end = span.start, span.end
    if start.date() == end.date():
        return f"on {start:%d %B %Y}"
    if (start.year, start.month) == (end.year, end.month):
        return f"in {start:%B %Y}"
    if start.year == end.year and start.month == 1 and end.month == 12:
        return f"in {start.year}"
    return f"between {start:%d %B %Y} and {end:%d %B %Y}"


def _join(items: Sequence[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def goal_sentence(
    participants: Sequence[str],
    locations: Sequence[str],
    time_span: TimeSpan | None,
    words: Sequence[str],
) -> str:
    """A memory-style statement: "<people> talked about <words> at <places> <time>."."""
    names = {normalise_cue(n) for n in [*participants, *locations]}
    name_words = {w for n in names for w in n.split()}
    topic = [w for w in words if w not in name_words][:MAX_GOAL_WORDS]
    subject = _join(participants) if participants else "They"
    if topic:
        sentence = f"{subject} talked about {_join(topic)}"
        if locations:
            sentence += f" at {_join(locations)}"
    elif locations:
        sentence = f"{subject} went to {_join(locations)}"
    else:
        sentence = f"{subject} shared what happened"
    if time_span is not None:
        sentence += " " + describe_time(time_span)
    return sentence + "."


@dataclass(frozen=True, slots=True)
class Decision:
    """What the deterministic planner decides from the evidence's units alone (their order does
    not matter): ``stop`` (the plan that ends recall), or go on towards ``goal`` for ``reason``;
    ``several``: the marker of a question that gathers several memories ("" when none)."""

    stop: RecallPlan | None
    goal: Cues | None = None
    reason: str = ""
    several: str = ""


class DeterministicPlanner:
    """The offline recall planner: coverage of the query's cues decides, no LLM.

    :meth:`decide` reads only which units the evidence holds, not their ranking; only the anchors
    of a plan that goes on (:meth:`anchored`) read the ranked evidence, so a caller may rank the
    evidence only when the decision is to go on."""

    name = "deterministic"

    def plan(
        self, query: str, cues: Cues, evidence: Sequence[Evidence], *, recipe: RecallRecipe
    ) -> RecallPlan:
        decision = self.decide(query, cues, [e.unit for e in evidence])
        return self.anchored(decision, cues, evidence, recipe=recipe)

    def decide(self, query: str, cues: Cues, units: Sequence[MemoryUnit]) -> Decision:
        """Stop or go on, and towards which goal (the module doc's coverage rules)."""
        if not units:
            return Decision(self._stop("no evidence to anchor on"))
        if not (cues.keywords or cues.has_structure):
            return Decision(self._stop("the query carries no cue to look for"))
        cover = coverage(cues, units)
        several = asks_for_several(query, cues)
        people, places, time, words = cover.missing()
        if people or places or time or words:
            reason = "continue: missing support for " + _describe(people, places, time, words)
            goal = Cues(
                keywords=tuple(words),
                participants=tuple(people) or cues.participants,
                locations=tuple(places) or cues.locations,
                time_span=cues.time_span,
            )
        else:
            people, places, time, words = cover.thin()
            if not (people or places or time or words or several):
                return Decision(self._stop(
                    f"every query cue is covered by at least {SUPPORT_MIN} evidence units"
                ))
            if people or places or time or words:
                reason = "continue: thin support (one unit) for " + _describe(
                    people, places, time, words
                )
            else:
                reason = f"continue: the question asks for several memories ({several})"
            goal = Cues(
                keywords=tuple(words) or cues.keywords,
                participants=cues.participants,
                locations=cues.locations,
                time_span=cues.time_span,
            )
        return Decision(None, goal, reason, several)

    def anchored(
        self, decision: Decision, cues: Cues, evidence: Sequence[Evidence], *, recipe: RecallRecipe
    ) -> RecallPlan:
        """The plan of ``decision``: its stop, or its goal from anchors of the ranked evidence."""
        if decision.stop is not None or decision.goal is None:
            return decision.stop or self._stop("no goal")
        goal = decision.goal
        text = goal_sentence(goal.participants, goal.locations, goal.time_span, goal.keywords)
        anchors = pick_anchors(
            cues, evidence, recipe.expansion.max_anchors,
            across_episodes=bool(decision.several) and recipe.expansion.gather,
        )
        return RecallPlan(
            proceed=True,
            anchors=anchors,
            goal=Cues(
                text=text,
                keywords=goal.keywords,
                participants=goal.participants,
                locations=goal.locations,
                time_span=goal.time_span,
            ),
            stop_reason=decision.reason,
            planner=self.name,
        )

    def _stop(self, reason: str) -> RecallPlan:
        return RecallPlan(
            proceed=False, anchors=(), goal=None, stop_reason=reason, planner=self.name
        )


def _describe(people: list[str], places: list[str], time: bool, words: list[str]) -> str:
    parts = []
    if people:
        parts.append("people " + ", ".join(people))
    if places:
        parts.append("places " + ", ".join(places))
    if time:
        parts.append("the asked time")
    if words:
        parts.append("keywords " + ", ".join(words))
    return "; ".join(parts)
