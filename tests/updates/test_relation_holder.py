"""A question about a person named by their relation to someone ("Where does Ana's mother live?",
"Which care home is my grandad in?") asks about that relative, not about the one they belong to:
a kinship word and its everyday forms ("mother" / "mum" / "mom") name one relation, the
relative's memories are what the one they belong to says of them ("Mum moved to York", "she"
after "Mum" in the same memory), and someone else's mother is not theirs. Conversations of
their own."""

from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem import Memory
from ripplemem.read.supersession import question_relation
from ripplemem.statements.clauses import kin
from ripplemem.write.entities import EntityRecognizer

from .dialogues import Sessions, add_sessions, first_rank


def _add(memory: Memory, people: tuple[str, str], sessions: Sessions) -> None:
    add_sessions(memory, people, sessions)


def _first(memory: Memory, question: str, *words: str) -> int:
    return first_rank(memory, question, *words, when=datetime(2024, 6, 1))


_FAMILY = [
    ("2023-03-01", [
        ("Ana", "My mum lives in Leeds, in a flat near the station."),
        ("Ben", "Handy for the trains."),
    ]),
    ("2023-09-01", [
        ("Ben", "How's your family?"),
        ("Ana", "Good. Mum moved to York last month, she wanted to be near my sister."),
        ("Ben", "My mum moved to Malaga in the spring, she can't stand the rain."),
    ]),
    ("2024-01-10", [
        ("Ana", "My brother still lives in Leeds though."),
        ("Ben", "Lucky him."),
    ]),
]


@pytest.mark.parametrize(
    "question",
    ["Where does Ana's mother live?", "Where does Ana's mom live now?", "Where does Ana's mum live?"],
)
def test_any_word_for_the_relation_finds_the_relatives_latest_home(memory: Memory, question: str) -> None:
    _add(memory, ("Ana", "Ben"), _FAMILY)
    assert _first(memory, question, "York") < _first(memory, question, "flat near the station")
    assert _first(memory, question, "York") < _first(memory, question, "Malaga")  # Ben's mother


_STAIRS = [
    ("2023-05-14", [
        ("Ines", "I stayed two nights with Mum in Cromer. She's in the old terraced house by the pier."),
        ("Pauline", "Lovely spot."),
    ]),
    ("2024-04-20", [
        ("Pauline", "Any news?"),
        ("Ines", "Lots. Mum found the stairs too much, so she moved into Hollybank Court in Sheringham last month."),
        ("Pauline", "A big step."),
    ]),
]


def test_she_after_the_relation_in_the_same_memory_is_the_relative(memory: Memory) -> None:
    _add(memory, ("Ines", "Pauline"), _STAIRS)
    question = "Where does Ines's mother live?"
    assert _first(memory, question, "Hollybank") < _first(memory, question, "terraced house")


@pytest.mark.parametrize(
    ("question", "relation"),
    [
        ("Where does Ines's mother live?", ("mother", "ines")),
        ("Which care home is my grandad in?", ("grandfather", "")),
        ("What does Tom's wife do for a living?", ("wife", "tom")),
        ("Where is Amira's nan living now?", ("grandmother", "amira")),  # "nan" parsed as a name
        ("Where does Arjun's brother Vikram live?", None),  # named: about Vikram
        ("Where does Ines live?", None),
        ("Who is Kevin's partner now?", None),  # who the partner is: a fact of Kevin's
        ("Is Kevin's partner Sam?", None),  # the same, asked yes or no
        ("Is Kevin's dentist Dr Moss?", None),
        ("What is Ines's job?", None),  # a thing of hers, not a person
    ],
)
def test_the_relation_a_question_asks_about(question: str, relation: tuple[str, str] | None) -> None:
    assert question_relation(question, EntityRecognizer().parse) == relation


def test_everyday_forms_of_a_kinship_word_name_one_relation() -> None:
    assert kin("mum") == kin("mother") == kin("mom") == "mother"
    assert kin("nan") == kin("granny") == kin("grandmother")
    assert kin("grandad") == kin("grandpa") == "grandfather"
    assert kin("mother") != kin("father")
    assert kin("boss") == "boss"  # not a kinship word: itself


_ASKED = [
    ("2023-05-14", [
        ("Pauline", "How was Norfolk?"),
        ("Ines", "I stayed two nights with Mum in Cromer. She's in the old terraced house by the pier."),
        ("Pauline", "Lovely spot."),
    ]),
    ("2024-04-20", [
        ("Pauline", "Any news on your mum?"),
        ("Ines", "Lots. After another fall we agreed the house was too much, so she moved into Hollybank Court last month."),
        ("Pauline", "A big step."),
    ]),
]


def test_she_answering_a_question_about_the_relative_is_the_relative(memory: Memory) -> None:
    _add(memory, ("Ines", "Pauline"), _ASKED)
    question = "Where does Ines's mother live?"
    assert _first(memory, question, "Hollybank") < _first(memory, question, "terraced house")


def test_she_answering_a_question_about_two_people_stays_unread(memory: Memory) -> None:
    asked_of_two = [(day, [(who, text.replace("Any news on your mum?", "Any news on your mum and Tom?"))
                           for who, text in turns]) for day, turns in _ASKED]
    _add(memory, ("Ines", "Pauline"), asked_of_two)
    question = "Where does Ines's mother live?"
    assert _first(memory, question, "Hollybank") > _first(memory, question, "terraced house")


def test_a_relatives_word_is_theirs_only_by_the_whole_name() -> None:
    """"Agnes's mum" is not Nes's mother: the possessor is matched as a whole word."""
    from ripplemem.read.latest_first import Holder, _mention
    from ripplemem.testing.builders import make_unit

    unit = make_unit("u", restatement="x")
    holder = Holder("mother", frozenset({"live"}), "nes")
    assert _mention("agnes's mum moved to leeds", unit, holder) is None
    assert _mention("nes's mum moved to leeds", unit, holder) is not None
