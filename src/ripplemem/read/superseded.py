"""Stage: mark the evidence the store says was replaced, after every recipe.

A unit's supersession is a fact of the store, not of a search. Each evidence unit that a
``supersedes`` edge (new -> old) says was replaced gets ``superseded_by``, the first of the units
that replaced it in chain order (as :meth:`Memory.history <ripplemem.Memory.history>` says), and
``valid_until``, when that unit was said; a unit nothing replaced gets neither. The edges are
read from the store itself, never from the filtered view a recall under ``filters`` reads
(:mod:`ripplemem.read.filtered`): a successor the filter leaves out (another metadata value,
another speaker) still marks the unit it replaced, which would otherwise look current. Only a
``before`` bound asks for the state as of an earlier time: a successor said at or after it does
not mark (:meth:`~ripplemem.records.filters.SearchFilter.before_bound`).

Every recipe's evidence is marked so, ``ripple-no-supersession`` and the baselines too: the
marks say what the store holds, the recipe only how the evidence is ranked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ripplemem.records import Evidence, MemoryUnit, chain_order, said_at
from ripplemem.records.filters import SearchFilter
from ripplemem.stores.base import MemoryStore, supersedes_of

__all__ = ["mark_superseded"]


def mark_superseded(
    evidence: Sequence[Evidence], store: MemoryStore, namespace: str, where: SearchFilter | None = None
) -> list[Evidence]:
    """``evidence`` with each unit's ``superseded_by`` / ``valid_until`` as ``store`` holds them,
    as of ``where``'s ``before`` bound (see the module doc); the order is kept."""
    if not evidence:
        return list(evidence)
    newer = {
        unit_id: after
        for unit_id, (after, _) in supersedes_of(store, namespace, [e.unit.id for e in evidence]).items()
        if after
    }
    wanted = sorted({i for after in newer.values() for i in after})
    units = {u.id: u for u in store.get_units(namespace, wanted, with_vectors=False)} if wanted else {}
    marked = []
    for item in evidence:
        later = [
            units[i] for i in newer.get(item.unit.id, ()) if i in units
            and (where is None or where.before_bound(said_at(units[i])))
        ]
        first = _first(store, namespace, later)
        if first is None and item.superseded_by is None and item.valid_until is None:
            marked.append(item)  # nothing replaced it, and it says so already
            continue
        marked.append(replace(
            item, superseded_by=first.id if first else None, valid_until=said_at(first) if first else None
        ))
    return marked


def _first(store: MemoryStore, namespace: str, units: list[MemoryUnit]) -> MemoryUnit | None:
    """The first of ``units`` in chain order (the edges among them first, then when said)."""
    if len(units) < 2:
        return units[0] if units else None
    among = {u.id for u in units}
    older = {
        unit_id: [o for o in before if o in among]
        for unit_id, (_, before) in supersedes_of(store, namespace, sorted(among)).items()
    }
    return chain_order(units, older)[0]
