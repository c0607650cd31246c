"""The supersession stage: the latest value first for questions about the present.

After the final ranking, each evidence unit that a later unit superseded (a ``supersedes`` edge,
:mod:`ripplemem.records.supersession`) is marked with ``superseded_by`` / ``valid_until``. Then:

* a question about the present ranks a superseded unit right below the latest unit of its chain,
  and pulls that successor in (diffusion along ``supersedes``) when the ranking did not find it;
  the latest units of the chains with a unit in the first ten go first;
* a question about the past (:func:`asks_about_past`: "before", "used to", "originally", "did",
  "was", an explicit time that ended before the question) keeps old units where the ranking put
  them; when it asks for an earlier value ("before", "used to", "originally", "previous"), the
  unit a found unit replaced is pulled in (or moved up) right after it.

The budget is kept: what is pulled in pushes the last evidence out. The trace notes each change.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from ripplemem.records import Cues, Evidence, ExpansionPath, Hit, MemoryUnit, said_at, said_order
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
#: a question's time span that ended this long before the question asks about the past
_PAST_MARGIN = timedelta(days=1)
_CHAIN_DEPTH = 4
#: a chain with a unit this high in the ranking leads a question about the present
_LEAD = 10


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


class _Chains:
    """The ``supersedes`` neighbours of units, fetched as needed (one store call per step)."""

    def __init__(self, store: MemoryStore, namespace: str, known: Sequence[MemoryUnit]) -> None:
        self.store, self.namespace = store, namespace
        self.units: dict[str, MemoryUnit] = {u.id: u for u in known}
        self.links: dict[str, list[str]] = {}

    def load(self, ids: Sequence[str]) -> None:
        asked = [i for i in ids if i not in self.links]
        if not asked:
            return
        found = self.store.neighbours(self.namespace, asked, "supersedes")
        for unit_id in asked:
            self.links[unit_id] = [other for other, _ in found.get(unit_id, [])]
        missing = [o for i in asked for o in self.links[i] if o not in self.units]
        if missing:
            for unit in self.store.get_units(self.namespace, list(dict.fromkeys(missing)), with_vectors=False):
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

    def latest(self, unit_id: str) -> MemoryUnit | None:
        """The last unit of the chain after ``unit_id`` (None when nothing superseded it)."""
        current, last = unit_id, None
        for _ in range(_CHAIN_DEPTH):
            self.load([current])
            nxt = self.successor(current)
            if nxt is None:
                break
            current, last = nxt.id, nxt
        return last


def apply_supersession(
    evidence: Sequence[Evidence],
    *,
    store: MemoryStore,
    namespace: str,
    query: str,
    cues: Cues | None,
    reference_time: datetime | None,
    notes: list[str],
) -> list[Evidence]:
    """Mark superseded evidence and reorder it for the question's time (see the module doc)."""
    if not evidence:
        return list(evidence)
    chains = _Chains(store, namespace, [e.unit for e in evidence])
    chains.load([e.unit.id for e in evidence])
    if not any(chains.links.get(e.unit.id) for e in evidence):
        return list(evidence)
    past = asks_about_past(query, cues, reference_time)
    if not past:
        ordered = _latest_first(evidence, chains)
    elif _EARLIER_VALUE.search(query):
        ordered = _with_predecessors(evidence, chains)
    else:
        ordered = list(evidence)
    budget = len(evidence)
    pulled = [e.unit.id for e in ordered if e.unit.id not in {x.unit.id for x in evidence}]
    moved = sum(
        1 for rank, e in enumerate(ordered[:budget])
        if rank < len(evidence) and evidence[rank].unit.id != e.unit.id
    )
    marked = [_mark(e, chains) for e in ordered[:budget]]
    if moved or pulled:
        mode = "an earlier value (the replaced units pulled in)" if past else "the present"
        notes.append(
            f"supersession: the question asks about {mode}; {moved} ranks changed, "
            f"{len(pulled)} units pulled in along supersedes edges"
            + (f" ({', '.join(pulled)})" if pulled else "")
        )
    return marked


def _pulled(unit: MemoryUnit, source: Evidence) -> Evidence:
    path = ExpansionPath(source.unit.id, "supersedes", (source.unit.id, unit.id), 1.0, 0.0)
    return Evidence(unit, source.score, (Hit("expansion", 0, 1.0),), None, (path,))


def _latest_first(evidence: Sequence[Evidence], chains: _Chains) -> list[Evidence]:
    """Each superseded unit right below the latest unit of its chain; the latest units of the
    chains found among the first ``_LEAD`` go first (a changing fact found near the top is what
    a question about the present asks for)."""
    by_id = {e.unit.id: e for e in evidence}
    out: list[Evidence] = []
    placed: set[str] = set()
    for item in evidence[:_LEAD]:
        latest = chains.latest(item.unit.id)
        if latest is None and chains.links.get(item.unit.id):
            latest = item.unit  # the chain's latest unit itself
        if latest is not None and latest.id not in placed:
            out.append(by_id.get(latest.id) or _pulled(latest, item))
            placed.add(latest.id)
    for item in evidence:
        if item.unit.id in placed:
            continue
        latest = chains.latest(item.unit.id)
        if latest is not None and latest.id not in placed:
            out.append(by_id.get(latest.id) or _pulled(latest, item))
            placed.add(latest.id)
        out.append(item)
        placed.add(item.unit.id)
    return out


def _with_predecessors(evidence: Sequence[Evidence], chains: _Chains) -> list[Evidence]:
    """Each found unit followed by the unit it replaced, pulled in or moved up from below."""
    ranks = {e.unit.id: rank for rank, e in enumerate(evidence)}
    out: list[Evidence] = []
    placed: set[str] = set()
    for rank, item in enumerate(evidence):
        if item.unit.id in placed:
            continue
        out.append(item)
        placed.add(item.unit.id)
        before = chains.predecessor(item.unit.id)
        if before is not None and before.id not in placed and ranks.get(before.id, rank + 1) > rank:
            found = ranks.get(before.id)
            out.append(evidence[found] if found is not None else _pulled(before, item))
            placed.add(before.id)
    return out


def _mark(item: Evidence, chains: _Chains) -> Evidence:
    chains.load([item.unit.id])
    after = chains.successor(item.unit.id)
    if after is None:
        return item
    return replace(item, superseded_by=after.id, valid_until=said_at(after))
