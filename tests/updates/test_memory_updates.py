"""Knowledge updates end to end: supersedes edges on add, the read stage, history, update, delete."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ripplemem import Memory, Settings
from ripplemem.records import Evidence, Recall

MOVE_1 = [
    {"speaker": "Maya", "text": "I have been renting a flat in Leeds for three years."},
    {"speaker": "Tom", "text": "Leeds is lovely, is it near the station?"},
    {"speaker": "Maya", "text": "Ten minutes on foot."},
]
MOVE_2 = [
    {"speaker": "Tom", "text": "Any news?"},
    {"speaker": "Maya", "text": "I moved to Bristol last month, the boxes are finally unpacked."},
]
HYPOTHETICAL = [
    {"speaker": "Maya", "text": "If I ever moved to Munich I would want a garden, but it's a daydream."},
]


def _moved(folder: Path, embedder) -> Memory:
    memory = Memory(Settings(store=str(folder / "m.db")), embedder=embedder)
    memory.add(MOVE_1, user_id="maya", session_time="2023-02-10T18:00:00")
    memory.add(MOVE_2, user_id="maya", session_time="2023-06-03T18:00:00")
    return memory


@pytest.fixture(scope="module")
def moved(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[Memory]:
    """The two moves, written once for the tests that only read them."""
    with _moved(tmp_path_factory.mktemp("moves"), embedder) as memory:
        yield memory


@pytest.fixture
def memory(tmp_path: Path, embedder) -> Iterator[Memory]:
    """The two moves in a memory of the test's own (for a test that adds, updates or deletes)."""
    with _moved(tmp_path, embedder) as memory:
        yield memory


def _unit(memory: Memory, words: str) -> str:
    return next(u.id for u in memory.list(user_id="maya") if words in u.restatement)


def _rank(found: Recall, unit_id: str) -> int:
    return [e.unit.id for e in found.evidence].index(unit_id)


def test_present_question_ranks_the_later_statement_first(moved: Memory) -> None:
    """No edge links "renting a flat in Leeds" and "moved to Bristol" (not the same wording); the
    read path sees both answer "where does Maya live" and puts the later one first."""
    old, new = _unit(moved, "Leeds for three"), _unit(moved, "Bristol")
    assert [e for e in moved.edges(new, user_id="maya") if e.kind == "supersedes"] == []
    found = moved.search("Where does Maya live now?", user_id="maya")
    assert _rank(found, new) < _rank(found, old)
    scores = [e.score for e in found.evidence]
    assert scores == sorted(scores, reverse=True)


def test_past_question_keeps_the_old_value(moved: Memory) -> None:
    old = _unit(moved, "Leeds for three")
    found = moved.search("Where did Maya live before she moved to Bristol?", user_id="maya", limit=3)
    assert old in [e.unit.id for e in found.evidence]


def test_a_hypothetical_supersedes_nothing_and_does_not_lead(memory: Memory) -> None:
    memory.add(HYPOTHETICAL, user_id="maya", session_time="2023-07-01T18:00:00")
    dream, new = _unit(memory, "Munich"), _unit(memory, "Bristol")
    assert [e for e in memory.edges(dream, user_id="maya") if e.kind == "supersedes"] == []
    found = memory.search("Where does Maya live now?", user_id="maya")
    assert _rank(found, new) < _rank(found, dream)


def test_update_writes_a_successor_and_delete_keeps_the_chain(memory: Memory) -> None:
    old = _unit(memory, "Leeds for three")
    middle = memory.update(old, "I live in Bath.", user_id="maya", session_time="2023-09-01").units[0].id
    added = memory.update(middle, "I live in Cardiff now.", user_id="maya", session_time="2024-01-05")
    newest = added.units[0].id
    assert [v.unit.id for v in memory.history(old, user_id="maya")] == [old, middle, newest]
    memory.delete(middle, user_id="maya")
    chain = memory.history(old, user_id="maya")
    assert [v.unit.id for v in chain] == [old, newest]
    assert chain[0].superseded_by == newest


def test_evidence_json_carries_supersession(memory: Memory) -> None:
    memory.update(_unit(memory, "Leeds for three"), "I live in Bristol.", user_id="maya",
                  session_time="2023-06-04")
    found = memory.search("Where does Maya live now?", user_id="maya")
    again = Recall.from_json(found.to_json())
    pairs = [(e.unit.id, e.superseded_by, e.valid_until) for e in found.evidence]
    assert [(e.unit.id, e.superseded_by, e.valid_until) for e in again.evidence] == pairs
    stale = [e for e in again.evidence if e.superseded_by]
    assert stale and all(isinstance(e, Evidence) and e.valid_until for e in stale)
    assert found.to_json()["evidence"][0]["superseded_by"] is None  # the current value leads


SMALL_TALK = [
    {"speaker": "Maya", "text": "I made a huge pot of lentil soup on Sunday."},
    {"speaker": "Tom", "text": "Did Maya's cold get better?"},
    {"speaker": "Maya", "text": "Much better, I slept for ten hours straight."},
    {"speaker": "Maya", "text": "I also finally finished that long crime novel."},
]


def test_a_changing_fact_found_near_the_top_leads_a_present_question(
    tmp_path: Path, embedder
) -> None:
    with Memory(Settings(store=str(tmp_path / "m.db")), embedder=embedder) as memory:
        memory.add(MOVE_1 + SMALL_TALK, user_id="maya", session_time="2023-02-10T18:00:00")
        memory.add(SMALL_TALK[:2] + MOVE_2, user_id="maya", session_time="2023-06-03T18:00:00")
        new = _unit(memory, "Bristol")
        old = _unit(memory, "Leeds for three")
        found = memory.search("Where does Maya live these days?", user_id="maya")
        ids = [e.unit.id for e in found.evidence]
        assert ids.index(new) < min(ids.index(old), 3)
        # a question for the earlier value: the earlier statement first, the one that
        # replaced it (along a supersedes edge) right behind
        memory.update(old, "I moved to Bristol.", user_id="maya", session_time="2023-06-03T19:00:00")
        latest = _unit(memory, "Maya moved to Bristol.")
        before = memory.search("Where was Maya before?", user_id="maya")
        ids = [e.unit.id for e in before.evidence]
        assert ids.index(old) < ids.index(latest) < 3
