"""Stage: forget a unit, and every trace of it the graph kept.

Deleting a unit drops its rows, edges, memberships and links (the store does that). What the
store cannot redo is the text derived from it: its session's clue text was written from the
session's units, so it may quote the deleted one. :class:`ClueRewriter` writes that clue again
from the units it still holds, in the same write block as the delete (with the keyphrase writer
when the configured clue writer's model fails: a delete never fails for want of an LLM).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from ripplemem.errors import ProviderError
from ripplemem.providers.base import Embedder
from ripplemem.stores.base import MemoryStore
from ripplemem.write.clues import ClueWriter, KeyphraseClues
from ripplemem.write.supersede import delete_in_chain

log = logging.getLogger(__name__)


class ClueRewriter:
    """Rewrites clues from their remaining members."""

    def __init__(self, store: MemoryStore, embedder: Embedder, writer: ClueWriter) -> None:
        self.store, self.embedder, self.writer = store, embedder, writer
        self.fallback = KeyphraseClues()

    def rewrite(self, namespace: str, clue_ids: Sequence[str]) -> int:
        """Rewrite each clue that still has members; how many were rewritten."""
        clues = self.store.clues
        rewritten = 0
        for clue_id, members in clues.members(namespace, list(dict.fromkeys(clue_ids))).items():
            if not members or not clues.get_clues(namespace, [clue_id]):
                continue  # the clue went with its last member
            units = self.store.get_units(namespace, [unit for unit, _ in members], with_vectors=False)
            units.sort(key=lambda u: (u.episode_id, u.extra.get("turn_index", 0), u.id))
            try:
                text = self.writer.clue_text(units)
            except ProviderError as error:
                log.warning("clue %s rewritten from keyphrases: %s", clue_id, error)
                text = self.fallback.clue_text(units)
            vector = self.embedder.embed([text], input_type="document")[0]
            clues.rewrite_clue(namespace, clue_id, text, vector)
            rewritten += 1
        return rewritten


def forget_unit(store: MemoryStore, rewriter: ClueRewriter, namespace: str, unit_id: str) -> bool:
    """Delete the unit (joining its supersedes chain across the gap) and rewrite its clue, in
    one write block; False when there is no unit."""
    with store.write([namespace]):
        membership = store.clues.clues_of_units(namespace, [unit_id]).get(unit_id)
        if not delete_in_chain(store, namespace, unit_id):
            return False
        if membership is not None:
            rewriter.rewrite(namespace, [membership.clue_id])
    return True
