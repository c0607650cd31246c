"""The supersession stage: for a question about the present, the latest answer before older ones.

It runs after the final ranking and only reorders memories that answer the question. Which units
answer it is read from the question itself (:class:`Focus`): the person it names (the *holder*),
the things it names, and what kind of answer it wants (a number for "how many", a name or a
number otherwise, none for "why" and "how"). A unit's *relevance* to the question is
the cosine of its vector with the question's vector **without the holder's name** (centred on the
namespace like the dense view's query): every memory of a person names them, and a ranking that
reads the name favours short chit-chat naming them over the memory that answers. The units that
answer are, among the first :data:`LEAD` of the ranking, the first one and the :data:`ANSWERS`
most relevant that are not questions, as long as they are within :data:`MARGIN` of the best.

An *update group* is one of:

* a chain of ``supersedes`` edges (written by :mod:`ripplemem.write.supersede`, an LLM's verdict or
  :meth:`Memory.update`) with a unit among the answering ones; its latest unit is pulled in (along
  the edges) when the ranking did not find it;
* the answering units that state a value for the holder (:mod:`ripplemem.statements`: an asserted
  clause — not negated, hypothetical, conditional, subordinate or conceded — whose subject is the
  holder, or the holder's or nobody's particular thing the question names, with a name or a
  number of the wanted kind), when the latest of them gives values none of the earlier ones
  gave: the latest and those earlier ones.

For a question about the present the latest unit of a group moves up: it takes the place of the
best-ranked older unit of its group if that is higher (a successor inherits its predecessor's
place) and, when the group concerns the holder, passes any further unit that is less relevant
than the group's best, or that the holder said without stating any value ("If I ever moved to
Munich ...": about the question, no answer to it); it never passes a unit that answers the
question better, nor one about the holder when the group is about someone else. Nothing else
moves. The moved unit gets the score of its place (:func:`~ripplemem.read.rank.rescore`, term
``supersession``), the budget is kept (a unit pulled in pushes the last one out), and the trace
notes each move.

A question with a time of its own ("in August 2023") keeps the ranking; a question asking why or
how wants no value and forms no stated group. A question about the past
(:func:`asks_about_past`: "before", "used to", "originally", "did", "was", an explicit time that
ended before the question) keeps the ranking; when it asks for an
earlier value ("before", "used to", "originally", "previous") the unit a found unit's chain
replaced is pulled in (or moved up) right after it. Every evidence unit a later unit superseded
is marked with ``superseded_by`` / ``valid_until``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Literal

import numpy as np

from ripplemem.grounding.time_patterns import NUMBERS
from ripplemem.read.rank import rescore
from ripplemem.records import (
    Cues,
    Evidence,
    ExpansionPath,
    Hit,
    MemoryUnit,
    normalise_cue,
    said_at,
    said_order,
)
from ripplemem.statements import Clause, StatementReader
from ripplemem.statements.surface import values_in
from ripplemem.stores.base import MemoryStore

_PAST = re.compile(
    r"\b(?:before|used to|originally|original|previous(?:ly)?|former(?:ly)?|earlier|at first|"
    r"first|initially|in the past|prior|back then|back when|old|was|were|did|had|until|ago|"
    r"changed?|switch(?:ed)?|history|last time)\b",
    re.IGNORECASE,
)
#: the question asks for the value before a change
_EARLIER_VALUE = re.compile(
    r"\b(?:before|used to|originally|original|previous(?:ly)?|former(?:ly)?|at first|initially|"
    r"earlier|prior|old)\b",
    re.IGNORECASE,
)
_PRESENT = re.compile(r"\b(?:now|currently|current|these days|at the moment|today|still|latest)\b", re.IGNORECASE)
#: the kind of answer a question's wh-word asks for
_NUMBER_QUESTION = re.compile(r"\bhow (?:many|much|far|long|often|big|old|tall|heavy)\b", re.IGNORECASE)
_REASON_QUESTION = re.compile(r"^\W*(?:why|how)\b", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
#: a question's time span that ended this long before the question asks about the past
_PAST_MARGIN = timedelta(days=1)
_CHAIN_DEPTH = 4
#: only units among the first LEAD of the ranking answer the question (and only they move)
LEAD = 10
#: the units that answer: the first of the ranking and the ANSWERS most relevant of the lead,
#: whose relevance is at least the best one's less MARGIN (a cosine difference)
ANSWERS = 3
MARGIN = 0.2

Relevance = Callable[[Sequence[MemoryUnit]], list[float]]


def asks_about_past(query: str, cues: Cues | None, reference_time: datetime | None) -> bool:
    """The question asks about an earlier state (old units stay eligible), not the present."""
    if _PRESENT.search(query):
        return False
    if _PAST.search(query):
        return True
    span = cues.time_span if cues is not None else None
    if span is not None and reference_time is not None and span.end is not None:
        return span.end < reference_time - _PAST_MARGIN
    return False


@dataclass(frozen=True, slots=True)
class Focus:
    """What a question asks about: whose fact, the things it names, the kind of answer."""

    holder: str | None  # normalised name; None: the question names nobody
    words: frozenset[str]  # its words but the holder's name, case-folded, with a plural's singular
    answer: Literal["number", "named", "none"]

    @classmethod
    def of(cls, query: str, cues: Cues | None) -> Focus:
        people = [normalise_cue(p) for p in (cues.participants if cues else ())]
        names = {part for p in people for part in p.split()}
        words: set[str] = set()
        for raw in _WORD.findall(query):
            word = raw.casefold().replace("’", "'").removesuffix("'s")
            for part in {word, *word.split("-")}:
                if part and part not in names:
                    words.add(part)
                    if len(part) > 3 and part.endswith("s"):
                        words.add(part[:-1])
        answer: Literal["number", "named", "none"] = "named"
        if _NUMBER_QUESTION.search(query):
            answer = "number"
        elif _REASON_QUESTION.search(query):
            answer = "none"  # "why", "how does she feel": a reason or a manner, not a value
        return cls(people[0] if people else None, frozenset(words), answer)

    def about(self, units: Sequence[MemoryUnit]) -> bool:
        """Some of ``units`` concern the holder (always, when the question names nobody)."""
        return self.holder is None or any(
            normalise_cue(p) == self.holder for u in units for p in u.participants
        )

    def answered_by(self, clause: Clause) -> bool:
        """The clause states a value of the wanted kind for the holder (see the module doc)."""
        if self.answer == "none" or not clause.asserted:
            return False
        if self.holder is not None and clause.speaker != self.holder:
            return False
        named_thing = clause.kind == "thing" and clause.owner in ("speaker", "") and clause.definite
        about_holder = (
            clause.kind == "speaker"
            or (named_thing and bool(clause.subject_words & self.words))
            or bool(clause.object_words & self.words)  # "the clinic moved my check-up"
        )
        if not about_holder:
            return False
        return bool(self.values(clause))

    def values(self, clause: Clause) -> frozenset[str]:
        """The clause's values of the wanted kind: its numbers for "how many", else its names
        and numbers (a value two statements can be told apart by)."""
        if self.answer == "number":
            return frozenset(w for w in clause.named if w[:1].isdigit() or _number_word(w))
        return clause.named


def _number_word(word: str) -> bool:
    return word in NUMBERS  # the number words time grounding reads ("three", "twelve")


def nameless_query(query: str, cues: Cues | None) -> str:
    """The question without the names of the people it asks about ("Where does Maya live?" ->
    "Where does live?")."""
    text = query
    for name in cues.participants if cues else ():
        text = re.sub(rf"\b{re.escape(name)}(?:['’]s)?\b", " ", text, flags=re.IGNORECASE)
    return " ".join(text.split())


@dataclass(slots=True)
class _Chains:
    """The ``supersedes`` neighbours of units, fetched as needed (one store call per step)."""

    store: MemoryStore
    namespace: str
    units: dict[str, MemoryUnit]
    links: dict[str, list[str]] = field(default_factory=dict)

    def load(self, ids: Sequence[str]) -> None:
        asked = [i for i in ids if i not in self.links]
        if not asked:
            return
        found = self.store.neighbours(self.namespace, asked, "supersedes")
        for unit_id in asked:
            self.links[unit_id] = [other for other, _ in found.get(unit_id, [])]
        missing = list(dict.fromkeys(o for i in asked for o in self.links[i] if o not in self.units))
        if missing:
            for unit in self.store.get_units(self.namespace, missing, with_vectors=False):
                self.units[unit.id] = unit

    def successor(self, unit_id: str) -> MemoryUnit | None:
        unit = self.units[unit_id]
        later = [self.units[o] for o in self.links.get(unit_id, []) if o in self.units]
        later = [u for u in later if said_order(u) > said_order(unit)]
        return min(later, key=said_order) if later else None

    def predecessor(self, unit_id: str) -> MemoryUnit | None:
        unit = self.units[unit_id]
        earlier = [self.units[o] for o in self.links.get(unit_id, []) if o in self.units]
        earlier = [u for u in earlier if said_order(u) < said_order(unit)]
        return max(earlier, key=said_order) if earlier else None

    def members(self, unit_id: str) -> list[MemoryUnit]:
        """The unit and the chain after it, up to :data:`_CHAIN_DEPTH` steps, earliest first."""
        found, current = [self.units[unit_id]], unit_id
        for _ in range(_CHAIN_DEPTH):
            self.load([current])
            after = self.successor(current)
            if after is None or after in found:
                break
            found.append(after)
            current = after.id
        before, current = [], unit_id
        for _ in range(_CHAIN_DEPTH):
            self.load([current])
            earlier = self.predecessor(current)
            if earlier is None or earlier in found or earlier in before:
                break
            before.append(earlier)
            current = earlier.id
        return before[::-1] + found


def apply_supersession(
    evidence: Sequence[Evidence],
    *,
    store: MemoryStore,
    namespace: str,
    query: str,
    cues: Cues | None,
    reference_time: datetime | None,
    notes: list[str],
    relevance: Relevance | None = None,
    statements: StatementReader | None = None,
) -> list[Evidence]:
    """Mark superseded evidence and reorder it for the question's time (see the module doc).

    ``relevance``: each unit's relevance to the question without its holder's name (None: the
    chains alone, with the first unit's place as the only answer); ``statements``: reads the
    units' clauses (None: no update group is read from what the units say)."""
    if not evidence:
        return list(evidence)
    chains = _Chains(store, namespace, {e.unit.id: e.unit for e in evidence})
    chains.load([e.unit.id for e in evidence])
    linked = any(chains.links.get(e.unit.id) for e in evidence)
    past = asks_about_past(query, cues, reference_time)
    if not past and cues is not None and cues.time_span is not None:
        return [_mark(e, chains) for e in evidence]  # a time of its own ("in August 2023")
    if past:
        if not linked:
            return list(evidence)
        if _EARLIER_VALUE.search(query):
            ordered, moved = _with_predecessors(evidence, chains)
        else:
            ordered, moved = list(evidence), set()
        mode = "an earlier value (the replaced units pulled in)"
    else:
        ordered, moved = _latest_first(evidence, chains, Focus.of(query, cues), relevance, statements, notes)
        mode = "the present"
    budget = len(evidence)
    kept = {e.unit.id for e in evidence}
    pulled = [e.unit.id for e in ordered[:budget] if e.unit.id not in kept]
    marked = [_mark(e, chains) for e in rescore(ordered[:budget], moved, "supersession")]
    if moved:
        notes.append(
            f"supersession: the question asks about {mode}; {len(moved)} units moved up, "
            f"{len(pulled)} pulled in along supersedes edges"
            + (f" ({', '.join(pulled)})" if pulled else "")
        )
    return marked


def _latest_first(
    evidence: Sequence[Evidence],
    chains: _Chains,
    focus: Focus,
    relevance: Relevance | None,
    statements: StatementReader | None,
    notes: list[str],
) -> tuple[list[Evidence], set[str]]:
    lead = list(evidence[:LEAD])
    groups = _chain_groups(lead, chains)
    if not groups and (statements is None or relevance is None or not _may_update(lead, focus)):
        return list(evidence), set()
    scores = relevance([e.unit for e in lead]) if relevance is not None else [0.0] * len(lead)
    by_id = {e.unit.id: r for e, r in zip(lead, scores, strict=True)}
    answering = {lead[0].unit.id}
    if relevance is not None:
        asked = [(r, i) for i, r in enumerate(scores) if not _question(lead[i].unit)]
        best = sorted(asked, reverse=True)[:ANSWERS]
        answering |= {lead[i].unit.id for r, i in best if r >= best[0][0] - MARGIN}
    stated, silent = _stated_group(lead, answering, focus, statements) if relevance is not None else ([], set())
    if stated:
        groups.append(stated)
    ordered = list(evidence)
    moved: set[str] = set()
    for group in groups:
        present = [u for u in group if u.id in answering]
        if not present:
            continue  # no member answers the question: its chain is not what is asked about
        latest = max(group, key=said_order)
        reach = max(by_id.get(u.id, -np.inf) for u in present)
        if not focus.about(group):
            reach = -np.inf  # another person's chain: its latest unit only takes its place
        placed = _move_up(ordered, latest, group, reach, by_id, moved, silent if focus.about(group) else set())
        if placed is not None:
            ordered = placed
            moved.add(latest.id)
    if stated:
        notes.append(
            f"supersession: {len(stated)} answering units state a value for "
            f"{focus.holder or 'one speaker'}; the latest said leads them"
        )
    return ordered, moved


def _may_update(lead: Sequence[Evidence], focus: Focus) -> bool:
    """The cheap test before the question is embedded again and units parsed: two units of the
    lead about the holder, said at different times, that name or count something."""
    if focus.answer == "none":
        return False
    holder = set(focus.holder.split()) if focus.holder else set()
    times = {
        said_at(e.unit) for e in lead
        if focus.about([e.unit]) and not _question(e.unit) and values_in(e.unit.restatement, holder)
    }
    return len(times) >= 2


def _question(unit: MemoryUnit) -> bool:
    """A unit that only asks ("Tom asked: Any news?") answers nothing."""
    return unit.restatement.rstrip().endswith("?") and " asked: " in f" {unit.restatement}"


def _chain_groups(lead: Sequence[Evidence], chains: _Chains) -> list[list[MemoryUnit]]:
    groups: list[list[MemoryUnit]] = []
    seen: set[str] = set()
    for item in lead:
        if item.unit.id in seen or not chains.links.get(item.unit.id):
            continue
        members = chains.members(item.unit.id)
        seen.update(u.id for u in members)
        groups.append(members)
    return groups


def _stated_group(
    lead: Sequence[Evidence], answering: set[str], focus: Focus, statements: StatementReader | None
) -> tuple[list[MemoryUnit], set[str]]:
    """The answering units that state a value for the holder (when two or more were said at
    different times; a question that names nobody: by the speaker of the first-ranked one), and
    the answering units the holder said that state none
    ("If I ever moved to Munich ...": about the question, but no answer to it)."""
    if statements is None:
        return [], set()
    units = [e.unit for e in lead if e.unit.id in answering]
    if focus.holder is not None:
        units = [u for u in units if any(normalise_cue(p) == focus.holder for p in u.participants)]
    if not units:
        return [], set()
    read = statements.clauses(units)
    values = {
        u.id: frozenset(w for c in clauses if focus.answered_by(c) for w in focus.values(c))
        for u, clauses in zip(units, read, strict=True)
    }
    stating = [u for u in units if values[u.id]]
    silent = {
        u.id for u, clauses in zip(units, read, strict=True)
        if u not in stating and focus.holder is not None
        and all(c.speaker == focus.holder for c in clauses) and clauses
    }
    if stating and focus.holder is None:  # one speaker's values: the first-ranked one's
        first = _speaker(stating[0])
        stating = [u for u in stating if _speaker(u) == first]
    if len(stating) < 2:
        return [], silent
    latest = max(stating, key=said_order)
    # a new value: the older statements that did not give all the values the latest gives
    older = [
        u for u in stating
        if said_at(u) < said_at(latest) and values[latest.id] - values[u.id]
    ]
    return ([*older, latest] if older else []), silent


def _speaker(unit: MemoryUnit) -> str:
    return normalise_cue(unit.participants[0]) if unit.participants else ""


def _move_up(
    ordered: list[Evidence],
    latest: MemoryUnit,
    group: Sequence[MemoryUnit],
    reach: float,
    relevance: dict[str, float],
    moved: set[str],
    silent: set[str],
) -> list[Evidence] | None:
    """``ordered`` with ``latest`` at the place of its group's best-ranked older member, then up
    past the units less relevant than ``reach`` or ``silent`` (the holder's words that answer
    nothing), not past a unit another group moved (``reach`` ``-inf``: no further); None when it
    stays where it is."""
    ids = [e.unit.id for e in ordered]
    older = {u.id for u in group if said_order(u) < said_order(latest)}
    places = [i for i, unit_id in enumerate(ids) if unit_id in older]
    if not places:
        return None
    here = ids.index(latest.id) if latest.id in ids else len(ids)
    target = min(min(places), here)
    while target > 0:
        above = ids[target - 1]
        if above in moved or (relevance.get(above, np.inf) >= reach and above not in silent):
            break
        target -= 1
    if target == here:
        return None  # already above its older values and every unit it may pass
    item = ordered[here] if here < len(ordered) else _pulled(latest, ordered[min(places)])
    rest = [e for e in ordered if e.unit.id != latest.id]
    return rest[:target] + [item] + rest[target:]


def _pulled(unit: MemoryUnit, source: Evidence) -> Evidence:
    path = ExpansionPath(source.unit.id, "supersedes", (source.unit.id, unit.id), 1.0, 0.0)
    return Evidence(unit, source.score, (Hit("expansion", 0, 1.0),), None, (path,))


def _with_predecessors(evidence: Sequence[Evidence], chains: _Chains) -> tuple[list[Evidence], set[str]]:
    """Each found unit followed by the unit it replaced, pulled in or moved up from below."""
    ranks = {e.unit.id: rank for rank, e in enumerate(evidence)}
    out: list[Evidence] = []
    placed: set[str] = set()
    moved: set[str] = set()
    for rank, item in enumerate(evidence):
        if item.unit.id in placed:
            continue
        out.append(item)
        placed.add(item.unit.id)
        before = chains.predecessor(item.unit.id)
        if before is not None and before.id not in placed and ranks.get(before.id, rank + 1) > rank + 1:
            found = ranks.get(before.id)
            out.append(evidence[found] if found is not None else _pulled(before, item))
            placed.add(before.id)
            moved.add(before.id)
    return out, moved


def _mark(item: Evidence, chains: _Chains) -> Evidence:
    chains.load([item.unit.id])
    after = chains.successor(item.unit.id)
    if after is None:
        return item
    return replace(item, superseded_by=after.id, valid_until=said_at(after))
