"""The store contract, part: one atomic write: blocks commit together or not at all, nest, and take
turns; concurrent writers and readers; a closed store. It uses the fixtures of
:class:`~ripplemem.testing.contracts.store.StoreContract`."""

from __future__ import annotations

import threading

import pytest

from ripplemem.errors import InvalidInputError, StoreError
from ripplemem.records import Edge, Membership
from ripplemem.stores.base import MemoryStore, add_edges, search_dense
from ripplemem.stores.checks import EDGE_KINDS
from ripplemem.testing.builders import make_unit, unit_vectors
from ripplemem.testing.contracts.store.shared import (
    assert_absent,
    clue,
    ids,
)

__all__ = ["WriteContract"]


class WriteContract:
    def test_concurrent_writers_and_readers(self, store: MemoryStore) -> None:
        errors: list[BaseException] = []
        query = unit_vectors(1, seed=1)[0]

        def work(worker: int) -> None:
            try:
                for batch in range(5):
                    units = [
                        make_unit(f"w{worker}-{batch}-{i}", seed=worker * 100 + batch * 10 + i)
                        for i in range(4)
                    ]
                    store.add_units(units)
                    search_dense(store, "ns", query, 5)
                    store.search_lexical("ns", "memory", 5)
            except BaseException as error:  # noqa: BLE001 - reported below
                errors.append(error)

        threads = [threading.Thread(target=work, args=(w,)) for w in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        assert store.count("ns") == 80
        assert len(search_dense(store, "ns", query, 100)) == 80

    def test_a_closed_store_refuses_work(self, store: MemoryStore) -> None:
        store.close()
        with pytest.raises(StoreError, match="closed"):
            store.add_units([make_unit("a")])
        with pytest.raises(StoreError, match="closed"):
            store.search_lexical("ns", "anything", 3)
        store.close()  # closing twice is harmless


    def test_a_write_block_commits_units_edges_and_clues_together(
        self, store: MemoryStore
    ) -> None:
        store.add_units([make_unit("old")])
        with store.write(["ns"]):
            store.add_units([make_unit("a", participants=("Ann",)), make_unit("b")])
            assert store.count("ns") == 3  # reads inside the block see its writes
            assert ids(search_dense(store, "ns", make_unit("a").vector, 1)) == ["a"]
            add_edges(store, [Edge("ns", "a", "b", "semantic", 0.9)])
            store.clues.add_clue(clue("c1", 0), "session-1")
            store.clues.attach("ns", [Membership("a", "c1", 0.5)])
            store.clues.add_links("ns", [("a", "b", 0.8)])
        assert store.count("ns") == 3
        assert store.neighbours("ns", ["a"], "semantic") == {"a": [("b", 0.9)]}
        assert store.clues.members("ns", ["c1"]) == {"c1": [("a", 0.5)]}

    def test_a_failed_write_block_leaves_nothing_behind(self, store: MemoryStore) -> None:
        store.add_units([make_unit("old", participants=("Ann",)), make_unit("old2")])
        add_edges(store, [Edge("ns", "old", "old2", "structural", 0.7)])
        store.clues.add_clue(clue("c0", 3), "s0")
        store.clues.attach("ns", [Membership("old", "c0", 0.4)])
        store.clues.add_links("ns", [("old", "old2", 0.9)])
        before = self._state(store)
        new = make_unit("new", restatement="Zebra crossing", participants=("Zed",))
        with pytest.raises(RuntimeError, match="boom"), store.write(["ns"]):
            store.add_units([new])
            store.change_edges(
                remove=[Edge("ns", "old", "old2", "structural", 0.7)],
                add=[Edge("ns", "new", "old", "semantic", 0.95)],
            )
            store.clues.add_clue(clue("c1", 0), "s1")
            store.clues.merge_session("ns", "c0", "s2")
            store.clues.attach("ns", [Membership("new", "c1", 0.5), Membership("old", "c1", 0.6)])
            store.clues.add_links("ns", [("new", "old", 0.8), ("old", "old2", 0.1)])
            raise RuntimeError("boom")
        assert self._state(store) == before
        assert_absent(store, new)
        # the store works on, and the ids are free
        store.add_units([new])
        add_edges(store, [Edge("ns", "new", "old", "semantic", 0.95)])
        assert store.count("ns") == 3

    def test_write_blocks_nest_and_the_outermost_decides(self, store: MemoryStore) -> None:
        with pytest.raises(RuntimeError), store.write(["ns"]):
            with store.write(["ns"]):
                store.add_units([make_unit("inner")])
            store.add_units([make_unit("outer")])
            raise RuntimeError("the outer block fails")
        assert store.count("ns") == 0
        with store.write(["ns"]), store.write(["ns"]):
            store.add_units([make_unit("inner")])
        assert store.count("ns") == 1

    def test_a_refused_batch_inside_a_block_fails_the_block(self, store: MemoryStore) -> None:
        with pytest.raises(InvalidInputError), store.write(["ns"]):
            store.add_units([make_unit("a")])
            store.add_units([make_unit("a")])  # a duplicate: the whole block goes
        assert store.count("ns") == 0

    def test_write_blocks_of_threads_take_turns(self, store: MemoryStore) -> None:
        """Each block reads what the blocks before it wrote: no interleaving inside a block."""
        errors: list[BaseException] = []

        def writer(worker: int) -> None:
            try:
                for step in range(5):
                    with store.write(["ns"]):
                        before = store.count("ns")
                        store.add_units([make_unit(f"w{worker}-{step}")])
                        assert store.count("ns") == before + 1
                        if before:
                            (last,) = store.list_units("ns", limit=1, offset=before - 1)
                            add_edges(
                                store, [Edge("ns", f"w{worker}-{step}", last.id, "semantic", 0.8)]
                            )
            except BaseException as error:  # noqa: BLE001 - reported below
                errors.append(error)

        threads = [threading.Thread(target=writer, args=(w,)) for w in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        assert store.count("ns") == 20
        degrees = [len(v) for v in store.neighbours("ns", [u.id for u in store.list_units("ns")],
                                                    "semantic").values()]
        assert sum(degrees) == 2 * 19  # a chain: each unit after the first linked to the one before

    @staticmethod
    def _state(store: MemoryStore) -> dict[str, object]:
        units = store.list_units("ns")
        unit_ids = [u.id for u in units]
        clues = store.clues
        clue_ids = [cid for cid, _ in clues.search_clues("ns", unit_vectors(1)[0], 50)]
        return {
            "units": [u.to_json() for u in units],
            "edges": {k: store.neighbours("ns", unit_ids, k) for k in EDGE_KINDS},
            "clues": sorted((c.id, c.sessions, c.text) for c in clues.get_clues("ns", clue_ids)),
            "sessions": {s: clues.clue_for_session("ns", s) for s in ("s0", "s1", "s2")},
            "members": clues.members("ns", clue_ids),
            "links": clues.links("ns", unit_ids),
            "lexical": store.search_lexical("ns", "memory zebra crossing old", 10),
            "cues": store.cue_values("ns", "P"),
        }
