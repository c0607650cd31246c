"""A third backend from the page: PlainStore (tests/stores/plain_store.py), written from
docs/backends.md and the building blocks it names, registered as ``plain://`` and run through
the whole store contract, like the shipped backends."""

from __future__ import annotations

import pytest

from ripplemem.stores.registry import open_store, register_store
from ripplemem.testing.contracts.store import StoreContract, StoreFactory

from .plain_store import PlainStore

register_store("plain", lambda url, **options: PlainStore(**options), replace=True)


class TestPlainStore(StoreContract):
    @pytest.fixture
    def make_store(self) -> StoreFactory:
        return lambda name="main", **options: open_store("plain://", **options)


def test_the_library_runs_on_it_as_on_the_shipped_in_memory_store() -> None:
    """The whole write and read pipeline over plain:// finds what it finds over memory://."""
    from ripplemem import Memory
    from ripplemem.settings import Settings
    from ripplemem.testing import FakeEmbedder

    messages = [
        {"role": "user", "content": "I adopted a dog named Rex in Lisbon last week."},
        {"role": "assistant", "content": "Congratulations on Rex!"},
        {"role": "user", "content": "My sister Ana visits us every summer in Porto."},
        {"role": "user", "content": "Ana is a nurse and she loves kayaking."},
    ]
    found = {}
    for url in ("memory://", "plain://"):
        with Memory(Settings(store=url), embedder=FakeEmbedder()) as memory:
            added = memory.add(messages, namespace="alex", session_id="s1")
            assert memory.add(messages, namespace="alex", session_id="s1").units == []
            recall = memory.search("What does Ana do?", namespace="alex")
            found[url] = (
                sorted(u.restatement for u in added.units),
                [e.unit.restatement for e in recall.evidence],
            )
            memory.delete(added.units[0].id, namespace="alex")
            assert len(memory.list(namespace="alex")) == len(added.units) - 1
    assert found["plain://"] == found["memory://"] and found["memory://"][1]
