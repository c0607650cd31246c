"""What a person reported before what they asked for (read/speech_acts.py): the people's asks
that report nothing score lower; reports, the assistant's words and other statements keep theirs."""

from __future__ import annotations

import pytest

from ripplemem import Memory, Settings
from ripplemem.read.speech_acts import _ASK, _asks, prefer_reports, speech_act
from ripplemem.recipes import get_recipe
from ripplemem.records import Evidence
from ripplemem.testing.builders import make_unit


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("Can Assistant suggest some plants for User's tank?", "ask"),
        ("User asked: what is a good beginner guitar", "ask"),
        ("User is looking for some gift ideas for a coworker.", "ask"),
        ("User is thinking of setting up a quarantine tank.", "ask"),
        ("User wants to learn more about sourdough starters.", "ask"),
        ("User will start filling out the template tomorrow.", "ask"),
        ("Does Assistant have any tips for keeping herbs fresh", "ask"),
        ("User has been thinking about getting a new camera.", "ask"),
        ("User just got a new pair of sneakers last weekend.", "report"),
        ("By the way, User attended a pottery workshop on Saturday.", "report"),
        ("User has had a 5-gallon tank for years.", "report"),
        ("Caroline went to the support group yesterday.", "report"),
        # a request that also reports something counts as a report
        ("User recently moved to Denver; can Assistant suggest hiking trails?", "report"),
        ("The weather is lovely in spring.", "other"),
        ("The wedding is set for May 20th at the vineyard.", "other"),  # the month, not a modal
        ("Assistant said: java fern is easy to grow.", "other"),
        # a capitalised word ending in -ed is a name or a title, not a verb
        ("Owen said: Should we rename the team 'Universally Challenged'?", "ask"),
        # a word or two echoed as a question at the start asks nothing (QA7 Q7-06)
        ("Ana said: Bus? Not anymore, now it's the e-bike every morning.", "other"),
        ("Bus? Ana takes the e-bike now.", "other"),
        ("Kit said: Green tea? Can Assistant recommend one?", "ask"),  # what follows asks
        ("Ana said: Bus?", "ask"),  # nothing follows
        ("Sam asked: Leeds? Is that near York?", "ask"),
    ],
)
def test_speech_act_reads_asks_and_reports(text, act):
    assert speech_act(text) == act



@pytest.mark.parametrize(
    "text",
    [
        "Any news?", "User asked: what is a good guitar", "Could you help me?", "Is Assistant free?",
        "User would suggest it.", "Help them, please.", "User is really hoping to go.",
        "User'd like to cook.", "User needs to rest.", "User will go.", "User Will go.",
        "User may have left.", "The wedding is in May.", "Any ideas for Sunday", "any tips",
        "This disk is full.", "dois you", "Mayday, mayday.", "User wanted to go.", "ANY TIPS",
        "İs you", "Can you\nhelp", "Caf\u00e9: do you know it", "ſuggest a book", "",
        # a form that starts with a common word is searched only where its match's later words are
        "Do YOU know it", "DOES ASSISTANT know", "This is your call.", "User is sure.",
        "User is CURIOUS about it.", "User was interested in jazz.", "User is Going To go.",
        "User is going  to go.", "User is looking for a flat.", "User was wondering why.",
        "User is thinking of it.", "User is planning a trip.", "User is trying yoga.",
        "User is hoping for rain.", "User is considering it.", "User shares interesting thoughts.",
        "User's mom is really curious.", "User is surely going to win.", "Are you in?",
    ],
)
def test_asks_reads_as_the_one_pattern_does(text):
    assert _asks(text) == (_ASK.search(text) is not None)

def _evidence(uid: str, speaker: str, text: str, score: float) -> Evidence:
    return Evidence(make_unit(uid, restatement=text, speakers=(speaker,)), score, (), None, ())


RANKED = [
    _evidence("ask", "User", "Can Assistant recommend plants for User's tank?", 1.0),
    _evidence("reply", "Assistant", "Assistant would suggest java fern for the tank.", 0.95),
    _evidence("report", "User", "User set up a 1-gallon tank for a friend's kid.", 0.9),
    _evidence("plain", "User", "Fish tanks need weekly water changes.", 0.7),
    _evidence("plan", "User", "User is thinking of buying a bigger tank.", 0.6),
]


def test_the_users_asks_go_below_the_close_reports():
    ordered, lowered = prefer_reports(RANKED, 0.2)
    assert lowered == 2
    assert [e.unit.id for e in ordered] == ["reply", "report", "ask", "plain", "plan"]
    scores = [e.score for e in ordered]
    assert scores == sorted(scores, reverse=True)
    terms = {e.unit.id: e.terms.extra.get("ask") for e in ordered if e.terms is not None}
    assert terms == {"ask": -0.2, "plan": -0.2}
    assert prefer_reports(RANKED, 0.0) == (RANKED, 0)


def test_the_assistants_asks_keep_their_score():
    ranked = [
        _evidence("asked", "Assistant", "Could you tell me more about the tank?", 1.0),
        _evidence("report", "User", "User bought a tank last week.", 0.9),
    ]
    ordered, lowered = prefer_reports(ranked, 0.5)
    assert lowered == 0 and ordered == ranked


@pytest.fixture(scope="module")
def memory(tmp_path_factory):
    with Memory(Settings(store=str(tmp_path_factory.mktemp("reports") / "m.db"))) as memory:
        memory.add(
            [
                {"role": "user", "content": "Can you recommend some easy plants for my fish tank?"},
                {"role": "assistant", "content": "Java fern and anubias are hardy and grow slowly."},
                {"role": "user", "content": "Thanks! I set up a small tank with guppies for my niece."},
                {"role": "assistant", "content": "Guppies are a great choice for a first tank."},
            ],
            user_id="u", session_time="2023-05-08T13:56:00", session_id="s1",
        )
        yield memory


def test_the_stage_is_on_by_default_and_off_in_its_ablation():
    assert get_recipe("ripple").rank.ask_penalty > 0
    assert get_recipe("ripple-no-reports").rank.ask_penalty == 0
    assert get_recipe("ripple-paper").rank.ask_penalty == 0


def test_the_recipe_lifts_the_report_over_the_request(memory):
    question = "How many fish tanks do I have?"
    plain = memory.search(question, user_id="u", recipe="ripple-no-reports")
    preferred = memory.search(question, user_id="u", recipe="ripple")
    assert any(n.startswith("reports:") for n in preferred.trace.notes)
    assert not any(n.startswith("reports:") for n in plain.trace.notes)

    def place(recall, words: str) -> int:
        return next(i for i, e in enumerate(recall.evidence) if words in e.unit.restatement)

    # rho alone puts the request, which shares the question's words, above the report
    assert place(plain, "recommend") < place(plain, "guppies")
    assert place(preferred, "guppies") < place(preferred, "recommend")
    assert sorted(e.unit.id for e in plain.evidence) == sorted(e.unit.id for e in preferred.evidence)
