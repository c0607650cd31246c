"""Someone the question does not ask about changes a thing of the holder's that the question
names, told by the holder: "they moved the class to Fridays", "Dev moved our standup to 10".
It is the holder's new value (as "my doctor switched me to naproxen" is), not an aside of
someone else's; what they do to their own things or to nobody's stays theirs. Written before the
rule, on topics of their own, with small talk around each change."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ripplemem import Memory, Settings

from .ranking import rank_of

SMALL_TALK = [
    ("Kit", "Did you see the match on Sunday?"),
    ("Kit", "The café by the station finally reopened."),
]

#: user -> (speaker, (day, first value), (day, the change), question, the current value's words, the old's)
CHANGES = {
    "pilates": (
        "Jo", ("2024-01-09", "My pilates class is on Monday evenings at the leisure centre."),
        ("2024-04-02", "Annoying news: they moved the pilates class to Friday mornings."),
        "When is Jo's pilates class?", "Friday", "Monday",
    ),
    "standup": (
        "Rui", ("2024-02-01", "Our team standup is at 9:30 every morning."),
        ("2024-05-14", "Dev moved the standup to 10:15 so the Lisbon people can join."),
        "What time is Rui's team standup?", "10:15", "9:30",
    ),
}

#: user -> (speaker, (day, the true value), (day, someone else's change), question, true words, false words)
CONTROLS = {
    "gym": (
        "Ola", ("2024-01-09", "My spin class is on Wednesday evenings."),
        ("2024-04-02", "They moved my sister's spin class to Saturdays, she's fuming."),
        "When is Ola's spin class?", "Wednesday", "Saturdays",
    ),
    "office": (
        "Bea", ("2024-02-01", "I work from the Leeds office three days a week."),
        ("2024-05-14", "Marta moved to the Manchester office last month."),
        "Which office does Bea work from?", "Leeds", "Manchester",
    ),
}


@pytest.fixture(scope="module")
def memory(embedder) -> Iterator[Memory]:
    with Memory(Settings(store="memory://"), embedder=embedder) as opened:
        for user, (who, first, second, *_rest) in {**CHANGES, **CONTROLS}.items():
            for day, text in (first, second):
                said = [{"speaker": who, "text": text}]
                said[1:1] = [{"speaker": s, "text": t} for s, t in SMALL_TALK]
                opened.add(said, user_id=user, session_time=day)
        yield opened


@pytest.mark.parametrize("user", list(CHANGES))
def test_someones_change_to_the_holders_thing_is_the_current_value(memory: Memory, user: str) -> None:
    _, _, _, question, new, old = CHANGES[user]
    assert rank_of(memory, question, user, new) < rank_of(memory, question, user, old)


@pytest.mark.parametrize("user", list(CONTROLS))
def test_a_change_to_someone_elses_thing_is_not(memory: Memory, user: str) -> None:
    _, _, _, question, true, false = CONTROLS[user]
    assert rank_of(memory, question, user, true) < rank_of(memory, question, user, false)
