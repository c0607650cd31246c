"""Slot claims from spaCy's parse: employers, pets by breed, measures, daily amounts; and the
sentences that must claim nothing (someone else's, negated, modal, planned)."""

from __future__ import annotations

import pytest

from ripplemem.write.entities import EntityRecognizer
from ripplemem.write.slots import Claim, read_claims, restates_value


@pytest.fixture(scope="module")
def recognizer() -> EntityRecognizer:
    return EntityRecognizer()


def _claims(recognizer: EntityRecognizer, text: str, holder: str = "Rosa") -> list[Claim]:
    return read_claims(text, holder, parse=recognizer.parse)


def _update(recognizer: EntityRecognizer, old: str, new: str, holder: str = "Rosa") -> bool:
    olds, news = _claims(recognizer, old, holder), _claims(recognizer, new, holder)
    return any(restates_value(n, o) for n in news for o in olds)


def _attribute(claims: list[Claim], attribute: str) -> Claim | None:
    return next((c for c in claims if c.attribute == attribute), None)


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("At Halcyon Labs I mostly design circuit boards.", {"halcyon", "labs"}),
        ("Since spring I've been teaching chemistry at Oakmere College.", {"oakmere", "college"}),
        ("These days I code payment services for Finvera.", {"finvera"}),
        ("Rosa said: Working for Quillsoft now, remote.", {"quillsoft"}),
    ],
)
def test_a_work_verb_with_a_proper_name_is_an_employer(
    recognizer: EntityRecognizer, text: str, employer: set[str]
) -> None:
    claim = _attribute(_claims(recognizer, text), "employer")
    assert claim is not None and employer <= claim.value


@pytest.mark.parametrize(
    "text",
    [
        "My uncle writes software at Halcyon Labs.",  # someone else's job
        "I'd happily work for Quillsoft if they paid more.",  # hypothetical
        "I'm going to teach at Oakmere College.",  # a plan
        "I don't work at Finvera.",  # negated
        "At Christmas I cook for the whole family.",  # a holiday, not an employer
        "I baked a lemon cake for Delphine.",  # "for" a person
        "I bought new boots at Trailhouse.",  # no work verb
    ],
)
def test_no_employer_claim(recognizer: EntityRecognizer, text: str) -> None:
    assert _attribute(_claims(recognizer, text), "employer") is None


def test_an_employer_said_by_its_work_is_superseded(recognizer: EntityRecognizer) -> None:
    old = "At Halcyon Labs I mostly design circuit boards."
    assert _update(recognizer, old, "I left Halcyon Labs and joined Verdant Energy in May.")
    assert not _update(recognizer, old, "My cousin joined Verdant Energy in May.")
    # without the parse the old wording states no employer
    assert _attribute(read_claims(old, "Rosa"), "employer") is None


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("We adopted a shy whippet called Pesto.", {"dog", "whippet", "pesto"}),
        ("Rosa said: Our tabby Mochi sleeps on the radiator.", {"cat", "tabby", "mochi"}),
        ("I have a cockatiel named Kiwi who whistles.", {"bird", "cockatiel", "kiwi"}),
    ],
)
def test_a_pet_said_by_breed_is_a_pet(
    recognizer: EntityRecognizer, text: str, words: set[str]
) -> None:
    claim = _attribute(_claims(recognizer, text), "pet")
    assert claim is not None and set(words) <= claim.value


@pytest.mark.parametrize(
    "text",
    [
        "We watched a whippet race on Saturday.",  # no one has it
        "My neighbour adopted a whippet.",  # someone else's
        "We want to adopt a whippet next year.",  # a plan
    ],
)
def test_no_pet_claim(recognizer: EntityRecognizer, text: str) -> None:
    assert _attribute(_claims(recognizer, text), "pet") is None


def test_a_breed_replaces_a_pet_that_is_gone(recognizer: EntityRecognizer) -> None:
    old = "Our old cat Pumpkin loves the sunny windowsill."
    assert _update(recognizer, old, "Pumpkin died in March; now we have a dachshund named Toast.")
    # a second animal joins the first
    assert not _update(recognizer, old, "We also got a dachshund named Toast.")


def test_a_count_restated_with_another_noun_of_its_measure(recognizer: EntityRecognizer) -> None:
    old = "My lab group has 6 researchers at the moment."
    new = "After the new grant my lab group is now 11 people."
    assert _update(recognizer, old, new)
    # another measure on the same group is no update of the head count
    assert not _update(recognizer, old, "My lab group now has 3 microscopes.")


def test_a_daily_amount_of_time_is_a_value(recognizer: EntityRecognizer) -> None:
    old = "I practise the cello about two hours a day."
    new = "With the exams coming I'm now doing four hours of practice."
    assert _update(recognizer, old, new)
    claim = _attribute(_claims(recognizer, old), "number")
    assert claim is not None and claim.measure == "time/day"


def test_a_duration_is_no_value(recognizer: EntityRecognizer) -> None:
    old = "I practise the cello about two hours a day."
    assert _attribute(_claims(recognizer, "I've played the cello for twelve years now."), "number") is None
    assert not _update(recognizer, old, "I've played the cello for twelve years now.")


def test_a_rate_per_period_in_other_units_is_the_same_measure(recognizer: EntityRecognizer) -> None:
    old = "I swim roughly 3 miles a week at the lido."
    assert _update(recognizer, old, "Since the spring I'm doing 7 km a week.")
    assert not _update(recognizer, old, "Since the spring I'm doing 7 km a day on the bike.")


def test_people_said_by_their_role_are_a_head_count(recognizer: EntityRecognizer) -> None:
    old = "Our book group has about 12 readers."
    assert _update(recognizer, old, "Our book group is now up to 20 members.")


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("Home these days is a narrow townhouse near Utrecht.", {"utrecht"}),
        ("We bought a flat in Porto last year.", {"porto"}),
        ("Rosa said: Rosa's cottage outside Galway has a leaky roof.", {"galway"}),
    ],
)
def test_a_home_with_a_place_is_a_residence(
    recognizer: EntityRecognizer, text: str, place: set[str]
) -> None:
    claim = _attribute(_claims(recognizer, text), "residence")
    assert claim is not None and place <= claim.value


@pytest.mark.parametrize(
    "text",
    [
        "We visited a lovely cottage near Galway.",  # a visit
        "My aunt's flat in Porto has a balcony.",  # someone else's home
        "We'd love a flat in Porto one day.",  # a wish
    ],
)
def test_no_residence_claim(recognizer: EntityRecognizer, text: str) -> None:
    assert _attribute(_claims(recognizer, text), "residence") is None


def test_a_vehicle_said_by_how_one_gets_about(recognizer: EntityRecognizer) -> None:
    old = "I commute on a battered Lambretta, rain or shine."
    claim = _attribute(_claims(recognizer, old), "car")
    assert claim is not None and "lambretta" in claim.value
    assert _update(recognizer, old, "I sold the Lambretta and bought a Skoda Fabia.")
    assert _attribute(_claims(recognizer, "I commute on the 8:15 train."), "car") is None
    assert _attribute(_claims(recognizer, "My brother rides a Ducati."), "car") is None


def test_a_scheduled_thing_is_an_event_whatever_its_noun(recognizer: EntityRecognizer) -> None:
    old = "My eye exam is booked for April 4th."
    claim = _attribute(_claims(recognizer, old), "event:eye exam")
    assert claim is not None and {"april", "4th"} <= claim.value
    assert _update(recognizer, old, "The optician moved my eye exam to April 19th.")
    assert not _update(recognizer, old, "My husband's eye exam got moved to April 19th.")
    assert not _update(recognizer, old, "The optician might move my eye exam to April 19th.")


def test_doing_a_kind_of_work_for_a_company_is_an_employer(recognizer: EntityRecognizer) -> None:
    claim = _attribute(_claims(recognizer, "I do bookkeeping for Harlow & Finch now."), "employer")
    assert claim is not None and "harlow" in claim.value
    assert _attribute(_claims(recognizer, "I did a favour for Marguerite."), "employer") is None
