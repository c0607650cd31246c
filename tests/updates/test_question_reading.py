"""What a question asks for and about whom, read from its parse: an earlier-value word counts
only where it sets the question's own time (not inside a description of someone or something
else, not in the "than" of a comparison), and a question whose subject is a named person asks
about them even when it says "my". Written before the rules, on wordings of their own."""

from __future__ import annotations

import pytest

from ripplemem.read.supersession import asks_for, asks_the_asker, counted, question_subject
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
        # a relation with the person's name beside it: the named person, not the possessor
        ("Where does Arjun's brother Vikram live?", "vikram"),
        ("Which school does Grace's son Archie go to?", "archie"),
        ("What does my sister Priya do for work?", "priya"),
        ("Where does Stuart's mother live?", None),  # a relation without a name
        # a name "is" equates with someone's relative or thing: the value asked about, the
        # question is about whose they are
        ("Is Tariq's dentist Dr Moss?", "tariq"),
        ("Is Maya's energy supplier Octopus?", "maya"),
        ("Is my dentist Dr Moss?", None),  # the asker's dentist: about the one who asks
        ("Is Lena's brother a nurse?", None),  # no name equated: about the brother
    ],
)
def test_a_named_subject_is_the_person_asked_about(parse, question, subject) -> None:
    assert question_subject(question, parse) == subject


@pytest.mark.parametrize(
    ("question", "first_person"),
    [
        # "my" only describes the person the question names
        ("How many women are on the team led by my former manager Rachel?", False),
        ("What is my sister Priya's job?", False),
        # the one who asks
        ("What did I buy for my sister Priya?", True),
        ("How often do I see my therapist, Dr. Okafor?", True),
        ("Where do I keep my bike?", True),
        ("When is my sister's wedding?", True),
        ("Where does Noor live?", False),
    ],
)
def test_a_my_that_describes_a_named_person_does_not_ask_about_the_asker(parse, question, first_person) -> None:
    assert asks_the_asker(question, parse) is first_person
    if first_person:  # without a parse, any first-person word counts
        assert asks_the_asker(question, None)


@pytest.mark.parametrize(
    ("question", "noun"),
    [
        ("How many bird species has Gus seen on the marsh?", "specie"),
        ("How many marathons have I run?", "marathon"),
        ("How much did I pay for the boiler?", None),  # no noun counted
        ("How many days ago did I watch the final?", None),  # a length of time, not a count
        ("Where does Cal live?", None),
    ],
)
def test_the_thing_a_question_counts(parse, question, noun) -> None:
    assert counted(question, parse) == noun
    assert counted(question, None) is None


def test_the_kind_of_value_a_question_asks_for(parse) -> None:
    from ripplemem.read.supersession import value_kind
    from ripplemem.statements import clauses_of, frequency

    assert value_kind("How often does Ada play tennis?", None) is frequency
    assert value_kind("How frequently do I swim?", None) is frequency
    assert value_kind("Where does Ada play tennis?", None) is None
    asked = value_kind("How many marathons has Ivy run?", "marathon")
    assert asked is not None
    (four,) = clauses_of(parse(["I've run four marathons."])[0], "Ivy")
    (moved,) = clauses_of(parse(["I moved to Leeds."])[0], "Ivy")
    assert asked(four) and not asked(moved)


@pytest.mark.parametrize(
    ("question", "mode"),
    [
        # what someone has done up to now: every value answers, none replaces another
        ("Which countries has Dana visited?", "past"),
        ("Where have we stayed on our trips?", "past"),
        ("Who has Omar worked with?", "past"),
        ("What instruments have I learned to play?", "past"),
        # not a perfect of the main clause, a count, a yes-or-no question, or a present word
        ("What have I been cooking these days?", "present"),
        ("How many marathons has Bea run?", "present"),
        ("Has Tom moved to Leeds?", "present"),
        ("What's the best score Ivy has got?", "present"),
        ("What has Ravi decided about the job now?", "present"),
        ("Which gym has Sam joined?", "present"),  # one value: the one that holds now
        ("What phone has Ravi switched to?", "present"),
        ("Where does Dana work?", "present"),
    ],
)
def test_a_question_in_the_present_perfect_asks_for_every_value(parse, question, mode) -> None:
    assert asks_for(question, None, None, parse=parse) == mode
