"""Another speaker's own value ("I joined PureGym last week") is not the holder's: asked about
the holder in the words of that value ("Does Rhea go to PureGym?"), the holder's own answer
("The Gym Group on Mill Road") ranks above it. The other speaker's words, which name the value,
fit the question best; they do not set the bar of what answers a question about someone else.
Written before the rule, on topics of their own, with an exchange around each value."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ripplemem import Memory, Settings

from .ranking import rank_of

#: user -> (holder, other speaker, what the other asks, the holder's answer, the other's own news,
#: the question, the holder's value, the other's)
CASES = {
    "bank": ("Ivo", "Mila", "Who do you bank with?", "Triodos, for years now.",
             "I finally switched my bank to Monzo, the app is great.", "Does Ivo bank with Monzo?", "Triodos", "Monzo"),
    "gym": ("Rhea", "Tom", "Which gym are you at these days?", "The Gym Group on Mill Road, it's cheap.",
            "I joined PureGym last week, the classes are brilliant.", "Does Rhea go to PureGym?", "Gym Group", "PureGym"),
    "phone": ("Sol", "Eva", "What phone have you got now?", "An old Pixel 4, still going strong.",
              "I bought an iPhone 15 on Saturday, I love the camera.", "Does Sol have an iPhone 15?", "Pixel 4", "iPhone 15"),
    "home": ("Noor", "Ben", "Where are you living now?", "Still in Hackney, same flat.",
             "I moved to Bristol in March, I love it.", "Does Noor live in Bristol?", "Hackney", "Bristol"),
}


@pytest.fixture(scope="module")
def memory(embedder) -> Iterator[Memory]:
    with Memory(Settings(store="memory://"), embedder=embedder) as opened:
        for user, (holder, other, asks, answer, news, *_rest) in CASES.items():
            opened.add([{"speaker": other, "text": asks}, {"speaker": holder, "text": answer}],
                       user_id=user, session_time="2024-02-03")
            opened.add([{"speaker": holder, "text": "Any news?"}, {"speaker": other, "text": news},
                        {"speaker": holder, "text": "Good for you."}], user_id=user, session_time="2024-06-09")
        yield opened


#: a verbless answer ("An old Pixel 4") has no reading: the other speaker's value goes below the
#: first unread answering unit, which is the question before that answer
UNREAD = pytest.mark.xfail(strict=True, reason="the holder's verbless answer is not read")


@pytest.mark.parametrize("user", [pytest.param(u, marks=UNREAD) if u == "phone" else u for u in CASES])
def test_another_speakers_value_is_not_the_holders(memory: Memory, user: str) -> None:
    *_, question, true, false = CASES[user]
    assert rank_of(memory, question, user, true) < rank_of(memory, question, user, false)


def test_a_question_for_a_value_keeps_the_best_fit_of_anyone(embedder) -> None:
    """"What seminars is Tim running?" when only John ran seminars: nothing Tim said answers,
    and his small talk does not pass John's words (a false premise's evidence stays first)."""
    with Memory(Settings(store="memory://"), embedder=embedder) as memory:
        memory.add([{"speaker": "Tim", "text": "I've been swamped with exams this week."},
                    {"speaker": "John", "text": "Hang in there."}], user_id="u", session_time="2024-02-03")
        memory.add([{"speaker": "Tim", "text": "I'm trying to get my head around visa rules for my trip."},
                    {"speaker": "John", "text": "The seminars I ran for new teachers went really well."}],
                   user_id="u", session_time="2024-06-09")
        assert rank_of(memory, "What seminars is Tim running?", "u", "seminars") == 0
