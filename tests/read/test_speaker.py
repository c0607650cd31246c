"""The speaker a question is about (read/speaker.py): their own words rank before what the others
said to them; a question naming no speaker, or several, keeps rho's order."""

from __future__ import annotations

import pytest

from ripplemem import Memory, Settings
from ripplemem.read.speaker import named_speaker, prefer_speaker
from ripplemem.recipes import get_recipe
from ripplemem.records import Cues, Evidence
from ripplemem.testing.builders import make_unit


def _evidence(uid: str, speaker: str, score: float) -> Evidence:
    return Evidence(make_unit(uid, speakers=(speaker,)), score, (), None, ())


RANKED = [
    _evidence("reply", "Melanie", 1.0),
    _evidence("own", "Caroline", 0.9),
    _evidence("reply2", "Melanie", 0.8),
    _evidence("own2", "Caroline", 0.6),
]


def test_the_named_speakers_units_go_before_the_partners_close_ones():
    ordered, speaker = prefer_speaker(RANKED, Cues(participants=("caroline",)), 0.3)
    assert speaker == "caroline"
    assert [e.unit.id for e in ordered] == ["own", "reply", "own2", "reply2"]
    assert sorted(e.unit.id for e in ordered) == sorted(e.unit.id for e in RANKED)
    scores = [e.score for e in ordered]
    assert scores == sorted(scores, reverse=True)
    lowered = {e.unit.id: e.terms.extra["speaker"] for e in ordered if e.terms is not None}
    assert lowered == {"reply": -0.3, "reply2": -0.3}


def test_no_named_speaker_or_two_keep_the_order():
    for cues in (Cues(), Cues(participants=("Oscar",)), Cues(participants=("Caroline", "Melanie"))):
        ordered, speaker = prefer_speaker(RANKED, cues, 0.3)
        assert speaker is None
        assert [e.unit.id for e in ordered] == [e.unit.id for e in RANKED]
    assert prefer_speaker(RANKED, Cues(participants=("Caroline",)), 0.0)[1] is None
    assert named_speaker(Cues(participants=("CAROLINE ",)), RANKED) == "caroline"


@pytest.fixture(scope="module")
def memory(tmp_path_factory):
    with Memory(Settings(store=str(tmp_path_factory.mktemp("speaker") / "m.db"))) as memory:
        memory.add(
            [
                {"role": "user", "name": "Caroline", "content": "I made clay bowls at the studio yesterday."},
                {"role": "user", "name": "Melanie", "content": (
                    "Wow, Caroline went to a pottery class! I love pottery class stories, tell me "
                    "about the pottery class."
                )},
                {"role": "user", "name": "Caroline", "content": "We made bowls and I painted mine blue."},
                {"role": "user", "name": "Melanie", "content": "My kids went camping last weekend."},
            ],
            user_id="friends", session_time="2023-05-08T13:56:00", session_id="s1",
        )
        yield memory


def test_the_stage_is_a_named_recipe_and_off_by_default():
    assert get_recipe("ripple-speaker").rank.speaker_penalty > 0
    assert get_recipe("ripple").rank.speaker_penalty == 0


def test_the_recipe_lifts_the_named_speakers_statement(memory):
    question = "When did Caroline go to a pottery class?"
    plain = memory.search(question, user_id="friends", recipe="ripple")
    preferred = memory.search(question, user_id="friends", recipe="ripple-speaker")
    assert any(n.startswith("speaker:") for n in preferred.trace.notes)
    assert not any(n.startswith("speaker:") for n in plain.trace.notes)

    def place(recall, words: str) -> int:
        return next(i for i, e in enumerate(recall.evidence) if words in e.unit.restatement)

    # rho alone puts Melanie's reply, which repeats the question's words, first
    assert plain.evidence[0].unit.speakers == ("Melanie",)
    assert preferred.evidence[0].unit.speakers == ("Caroline",)
    assert place(plain, "clay bowls") == 1 and place(preferred, "clay bowls") == 0
    assert sorted(e.unit.id for e in plain.evidence) == sorted(e.unit.id for e in preferred.evidence)
