"""Clauses from the real spaCy parse: subject, value and mood, with no word lists."""

from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem.records import MemoryUnit
from ripplemem.statements import Clause, StatementReader, clauses_of, speaker_parts
from ripplemem.write.entities import EntityRecognizer


@pytest.fixture(scope="module")
def recognizer() -> EntityRecognizer:
    return EntityRecognizer()


def _clauses(recognizer: EntityRecognizer, text: str, speaker: str = "Maya", people=("Priya",)) -> list[Clause]:
    (doc,) = recognizer.parse([text])
    return clauses_of(doc, speaker, people)


def _stating(recognizer: EntityRecognizer, text: str, **kw) -> list[Clause]:
    """The asserted clauses the speaker states about themself or their own thing."""
    return [c for c in _clauses(recognizer, text, **kw) if c.asserted and c.by_speaker()]


def test_a_plain_statement_gives_predicate_place_and_named_value(recognizer) -> None:
    (clause,) = _clauses(recognizer, "I live in Bristol now.")
    assert (clause.kind, clause.predicate, clause.asserted, clause.tense) == ("speaker", "live", True, "present")
    assert dict(clause.places) == {"prep:in": frozenset({"bristol"})}
    assert clause.named == frozenset({"bristol"})


def test_the_speakers_name_and_their_things_are_theirs(recognizer) -> None:
    (named,) = _clauses(recognizer, "Maya lives in Leeds.")
    assert named.kind == "speaker"
    (dog,) = _clauses(recognizer, "My dog is now called Max.")
    assert (dog.kind, dog.owner, dog.subject, dog.predicate) == ("thing", "speaker", "dog", "call")
    assert dog.named == frozenset({"max"})
    (pet,) = _clauses(recognizer, "Our dog Rex is twelve.")
    assert pet.owner == "speaker" and {"dog", "rex"} <= pet.subject_words


@pytest.mark.parametrize(
    "text",
    [
        "Do I live in Leeds?",  # a question
        "I don't live in Leeds anymore.",  # negated
        "I never worked at Finvera.",
        "I would move to Munich.",  # a hypothetical modal
        "I might get a parrot.",
        "If we ever moved to Munich, I'd want a garden.",  # a condition and its consequent
        "I want to move to Munich.",  # an infinitive complement: a wish or a plan
        "I'm going to teach at Oakwood.",
        "I'm thinking about moving to Zurich.",  # a gerund after a preposition
        "I looked at a Volvo but kept the Mini.",  # the first half of "X but Y" is conceded
    ],
)
def test_what_is_not_asserted_states_no_value(recognizer, text: str) -> None:
    named = {"munich", "leeds", "finvera", "parrot", "oakwood", "zurich", "volvo"}
    assert not [c for c in _stating(recognizer, text) if c.named & named or c.value & named]


def test_the_conclusion_after_but_is_asserted(recognizer) -> None:
    stated = _stating(recognizer, "I looked at a Volvo but kept the Mini.")
    assert any("mini" in c.named for c in stated)


def test_someone_elses_change_is_theirs(recognizer) -> None:
    for text in ("My brother quit his job at Amazon.", "Priya moved to Porto.", "She moved to Porto."):
        assert all(c.kind != "speaker" for c in _clauses(recognizer, text)), text
    brother = _clauses(recognizer, "My brother quit his job at Amazon.")[0]
    assert (brother.kind, brother.owner, brother.subject) == ("thing", "speaker", "brother")


def test_a_partner_in_a_coordinated_subject_is_a_value(recognizer) -> None:
    (clause,) = _clauses(recognizer, "Emily and I got engaged at the lake.")
    assert clause.kind == "speaker" and "emily" in clause.named


def test_a_gerund_complement_gives_the_predicate(recognizer) -> None:
    (clause, *_) = _clauses(recognizer, "I've started seeing a woman called Ingrid.")
    assert clause.predicate == "see" and clause.asserted and "ingrid" in clause.named


def test_a_comma_spliced_clause_keeps_its_own_mood(recognizer) -> None:
    clauses = _clauses(recognizer, "Gina sleeps about six hours a night, it's not enough.", speaker="Gina")
    assert any(c.predicate == "sleep" and c.asserted for c in clauses)


def test_tense(recognizer) -> None:
    assert _clauses(recognizer, "I moved to Bristol.")[0].tense == "past"
    assert _clauses(recognizer, "I have been renting a flat in Leeds.")[0].tense == "present"
    assert _clauses(recognizer, "The party will be at the beach.")[0].tense == "future"


def test_speaker_prefixes_split_a_restatement() -> None:
    assert speaker_parts("Tom asked: Where do you live? Maya said: I live in Leeds.", "Tom") == [
        ("Tom", "Where do you live?"), ("Maya", "I live in Leeds."),
    ]
    assert speaker_parts("Maya lives in Leeds.", "Maya") == [("Maya", "Maya lives in Leeds.")]


def test_the_reader_parses_a_unit_once(recognizer) -> None:
    reader = StatementReader(recognizer.parse)
    unit = MemoryUnit(
        "u1", "ns", "Tom asked: Where? Maya said: I live in Leeds.", None, ("Tom", "Maya"), (),
        None, "s1", ("s1:1",), None, datetime(2024, 1, 1),
    )
    first = reader.clauses([unit])[0]
    assert reader.parsed == 2
    assert reader.clauses([unit])[0] == first and reader.parsed == 2
    assert {c.speaker for c in first} == {"tom", "maya"}


@pytest.mark.parametrize(
    ("text", "bounded"),
    [
        ("I'm staying at my parents' house for two weeks.", True),
        ("We rented a cabin in the Alps for the weekend.", True),
        ("While the kitchen is being redone, we're living with my sister.", True),
        ("I've been vegetarian for five years.", False),  # a lasting state, up to now
        ("I've lived in Ghent for a decade.", False),
        ("I live in Ghent.", False),
        ("I moved to Ghent in May.", False),
        # being somewhere in the past: a visit that ended, not a lasting place
        ("I was in Seville last month for a work conference.", True),
        ("We were at my parents' place over Easter.", True),
        ("I was a nurse in Ghent.", False),  # what one was, not where one was
        ("I'm in Ghent now.", False),
    ],
)
def test_a_stay_of_bounded_length_is_marked(recognizer, text: str, bounded: bool) -> None:
    stated = [c for c in _stating(recognizer, text) if c.kind == "speaker"]
    assert stated, text
    assert any(c.bounded for c in stated) is bounded, text


def test_a_things_place_in_the_past_is_no_stay(recognizer) -> None:
    (clause,) = [c for c in _clauses(recognizer, "The wedding was in Bath.") if c.subject == "wedding"]
    assert not clause.bounded


def test_what_had_to_be_done_was_done(recognizer) -> None:
    """A necessity in the past tense entails its complement: "we had to move the wedding"
    moved it; "we have to move it" / "we want to move it" did not (yet)."""
    done = _clauses(recognizer, "We had to move the wedding to the ninth.", speaker="Zoe")
    assert any(c.predicate == "move" and c.asserted for c in done)
    for text in ("We have to move the wedding to the ninth.", "We want to move the wedding to the ninth."):
        assert not any(c.predicate == "move" and c.asserted for c in _clauses(recognizer, text, speaker="Zoe")), text


@pytest.mark.parametrize(
    "text",
    [
        "We've had to move the wedding to the ninth.",
        "The hall flooded, so I've had to switch my classes to the Tuesday group.",
        "They had had to cancel the trip by then.",
    ],
)
def test_what_has_had_to_be_done_was_done(recognizer, text: str) -> None:
    """The perfect of the necessity is perfective too ("we've had to move the wedding": moved)."""
    assert any(c.predicate in ("move", "switch", "cancel") and c.asserted for c in _clauses(recognizer, text, speaker="Zoe"))


@pytest.mark.parametrize(
    "text",
    [
        "We'll have to move the wedding to the ninth.",
        "We might have to move the wedding to the ninth.",
        "We would have had to move the wedding to the ninth.",
        "We've got to move the wedding to the ninth.",
    ],
)
def test_what_will_or_would_have_to_be_done_is_not_done(recognizer, text: str) -> None:
    assert not any(c.predicate == "move" and c.asserted for c in _clauses(recognizer, text, speaker="Zoe")), text


def test_a_things_noun_modifiers_and_a_dropped_article(recognizer) -> None:
    (offsite,) = _clauses(recognizer, "Our team offsite is in Lisbon in October.", speaker="Tim")
    assert offsite.owner == "speaker" and {"team", "offsite"} <= offsite.subject_words
    club = _clauses(recognizer, "Book club moved to Sunday afternoons.", speaker="Ivy")[0]
    assert club.definite and "club" in club.subject_words
    (kind,) = _clauses(recognizer, "Pets are the best company.", speaker="Ivy")
    assert not kind.definite  # a bare plural is a kind


def test_a_clause_has_its_own_words_without_the_clauses_inside_it(recognizer) -> None:
    clauses = _clauses(recognizer, "I had an interview at the Ritz, but I turned the offer down.", speaker="Marco")
    texts = {c.predicate: c.text for c in clauses}
    assert texts["turn"] == "I turned the offer down"
    assert "offer" not in texts["have"] and "Ritz" in texts["have"]


@pytest.mark.parametrize(
    ("text", "predicate"),
    [
        ("I turned down the job at the bank.", "turn"),  # a refusal: the object is not taken
        ("We rejected the flat in Leeds.", "reject"),
        ("I declined their offer from Oxford.", "decline"),
        ("I passed on the job at the bank.", "pass"),  # a refusal by a verb and its preposition
        ("We said no to the flat in Hove.", "say"),
        ("My mum thinks I live too far from her.", "live"),  # someone else's thought about me
        ("Dad says I drive too fast.", "drive"),
        ("My husband wants me to apply for a job in Leeds.", "apply"),  # an infinitive complement
    ],
)
def test_words_that_undo_an_assertion(recognizer, text: str, predicate: str) -> None:
    """Asserted by the mood (the write path's reading), undone by the words (the read path's)."""
    (clause,) = [c for c in _clauses(recognizer, text) if c.predicate == predicate]
    assert clause.undone and not (clause.asserted and not clause.undone)


@pytest.mark.parametrize(
    "text",
    [
        "I work at the bank now.",
        "I think I live in the nicest street in Leeds.",  # the speaker's own thought
        "I moved to Bristol last month, the boxes are finally unpacked.",  # a clause before its 'head'
        "My sister says she moved to Lisbon.",  # someone else's words about someone else
        "I cancelled Spotify.",  # a change, not a refusal of an offer
        "I passed the exam at the second go.",  # "pass" with an object of its own
    ],
)
def test_an_assertion_not_undone(recognizer, text: str) -> None:
    assert any(c.asserted and not c.undone and c.value for c in _clauses(recognizer, text))


def test_a_counted_length_of_time_as_the_object_is_a_stay(recognizer) -> None:
    (spent,) = _clauses(recognizer, "I spent a lovely weekend in Galway with friends.")
    assert spent.bounded
    for text in ("I work 40 hours a week.", "I sleep about six hours a night.", "I'm getting eight hours of sleep."):
        (clause,) = _clauses(recognizer, text)
        assert not clause.bounded, text  # a rate, a measure of something


def test_the_present_progressive(recognizer) -> None:
    (flying,) = [c for c in _clauses(recognizer, "I'm flying to Lisbon next week.") if c.predicate == "fly"]
    assert flying.progressive and flying.tense == "present"
    (swim,) = _clauses(recognizer, "I swim at the leisure centre every Monday.")
    assert not swim.progressive


@pytest.mark.parametrize(
    ("text", "predicate"),
    [
        ("Moved to Hove in March, still unpacking.", "move"),  # a past
        ("Been on 30mg since the review, feels better.", "be"),  # a perfect without its "I've"
        ("Loving the new job at Deloitte!", "love"),  # a present participle
    ],
)
def test_a_chat_sentence_without_its_i_is_the_speakers(recognizer, text: str, predicate: str) -> None:
    stated = {c.predicate for c in _stating(recognizer, text)}
    assert predicate in stated


@pytest.mark.parametrize(
    "text",
    [
        "Sounds good to me.",  # a dropped "it" (third person)
        "Turns out the café in Hove is closed.",
        "Call me when you get to Hove.",  # an imperative
        "Was the flat in Hove nice?",  # a question
    ],
)
def test_a_sentence_without_a_subject_of_other_forms_is_not_the_speakers(recognizer, text: str) -> None:
    assert not [c for c in _clauses(recognizer, text) if c.kind == "speaker"]


def test_a_thought_without_its_i_is_the_speakers_but_not_asserted(recognizer) -> None:
    clauses = {c.predicate: c for c in _clauses(recognizer, "Been thinking about trying almond milk.")}
    assert clauses["try"].kind == "speaker" and not clauses["try"].asserted


@pytest.mark.parametrize(
    ("text", "predicate", "asserted"),
    [
        ("I managed to join the Highgate tennis club.", "join", True),  # an implicative verb
        ("I remembered to renew my membership at the Jubilee gym.", "renew", True),
        ("I finally got round to moving my account to Monzo.", "move", True),
        ("I didn't manage to get into the Thursday class.", "get", False),  # negated: not done
        ("I tried to get a transfer to the York office.", "get", False),  # a try is no deed
        ("I forgot to switch to Octopus before the deadline.", "switch", False),
        ("I'd manage to get to Leeds by six.", "get", False),  # under a modal
        ("We didn't have to move the wedding.", "move", False),  # a negated necessity
    ],
)
def test_a_verb_that_entails_its_complement(recognizer, text: str, predicate: str, asserted: bool) -> None:
    (clause,) = [c for c in _clauses(recognizer, text) if c.predicate == predicate]
    assert clause.kind == "speaker"
    assert clause.asserted is asserted


def test_a_participle_clause_hung_from_its_sentence_is_asserted_with_it(recognizer) -> None:
    clauses = {c.predicate: c for c in _clauses(recognizer, "I finally sold the Panda, driving a Skoda Octavia now.")}
    assert clauses["drive"].asserted and clauses["drive"].kind == "speaker"
    assert clauses["drive"].named == frozenset({"skoda", "octavia"})
    (hoped,) = [c for c in _clauses(recognizer, "I'm saving up, hoping to buy a flat in Leeds.") if c.predicate == "buy"]
    assert not hoped.asserted  # the infinitive under it stays a wish
    (wished,) = [c for c in _clauses(recognizer, "I would sell the Panda, driving a Skoda instead.") if c.predicate == "drive"]
    assert not wished.asserted  # under a hypothetical


def test_a_gerund_after_since_or_after_is_taken_as_given_with_the_sentences_subject(recognizer) -> None:
    (moved,) = [c for c in _clauses(recognizer, "Since moving to Chorlton, I walk everywhere.") if c.predicate == "move"]
    assert (moved.kind, moved.presupposed, moved.asserted) == ("speaker", True, False)
    (other,) = [c for c in _clauses(recognizer, "Since moving to Chorlton, Priya walks everywhere.") if c.predicate == "move"]
    assert other.kind == "person"  # Priya's move, not the speaker's
    (ahead,) = [c for c in _clauses(recognizer, "After moving to Chorlton I'll buy a bike.") if c.predicate == "move"]
    assert not ahead.presupposed  # a sentence in the future takes nothing as done
    (dangling,) = [c for c in _clauses(recognizer, "Cycling to work every day, it's quicker than the bus.") if c.predicate == "cycle"]
    assert dangling.kind == "speaker"  # "it" is the cycling, not the cyclist


def test_of_two_subjects_the_name_or_pronoun_nearest_the_verb_wins(recognizer) -> None:
    """The parse may hang a verbless phrase before a comma as a second subject ("No more
    Netflix for me, I switched ..."): the subject is the one right before the verb."""
    (switched,) = [c for c in _clauses(recognizer, "No more Netflix for me, I switched to Disney+ in May.") if c.predicate == "switch"]
    assert switched.kind == "speaker"
    (named,) = [c for c in _clauses(recognizer, "No more Netflix for Maya, Maya switched to Disney+ in May.") if c.predicate == "switch"]
    assert named.kind == "speaker"


def test_a_new_thing_of_the_speakers_is_taken_as_had(recognizer) -> None:
    """"My new place in York has a garden" takes as given that the speaker has a new place, in
    York: a clause of its own, taken as given, whatever the sentence says of the place."""
    had = [c for c in _clauses(recognizer, "My new place in York has a garden, finally!") if c.presupposed]
    assert len(had) == 1 and had[0].kind == "speaker" and not had[0].asserted
    assert dict(had[0].places)["prep:in"] == frozenset({"york"}) and had[0].named == frozenset({"york"})
    (phone,) = [c for c in _clauses(recognizer, "My new iPhone 15 keeps overheating.") if c.presupposed]
    assert {"iphone", "15"} <= phone.named
    # someone else's new thing, or a thing of the speaker's not said to be new, gives none
    assert not [c for c in _clauses(recognizer, "My husband's new dentist, Dr Lowe, is lovely.") if c.presupposed]
    assert not [c for c in _clauses(recognizer, "My place in York has a garden.") if c.presupposed]


def test_a_parse_thousands_of_tokens_deep_is_read(recognizer) -> None:
    """The clause reader walks the parse in loops, not recursion: a run-on chain of 2,000 verbs
    (deeper than Python's recursion limit) reads like any other text."""
    clauses = _clauses(recognizer, "Moved " * 2000 + "to Hove.")
    assert clauses and all(c.kind in ("speaker", "none", "thing", "person") for c in clauses)


def test_a_sentential_which_speaks_of_the_clause_it_comments_on(recognizer) -> None:
    """A "which" the parse hangs as an adverbial clause comments on the whole clause before it:
    it is about that clause's subject, taken as given, never asserted (the write path reads only
    what is asserted); a relative of a noun keeps its own subject."""
    clauses = _clauses(recognizer, "Saw a bittern on the marsh yesterday, which brings my tally to 41 species.")
    comment = next(c for c in clauses if c.predicate == "bring")
    assert (comment.kind, comment.presupposed, comment.asserted) == ("speaker", True, False)
    brother = next(c for c in _clauses(recognizer, "My brother finished the race yesterday, which brings his total to five.")
                   if c.predicate == "bring")
    assert (brother.kind, brother.owner, brother.subject_words) == ("thing", "speaker", frozenset({"brother"}))
    liked = next(c for c in _clauses(recognizer, "I bought the car which my sister liked.") if c.predicate == "like")
    assert liked.subject_words == frozenset({"sister"})


def test_the_numbers_a_clause_gives_to_a_noun(recognizer) -> None:
    from ripplemem.statements import counts

    (ran,) = _clauses(recognizer, "I've run three marathons.")
    assert counts(ran, "marathon") == frozenset({"three"})
    assert counts(ran, "race") == frozenset()
    tally = next(c for c in _clauses(recognizer, "Saw a bittern yesterday, which brings my tally to 41 species.")
                 if c.predicate == "bring")
    assert counts(tally, "specie") == frozenset({"41"})  # the parse's lemma of "species"
    (moved,) = _clauses(recognizer, "I moved to Leeds in May.")
    assert counts(moved, "leeds") == frozenset()  # a name is no number


@pytest.mark.parametrize(
    ("text", "possessor"),
    [
        ("Tom's car is a white Tesla now.", "tom"),
        ("Mrs Patel's class is up to 30 pupils now.", "mrs patel"),
        ("My car is a white Tesla now.", ""),
        ("The car is a white Tesla now.", ""),
    ],
)
def test_the_name_that_owns_the_subject(recognizer, text: str, possessor: str) -> None:
    (clause,) = _clauses(recognizer, text, speaker="Ned", people=("Tom", "Mrs Patel"))
    assert clause.possessor == possessor


@pytest.mark.parametrize(
    ("text", "gives"),
    [
        ("We play every other week.", True),
        ("I swim twice a week now.", True),
        ("I see her three times per month.", True),
        ("We meet monthly.", True),
        ("I play tennis on Sunday.", False),
        ("I moved to Leeds a week ago.", False),
        ("I met him once a friend introduced us.", False),  # a rate needs a unit of time
    ],
)
def test_a_clause_that_gives_a_frequency(recognizer, text: str, gives: bool) -> None:
    from ripplemem.statements import frequency

    assert any(frequency(c) for c in _clauses(recognizer, text)) is gives


def test_a_near_miss_is_no_event(recognizer) -> None:
    """"Nearly", "almost" on a verb: its event did not happen; on another word they grade it."""
    (switched,) = [c for c in _clauses(recognizer, "I very nearly switched to British Gas last month.") if c.predicate == "switch"]
    assert not switched.asserted
    (moved,) = [c for c in _clauses(recognizer, "We almost moved to Bristol in May.") if c.predicate == "move"]
    assert not moved.asserted
    (walk,) = [c for c in _clauses(recognizer, "I almost always walk to work.") if c.predicate == "walk"]
    assert walk.asserted
    (age,) = [c for c in _clauses(recognizer, "I'm nearly 40 now.") if c.predicate == "be"]
    assert age.asserted


@pytest.mark.parametrize(
    "text, predicate, weighed",
    [
        ("I'm seriously considering veganism after that film.", "consider", True),
        ("Honestly I'm thinking about law instead.", "think", True),
        ("Been weighing up Bristol for a while.", "weigh", True),
        ("We're toying with a move to the coast.", "toy", True),
        ("I consider myself a runner now.", "consider", False),
        ("I think the bus is quicker.", "think", False),
    ],
)
def test_what_one_weighs_is_not_held(recognizer, text: str, predicate: str, weighed: bool) -> None:
    """A verb of deliberation with what it weighs: the value is weighed, not the subject's."""
    (clause,) = [c for c in _clauses(recognizer, text) if c.predicate == predicate]
    assert clause.asserted is not weighed


@pytest.mark.parametrize(
    "text, predicate",
    [
        ("I wish I drove a Porsche Taycan.", "drive"),
        ("Dave wishes Dave drove a Porsche Taycan.", "drive"),
        ("Sometimes I dream that I work at a bookshop.", "work"),
        ("Kofi hopes Kofi gets the job at the council.", "get"),  # the parse's lemma of "hopes" is "hop"
        ("I imagine I live in Lisbon.", "live"),
    ],
)
def test_what_one_wishes_dreams_or_hopes_is_not_asserted(recognizer, text: str, predicate: str) -> None:
    (clause,) = [c for c in _clauses(recognizer, text) if c.predicate == predicate]
    assert not clause.asserted


def test_what_one_knows_or_says_stays_as_it_was(recognizer) -> None:
    """A factive or a report is not a wish: its complement keeps its mood."""
    (clause,) = [c for c in _clauses(recognizer, "I know I drive too fast.") if c.predicate == "drive"]
    assert clause.asserted


@pytest.mark.parametrize(
    "text, continued",
    [
        ("I'll stick with Vodafone from now on.", True),
        ("We'll stay fortnightly for the newsletter.", True),
        ("I'm going to keep doing yoga on Sundays.", True),
        ("I remain at the central library.", True),
        ("I'll carry on at the library.", True),
        # not under a modal, a negation, a condition, a wish, a near miss, another verb's infinitive
        ("I might stay with Three.", False),
        ("I won't stay with Three.", False),
        ("If the price goes up, I'll stay with Three.", False),
        ("I wish I could stay with the choir.", False),
        ("I try to keep red meat to weekends.", False),
        ("I'll carry the boxes to the car.", False),
        ("I'm staying in Rome from Friday.", False),  # lodging for a while
        ("I keep meaning to try it, maybe this weekend.", False),  # a time is no value
        # someone else's
        ("My brother will stick with Vodafone.", False),
    ],
)
def test_going_on_with_a_value_takes_it_as_held_now(recognizer, text: str, continued: bool) -> None:
    found = [c for c in _clauses(recognizer, text) if c.continued]
    assert bool(found) is continued
    assert all(c.presupposed for c in found)


@pytest.mark.parametrize(
    "text, human, particular",
    [
        ("My dad bought a Tesla last month.", True, False),
        ("Sam's dad moved the party to the Red Lion.", True, True),
        ("My mother-in-law moved the christening to June.", True, True),
        ("The coach moved the training to Wednesdays.", True, True),
        ("My teacher moved my lesson to Thursdays.", True, True),
        # no direct object: not a doing to something
        ("Our fourth child was born in April.", False, False),
        ("My sister switched to Octopus in March.", False, False),
        # a thing, not a person; a name is a person of the unit's people already
        ("The clinic moved the appointment to Friday.", False, True),
        ("Priya moved the party to Friday.", False, True),
    ],
)
def test_a_person_named_by_a_noun_doing_something(recognizer, text: str, human: bool, particular: bool) -> None:
    """``human``: the subject is a person named by a noun with a direct object; ``object_definite``:
    that object is one particular thing ("the party", "my lesson"), not one of a kind ("a Tesla")."""
    (clause,) = [c for c in _clauses(recognizer, text) if c.subject not in ("", "i")][:1]
    assert clause.human is human, text
    assert clause.object_definite is particular, text


@pytest.mark.parametrize(
    "text, bounded",
    [
        ("I'll stay with Three for another year at least.", False),
        ("We'll keep renting in Chorlton for two more years.", False),
        ("I'll remain at Oakwood for a bit longer.", False),
        # a plain length on going on is a stay; lodging never goes on
        ("I'll stay with my aunt in York for two weeks.", True),
        ("I'm staying in Rome for another two weeks.", True),
        # a comparison of lengths is no going on beyond now
        ("I'll stay with my aunt in York for more than a week.", True),
    ],
)
def test_going_on_for_a_further_length_is_no_stay(recognizer, text: str, bounded: bool) -> None:
    """A length marked as going on beyond now ("another", "more", "longer") on going on is how
    long the value held now goes on, not a stay of that length."""
    found = [c for c in _clauses(recognizer, text) if c.kind == "speaker"]
    assert found and any(c.bounded for c in found) is bounded, text


@pytest.mark.parametrize(
    "text, predicate, acts",
    [
        ("At my review Dr Okafor increased my dose to 100mg.", "increase", True),
        ("The landlady came round and she put our rent up to 975.", "put", True),
        ("My manager moved me to the Leeds office.", "move", True),
        ("Dr Okafor increased my mum's dose to 100mg.", "increase", False),  # someone else's thing
        ("My manager moved Tom to the Leeds office.", "move", False),
        ("She put the Smiths' rent up to 975.", "put", False),
    ],
)
def test_a_change_that_acts_on_the_speaker_or_their_own_thing(recognizer, text: str, predicate: str, acts: bool) -> None:
    (clause,) = [c for c in _clauses(recognizer, text, people=("Tom", "Okafor")) if c.predicate == predicate]
    assert clause.acts_on_speaker is acts


def test_words_in_another_language_state_nothing(recognizer) -> None:
    """The parse is English: read with its grammar, "J'ai un chat qui s'appelle Minou" gave a
    subject "J'ai" and a value "Minou", and units of different things were one speaker's values
    of one thing. Another language's words give no clause; English words beside them do."""
    reader = StatementReader(recognizer.parse)

    def unit(uid: str, text: str) -> MemoryUnit:
        return MemoryUnit(
            uid, "ns", text, None, ("Li", "Tom"), (), None, "s1", ("s1:1",), None, datetime(2024, 1, 1)
        )

    foreign = [
        unit("fr", "Li said: J'ai un chat qui s'appelle Minou."),
        unit("es", "Li said: Mi hermano vive en Sevilla."),
        unit("de", "Li said: Ich habe einen Hund namens Bello."),
        unit("zh", "Li said: 我养了一只猫，叫小白。"),
    ]
    assert reader.clauses(foreign) == [[], [], [], []]
    assert reader.parsed == 0
    (mixed,) = reader.clauses([unit("mix", "Tom asked: Où habites-tu ? Li said: I live in Leeds.")])
    assert [(c.speaker, c.predicate) for c in mixed] == [("li", "live")]
