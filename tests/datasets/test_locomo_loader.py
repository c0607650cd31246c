from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from ripplemem.datasets.locomo import evidence_ids, load_locomo
from ripplemem.errors import InvalidInputError

from .synthetic import locomo_sample


def test_sessions_turns_and_speakers(locomo_file: Path) -> None:
    [sample] = load_locomo(locomo_file)
    conversation = sample.conversation
    assert conversation.conversation_id == "conv-x"
    assert conversation.speakers == ("Ana", "Ben")
    # session_3 has a date key but no turns: not a session
    assert [s.session_id for s in conversation.sessions] == ["session_1", "session_2"]
    assert conversation.sessions[0].time == datetime(2023, 5, 8, 13, 56)
    assert conversation.sessions[1].time == datetime(2023, 6, 20, 10, 5)
    first = conversation.sessions[0].turns
    assert [t.turn_id for t in first] == ["D1:1", "D1:2", "D1:3", "D1:4"]
    assert first[0].caption is None
    assert first[3].caption == "a photo of a grey cat on a sofa"
    assert first[3].text == "Here she is."


def test_questions_and_evidence_quirks(locomo_file: Path) -> None:
    [sample] = load_locomo(locomo_file)
    q = {question.id: question for question in sample.questions}
    assert list(q) == [f"conv-x:q{i}" for i in range(5)]
    assert q["conv-x:q0"].evidence == ("D1:3",)
    assert q["conv-x:q0"].category_name == "single-hop"
    assert q["conv-x:q1"].answer == "1"  # int cast to str
    assert q["conv-x:q1"].category_name == "multi-hop"
    # "D1:1; D2:3" holds two ids, "D9:9" points nowhere, "D:1:4" is malformed
    assert q["conv-x:q2"].evidence == ("D1:1", "D2:3")
    assert q["conv-x:q3"].evidence == ()
    adversarial = q["conv-x:q4"]
    assert adversarial.category == 5 and adversarial.category_name == "adversarial"
    assert adversarial.answer == "" and adversarial.adversarial_answer == "Lisbon marathon"
    # no question date in LoCoMo: the last session's time
    assert all(question.question_time == datetime(2023, 6, 20, 10, 5) for question in q.values())


def test_evidence_regex() -> None:
    assert evidence_ids(["D8:6; D9:17", "D:11:26", "D10:2 D4:4"]) == ["D8:6", "D9:17", "D10:2", "D4:4"]
    assert evidence_ids([]) == []


def test_sessions_are_ordered_numerically(tmp_path: Path) -> None:
    sample = locomo_sample()
    body = sample["conversation"]
    body["session_10"] = [{"speaker": "Ana", "dia_id": "D10:1", "text": "Much later."}]
    body["session_10_date_time"] = "8:00 pm on 1 August, 2023"
    path = tmp_path / "x.json"
    path.write_text(json.dumps([sample]), encoding="utf-8")
    [loaded] = load_locomo(path)
    assert [s.session_id for s in loaded.conversation.sessions] == ["session_1", "session_2", "session_10"]
    assert loaded.questions[0].question_time == datetime(2023, 8, 1, 20, 0)


@pytest.mark.parametrize(
    "content, fragment",
    [
        ("{not json", "not valid JSON"),
        ('{"sample_id": "a"}', "expected a JSON list"),
        ('[{"sample_id": "a"}]', "not a LoCoMo conversation"),
        ('[{"sample_id": "a", "conversation": {"speaker_a": "A"}}]', "no 'session_<n>'"),
    ],
)
def test_bad_files_say_what_is_wrong(tmp_path: Path, content: str, fragment: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InvalidInputError, match=fragment):
        load_locomo(path)


def test_bad_date_names_the_expected_format(tmp_path: Path) -> None:
    sample = locomo_sample()
    sample["conversation"]["session_1_date_time"] = "yesterday"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps([sample]), encoding="utf-8")
    with pytest.raises(InvalidInputError, match="1:56 pm on 8 May, 2023"):
        load_locomo(path)
