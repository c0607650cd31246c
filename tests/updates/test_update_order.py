"""``Memory.update`` orders by its edge, not by clocks: the unit written by ``update`` comes after
the unit it updates in ``history`` and in search (``superseded_by``, which unit leads), whatever
the session times or the one-second creation clock say."""

from __future__ import annotations

from ripplemem import Memory

#: enough updates that a 50/50 tie broken by the one-second clock and the ids cannot pass by luck
UPDATES = 8


def _order(memory: Memory, unit_id: str, user: str) -> list[tuple[str, str | None]]:
    return [(v.unit.id, v.superseded_by) for v in memory.history(unit_id, user_id=user)]


def test_an_update_of_a_memory_added_without_a_time_comes_after_it(memory: Memory) -> None:
    """The mem0 way: no ``session_time`` anywhere; ``created_at`` ties within its second."""
    for n in range(UPDATES):
        user = f"a{n}"
        old = memory.add("I am allergic to shellfish.", user_id=user).units[0]
        new = memory.update(old.id, "I am no longer allergic to shellfish.", user_id=user).units[0]
        assert _order(memory, old.id, user) == [(old.id, new.id), (new.id, None)]
        assert _order(memory, new.id, user) == [(old.id, new.id), (new.id, None)]
        found = memory.search("Am I allergic to shellfish?", user_id=user).evidence
        marks = {e.unit.id: e.superseded_by for e in found}
        assert marks == {old.id: new.id, new.id: None}
        assert found[0].unit.id == new.id  # the present: the update leads


def test_a_chain_of_updates_without_times_keeps_the_order_they_were_made(memory: Memory) -> None:
    values = ["I live in Leeds.", *(f"I live in {city} now." for city in
                                    ("York", "Bath", "Derby", "Hull", "Ely", "Wells", "Truro", "Ripon"))]
    ids = [memory.add(values[0], user_id="c").units[0].id]
    for text in values[1:]:
        ids.append(memory.update(ids[-1], text, user_id="c").units[0].id)
    expected = [(unit_id, after) for unit_id, after in zip(ids, [*ids[1:], None], strict=True)]
    assert _order(memory, ids[0], "c") == expected
    assert _order(memory, ids[4], "c") == expected


def test_an_update_given_an_earlier_session_time_still_comes_after(memory: Memory) -> None:
    """The caller says when the update was said; the edge says which value replaced which."""
    old = memory.add("I work at Acme.", user_id="b", session_time="2024-03-01").units[0]
    ids = [old.id]
    for year, firm in zip(range(2020, 2020 - UPDATES, -1), "BCDEFGHI", strict=False):
        ids.append(memory.update(ids[-1], f"I work at {firm}eta now.", user_id="b",
                                 session_time=f"{year}-01-01").units[0].id)
    expected = [(unit_id, after) for unit_id, after in zip(ids, [*ids[1:], None], strict=True)]
    assert _order(memory, ids[0], "b") == expected
    assert _order(memory, ids[-1], "b") == expected


def test_search_reads_an_earlier_timed_update_as_the_current_value(memory: Memory) -> None:
    old = memory.add("I work at Acme.", user_id="b", session_time="2024-03-01").units[0]
    new = memory.update(old.id, "I work at Beta.", user_id="b", session_time="2020-01-01").units[0]
    now = memory.search("Where do I work now?", user_id="b").evidence
    assert [e.unit.id for e in now][:2] == [new.id, old.id]
    assert {e.unit.id: e.superseded_by for e in now} == {old.id: new.id, new.id: None}
    before = memory.search("Where did I work before?", user_id="b").evidence
    assert [e.unit.id for e in before][:2] == [old.id, new.id]  # the earlier value, then its successor
