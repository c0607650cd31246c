"""The near-neighbour search the linker and the clue graph share (``write/near.py``)."""

from __future__ import annotations

import numpy as np
import pytest

from ripplemem.records import MemoryUnit
from ripplemem.settings import WriteSettings
from ripplemem.stores.memory import InMemoryStore
from ripplemem.write.clues import ClueGraphBuilder, KeyphraseClues
from ripplemem.write.link import Linker
from ripplemem.write.near import NearNeighbours, near_neighbours

from .test_link import NS, unit


def _cluster(count: int, seed: int) -> list[MemoryUnit]:
    """Units around a few directions, so each has neighbours at many cosines."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((4, 16))
    return [
        unit(f"u{seed}-{i}", centres[i % 4] + rng.normal(0, 0.35, 16), said=None)
        for i in range(count)
    ]


def test_within_reads_a_narrower_search_out_of_a_wider_one() -> None:
    near = NearNeighbours({"a": [("a", 1.0), ("b", 0.9), ("c", 0.8), ("d", 0.7)]}, 4, 0.7)
    assert near.within("a", 3, 0.75) == [("b", 0.9), ("c", 0.8)]  # first 3, itself left out
    assert near.within("a", 2, 0.85) == [("b", 0.9)]
    assert near.within("a", 2, 0.7) == [("b", 0.9)]  # the first 2 hits are itself and b
    assert near.within("a", 4, 0.7) == [("b", 0.9), ("c", 0.8), ("d", 0.7)]
    assert near.within("zz", 4, 0.7) == []
    with pytest.raises(ValueError, match="search was for 4"):
        near.within("a", 5, 0.7)
    with pytest.raises(ValueError, match=">= 0.7"):
        near.within("a", 2, 0.6)


def test_one_wide_search_gives_each_stage_what_its_own_search_gives() -> None:
    """Edges and utterance links are the same whether each stage searches or they share one."""
    settings = WriteSettings(
        semantic_threshold=0.8, utterance_link_threshold=0.7, utterance_link_neighbours=5
    )
    graphs = []
    for shared in (False, True):
        store = InMemoryStore()
        store.check_embedder("test", 16)
        linker = Linker(store, settings)
        builder = ClueGraphBuilder(store, store.clues, _Fixed(), KeyphraseClues(), settings)
        for seed in range(3):
            batch = _cluster(40, seed)
            store.add_units(batch)
            near = None
            if shared:
                (k1, s1), (k2, s2) = linker.near_query, builder.near_query
                near = near_neighbours(store, batch, max(k1, k2), min(s1, s2))
            linker.link(batch, near)
            builder.build(batch, near)
        ids = [u.id for u in store.list_units(NS)]
        graphs.append(
            (
                store.neighbours(NS, ids, "semantic"),
                store.neighbours(NS, ids, "structural"),
                store.clues.links(NS, ids),
            )
        )
    semantic, _, links = graphs[0]
    assert sum(map(len, semantic.values())) > 0 and sum(map(len, links.values())) > 0
    assert graphs[0] == graphs[1]


class _Fixed:
    """A clue embedder: every clue text gets the same vector (clue merging is not under test)."""

    name, dim = "test", 16
    semantic_edge_threshold = None

    def embed(self, texts, *, input_type="document"):
        return np.tile(np.eye(16, dtype=np.float32)[0], (len(texts), 1))
