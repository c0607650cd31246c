"""The store contract, part: units' kept parses (``add_parses`` / ``get_parses``): kept by unit,
replaced, refused for an id of no unit, gone with the unit, its namespace or a failed write block,
kept when the store is opened again. It uses the fixtures of
:class:`~ripplemem.testing.contracts.store.StoreContract`."""

from __future__ import annotations

import pytest

from ripplemem.errors import UnknownUnitError
from ripplemem.stores.base import MemoryStore
from ripplemem.testing.builders import make_unit
from ripplemem.testing.contracts.store.shared import StoreFactory

__all__ = ["ParseContract"]

#: bytes the store must keep as they are (a zero byte, every byte value, about 1 KB)
BLOB = bytes(range(256)) * 4


class ParseContract:
    def test_parses_are_kept_by_unit_and_replaced(self, store: MemoryStore) -> None:
        store.add_units([make_unit("a"), make_unit("b"), make_unit("a", namespace="other")])
        assert store.get_parses("ns", ["a", "b"]) == {}
        store.add_parses("ns", {"a": BLOB, "b": b"b"})
        store.add_parses("other", {"a": b"other"})
        assert store.get_parses("ns", ["b", "a", "missing", "a"]) == {"a": BLOB, "b": b"b"}
        store.add_parses("ns", {"b": b"again"})
        assert store.get_parses("ns", ["a", "b"]) == {"a": BLOB, "b": b"again"}
        assert store.get_parses("other", ["a", "b"]) == {"a": b"other"}
        assert store.get_parses("ns", []) == {} and store.get_parses("empty", ["a"]) == {}

    def test_a_parse_of_no_unit_is_refused_whole(self, store: MemoryStore) -> None:
        store.add_units([make_unit("a")])
        with pytest.raises(UnknownUnitError):
            store.add_parses("ns", {"a": b"a", "ghost": b"g"})
        with pytest.raises(UnknownUnitError):
            store.add_parses("elsewhere", {"a": b"a"})
        assert store.get_parses("ns", ["a", "ghost"]) == {}

    def test_a_parse_goes_with_its_unit_and_namespace(self, store: MemoryStore) -> None:
        store.add_units([make_unit("a"), make_unit("b"), make_unit("c", namespace="gone")])
        store.add_parses("ns", {"a": b"a", "b": b"b"})
        store.add_parses("gone", {"c": b"c"})
        assert store.delete_unit("ns", "a")
        assert store.get_parses("ns", ["a", "b"]) == {"b": b"b"}
        store.add_units([make_unit("a")])  # the same id again: a new unit, with no parse
        assert store.get_parses("ns", ["a"]) == {}
        assert store.delete_namespace("gone") == 1
        store.add_units([make_unit("c", namespace="gone")])
        assert store.get_parses("gone", ["c"]) == {}

    def test_a_failed_write_block_keeps_no_parse(self, store: MemoryStore) -> None:
        store.add_units([make_unit("old")])
        store.add_parses("ns", {"old": b"before"})
        with pytest.raises(RuntimeError, match="boom"), store.write(["ns"]):
            store.add_units([make_unit("new")])
            store.add_parses("ns", {"new": b"new", "old": b"after"})
            assert store.get_parses("ns", ["new", "old"]) == {"new": b"new", "old": b"after"}
            raise RuntimeError("boom")
        assert store.get_parses("ns", ["new", "old"]) == {"old": b"before"}

    def test_parses_are_there_after_reopening(self, opened: StoreFactory) -> None:
        first = opened("kept")
        if not first.capabilities.persistent:
            pytest.skip("the backend declares persistent=False")
        first.add_units([make_unit("a")])
        first.add_parses("ns", {"a": BLOB})
        first.close()
        assert opened("kept").get_parses("ns", ["a"]) == {"a": BLOB}
