"""Focus (read/focus.py): inside a session the ranking found through the assistant's words, the
user's own statement that matches the question comes up right after the session's first unit."""

from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem import Memory, Settings
from ripplemem.conversation_input import ROLE_NAMES
from ripplemem.extensions import embedder_of
from ripplemem.read.focus import (
    NOT_THE_USER,
    focus_sessions,
    fused_order,
    head_episodes,
    users_statement,
)
from ripplemem.recipes import get_recipe
from ripplemem.records import Evidence
from ripplemem.testing.builders import make_unit

T0 = datetime(2024, 5, 1, 10, 0)

CLOSET = [
    {"role": "user", "content": "Can you give me some tips on organising my closet by season?"},
    {"role": "assistant", "content": (
        "Sure. Sort your clothes into piles to keep, donate and store. Store winter clothes in "
        "breathable boxes. Keep a list of the clothes you store and of items to return. Label "
        "every box of clothes so you find the items later."
    )},
    {"role": "user", "content": (
        "Thanks, that helps a lot. By the way, I still have to pick up my navy blazer from the "
        "dry cleaner this week."
    )},
    {"role": "assistant", "content": "Good luck with the closet!"},
]
GARDEN = [
    {"role": "user", "content": "My tomatoes are growing well in the garden this summer."},
    {"role": "assistant", "content": "Water them in the morning and stake the tall plants."},
]
QUESTION = "Which clothes do I need to pick up from the dry cleaner?"


@pytest.fixture(scope="module")
def memory(tmp_path_factory):
    with Memory(Settings(store=str(tmp_path_factory.mktemp("focus") / "m.db"))) as memory:
        for day, messages in (("2024-01-10", CLOSET), ("2024-02-14", GARDEN)):
            memory.add(messages, user_id="u", session_time=f"{day}T10:00:00", session_id=f"s-{day}")
        yield memory


def _units(memory):
    return memory.store.list_units("u")


def test_the_users_statement_of_a_session_found_through_the_assistant_comes_up(memory):
    units = _units(memory)
    closet = [u for u in units if u.episode_id == "s-2024-01-10"]
    assistant = next(u for u in closet if u.speakers == ("Assistant",) and "breathable" in u.restatement)
    garden = [u for u in units if u.episode_id == "s-2024-02-14"]
    # the session is in the list only through the assistant's reply, then the garden session
    evidence = [Evidence(assistant, 2.0, (), None, ())] + [
        Evidence(u, 1.0 - i / 10, (), None, ()) for i, u in enumerate(garden)
    ]
    vector = embedder_of(memory).embed([QUESTION], input_type="query")[0]
    focused, lifted = focus_sessions(
        evidence, store=memory.store, namespace="u", query=QUESTION, query_vector=vector,
        sessions=5, depth=20,
    )
    assert lifted == 1
    assert len(focused) == len(evidence)  # the budget is kept: the last unit falls out
    assert focused[0].unit.id == assistant.id
    brought = focused[1]
    assert "blazer" in brought.unit.restatement and users_statement(brought.unit)
    assert any(h.view == "focus" for h in brought.hits)
    assert focused[2].unit.id == garden[0].id
    scores = [e.score for e in focused]
    assert scores == sorted(scores, reverse=True)


def test_a_statement_already_lower_in_the_list_moves_up_once(memory):
    units = _units(memory)
    assistant = next(u for u in units if u.speakers == ("Assistant",) and "breathable" in u.restatement)
    statement = next(u for u in units if "blazer" in u.restatement)
    garden = [u for u in units if u.episode_id == "s-2024-02-14"]
    evidence = [Evidence(assistant, 2.0, (), None, ())] + [
        Evidence(u, 1.0 - i / 10, (), None, ()) for i, u in enumerate(garden)
    ] + [Evidence(statement, 0.1, (), None, ())]
    vector = embedder_of(memory).embed([QUESTION], input_type="query")[0]
    focused, lifted = focus_sessions(
        evidence, store=memory.store, namespace="u", query=QUESTION, query_vector=vector,
        sessions=5, depth=20,
    )
    assert lifted == 1
    assert [e.unit.id for e in focused] == [assistant.id, statement.id] + [u.id for u in garden]
    assert focused[1].hits == ()  # moved, not brought: it keeps how it was found


def test_a_session_led_by_the_users_own_statement_is_left_alone(memory):
    units = _units(memory)
    statement = next(u for u in units if "blazer" in u.restatement)
    other = next(u for u in units if u.episode_id == "s-2024-02-14")
    evidence = [Evidence(statement, 2.0, (), None, ()), Evidence(other, 1.0, (), None, ())]
    vector = embedder_of(memory).embed([QUESTION], input_type="query")[0]
    focused, lifted = focus_sessions(
        evidence, store=memory.store, namespace="u", query=QUESTION, query_vector=vector,
        sessions=5, depth=20,
    )
    assert lifted == 0
    assert [e.unit.id for e in focused] == [e.unit.id for e in evidence]


def test_the_recipe_runs_it_end_to_end(memory):
    focused = memory.search(QUESTION, user_id="u", recipe="ripple-focus")
    assert focused.evidence
    assert len(focused.evidence) <= get_recipe("ripple-focus").budget
    scores = [e.score for e in focused.evidence]
    assert scores == sorted(scores, reverse=True)
    first = {}
    for place, item in enumerate(focused.evidence):
        first.setdefault(item.unit.episode_id, place)
    blazer = next(i for i, e in enumerate(focused.evidence) if "blazer" in e.unit.restatement)
    assert blazer <= first["s-2024-01-10"] + 1


def test_the_stage_is_a_named_recipe_and_off_by_default():
    assert get_recipe("ripple-focus").rank.focus_sessions > 0
    assert get_recipe("ripple").rank.focus_sessions == 0


def test_who_speaks_for_the_user_and_the_head_episodes():
    assert NOT_THE_USER == {n for n in ROLE_NAMES.values() if n != ROLE_NAMES["user"]}
    assert users_statement(make_unit("a", speakers=("User",)))
    assert users_statement(make_unit("b", speakers=("Caroline",)))
    assert users_statement(make_unit("c"))
    assert not users_statement(make_unit("d", speakers=("Assistant",)))
    items = [
        Evidence(make_unit(f"u{i}", episode_id=e, session_time=T0), 1.0, (), None, ())
        for i, e in enumerate(["s1", "s1", "s2", "s3"])
    ]
    assert [u.id for u in head_episodes(items, 2)] == ["u0", "u2"]
    assert fused_order([("a", 0.9), ("b", 0.8)], [("b", 3.0), ("c", 1.0)])[0] == "b"
