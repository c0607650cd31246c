"""What a question asks for and about whom, read from its parse: an earlier-value word counts
only where it sets the question's own time (not inside a description of someone or something
else, not in the "than" of a comparison), and a question whose subject is a named person asks
about them even when it says "my". Written before the rules, on wordings of their own."""

from __future__ import annotations

import pytest

from ripplemem.read.supersession import asks_for, question_subject
from ripplemem.write.entities import EntityRecognizer


@pytest.fixture(scope="module")
def parse():
    return EntityRecognizer().parse


@pytest.mark.parametrize(
    ("question", "mode"),
    [
        # the earlier-value word describes someone or something else
        ("Where does Lena, my friend from my first school, live?", "present"),
        ("Which club does Omar, a teammate from my previous club, play for these days?", "present"),
        # a comparison with before asks about the present
        ("Do I go swimming more often than I did previously?", "present"),
        ("Do I drink more coffee than I used to?", "present"),
        # the question's own time is earlier
        ("What was my previous job before I got the current one?", "earlier"),
        ("Where did Noor live at first?", "earlier"),
        ("Which car did I originally drive?", "earlier"),
        ("What did Ines drink before she changed?", "earlier"),
        ("How many books had I read in the first two months?", "earlier"),
    ],
)
def test_an_earlier_value_word_counts_where_it_sets_the_questions_time(parse, question, mode) -> None:
    assert asks_for(question, None, None, parse=parse) == mode


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        ("Where does Priya, my sister, work now?", "priya"),
        ("What company is Tomasz, my old flatmate, working at?", "tomasz"),
        ("How often do I see my therapist, Dr. Okafor?", None),  # the one who asks
        ("Where do I keep my bike?", None),
        ("When is my sister's wedding?", None),  # a thing, not a person
    ],
)
def test_a_named_subject_is_the_person_asked_about(parse, question, subject) -> None:
    assert question_subject(question, parse) == subject
