"""An update is a later value of the memory it replaces, so it is never dated before it: an
``update`` given a ``session_time`` earlier than when the replaced memory (the chain's current
value) was said is refused with the time to give, and stores nothing, so no memory is ever valid
until before it was said. A time equal to it, or none, is taken; a retry of a stored update
still stores nothing. On memory://, a SQLite file and PostgreSQL (REST and MCP:
tests/server/test_update_dated_before.py)."""

from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem import Memory
from ripplemem.errors import InvalidInputError
from ripplemem.records import said_at


@pytest.fixture
def memory(memory_on_every_backend: Memory) -> Memory:
    return memory_on_every_backend


def _state(memory: Memory, user: str) -> tuple[list, list]:
    units = [(u.id, u.session_time) for u in memory.list(user_id=user)]
    edges = sorted((e.src, e.dst, e.kind) for u in memory.list(user_id=user) for e in memory.edges(u.id, user_id=user))
    return units, edges


def _never_valid_before_said(memory: Memory, unit_id: str, user: str) -> None:
    chain = memory.history(unit_id, user_id=user)
    assert all(v.valid_until is None or v.valid_until >= said_at(v.unit) for v in chain)


def test_an_update_dated_before_the_memory_it_replaces_is_refused(memory: Memory) -> None:
    old = memory.add("I work at Acme.", user_id="a", session_time="2024-05-01").units[0]
    before = _state(memory, "a")
    for when, bound in (
        ("2024-01-01", "2024-05-01T00:00:00"),
        (datetime(2024, 4, 30, 23, 59, 59), "2024-05-01T00:00:00"),
        ("2024-05-01T01:00:00+05:00", "2024-05-01T05:00:00+05:00"),  # 20:00 UTC the day before
    ):
        with pytest.raises(InvalidInputError) as refused:
            memory.update(old.id, "I work at Beta.", user_id="a", session_time=when)
        said = str(refused.value)
        assert "before the memory it replaces" in said and repr(old.id) in said
        assert f"give a session_time at or after {bound}, or leave it out" in said
        assert _state(memory, "a") == before  # nothing stored: no unit, no edge
    assert [v.valid_until for v in memory.history(old.id, user_id="a")] == [None]
    same = memory.update(old.id, "I work at Beta.", user_id="a", session_time="2024-05-01").units[0]
    assert [(v.unit.id, v.superseded_by) for v in memory.history(old.id, user_id="a")] == [(old.id, same.id), (same.id, None)]
    _never_valid_before_said(memory, old.id, "a")


def test_an_update_of_an_old_version_is_dated_after_the_current_value(memory: Memory) -> None:
    """It replaces the chain's current value, so that is the time it may not precede."""
    acme = memory.add("I work at Acme.", user_id="v", session_time="2024-01-01").units[0]
    beta = memory.update(acme.id, "I work at Beta.", user_id="v", session_time="2024-03-01").units[0]
    before = _state(memory, "v")
    with pytest.raises(InvalidInputError, match=rf"'{beta.id}', the current value of '{acme.id}'.*at or after 2024-03-01T00:00:00"):
        memory.update(acme.id, "I work at Gamma.", user_id="v", session_time="2024-02-01")
    assert _state(memory, "v") == before
    gamma = memory.update(acme.id, "I work at Gamma.", user_id="v", session_time="2024-03-02").units[0]
    chain = [(v.unit.id, v.superseded_by) for v in memory.history(acme.id, user_id="v")]
    assert chain == [(acme.id, beta.id), (beta.id, gamma.id), (gamma.id, None)]
    _never_valid_before_said(memory, acme.id, "v")


def test_a_memory_added_without_a_time_was_said_when_stored(memory: Memory) -> None:
    old = memory.add("I live in Leeds.", user_id="n").units[0]
    with pytest.raises(InvalidInputError, match=f"at or after {old.created_at.isoformat()}"):
        memory.update(old.id, "I live in York now.", user_id="n", session_time="2020-01-01")
    new = memory.update(old.id, "I live in York now.", user_id="n").units[0]  # inherited: after it
    assert new.session_time is not None and new.session_time > old.created_at
    _never_valid_before_said(memory, old.id, "n")


def test_a_retry_of_a_stored_update_stores_nothing_whatever_came_after(memory: Memory) -> None:
    acme = memory.add("I work at Acme.", user_id="r", session_time="2024-01-01").units[0]
    first = memory.update(acme.id, "Beta hired me.", user_id="r", session_time="2024-03-01")
    memory.update(acme.id, "Gamma hired me.", user_id="r", session_time="2024-06-01")
    again = memory.update(acme.id, "Beta hired me.", user_id="r", session_time="2024-03-01")
    assert (again.units, again.skipped, again.edges) == ([], len(first.units), 0)
    _never_valid_before_said(memory, acme.id, "r")


def test_an_earlier_dated_update_repeating_the_current_value_is_refused_too(memory: Memory) -> None:
    old = memory.add("I live in Leeds.", user_id="r", session_time="2024-05-10T10:00").units[0]
    current = memory.update(old.id, "I live in Bristol.", user_id="r", session_time="2024-05-11").units[0]
    before = _state(memory, "r")
    for text in ("I live in Bristol.", "I live in Leeds.", "I live in York."):  # the date first, whatever the text
        with pytest.raises(InvalidInputError) as refused:
            memory.update(old.id, text, user_id="r", session_time="2024-05-01")
        assert f"({current.id!r}, the current value of {old.id!r})" in str(refused.value)
        assert "give a session_time at or after 2024-05-11T00:00:00" in str(refused.value)
        assert _state(memory, "r") == before
    retried = memory.update(old.id, "I live in Bristol.", user_id="r", session_time="2024-05-11")
    assert (retried.units, retried.skipped) == ([], 1)  # a retry at its own time is still a no-op


def test_a_refusal_says_the_times_in_the_offset_given_and_takes_them_back_in_any(memory: Memory) -> None:
    old = memory.add("I work at Acme.", user_id="o", session_time="2024-05-10T10:00").units[0]
    with pytest.raises(InvalidInputError) as refused:
        memory.update(old.id, "I work at Beta.", user_id="o", session_time="2024-05-10T12:00:00+05:00")
    said = str(refused.value)
    assert said.startswith("the update is dated 2024-05-10T12:00:00+05:00, before")
    assert "stored as 2024-05-10T10:00:00 without an offset, read as UTC" in said
    suggested = said.split("give a session_time at or after ")[1].split(", or leave")[0]
    assert suggested == "2024-05-10T15:00:00+05:00"
    taken = memory.update(old.id, "I work at Beta.", user_id="o", session_time=suggested)
    assert [v.unit.id for v in memory.history(old.id, user_id="o")] == [old.id, taken.units[0].id]
    for same_instant in ("2024-05-10T10:00:00Z", "2024-05-10T06:00:00-04:00", datetime(2024, 5, 10, 10)):
        again = memory.update(old.id, "I work at Beta.", user_id="o", session_time=same_instant)
        assert (again.units, again.skipped) == ([], 1)  # the same instant: a retry, not a refusal
