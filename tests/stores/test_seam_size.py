"""The store seam stays what docs/backends.md says: every member of the Protocols a backend writes
is named on that one page, with the counts it states."""

from __future__ import annotations

import re
from pathlib import Path

from typing_extensions import get_protocol_members

from ripplemem.stores.base import GraphStore, MemoryStore, UnitStore, ViewStore
from ripplemem.stores.clues_base import ClueStore
from ripplemem.stores.jobs_base import JobStore
from ripplemem.stores.keys_base import KeyStore

PAGE = Path(__file__).resolve().parents[2] / "docs" / "backends.md"


def test_the_backend_page_names_every_member_with_its_count() -> None:
    page = PAGE.read_text(encoding="utf-8")
    named = set(re.findall(r"`(\w+)`", page))
    protocols = (MemoryStore, UnitStore, ViewStore, GraphStore, ClueStore, KeyStore, JobStore)
    missing = {p.__name__: sorted(get_protocol_members(p) - named) for p in protocols}
    assert not any(missing.values()), missing
    store, clues = get_protocol_members(MemoryStore), get_protocol_members(ClueStore)
    groups = [get_protocol_members(p) for p in (UnitStore, ViewStore, GraphStore)]
    own = store - set().union(*groups)
    assert sum(map(len, groups)) + len(own) == len(store)  # the groups do not overlap
    assert f"{len(store) + len(clues)} members in four groups" in page
    assert f"the store's own ({len(own)})" in page
    for name, members in (("units", groups[0]), ("views", groups[1])):
        assert f"{name} ({len(members)})" in page
    assert f"graphs ({len(groups[2])} + {len(clues)})" in page
    sizes = f"{len(store)} for `MemoryStore` and {len(clues)} for `ClueStore`, {len(store) + len(clues)}"
    assert sizes in page
    assert f"{len(get_protocol_members(KeyStore))} more for" in page
    assert f"{len(get_protocol_members(JobStore))} for `JobStore`" in page


def test_the_key_and_job_stores_are_not_part_of_the_store_seam() -> None:
    assert "keys" not in get_protocol_members(MemoryStore)
    assert "jobs" not in get_protocol_members(MemoryStore)
    assert not get_protocol_members(ClueStore) & {"forget_units", "forget_namespace"}
