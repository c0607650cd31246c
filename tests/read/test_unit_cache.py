"""RecallUnits: a recall reads each unit once, whatever the stages ask for."""

from __future__ import annotations

from collections.abc import Sequence

from ripplemem.read.unit_cache import RecallUnits
from ripplemem.records import MemoryUnit
from ripplemem.stores.base import MemoryStore

from . import NS, build_store


class CountingReads:
    """A store whose ``get_units`` calls are written down (everything else is the store's)."""

    def __init__(self, store: MemoryStore) -> None:
        self.store = store
        self.asked: list[tuple[tuple[str, ...], bool]] = []

    def __getattr__(self, name: str):
        return getattr(self.store, name)

    def get_units(
        self, namespace: str, ids: Sequence[str], *, with_vectors: bool = True
    ) -> list[MemoryUnit]:
        self.asked.append((tuple(ids), with_vectors))
        return self.store.get_units(namespace, ids, with_vectors=with_vectors)


def test_each_unit_is_read_once_and_answers_keep_the_order_asked() -> None:
    store = build_store()
    ids = [u.id for u in store.list_units(NS)]
    counting = CountingReads(store)
    units = RecallUnits(counting)  # type: ignore[arg-type]
    first = units.get_units(NS, ids[:3])
    again = units.get_units(NS, [ids[2], ids[4], ids[0], "no-such-unit"])
    assert [u.id for u in first] == ids[:3]
    assert [u.id for u in again] == [ids[2], ids[4], ids[0]]
    assert again[0] is first[2]  # the same object: not read again
    assert units.get_units(NS, ["no-such-unit"]) == []
    assert counting.asked == [(tuple(ids[:3]), True), ((ids[4], "no-such-unit"), True)]


def test_a_unit_read_without_its_vector_is_read_again_for_it() -> None:
    store = build_store()
    unit_id = store.list_units(NS)[0].id
    counting = CountingReads(store)
    units = RecallUnits(counting)  # type: ignore[arg-type]
    assert units.get_units(NS, [unit_id], with_vectors=False)[0].vector is None
    assert units.get_units(NS, [unit_id], with_vectors=False)[0].vector is None
    assert units.get_units(NS, [unit_id])[0].vector is not None
    assert units.get_units(NS, [unit_id], with_vectors=False)[0].vector is not None
    assert counting.asked == [((unit_id,), False), ((unit_id,), True)]
