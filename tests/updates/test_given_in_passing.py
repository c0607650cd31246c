"""Values said in passing: what a clause gives through a particle ("moved back to Lisbon"), what a
personal relative pronoun stands for when the parse hangs its clause from a noun inside the
person's description, and what a reason clause or a relative clause set off by a comma takes as
true inside a question or under a modal. The guards stay: a modal in the reason clause itself, a
restrictive relative clause in a question, the question's own clause."""

from __future__ import annotations

import pytest

from ripplemem.read.latest_first import Holder, _aside, states
from ripplemem.statements import Clause, clauses_of
from ripplemem.write.entities import EntityRecognizer


@pytest.fixture(scope="module")
def recognizer() -> EntityRecognizer:
    return EntityRecognizer()


def _clauses(recognizer: EntityRecognizer, text: str) -> list[Clause]:
    (doc,) = recognizer.parse([text])
    return clauses_of(doc, "Maya", ("Karim", "Rachel"))


def _naming(recognizer: EntityRecognizer, text: str, word: str) -> Clause:
    found = [c for c in _clauses(recognizer, text) if word in c.value or word in c.named]
    assert len(found) == 1, [(c.text, c.places) for c in _clauses(recognizer, text)]
    return found[0]


@pytest.mark.parametrize(
    ("text", "word", "place"),
    [
        ("My sister moved back to Lisbon in the spring.", "lisbon", "prep:to"),
        ("My brother moved over to Berlin last year.", "berlin", "prep:to"),
        ("My parents moved back into the old house in May.", "house", "prep:into"),
    ],
)
def test_a_phrase_after_a_particle_is_the_clauses_value(recognizer, text: str, word: str, place: str) -> None:
    clause = _naming(recognizer, text, word)
    assert word in dict(clause.places)[place]


@pytest.mark.parametrize(
    ("text", "person"),
    [
        ("I ran into Karim, an old teammate from my first job, who's now at KPMG.", "karim"),
        ("I caught up with Rachel, a colleague from my previous company, who is at TechCorp now.", "rachel"),
    ],
)
def test_who_stands_for_the_person_not_the_noun_the_parse_hangs_it_from(recognizer, text: str, person: str) -> None:
    clause = _naming(recognizer, text, "kpmg" if "KPMG" in text else "techcorp")
    assert person in clause.subject_words
    assert clause.kind == "person" and clause.presupposed


def test_which_still_stands_for_its_noun(recognizer) -> None:
    clause = _naming(recognizer, "I bought my bike at the Cycle Hub, which opened in York last year.", "york")
    assert clause.subject == "hub" and clause.presupposed


def test_a_who_clause_about_someone_else_stays_theirs(recognizer) -> None:
    clause = _naming(recognizer, "I met my neighbour's son, who just moved to York for his degree.", "york")
    assert clause.subject == "son" and clause.owner == "other"


@pytest.mark.parametrize(
    ("text", "word", "aside"),
    [
        # about another person: their value, not the holder's ("who" is a person, even "my friend Tom")
        ("I had dinner with my friend Tom, who moved to Berlin last year.", "berlin", True),
        ("I met my neighbour's son, who just moved to York for his degree.", "york", True),
        # about a thing the holder's statement names: background, neither the holder's value nor an aside
        ("I started at Brightwater, which is a design agency in Leeds.", "leeds", False),
        ("We moved into a flat that overlooks the harbour in Leith.", "leith", False),
    ],
)
def test_a_clause_taken_as_given_is_an_aside_when_it_is_about_another_person(
    recognizer, text: str, word: str, aside: bool
) -> None:
    clause = _naming(recognizer, text, word)
    holder = Holder("maya", frozenset({"live", "work"}))
    assert clause.presupposed and not states(clause, holder)
    assert _aside(clause, holder) is aside
    assert (clause.kind == "person") is aside


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Since I'm on night shifts now, could you suggest a sleep routine that works?", "shift"),
        ("Can you plan a cheaper week of meals, now that our rent went up to 1,400?", "1,400"),
        ("Any tips for my daughter Ada, who is in year six now?", "six"),
        ("Would a bigger tent be better, because we have two kids now?", "kid"),
        # "now" and the clause both hung from the question's verb
        ("Could you help me budget, now that my salary went up to 48,000 a year?", "48,000"),
    ],
)
def test_a_reason_or_a_comma_relative_is_given_inside_a_question(recognizer, text: str, word: str) -> None:
    clause = _naming(recognizer, text, word)
    assert clause.presupposed and not clause.asserted


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Could you suggest a sleep routine, since I might switch to night shifts in January?", "shift"),
        ("Do you know anyone who lives in Bristol?", "bristol"),
        ("Should I move to Bristol for the new job?", "bristol"),
        ("Could you suggest a plan, since I don't work weekends any more?", "weekend"),
    ],
)
def test_what_a_question_does_not_take_as_true_stays_not_given(recognizer, text: str, word: str) -> None:
    clause = _naming(recognizer, text, word)
    assert not clause.presupposed and not clause.asserted


@pytest.mark.parametrize(
    ("text", "own"),
    [
        # what the holder means to do with a thing they already have: no value of its own
        ("I need to renew my swim membership soon.", True),
        ("I must book my cat's jab this week.", True),
        ("I keep meaning to update my CV on LinkedIn.", True),
        # a value of its own, beside or instead of the holder's thing
        ("I'd love to get a Tesla one day.", False),
        ("I might move my savings to Monzo.", False),
        ("I want to rename my dog Max.", False),
    ],
)
def test_an_intention_about_the_holders_own_thing_is_no_aside(recognizer, text: str, own: bool) -> None:
    (clause,) = [c for c in _clauses(recognizer, text) if not c.asserted and c.value]
    holder = Holder("maya", frozenset({"car", "live"}))
    assert clause.own_value is own
    assert _aside(clause, holder) is not own
