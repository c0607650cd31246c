"""What a sentence takes as given is the holder's fact too: a finite relative or adverbial clause
in the indicative ("the part where I now lead a team of five", "on days when I go to yoga").
Written before the rule, on wordings of their own; the guards stay: a condition, a clause of
bounded length, a clause under a future or a hypothetical, a negated or modal clause."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ripplemem import Memory, Settings
from ripplemem.statements import Clause, clauses_of, same_place
from ripplemem.write.entities import EntityRecognizer

from .ranking import rank_of


@pytest.fixture(scope="module")
def recognizer() -> EntityRecognizer:
    return EntityRecognizer()


def _clauses(recognizer: EntityRecognizer, text: str, speaker: str = "Maya") -> list[Clause]:
    (doc,) = recognizer.parse([text])
    return clauses_of(doc, speaker, ("Priya", "Rachel"))


def _given(recognizer: EntityRecognizer, text: str, word: str) -> list[Clause]:
    """The clauses whose value names ``word`` and that the sentence takes as true."""
    return [
        c for c in _clauses(recognizer, text)
        if (word in c.value or word in c.named) and (c.asserted or c.presupposed)
    ]


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("I love the part of my job where I now lead a team of five engineers.", "five"),
        ("I feel calmer on the days when I go to pottery at the community hall.", "pottery"),
        ("I met my old colleague Rachel, who works at Northwind these days.", "northwind"),
        ("I'm treating myself to a smoothie, since I've been going to the gym four times a week.", "gym"),
    ],
)
def test_a_finite_subordinate_clause_in_the_indicative_is_taken_as_true(recognizer, text: str, word: str) -> None:
    assert _given(recognizer, text, word), [(c.text, c.asserted, c.presupposed) for c in _clauses(recognizer, text)]


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("If I move to Leeds, I'll finally get a dog.", "leeds"),  # a condition
        ("I'll buy a bike when I move to Leeds next year.", "leeds"),  # under a future
        ("I would rent a flat that had a garden.", "garden"),  # under a hypothetical
        ("While the kitchen is being redone we sleep at my sister's.", "kitchen"),  # bounded
        ("I want to find a job where I could work from home.", "home"),  # a modal inside
        ("I like the flat, which doesn't have a balcony.", "balcony"),  # negated
    ],
)
def test_what_is_not_taken_as_true_stays_so(recognizer, text: str, word: str) -> None:
    assert not [c for c in _given(recognizer, text, word) if not c.asserted]


@pytest.mark.parametrize(
    ("text", "word", "given"),
    [
        # a clause an ask rests on (a reason, a comparison): given, a question around it or not
        ("Can you suggest a lock, as I keep my bike in the hallway now?", "hallway", True),
        ("Any tips for the commute, considering I work in Canary Wharf these days?", "canary", True),
        ("Do you know a good route, given that I live in Hove now?", "hove", True),
        ("How do I sleep better, now that I work nights at the depot?", "depot", True),
        ("I'm booking a court for Sunday, like we do every other week.", "week", True),
        # a time to come, a condition, what only seems so
        ("Can you remind me to call as soon as I land in Oslo?", "oslo", False),
        ("Is it fine to stay as long as I pay the rent in Leeds?", "leeds", False),
        ("Should I move, assuming I get the job in Derby?", "derby", False),
        ("Does it feel like I live at the office in Slough?", "slough", False),
        ("I was considering that we move to Derby.", "derby", False),  # "considering" with a subject
    ],
)
def test_a_clause_an_ask_rests_on_is_taken_as_given(recognizer, text: str, word: str, given: bool) -> None:
    found = [c for c in _given(recognizer, text, word) if c.presupposed]
    assert bool(found) is given, [(c.text, c.asserted, c.presupposed) for c in _clauses(recognizer, text)]


@pytest.mark.parametrize(
    ("text", "word", "given"),
    [
        # "but" setting two subjects side by side: the first half is stated as it would be alone
        ("We moved to Leeds in May, but my brother stayed in York.", "leeds", True),
        ("I went onto nights at the depot last month, but the pay is better.", "depot", True),
        ("I joined the rowing club in April, but my wife still plays tennis.", "rowing", True),
        # a concession: the second half goes on about the same subject or about the first half
        ("We looked at a house in Leeds, but we're staying in York.", "leeds", False),
        ("I test drove a Volvo but kept the Mini.", "volvo", False),
        ("Maya test drove a Volvo, but Maya kept the Mini.", "volvo", False),  # as a restatement says it
        ("I applied for the flat in Derby, but it fell through.", "derby", False),
        ("I booked a table at Nobu, but there was a mix-up.", "nobu", False),
        # the first half not asserted on its own: negated, hypothetical, asked
        ("We didn't move to Leeds, but my brother did.", "leeds", False),
        ("I could move to Leeds, but my job is in York.", "leeds", False),
        ("Did you move to Leeds, but your brother stayed?", "leeds", False),
    ],
)
def test_the_first_half_of_a_contrast_of_two_subjects_is_given(recognizer, text: str, word: str, given: bool) -> None:
    found = [c for c in _given(recognizer, text, word) if c.presupposed or c.asserted]
    assert bool(found) is given, [(c.text, c.asserted, c.presupposed) for c in _clauses(recognizer, text)]


def test_a_relative_pronoun_stands_for_the_noun_it_follows(recognizer) -> None:
    clauses = _clauses(recognizer, "I met Rachel, who works at Northwind these days.")
    (works,) = [c for c in clauses if c.predicate == "work"]
    assert "rachel" in works.subject_words and works.kind == "person"


#: (date, speaker, text): the value changes inside a clause the sentence takes as given
CONVERSATIONS = {
    "team": [
        ("2023-03-01", "Kai", "I lead a team of four engineers in my new role."),
        ("2023-03-01", "Kai", "The weather has been grim all week."),
        ("2023-09-20", "Kai", "I've enjoyed the part of my role where I now lead a team of six engineers."),
        ("2023-09-20", "Kai", "I finally fixed the squeaky door in the hall."),
    ],
    "yoga": [
        ("2023-02-02", "Ana", "I do yoga twice a week, it helps me relax."),
        ("2023-02-02", "Ana", "Did you see the match on Saturday?"),
        ("2023-08-08", "Ana", "I'm much more focused on the days when I do yoga, which is four times a week now."),
        ("2023-08-08", "Ana", "I love a long walk on a Sunday morning."),
    ],
}


#: the small talk around every session (a lead of a few units makes every unit a neighbour)
SMALL_TALK = [
    ("Sam", "Did you catch the game last night?"),
    ("Sam", "I'm repainting the fence this weekend."),
    ("Sam", "The new bakery on the corner is very good."),
]


@pytest.fixture(scope="module")
def memory(embedder) -> Iterator[Memory]:
    with Memory(Settings(store="memory://"), embedder=embedder) as opened:
        for user, turns in CONVERSATIONS.items():
            for day in dict.fromkeys(d for d, _, _ in turns):
                said = [{"speaker": who, "text": text} for d, who, text in turns if d == day]
                said[1:1] = [{"speaker": who, "text": text} for who, text in SMALL_TALK]
                opened.add(said, user_id=user, session_time=day)
        yield opened


@pytest.mark.parametrize(
    ("user", "question", "latest", "earlier"),
    [
        ("team", "How many engineers does Kai lead now?", "six engineers", "four engineers"),
        ("yoga", "How often does Ana do yoga?", "four times", "twice"),
    ],
)
def test_a_value_the_sentence_takes_as_given_leads(memory: Memory, user, question, latest, earlier) -> None:
    assert rank_of(memory, question, user, latest) < rank_of(memory, question, user, earlier)


@pytest.mark.parametrize(
    ("first", "second", "same"),
    [
        ("I'm currently on page 200 of the book.", "Now I'm on page 220 of it.", True),
        ("I have 1250 followers on Instagram.", "These days I have 1400 followers on Instagram.", True),
        ("My rent is 900 euros a month.", "My rent is 1,050 euros a month now.", True),
        ("I live in Leeds.", "I work in Bristol.", False),  # another predicate
        ("I'm on page 200.", "I'm on page 200 again.", False),  # the same value
        ("My rent is 900 euros.", "My car is 9000 euros.", False),  # another thing of theirs
        ("I drive a Honda Jazz.", "I drive a Tesla now.", True),  # names alone: one kind of thing
        # names of two kinds of thing had, not one thing's two values
        ("I had a job interview at Spire hospital today.", "We have a cat called Miso.", False),
        ("I have a dog called Rex.", "I have a parrot called Kiwi.", False),
        ("I have two kids.", "I have three kids now.", True),
    ],
)
def test_two_statements_of_one_thing_give_a_value_in_the_same_place(recognizer, first, second, same) -> None:
    a = [c for c in _clauses(recognizer, first) if c.asserted]
    b = [c for c in _clauses(recognizer, second) if c.asserted]
    assert any(same_place(x, y) for x in a for y in b) is same
