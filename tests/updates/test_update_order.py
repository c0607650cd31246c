"""A chain is ordered by its edges, not by clocks: the unit written by ``update`` comes after
the unit it updates in ``history`` and in search (``superseded_by``, which unit leads), whatever
the one-second creation clock says, and a ``supersedes`` edge from a unit said earlier (an
import keeps the edges a hand or an older version wrote; ``update`` refuses such a time:
test_update_dated_before.py) still reads new -> old; an update without ``session_time`` is said
one second after the newest memory of its namespace; an update whose text holds no statement is
refused and stores nothing."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from ripplemem import Memory
from ripplemem.errors import InvalidInputError
from ripplemem.records import Edge
from ripplemem.write.supersede import SUPERSEDES_WEIGHT

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


def _said_earlier(memory: Memory, old: str, text: str, user: str, when: str) -> str:
    """A memory said at ``when`` and an edge that says it supersedes ``old`` (as an import of a
    hand-written edge stores them)."""
    new = memory.add(text, user_id=user, session_time=when).units[0].id
    memory.store.change_edges(add=[Edge(user, new, old, "supersedes", SUPERSEDES_WEIGHT)])
    return new


def test_a_successor_said_earlier_still_comes_after(memory: Memory) -> None:
    """The edge says which value replaced which, whatever the times say."""
    old = memory.add("I work at Acme.", user_id="b", session_time="2024-03-01").units[0]
    ids = [old.id]
    for year, firm in zip(range(2020, 2020 - UPDATES, -1), "BCDEFGHI", strict=False):
        ids.append(_said_earlier(memory, ids[-1], f"I work at {firm}eta now.", "b", f"{year}-01-01"))
    expected = [(unit_id, after) for unit_id, after in zip(ids, [*ids[1:], None], strict=True)]
    assert _order(memory, ids[0], "b") == expected
    assert _order(memory, ids[-1], "b") == expected


def test_search_reads_a_successor_said_earlier_as_the_current_value(memory: Memory) -> None:
    old = memory.add("I work at Acme.", user_id="b", session_time="2024-03-01").units[0]
    new = _said_earlier(memory, old.id, "I work at Beta.", "b", "2020-01-01")
    now = memory.search("Where do I work now?", user_id="b").evidence
    assert [e.unit.id for e in now][:2] == [new, old.id]
    assert {e.unit.id: e.superseded_by for e in now} == {old.id: new, new: None}
    before = memory.search("Where did I work before?", user_id="b").evidence
    assert [e.unit.id for e in before][:2] == [old.id, new]  # the earlier value, then its successor


def test_edges_report_the_update_new_to_old_from_either_end(memory: Memory) -> None:
    for n, when in enumerate(("2020-01-01", "2024-01-01", None)):  # said before the old memory (an
        # imported edge), at its time, or after it
        user = f"e{n}"
        old = memory.add("I live in Leeds.", user_id=user, session_time="2024-01-01").units[0]
        if when == "2020-01-01":
            new = _said_earlier(memory, old.id, "I live in Cardiff now.", user, when)
        else:
            new = memory.update(old.id, "I live in Cardiff now.", user_id=user, session_time=when).units[0].id
        for end in (old.id, new):
            found = [(e.src, e.dst) for e in memory.edges(end, user_id=user) if e.kind == "supersedes"]
            assert found == [(new, old.id)]


MAYA = [
    ([{"speaker": "Maya", "text": "I've been renting a flat in Leeds for three years."}], "2023-02-10"),
    ([{"speaker": "Maya", "text": "I moved to Bristol last month!"}], "2023-06-03"),
]


def test_an_update_without_a_time_is_the_newest_value_of_its_namespace(memory: Memory) -> None:
    """docs/updates.md's example: the explicit correction leads, said after Bristol."""
    for messages, when in MAYA:
        memory.add(messages, user_id="maya", session_time=when)
    leeds = next(u.id for u in memory.list(user_id="maya") if "Leeds" in u.restatement)
    cardiff = memory.update(leeds, "I live in Cardiff now.", user_id="maya").units[0]
    assert cardiff.session_time == datetime(2023, 6, 3, 0, 0, 1)  # Bristol's time, one second on
    found = memory.search("Where does Maya live now?", user_id="maya").evidence
    assert found[0].unit.id == cardiff.id
    assert [v.unit.id for v in memory.history(leeds, user_id="maya")] == [leeds, cardiff.id]


def test_an_update_without_a_time_follows_the_newest_creation_time(memory: Memory) -> None:
    """Memories without a session time are said when they were stored."""
    old = memory.add("I drive a Ford Focus.", user_id="d", session_time="2021-05-01").units[0]
    later = memory.add("I play chess on Sundays.", user_id="d").units[0]  # said when stored
    new = memory.update(old.id, "I drive a Honda Civic now.", user_id="d").units[0]
    assert later.session_time is None
    assert new.session_time == later.created_at + timedelta(seconds=1)


def test_a_retried_update_keeps_its_time_and_stores_nothing(memory: Memory) -> None:
    old = memory.add("I live in Leeds.", user_id="r", session_time="2023-01-01").units[0]
    first = memory.update(old.id, "I live in Bristol now.", user_id="r")
    memory.add("I adopted a cat called Miso.", user_id="r", session_time="2025-01-01")
    again = memory.update(old.id, "I live in Bristol now.", user_id="r")
    assert (again.units, again.skipped, again.edges) == ([], len(first.units), 0)
    assert first.units[0].session_time == datetime(2023, 1, 1, 0, 0, 1)
    assert [v.unit.id for v in memory.history(old.id, user_id="r")] == [old.id, first.units[0].id]


def test_an_update_that_holds_no_statement_is_refused_and_stores_nothing(memory: Memory) -> None:
    old = memory.add("I live in Leeds.", user_id="y", session_time="2023-01-01").units[0]
    before = [(u.id, u.restatement) for u in memory.list(user_id="y")]
    with pytest.raises(InvalidInputError, match="holds no statement to store: give the new fact in a sentence"):
        memory.update(old.id, "yes", user_id="y")
    assert [(u.id, u.restatement) for u in memory.list(user_id="y")] == before
    assert memory.edges(old.id, user_id="y") == []
    # a retry of an update that was stored answers as a repeated add does
    first = memory.update(old.id, "I live in Bristol now.", user_id="y")
    again = memory.update(old.id, "I live in Bristol now.", user_id="y")
    assert len(first.units) == 1 and (again.units, again.skipped) == ([], 1)


BARE_REPLIES = [
    "Oui", "Ja.", "Sí", "はい", "是的", "Nein.", "Non merci.", "D'accord !", "Va bene.", "Claro que sí",
    "Tak, dziękuję.", "Nej tack", "Jawohl!", "Nee.", "Não", "Да, конечно.", "Ні", "Ναι", "نعم", "כן",
    "हाँ जी", "ใช่ครับ", "네, 알겠습니다", "好的好的", "いいえ、違います。", "Okay, oui 👍", "Ok.",
]


@pytest.mark.parametrize("reply", BARE_REPLIES)
def test_a_bare_reply_in_any_language_is_no_statement(memory: Memory, reply: str) -> None:
    """A yes, a no, a thanks or an interjection holds no fact to store, whatever its language:
    refused as "yes" is, nothing stored, the old value still current."""
    old = memory.add("I live in Leeds.", user_id="y", session_time="2023-01-01").units[0]
    before = [(u.id, u.restatement) for u in memory.list(user_id="y")]
    with pytest.raises(InvalidInputError, match="holds no statement to store"):
        memory.update(old.id, reply, user_id="y")
    assert [(u.id, u.restatement) for u in memory.list(user_id="y")] == before
    assert memory.edges(old.id, user_id="y") == []
    assert memory.add(reply, user_id="said").units == []  # as an add of "yes" keeps nothing


def test_a_long_text_without_spaces_is_read_in_one_pass(memory: Memory) -> None:
    """A reply run thousands of characters long is still a bare reply, and one that ends in a
    statement is not: read without a recursion as deep as the text is long."""
    assert memory.add("好" * 10_000, user_id="long").units == []
    kept = memory.add("好" * 10_000 + "，我住在北京。", user_id="long").units
    assert any("北京" in unit.restatement for unit in kept)


@pytest.mark.parametrize("reply", ["Correct.", "Agreed."])
def test_an_english_confirmation_is_kept_by_an_add_as_english_chit_chat_decides(memory: Memory, reply: str) -> None:
    """English replies are judged by the English chit-chat lists, as before the other languages'
    were read: in a dialogue "Correct." may confirm what was just asked, and is kept; an update
    to one is still refused (no statement to replace a value with)."""
    assert len(memory.add(reply, user_id="confirms").units) == 1
    old = memory.add("I live in Leeds.", user_id="y2", session_time="2023-01-01").units[0]
    with pytest.raises(InvalidInputError, match="holds no statement to store"):
        memory.update(old.id, reply, user_id="y2")


@pytest.mark.parametrize(
    "statement",
    ["J'habite à Lyon.", "Ich wohne in Köln.", "Vivo en Madrid.", "Nein, ich wohne jetzt in Köln.",
     "Sí, vivo en Madrid.", "我住在上海。", "東京に住んでいます。", "Mieszkam w Gdańsku.", "Я живу в Казани."],
)
def test_a_short_statement_in_another_language_is_an_update(memory: Memory, statement: str) -> None:
    old = memory.add("I live in Leeds.", user_id="y", session_time="2023-01-01").units[0]
    new = memory.update(old.id, statement, user_id="y").units
    assert len(new) == 1 and [v.unit.id for v in memory.history(old.id, user_id="y")] == [old.id, new[0].id]


QUESTIONS = [
    "Do I still live in Hull?", "Do I still live in Hull ?", "Do I still live in Hull?!", "Do I still live in Hull? 🤔",
    "Est-ce que j'habite toujours à Hull ?", "Wohne ich noch in Hull?", "¿Sigo viviendo en Hull?",
    "Moro ainda em Hull?", "まだハルに住んでいますか？", "我还住在赫尔吗？", "هل ما زلت أعيش في هال؟",
    "«Я всё ещё живу в Халле?»", "(Do I still live in Hull?)",
]


@pytest.mark.parametrize("question", QUESTIONS)
def test_a_question_is_no_new_value(memory: Memory, question: str) -> None:
    """A question asserts no value (an agent passing the user's next turn along by mistake): an
    update to one is refused, saying to give the statement instead, in any language; nothing is
    stored and the old value is still current."""
    old = memory.add([{"speaker": "Alex", "text": "I live in Hull."}], user_id="q", session_time="2024-06-01").units[0]
    before = [(u.id, u.restatement) for u in memory.list(user_id="q")]
    with pytest.raises(InvalidInputError) as refused:
        memory.update(old.id, question, user_id="q")
    assert str(refused.value) == (
        "the update's text is a question, not a statement to store: give the new fact as a statement "
        "(\"I live in Leeds now.\"), not as a question"
    )
    assert [(u.id, u.restatement) for u in memory.list(user_id="q")] == before
    assert memory.edges(old.id, user_id="q") == []
    assert [(v.unit.id, v.superseded_by) for v in memory.history(old.id, user_id="q")] == [(old.id, None)]
    first = memory.search("Where does Alex live now?", user_id="q").evidence[0]
    assert (first.unit.id, first.superseded_by) == (old.id, None)


def test_a_question_dated_before_the_memory_is_told_the_time_first(memory: Memory) -> None:
    """The time is checked first, whatever the text: a question too."""
    old = memory.add("I live in Hull.", user_id="q2", session_time="2024-06-01").units[0]
    with pytest.raises(InvalidInputError, match="before the memory it replaces"):
        memory.update(old.id, "Do I still live in Hull?", user_id="q2", session_time="2024-01-01")


@pytest.mark.parametrize(
    "statement",
    ["Where do I live? In Leeds now.", "I moved to Leeds, where else?! No: to York.", "I live in Leeds now."],
)
def test_a_statement_with_a_question_inside_it_is_an_update(memory: Memory, statement: str) -> None:
    """Only a text that ends as a question is one: a question asked and then answered is an update."""
    old = memory.add("I live in Hull.", user_id="q3", session_time="2024-06-01").units[0]
    new = memory.update(old.id, statement, user_id="q3").units
    versions = memory.history(old.id, user_id="q3")
    assert new and (versions[0].unit.id, versions[0].superseded_by) == (old.id, new[0].id)
