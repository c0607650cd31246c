"""Updating a unit that already has a successor (the same old id updated twice, or an old version
of a chain) keeps the chain linear: the new unit supersedes the chain's current value, so the new
text is the one current value, it comes last in ``history`` and search marks every older version
superseded; a retry of such an update stores nothing. Over memory:// and a SQLite file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ripplemem import Memory, Settings


@pytest.fixture(params=["memory", "sqlite"])
def store_memory(request: pytest.FixtureRequest, embedder, tmp_path: Path) -> Iterator[Memory]:
    url = "memory://" if request.param == "memory" else str(tmp_path / "chain.db")
    with Memory(Settings(store=url), embedder=embedder) as opened:
        yield opened


def test_updating_the_same_old_memory_twice_leaves_one_current_value(store_memory: Memory) -> None:
    m = store_memory
    acme = m.add("I work at Acme.", user_id="u").units[0]
    # past-tense texts: no parallel statement, only the update's edge links them
    beta = m.update(acme.id, "Beta hired me.", user_id="u").units[0]
    gamma = m.update(acme.id, "Gamma hired me.", user_id="u").units[0]
    chain = [(v.unit.id, v.superseded_by) for v in m.history(acme.id, user_id="u")]
    assert chain == [(acme.id, beta.id), (beta.id, gamma.id), (gamma.id, None)]
    marks = {e.unit.id: e.superseded_by for e in m.search("Where do I work? Who hired me?", user_id="u").evidence}
    assert marks == {acme.id: beta.id, beta.id: gamma.id, gamma.id: None}
    # a retry of either update stores nothing and keeps the chain
    for text in ("Gamma hired me.", "Beta hired me."):
        again = m.update(acme.id, text, user_id="u")
        assert (again.units, again.skipped, again.edges) == ([], 1, 0)
    assert [(v.unit.id, v.superseded_by) for v in m.history(gamma.id, user_id="u")] == chain


def test_updating_an_old_version_at_the_current_values_time_makes_the_new_text_current(
    store_memory: Memory,
) -> None:
    """Gamma is said after Acme, the version updated, and at Beta's time, the value it replaces
    (an earlier time is refused: test_update_dated_before.py)."""
    m = store_memory
    acme = m.add("I work at Acme.", user_id="t", session_time="2024-01-01").units[0]
    beta = m.update(acme.id, "I work at Beta.", user_id="t", session_time="2024-03-01").units[0]
    gamma = m.update(acme.id, "I work at Gamma.", user_id="t", session_time="2024-03-01").units[0]
    chain = [(v.unit.id, v.superseded_by) for v in m.history(beta.id, user_id="t")]
    assert chain == [(acme.id, beta.id), (beta.id, gamma.id), (gamma.id, None)]
    found = m.search("Where do I work?", user_id="t").evidence
    assert {e.unit.id: e.superseded_by for e in found}[beta.id] == gamma.id
    assert [e.unit.id for e in found if e.superseded_by is None] == [gamma.id]
