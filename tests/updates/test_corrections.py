"""A correction that takes back a word of its speaker's earlier statement and puts another in its
place is that statement said anew ("Scratch that, it's Tuesday not Monday" after "My dentist
appointment is on Monday": QA3 Q3-4 through `add`). Written before the rule."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .ranking import rank_of

CASES = [
    ("My dentist appointment is on Monday.", "Scratch that, it's Tuesday not Monday.",
     "When is my dentist appointment?", "Tuesday not Monday", "appointment is on Monday"),
    ("I'm meeting Priya at the Anchor on Friday evening.", "Correction: the Crown, not the Anchor. Same time.",
     "Where am I meeting Priya?", "the Crown", "at the Anchor"),
    ("My flight to Lisbon leaves from Gatwick.", "Sorry, I got that wrong: not Gatwick but Stansted.",
     "Which airport does my flight leave from?", "Stansted", "from Gatwick"),
]


@pytest.mark.parametrize(("said", "correction", "question", "new", "old"), CASES, ids=["weekday", "pub", "airport"])
def test_the_correction_leads(memory: Memory, said: str, correction: str, question: str, new: str, old: str) -> None:
    memory.add([{"speaker": "Ann", "text": said}], user_id="ann", session_time="2024-05-16T10:00")
    memory.add([{"speaker": "Ann", "text": correction}], user_id="ann", session_time="2024-05-16T18:00")
    assert rank_of(memory, question, "ann", new) < rank_of(memory, question, "ann", old)


def test_a_contrast_of_other_words_corrects_nothing(memory: Memory) -> None:
    memory.add([{"speaker": "Ann", "text": "My dentist appointment is on Monday."}], user_id="ann", session_time="2024-05-16T10:00")
    memory.add([{"speaker": "Ann", "text": "The plumber comes Thursday, not Wednesday."}], user_id="ann", session_time="2024-05-16T18:00")
    question = "When is my dentist appointment?"
    assert rank_of(memory, question, "ann", "appointment is on Monday") == 0


def test_someone_elses_contrast_corrects_nothing(memory: Memory) -> None:
    memory.add([{"speaker": "Ann", "text": "My dentist appointment is on Monday."},
                {"speaker": "Bea", "text": "Mine's Tuesday, not Monday, thank goodness."}],
               user_id="ann", session_time="2024-05-16T10:00")
    memory.add([{"speaker": "Ann", "text": "I booked the train for the weekend."}], user_id="ann", session_time="2024-05-17T10:00")
    question = "When is Ann's dentist appointment?"
    assert rank_of(memory, question, "ann", "appointment is on Monday") == 0


@pytest.mark.parametrize(("said", "correction", "question", "new", "old"), CASES, ids=["weekday", "pub", "airport"])
def test_the_correction_leads_in_one_sitting(
    memory: Memory, said: str, correction: str, question: str, new: str, old: str
) -> None:
    # said in the same add (QA6 Q6-3): a correction is said later than what it corrects, though in
    # the same session, where two statements of one thing are otherwise one sitting's (not ordered)
    memory.add([{"speaker": "Ann", "text": "I've got a sister called Priya who lives in Glasgow."}], user_id="ann", session_time="2024-05-01")
    memory.add([{"speaker": "Ann", "text": "My favourite food is Thai green curry."}], user_id="ann", session_time="2024-05-02")
    memory.add([{"speaker": "Ann", "text": said}, {"speaker": "Ann", "text": correction}], user_id="ann", session_time="2024-05-16T10:00")
    assert rank_of(memory, question, "ann", new) < rank_of(memory, question, "ann", old)
