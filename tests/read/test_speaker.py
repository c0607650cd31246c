"""The speaker a question is about (read/speaker.py): their own words rank before what the others
said to them; a question naming no speaker, or several, keeps rho's order."""

from __future__ import annotations

import pytest

from ripplemem import Memory, Settings
from ripplemem.read.speaker import asks_about_the_asker, named_speaker, prefer_asker, prefer_speaker
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
    # the kind stage off in both: it lifts the statement that names a time ("yesterday") too
    plain = memory.search(question, user_id="friends", recipe=get_recipe("ripple", rank={"kind_penalty": 0.0}))
    preferred = memory.search(
        question, user_id="friends", recipe=get_recipe("ripple-speaker", rank={"kind_penalty": 0.0})
    )
    assert any(n.startswith("speaker:") for n in preferred.trace.notes)
    assert not any(n.startswith("speaker:") for n in plain.trace.notes)

    def place(recall, words: str) -> int:
        return next(i for i, e in enumerate(recall.evidence) if words in e.unit.restatement)

    # rho alone puts Melanie's reply, which repeats the question's words, first
    assert plain.evidence[0].unit.speakers == ("Melanie",)
    assert preferred.evidence[0].unit.speakers == ("Caroline",)
    assert place(plain, "clay bowls") == 1 and place(preferred, "clay bowls") == 0
    assert sorted(e.unit.id for e in plain.evidence) == sorted(e.unit.id for e in preferred.evidence)


# -- the person a first-person question asks about, in a person–assistant chat ------------------

#: the assistant's advice and the person's facts, alternating from the best score down
CHAT = [
    _evidence(uid, "Assistant" if uid.startswith("advice") else "User", score)
    for uid, score in (("advice", 1.0), ("fact", 0.8), ("advice2", 0.7), ("fact2", 0.5))
]


@pytest.mark.parametrize("query", ["Where do I do my strength workouts these days?", "where do i train now"])
def test_a_first_person_question_puts_the_persons_words_before_the_assistants(query):
    ordered, asked = prefer_asker(CHAT, query, 0.3)
    assert asked
    assert [e.unit.id for e in ordered] == ["fact", "advice", "fact2", "advice2"]
    scores = [e.score for e in ordered]
    assert scores == sorted(scores, reverse=True)
    lowered = {e.unit.id: e.terms.extra["asker"] for e in ordered if e.terms is not None}
    assert lowered == {"advice": -0.3, "advice2": -0.3}


@pytest.mark.parametrize(
    ("query", "ranked"),
    [
        ("What did you suggest for my strength workouts?", CHAT),  # about the assistant's words
        ("Can your plan fit my week?", CHAT),
        ("Where does Marcus do his strength workouts?", CHAT),  # not in the first person
        ("Where do I train?", [e for e in CHAT if e.unit.speakers == ("User",)]),  # no assistant
        ("Where do I train?", [e for e in CHAT if e.unit.speakers == ("Assistant",)]),  # no person
        ("Where do I train?", []),  # an empty namespace
    ],
    ids=["you", "your", "third person", "no assistant", "only the assistant", "nothing found"],
)
def test_other_questions_and_chats_keep_the_order(query, ranked):
    ordered, asked = prefer_asker(ranked, query, 0.3)
    assert not asked and not asks_about_the_asker(query, ranked)
    assert [e.unit.id for e in ordered] == [e.unit.id for e in ranked]


def test_the_asker_stage_is_on_by_default_and_off_in_the_paper_recipe():
    assert get_recipe("ripple").rank.asker_penalty > 0
    assert get_recipe("ripple-no-asker").rank.asker_penalty == 0
    assert get_recipe("ripple-paper").rank.asker_penalty == 0


@pytest.fixture(scope="module")
def chat(tmp_path_factory):
    with Memory(Settings(store=str(tmp_path_factory.mktemp("asker") / "m.db"))) as memory:
        memory.add(
            [
                {"role": "user", "content": (
                    "I'd like a four-week strength block before winter. Bit of context: I let my "
                    "gym membership lapse in July and I train in my garage now, with two "
                    "kettlebells and a pull-up bar."
                )},
                {"role": "assistant", "content": (
                    "Great idea. For strength workouts, three days a week works well: goblet "
                    "squats, kettlebell swings and pull-ups. Strength workouts at a gym can use "
                    "heavier barbells later. Rest two minutes between strength sets."
                )},
                {"role": "user", "content": "Sounds good, thanks."},
                {"role": "assistant", "content": "Keep a log of your strength workouts so you can add weight each week."},
            ],
            user_id="marcus", session_time="2023-09-12T10:00:00", session_id="s1",
        )
        yield memory


def test_the_persons_statement_rises_above_the_assistants_advice(chat):
    def place(recall, words: str) -> int:
        return next(i for i, e in enumerate(recall.evidence) if words in e.unit.restatement)

    question = "Where do I do my strength workouts these days?"
    plain = chat.search(question, user_id="marcus", recipe="ripple-no-asker")
    asked = chat.search(question, user_id="marcus", recipe="ripple")
    assert any(n.startswith("asker:") for n in asked.trace.notes)
    assert place(asked, "garage") < place(plain, "garage")
    assert [e.score for e in asked.evidence] == sorted((e.score for e in asked.evidence), reverse=True)
    to_the_assistant = chat.search("What did you suggest for my strength workouts?", user_id="marcus")
    assert not any(n.startswith("asker:") for n in to_the_assistant.trace.notes)
