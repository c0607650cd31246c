"""Segmentation into overlapping windows and conversation validation."""

from __future__ import annotations

from datetime import datetime
from itertools import pairwise

import pytest

from ripplemem.errors import InvalidInputError
from ripplemem.records import Conversation, Session, Turn
from ripplemem.write.segment import segment, validate_conversation

WHEN = datetime(2023, 5, 8, 13, 56)


def make_session(n: int, session_id: str = "S1") -> Session:
    speakers = ("Caroline", "Melanie")
    turns = tuple(Turn(f"D1:{i + 1}", speakers[i % 2], f"message {i + 1}") for i in range(n))
    return Session(session_id, WHEN, turns)


def test_windows_overlap_and_every_turn_is_focus_exactly_once() -> None:
    session = make_session(100)
    windows = segment(session, speakers=("Caroline", "Melanie"), window_turns=40, overlap=2)
    assert [len(w.turns) for w in windows] == [40, 40, 24]
    assert [w.focus_from for w in windows] == [0, 2, 2]
    focus = [t.turn_id for w in windows for t in w.focus_turns]
    assert focus == [t.turn_id for t in session.turns]  # each once, in order
    for before, after in pairwise(windows):
        assert after.turns[: after.focus_from] == before.turns[-2:]
    assert all(w.session_time == WHEN and w.session_id == "S1" for w in windows)
    assert all(w.speakers == ("Caroline", "Melanie") for w in windows)


def test_no_overlap_and_short_sessions() -> None:
    windows = segment(make_session(25), speakers=(), window_turns=10, overlap=0)
    assert [(len(w.turns), w.focus_from) for w in windows] == [(10, 0), (10, 0), (5, 0)]
    assert windows[0].speakers == ("Caroline", "Melanie")  # taken from the turns
    single = segment(make_session(3), speakers=("Caroline", "Melanie"))
    assert len(single) == 1 and single[0].focus_from == 0 and len(single[0].turns) == 3


def test_exact_multiple_leaves_no_empty_window() -> None:
    windows = segment(make_session(78), speakers=(), window_turns=40, overlap=2)
    assert [len(w.focus_turns) for w in windows] == [40, 38]


@pytest.mark.parametrize("window_turns, overlap", [(0, 0), (10, 10), (10, -1)])
def test_bad_window_settings(window_turns: int, overlap: int) -> None:
    with pytest.raises(InvalidInputError):
        segment(make_session(5), speakers=(), window_turns=window_turns, overlap=overlap)


def conversation(*sessions: Session) -> Conversation:
    return Conversation("c1", sessions, ("Caroline", "Melanie"))


def test_valid_conversation_passes() -> None:
    caption_only = Session("S2", None, (Turn("D2:1", "Melanie", "", caption="a photo of a lake"),))
    validate_conversation(conversation(make_session(3), caption_only))


@pytest.mark.parametrize(
    "conv, fragment",
    [
        (conversation(), "no sessions"),
        (conversation(Session("S9", WHEN, ())), "session 'S9'"),
        (conversation(Session("S1", WHEN, (Turn("D1:7", "Caroline", "   "),))), "'D1:7'"),
        (
            conversation(Session("S1", WHEN, (Turn("D1:1", "A", "hi"), Turn("D1:1", "B", "yo")))),
            "unique",
        ),
        (conversation(Session("S1", WHEN, (Turn("D1:2", "", "hi"),))), "no speaker"),
    ],
)
def test_invalid_conversations_name_the_problem(conv: Conversation, fragment: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        validate_conversation(conv)
    assert fragment in str(caught.value)


def test_oversized_message_says_which_turn_and_what_to_do() -> None:
    big = Session("S1", WHEN, (Turn("D1:1", "Caroline", "hi"), Turn("D1:2", "Melanie", "x" * 501)))
    with pytest.raises(InvalidInputError) as caught:
        validate_conversation(conversation(big), max_message_chars=500)
    message = str(caught.value)
    assert "'D1:2'" in message and "501" in message and "max_message_chars" in message
    validate_conversation(conversation(big), max_message_chars=501)
