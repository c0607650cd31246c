from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from ripplemem.datasets import detect_format
from ripplemem.datasets.jsonl_chat import load_jsonl_chat
from ripplemem.errors import InvalidInputError


def _write(tmp_path: Path, lines: list[object]) -> Path:
    path = tmp_path / "chat.jsonl"
    path.write_text(
        "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n",
        encoding="utf-8",
    )
    return path


def test_speaker_form_with_sessions_and_times(tmp_path: Path) -> None:
    path = _write(tmp_path, [
        {"session_id": "a", "time": "2024-03-02T18:30", "speaker": "Maya", "text": "I moved to Lisbon."},
        {"session_id": "a", "speaker": "Leo", "text": "Congrats!", "time": "2024-03-02T19:00"},
        "",
        {"session_id": "b", "time": "2024-04-01", "speaker": "Maya", "text": "Look!",
         "caption": "a tram", "turn_id": "pic-1"},
    ])
    conversation = load_jsonl_chat(path)
    assert conversation.conversation_id == "chat"
    a, b = conversation.sessions
    assert a.session_id == "a" and a.time == datetime(2024, 3, 2, 18, 30)  # first time given
    assert [t.turn_id for t in a.turns] == ["a_1", "a_2"]
    assert [t.speaker for t in a.turns] == ["Maya", "Leo"]
    assert b.time == datetime(2024, 4, 1) and b.turns[0].turn_id == "pic-1"
    assert b.turns[0].caption == "a tram"
    assert conversation.all_speakers() == ("Maya", "Leo")


def test_role_form_maps_roles_to_names(tmp_path: Path) -> None:
    path = _write(tmp_path, [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}])
    [session] = load_jsonl_chat(path, conversation_id="c").sessions
    assert session.session_id == "session_1" and session.time is None
    assert [t.speaker for t in session.turns] == ["User", "Assistant"]


def test_role_form_reads_the_roles_every_face_reads(tmp_path: Path) -> None:
    """The roles of ``Memory.add`` (QA7 Q7-16): the system's, and LangChain's human and ai."""
    path = _write(tmp_path, [
        {"role": "system", "content": "Be brief."}, {"role": "human", "content": "hi"},
        {"role": "AI", "content": "hello"},
    ])
    [session] = load_jsonl_chat(path, conversation_id="c").sessions
    assert [t.speaker for t in session.turns] == ["System", "User", "Assistant"]


@pytest.mark.parametrize(
    "lines, fragment",
    [
        (['{"speaker": "A", "text": "ok"}', "{oops"], "line 2: not valid JSON"),
        (["[1, 2]"], "line 1: expected a JSON object"),
        (['{"role": "tool", "content": "x"}'], "line 1: 'role' must be 'user', 'assistant' or 'system'"),
        (['{"role": "usr", "content": "x"}'], "line 1: 'role' must be .* got 'usr'"),
        (['{"speaker": "", "text": "x"}'], "line 1: 'speaker' must be a non-empty string"),
        (['{"speaker": "A", "text": 3}'], "line 1: 'text' must be a string"),
        (['{"who": "A"}'], "line 1: a line needs either"),
        (['{"speaker": "A", "text": "x", "time": "last week"}'], "line 1: cannot parse time"),
        (['{"speaker": "A", "text": "x", "turn_id": "t"}', '{"speaker": "B", "text": "y", "turn_id": "t"}'],
         "line 2: turn_id 't' is used twice"),
        ([""], "no messages"),
        # a key the format does not read is refused, not dropped: a time under another name
        # would leave the session without one, and the memories' days unread
        (['{"speaker": "A", "text": "x", "session_time": "2024-05-01"}'],
         r"line 1: unknown key 'session_time' \(a line's time is 'time'"),
        (['{"role": "user", "content": "x", "timestamp": "2024-05-01T10:00"}'],
         r"line 1: unknown key 'timestamp' \(a line's time is 'time'"),
        (['{"speaker": "A", "text": "x", "metadata": {"topic": "pets"}}'],
         r"line 1: unknown key 'metadata' \(metadata for every line: ripplemem ingest --metadata"),
        (['{"speaker": "A", "text": "x", "mood": "happy", "tone": "calm"}'],
         r"line 1: unknown keys 'mood', 'tone'; a line's keys are "),
    ],
)
def test_errors_point_at_the_line(tmp_path: Path, lines: list[str], fragment: str) -> None:
    path = _write(tmp_path, lines)
    with pytest.raises(InvalidInputError, match=fragment):
        load_jsonl_chat(path)


def test_detect_format(tmp_path: Path, locomo_file: Path, lme_json: Path, lme_xz: Path) -> None:
    chat = _write(tmp_path, [{"role": "user", "content": "hi"}])
    assert detect_format(chat) == "jsonl"
    assert detect_format(locomo_file) == "locomo"
    assert detect_format(lme_json) == "longmemeval"
    assert detect_format(lme_xz) == "longmemeval"
    other = tmp_path / "other.json"
    other.write_text('[{"foo": 1}]', encoding="utf-8")
    with pytest.raises(InvalidInputError, match="--format"):
        detect_format(other)
    blank = tmp_path / "blank.jsonl"
    blank.write_text("\n  \n", encoding="utf-8")
    with pytest.raises(InvalidInputError, match="is empty: nothing to ingest"):
        detect_format(blank)
