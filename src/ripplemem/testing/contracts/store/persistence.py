"""The store contract, part: persistence and sharing, as the backend declares them (``capabilities``).
It uses the fixtures of :class:`~ripplemem.testing.contracts.store.StoreContract`."""

from __future__ import annotations

import pytest

from ripplemem.records import Edge, Membership
from ripplemem.stores.base import add_edges, search_dense
from ripplemem.testing.builders import DIM, make_unit
from ripplemem.testing.contracts.store.shared import (
    VECTORS,
    StoreFactory,
    add_docs,
    clue,
    ids,
)

__all__ = ["PersistenceContract"]


class PersistenceContract:
    # --- persistence and sharing (as the backend declares) ----------------------------------

    def test_everything_is_there_after_reopening(self, opened: StoreFactory) -> None:
        first = opened("kept")
        if not first.capabilities.persistent:
            pytest.skip("the backend declares persistent=False")
        first.check_embedder("model", DIM)
        add_docs(first)
        add_edges(first, [Edge("ns", "book", "adopt", "semantic", 0.9)])
        add_edges(first, [Edge("ns", "adopt", "book", "supersedes", 1.0)])
        first.clues.add_clue(clue("c1", 0), "s1")
        first.clues.attach("ns", [Membership("book", "c1", 0.5)])
        expected = (
            [u.to_json() for u in first.list_units("ns")],
            first.search_lexical("ns", "adoption", 5),
            first.neighbours("ns", ["book"], "semantic"),
        )
        first.close()
        again = opened("kept")
        assert again.embedder_info() == ("model", DIM)
        assert [u.to_json() for u in again.list_units("ns")] == expected[0]
        assert again.search_lexical("ns", "adoption", 5) == expected[1]
        assert again.neighbours("ns", ["book"], "semantic") == expected[2]
        for end in ("book", "adopt"):  # a supersedes edge keeps its direction
            assert Edge("ns", "adopt", "book", "supersedes", 1.0) in again.edges_of("ns", end)
        assert again.clues.members("ns", ["c1"]) == {"c1": [("book", 0.5)]}

    def test_a_second_connection_sees_every_write_of_the_first(
        self, opened: StoreFactory
    ) -> None:
        first = opened("shared")
        if not first.capabilities.shared:
            pytest.skip("the backend declares shared=False")
        second = opened("shared")
        add_docs(first)
        assert second.count("ns") == 5
        assert ids(search_dense(second, "ns", make_unit("book").vector, 1)) == ["book"]
        add_edges(first, [Edge("ns", "book", "adopt", "semantic", 0.9)])
        assert second.neighbours("ns", ["adopt"], "semantic") == {"adopt": [("book", 0.9)]}
        first.clues.add_clue(clue("c1", 0), "s1")
        assert second.clues.search_clues("ns", VECTORS[0], 1)[0][0] == "c1"
        first.delete_unit("ns", "book")
        assert second.get_units("ns", ["book"]) == [] and second.count("ns") == 4
        with pytest.raises(RuntimeError), first.write(["ns"]):
            first.add_units([make_unit("never")])
            raise RuntimeError("rolled back")
        assert second.get_units("ns", ["never"]) == []
