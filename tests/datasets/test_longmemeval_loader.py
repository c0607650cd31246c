from __future__ import annotations

import json
from datetime import datetime
from io import StringIO
from pathlib import Path

import pytest

from ripplemem.datasets.longmemeval import iter_json_array, load_longmemeval
from ripplemem.errors import InvalidInputError

from .synthetic import lme_item


def _by_id(path: Path) -> dict:
    return {sample.question.id: sample for sample in load_longmemeval(path)}


def test_records_follow_the_official_conventions(lme_json: Path) -> None:
    sample = _by_id(lme_json)["q1"]
    conversation, question = sample.conversation, sample.question
    assert conversation.conversation_id == "q1"
    assert conversation.speakers == ("User", "Assistant")
    # sessions sorted by time; ids kept
    assert [s.session_id for s in conversation.sessions] == ["answer_s2", "noise_1", "noise_3"]
    assert conversation.sessions[0].time == datetime(2023, 5, 10, 21, 44)
    noise_1 = conversation.sessions[1]
    # 1-based index over all turns; the empty assistant turn 4 is left out of the records
    assert [(t.turn_id, t.speaker) for t in noise_1.turns] == [
        ("noise_1_1", "User"), ("noise_1_2", "Assistant"), ("noise_1_3", "User")]
    # corpus = user turns only, in haystack order; non-evidence user turns of an answer session
    # are renamed answer -> noans
    assert question.corpus_ids == (
        "noise_1_1", "noise_1_3", "answer_s2_1", "noans_s2_3", "noise_3_2")
    assert question.gold_turns == ("answer_s2_1",)
    assert question.gold_sessions == ("answer_s2",)
    assert question.corpus_id_of["answer_s2_3"] == "noans_s2_3"
    assert "answer_s2_2" not in question.corpus_id_of  # assistant turn: not in the corpus
    assert question.answer == "42"
    assert question.question_time == datetime(2023, 6, 1, 9, 30)
    assert question.question_type == "single-session-user"
    assert not question.abstention


def test_abstention_and_no_gold(lme_json: Path) -> None:
    samples = _by_id(lme_json)
    assert samples["q2_abs"].question.abstention
    assert samples["q3"].question.gold_turns == ()


def test_xz_gives_the_same_samples(lme_json: Path, lme_xz: Path) -> None:
    plain = [s.question for s in load_longmemeval(lme_json)]
    packed = [s.question for s in load_longmemeval(lme_xz)]
    assert plain == packed and len(plain) == 3


def test_repeated_session_ids_are_renamed_but_map_to_official_ids(tmp_path: Path) -> None:
    item = lme_item()
    item["haystack_session_ids"][2] = "noise_1"
    path = tmp_path / "dup.json"
    path.write_text(json.dumps([item]), encoding="utf-8")
    [sample] = load_longmemeval(path)
    ids = [s.session_id for s in sample.conversation.sessions]
    assert sorted(ids) == ["answer_s2", "noise_1", "noise_1~2"]
    assert sample.question.corpus_id_of["noise_1~2_2"] == "noise_1_2"
    assert sample.question.corpus_ids.count("noise_1_1") == 1


@pytest.mark.parametrize("chunk_text", ["[]", " [ ] ", '[{"a": 1}, {"b": [2, 3]}]', '[1, "x", null]'])
def test_streaming_reader_matches_json(chunk_text: str) -> None:
    assert list(iter_json_array(StringIO(chunk_text))) == json.loads(chunk_text)


def test_streaming_reader_across_chunks() -> None:
    import ripplemem.datasets.longmemeval as module

    items = [{"text": "x" * 300, "n": n} for n in range(50)]
    text = json.dumps(items)
    assert len(text) > 4 * 1024
    # elements straddle chunk boundaries when the chunk is small
    reader = iter_json_array(_SmallReads(text, 97))
    assert list(reader) == items
    assert module._CHUNK >= 1024  # the real chunk size stays large


class _SmallReads(StringIO):
    def __init__(self, text: str, size: int) -> None:
        super().__init__(text)
        self.size = size

    def read(self, size: int | None = -1) -> str:  # never more than `size` chars per call
        return super().read(self.size)


@pytest.mark.parametrize(
    "content, fragment",
    [
        ('{"question_id": "x"}', "expected a JSON list"),
        ('[{"question_id": "x"}', "not a LongMemEval question"),
        ('[{"a": ]', "invalid JSON"),
    ],
)
def test_bad_files_say_what_is_wrong(tmp_path: Path, content: str, fragment: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InvalidInputError, match=fragment):
        list(load_longmemeval(path))


@pytest.mark.parametrize(
    "content, fragment",
    [("[1, 2", "not closed"), ("[1 2]", "expected ','"), ("[1,]", "invalid JSON"), ("", "expected a JSON list")],
)
def test_streaming_reader_rejects_broken_lists(content: str, fragment: str) -> None:
    with pytest.raises(InvalidInputError, match=fragment):
        list(iter_json_array(StringIO(content)))


def test_bad_date(tmp_path: Path) -> None:
    item = lme_item()
    item["haystack_dates"][0] = "May 20"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps([item]), encoding="utf-8")
    with pytest.raises(InvalidInputError, match="YYYY/MM/DD"):
        list(load_longmemeval(path))
