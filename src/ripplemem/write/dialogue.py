"""Stage: dialogue edges — the units of neighbouring turns of one episode are linked.

The paper's structural edges relate units by who / where / when. The finest "when" is the order
of the dialogue itself: a turn and the turn that answers it belong to one exchange, and the
evidence for a question is often both halves of it ("what did X recommend?" -> the question in
one turn, the recommendation in the next, the photo caption in a third). The linker's
who/where/when score cannot see that: in a two-person chat every unit of a session shares the
speakers and the day, so its 6 structural slots go to arbitrary units of the episode (on LoCoMo
only 8 % of adjacent-turn pairs were linked).

``DialogueLinker.link(units)`` adds a structural edge of weight 1.0 between units whose
``extra["turn_index"]`` (recorded by the write pipeline) differ by at most ``reach`` within the
same episode, including units of the same turn (a turn's text and its photo). They are bounded by
construction (a unit has at most ``2 * reach + 1`` turns of neighbours). They are added after the
linker has given a batch its who/where/when edges, so a new unit keeps its 6 of those plus its
dialogue edges; when later units are linked, an older unit's dialogue edges count toward its
6-edge cap and, at the maximum weight, are never the ones evicted (the linker's weakest edge
goes instead). Positions are remembered across the batches of one ``add`` call; turns added by
separate calls are not linked this way.
"""

from __future__ import annotations

from collections.abc import Sequence

from ripplemem.records import Edge, MemoryUnit
from ripplemem.stores.base import MemoryStore

#: Weight of a dialogue edge: the strongest structural relation (same exchange).
DIALOGUE_WEIGHT = 1.0


class DialogueLinker:
    """Links units of the same or neighbouring turns; one instance per ``add`` call."""

    def __init__(self, store: MemoryStore, reach: int | None = 1) -> None:
        self.store = store
        self.reach = reach
        self._seen: dict[tuple[str, str, int], list[str]] = {}

    def link(self, units: Sequence[MemoryUnit]) -> int:
        if self.reach is None or self.reach < 0:
            return 0
        edges: list[Edge] = []
        for unit in units:
            position = unit.extra.get("turn_index")
            if position is None:
                continue
            for offset in range(-self.reach, self.reach + 1):
                key = (unit.namespace, unit.episode_id, position + offset)
                for other in self._seen.get(key, ()):
                    if other != unit.id:
                        edges.append(
                            Edge(unit.namespace, unit.id, other, "structural", DIALOGUE_WEIGHT)
                        )
            self._seen.setdefault((unit.namespace, unit.episode_id, position), []).append(unit.id)
        if edges:
            self.store.change_edges(add=edges)
        return len(edges)
