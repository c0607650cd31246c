"""Stage: dialogue context — the neighbouring turns of the best evidence get reserved slots.

Evidence for a question is often a whole exchange: the question in one turn and its answer in
the next, or a turn and the photo it shows. The best-ranked units find one half; the other half
is usually worded unlike the query and ranks far below K. On LoCoMo dev, 32 % of the gold turns
the ranking missed were the turn right before or after a returned turn.

``context_candidates`` reads, for the ``recipe.context.anchors`` best-ranked units, their
structural neighbours (the write path's dialogue edges link the units of neighbouring turns) and
keeps those of the same episode at most ``recipe.context.turns`` turns away that bring a turn
the source does not (another piece of the source's own long turn adds no turn; in user/assistant
chats, where one long reply is cut into many units, those pieces took most of the slots), not
already in the head of the ranking, in order: the best source first, then the nearest turn, then dialogue order.
A unit whose turns the head of the ranking or an earlier context unit already holds is skipped
too: a slot reserved to bring a neighbouring turn is wasted on a second piece of the same turn
(the text and the photo caption of one turn are two units; LoCoMo dev recall@30 +0.2 alone).
Each becomes a candidate with a ``context`` hit (rank = its position in that order) and a one-hop
structural path from its source, so it is scored by rho like every other unit and its trace says
where it came from. The candidates are then scored again with the context units among them:
a context unit lends the unit of the turn beside it its alignment (rho's exchange term), as any
candidate does (keeping the first scores for every other unit read LoCoMo dev a little lower).
``assemble`` keeps ``K - recipe.context_slots`` units by rho, then up to
``context_slots`` context units, then fills any slot left with the next units by rho; each context
unit takes the score of its place (:func:`~ripplemem.read.rank.rescore`, term ``context``), so the
evidence stays best score first.
"""

from __future__ import annotations

from collections.abc import Sequence

from ripplemem.read.rank import Candidate, rescore
from ripplemem.recipes import RecallRecipe
from ripplemem.records import Evidence, ExpansionPath, Hit, MemoryUnit
from ripplemem.stores.base import MemoryStore
from ripplemem.structure import turn_distance


def context_candidates(
    store: MemoryStore,
    namespace: str,
    ranked: Sequence[Evidence],
    recipe: RecallRecipe,
) -> list[Candidate]:
    """The dialogue neighbours of the best-ranked units that the head of the ranking lacks."""
    slots = min(recipe.context_slots, recipe.budget)
    if slots <= 0 or recipe.context.anchors <= 0 or not ranked:
        return []
    head = {e.unit.id for e in ranked[: recipe.budget - slots]}
    covered = {t for e in ranked[: recipe.budget - slots] for t in e.unit.turn_ids}
    sources = [e.unit for e in ranked[: recipe.context.anchors]]
    linked = store.neighbours(namespace, [u.id for u in sources], "structural")
    wanted = sorted({n for u in sources for n, _ in linked.get(u.id, ()) if n not in head})
    if not wanted:
        return []
    # read without vectors: most neighbours are left out (another session, too far, no new turn)
    fetched = {u.id: u for u in store.get_units(namespace, wanted, with_vectors=False)}
    order: list[tuple[tuple, MemoryUnit, MemoryUnit, float]] = []
    for position, source in enumerate(sources):
        for neighbour_id, weight in linked.get(source.id, ()):
            unit = fetched.get(neighbour_id)
            if unit is None:
                continue
            distance = turn_distance(source, unit)
            if distance > recipe.context.turns or set(unit.turn_ids) <= set(source.turn_ids):
                continue  # too far, or another piece of the source's own turn: no new turn
            index = unit.extra.get("turn_index", 0)
            order.append(((position, distance, index, unit.id), source, unit, weight))
    order.sort(key=lambda item: item[0])
    chosen: list[Candidate] = []
    seen: set[str] = set()
    for _, source, unit, weight in order:
        if unit.id in seen or set(unit.turn_ids) <= covered:
            continue  # every turn it holds is in the head or an earlier context unit already
        seen.add(unit.id)
        covered.update(unit.turn_ids)
        path = ExpansionPath(source.id, "structural", (source.id, unit.id), float(weight), 0.0)
        chosen.append(Candidate(unit, [Hit("context", len(chosen), float(weight))], [path]))
        if len(chosen) >= slots:
            break
    if chosen:  # rho reads the chosen ones' vectors
        read = {u.id: u for u in store.get_units(namespace, [c.unit.id for c in chosen])}
        chosen = [Candidate(read[c.unit.id], c.hits, c.paths) for c in chosen if c.unit.id in read]
    return chosen


def assemble(
    ranked: Sequence[Evidence], context_ids: Sequence[str], budget: int, slots: int
) -> list[Evidence]:
    """``K - slots`` by rho, then the context units (in their order), then the rest by rho; the
    context units scored for their places."""
    by_id = {e.unit.id: e for e in ranked}
    head = [e for e in ranked[: max(0, budget - slots)] if e.unit.id not in context_ids]
    chosen = head + [by_id[i] for i in context_ids if i in by_id]
    taken = {e.unit.id for e in chosen}
    chosen.extend(e for e in ranked if e.unit.id not in taken)
    return rescore(chosen[:budget], set(context_ids), "context")
