"""Slot claims read from spaCy's dependency parse: who does what, where, and how many of what.

The phrase rules of :mod:`ripplemem.write.slots` read the wordings they list. The parse reads the
structure many wordings share, for the sentences a cheap test (:func:`worth_parsing`) lets through:

* **employer**: a work verb ("work", "write", "teach", "design", ...) whose subject is the speaker,
  with "at" or "for" and a proper name: "At Siemens I mostly write firmware", "I've been teaching
  maths at Oakwood High" → the name;
* **pet**: an animal noun, a species or a breed from a small lexicon ("greyhound", "tabby"), that
  the speaker has, got, adopted or rescued, or calls "my/our <animal>" → its kind, breed and name;
* **a number's measure** (:func:`counted`): the noun a number counts and that noun's measure class
  ("8 engineers" and "15 people" are both a head count, "20 km" and "12 miles" a distance), and
  whether an amount of time is a value, said per day or night or "of" an activity ("six hours a
  night", "eight hours of sleep"), rather than a duration ("for three years").

A clause whose subject is someone else ("my brother writes firmware at Siemens"), that is negated,
or that has a modal or a plan ("I'd work for Google", "I'm going to work at ...") claims nothing.
Docs are spaCy ``Doc`` objects with tags and a dependency parse
(:meth:`ripplemem.write.entities.EntityRecognizer.parse`); nothing here loads spaCy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ripplemem.records import normalise_cue


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


def _kinds(text: str, kind: str) -> dict[str, str]:
    return dict.fromkeys(text.split(), kind)


#: verbs of doing a job; with "at" and a proper name the name is an employer
WORK_VERBS = _words(
    """work write code program develop design build engineer teach lecture manage lead research
    consult nurse edit report cook bake serve sell test intern freelance tutor coach supervise
    coordinate analyse analyze support maintain translate draft illustrate animate clean drive
    deliver operate"""
)
#: the work verbs that name an employer with "for" too ("I code for Stripe"; not "I baked a
#: cake for Emma")
FOR_VERBS = _words("work write code program develop engineer consult freelance intern drive report")
#: verbs whose subject has or gets the animal that is their object
HAVE_VERBS = _words("have own get adopt rescue foster buy bring take keep welcome raise")
#: words that are not employers even when capitalised ("at Christmas", "for Easter")
_NOT_EMPLOYERS = _words(
    """monday tuesday wednesday thursday friday saturday sunday january february march april may
    june july august september october november december christmas easter halloween
    thanksgiving weekend home i"""
)
_MODALS = _words("would could might may should will shall can 'd 'll wo ca")
#: the modals of a hypothetical or a wish; "will" states a planned event's date as a fact
_HYPOTHETICAL = _words("would could might may should 'd")
_PLANS = _words("go plan want hope try like love need consider think wish dream intend")

#: species and breeds -> the kind of animal
PET_KINDS: dict[str, str] = {
    **_kinds(
        """dog puppy pup doggo labrador retriever poodle beagle greyhound whippet terrier
        spaniel collie sheepdog husky corgi dachshund pug bulldog rottweiler doberman chihuahua
        pomeranian maltese schnauzer shih-tzu shihtzu yorkie labradoodle cockapoo cavapoo
        goldendoodle dalmatian mastiff vizsla weimaraner basset bloodhound malamute samoyed
        akita shiba lurcher staffie staffy pitbull mutt""",
        "dog",
    ),
    **_kinds(
        """cat kitten kitty tabby siamese persian ragdoll sphynx bengal burmese maine-coon
        tomcat moggy""",
        "cat",
    ),
    **_kinds("rabbit bunny", "rabbit"),
    **_kinds("hamster gerbil guinea chinchilla ferret", "rodent"),
    **_kinds("parrot budgie budgerigar cockatiel canary parakeet finch", "bird"),
    **_kinds("goldfish betta guppy axolotl", "fish"),
    **_kinds("turtle tortoise snake gecko lizard iguana chameleon", "reptile"),
    **_kinds("horse pony donkey", "horse"),
}
_POSSESSIVE = _words("my our")
#: homes, the verbs of having one, and the verbs that say nothing about living there
DWELLINGS = _words("home house flat apartment condo studio cottage bungalow townhouse cabin loft place")
_HOME_VERBS = _words("have own buy rent get find share")
_NOT_HOME_VERBS = _words("visit see view tour stay book love like want miss sell leave")
_PLACE_PREPOSITIONS = _words("in near outside at on by")
#: vehicles, and the verbs of getting about in one
VEHICLES = _words(
    """car van truck pickup suv sedan hatchback estate motorbike motorcycle scooter moped bike
    e-bike bicycle camper campervan minivan jeep convertible"""
)
_TRAVEL_VERBS = _words("drive ride commute get travel cycle")
#: verbs that fix or change when something happens
_SCHEDULE_VERBS = _words(
    "book schedule set plan arrange move reschedule push postpone delay bring shift fix"
)

#: the measure class of a counted noun (lemma); nouns of one class measure the same thing
MEASURES: dict[str, str] = {
    **_kinds("""people person folk member employee staff engineer developer designer worker report
        hire headcount colleague volunteer student pupil player guest attendee
        participant teammate nurse teacher manager analyst researcher scientist programmer
        doctor lawyer agent rep clerk contractor intern freelancer tester""",
        "headcount",
    ),
    **_kinds("kilometre kilometer km k mile mi metre meter lap", "distance"),
    **_kinds("kilogram kilo kg lb lbs stone pound", "weight"),
    **_kinds("dollar euro buck quid grand usd eur gbp", "money"),
    **_kinds("hour hr minute min", "time"),
    **_kinds("kid child son daughter baby", "children"),
}
_AGENT = re.compile(r"(?:[^aeiou]er|or|ist|ian)$")
_NOT_AGENTS = _words(
    """computer paper letter number flower burger poster sticker chapter quarter tower river water
    dinner corner order meter metre liter litre filter folder border charter monitor sensor
    color colour floor door error mirror motor tractor calculator elevator radiator minister
    list wrist twist christian"""
)
#: the periods a rate is said per ("a night", "per week")
PERIODS = _words("night day week month year morning evening weekday weekend")

_WORK_FORMS = re.compile(
    r"\b(?:" + "|".join(sorted(WORK_VERBS)) + r")(?:s|es|ed|d|ing)?\b[^.!?]*?\b(?:at|for) [A-Z]|"
    r"\b(?:at|for) [A-Z][^.!?]*?\b(?:" + "|".join(sorted(WORK_VERBS)) + r")(?:s|es|ed|d|ing)?\b",
    re.IGNORECASE,
)
_PET_FORMS = re.compile(r"\b(?:" + "|".join(sorted(PET_KINDS, key=len, reverse=True)) + r")s?\b", re.IGNORECASE)
_OTHER_FORMS = re.compile(
    r"\b(?:" + "|".join(sorted(DWELLINGS | VEHICLES | _TRAVEL_VERBS - {"get"} | _SCHEDULE_VERBS))
    + r")\w*\b|\bget\w* around\b|"
    r"\bdo(?:es|ing)? [a-z ]{2,30} for [A-Z]",
    re.IGNORECASE,
)
_NUMBER = re.compile(
    r"\b(?:\d[\d,.]*|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
    r"thirty|forty|fifty|hundred)\b",
    re.IGNORECASE,
)


def worth_parsing(sentence: str) -> bool:
    """Whether the parse could add a claim to ``sentence``: a work verb near "at"/"for" and a
    capitalised word, an animal, a home, a vehicle or a scheduling word, or a number."""
    return bool(
        _WORK_FORMS.search(sentence)
        or _PET_FORMS.search(sentence)
        or _NUMBER.search(sentence)
        or _OTHER_FORMS.search(sentence)
    )


@dataclass(frozen=True, slots=True)
class ParsedClaim:
    """An attribute and its value words, read from the parse (the holder is the speaker)."""

    attribute: str
    value: frozenset[str]


@dataclass(frozen=True, slots=True)
class Counted:
    """What a number in a sentence counts: the noun as written, its measure class ("" when the
    noun is in no class) and whether an amount of time is a value (per period, "of" an activity)."""

    noun: str
    measure: str
    amount: bool
    period: str = ""  # "week" of "150 km a week"


def parsed_claims(doc: Any, speaker: str, others: frozenset[str] = frozenset()) -> list[ParsedClaim]:
    """The employer and pet claims of the speaker's clauses in ``doc``; ``others`` are the
    case-folded names of the other people of the unit (never an employer)."""
    found: list[ParsedClaim] = []
    employer = _employer(doc, speaker, others)
    if employer:
        found.append(ParsedClaim("employer", employer))
    pet = _pet(doc, speaker)
    if pet:
        found.append(ParsedClaim("pet", pet))
    event = _event(doc, speaker)
    if event:
        found.append(ParsedClaim(f"event:{event[0]}", event[1]))
    else:  # "the offsite is now in Porto": the event's place, not a new home
        residence = _residence(doc, speaker)
        if residence:
            found.append(ParsedClaim("residence", residence))
    vehicle = _vehicle(doc, speaker)
    if vehicle:
        found.append(ParsedClaim("car", vehicle))
    return found


def asserted(doc: Any) -> bool:
    """The sentence's main clause is asserted: no hypothetical modal ("would", "might") and no
    plan or wish ("I'm going to teach at ...", "we want to move"), whatever the phrase rules
    matched. ("The party will be on June 24" is asserted: a planned event's date.)"""
    for root in (t for t in doc if t.dep_ == "ROOT"):
        if any(c.dep_ == "aux" and c.lower_ in _HYPOTHETICAL for c in root.children):
            return False
        if root.lemma_.casefold() in _PLANS and any(c.dep_ == "xcomp" for c in root.children):
            return False
    return True


def negated_work(doc: Any) -> bool:
    """A work verb is negated: "I don't work at Finvera" names no employer."""
    return any(
        t.lemma_.casefold() in WORK_VERBS and any(c.dep_ == "neg" for c in t.children)
        for t in doc
        if t.pos_ == "VERB"
    )


def counted(doc: Any) -> Counted | None:
    """What the first counting number of ``doc`` counts, or None (a bare number, no number)."""
    for token in doc:
        if not token.like_num or token.dep_ not in ("nummod", "quantmod"):
            continue
        noun = token.head
        if noun.pos_ not in ("NOUN", "PROPN", "SYM"):
            continue
        lemma = noun.lemma_.casefold()
        measure = MEASURES.get(lemma) or ("headcount" if _agent_noun(lemma) else "")
        period = _period(noun)
        amount = bool(period) or _amount_of(noun)
        return Counted(noun.text.casefold(), measure, amount, period)
    return None


def _agent_noun(lemma: str) -> bool:
    """"singer", "cyclist", "librarian": a noun for people who do something."""
    return bool(_AGENT.search(lemma)) and lemma not in _NOT_AGENTS


def _period(noun: Any) -> str:
    """The period of a rate: "week" of "150 km a week", "night" of "six hours per night"."""
    for child in noun.children:
        if child.dep_ == "npadvmod" and child.lemma_.casefold() in PERIODS:
            return str(child.lemma_.casefold())
        if child.dep_ == "prep" and child.lower_ in ("per", "each", "every", "a"):
            for pobj in child.children:
                if pobj.lemma_.casefold() in PERIODS:
                    return str(pobj.lemma_.casefold())
    if noun.dep_ in ("dobj", "npadvmod"):
        for child in noun.head.children:
            if child.dep_ == "npadvmod" and child.lemma_.casefold() in PERIODS and child.i > noun.i:
                return str(child.lemma_.casefold())
    return ""


def _amount_of(noun: Any) -> bool:
    """"eight hours of sleep": an amount of an activity, not a span of time."""
    return any(
        child.dep_ == "prep" and child.lower_ == "of"
        and any(c.dep_ == "pobj" and c.pos_ == "NOUN" for c in child.children)
        for child in noun.children
    )


def _employer(doc: Any, speaker: str, others: frozenset[str]) -> frozenset[str]:
    for verb in doc:
        lemma = verb.lemma_.casefold()
        if verb.pos_ != "VERB" or not (lemma in WORK_VERBS or _doing_work(verb)):
            continue
        if not _speakers_clause(verb, speaker):
            continue
        objects = [c for c in verb.children if c.dep_ == "dobj"]
        preps = [c for head in (verb, *objects) for c in head.children if c.dep_ == "prep"]
        for prep in preps:
            if prep.lower_ not in ("at", "for"):
                continue
            if prep.lower_ == "for" and lemma not in FOR_VERBS and lemma != "do":
                continue
            for name in prep.children:
                if name.dep_ != "pobj" or name.pos_ != "PROPN":
                    continue
                words = frozenset(
                    t.text.casefold().removesuffix("'s") for t in name.subtree if t.pos_ == "PROPN"
                )
                if words and not words & (_NOT_EMPLOYERS | others):
                    return words
    return frozenset()


def _doing_work(verb: Any) -> bool:
    """"I do data engineering for Copperleaf": "do" with an object without an article."""
    if verb.lemma_.casefold() != "do":
        return False
    objects = [c for c in verb.children if c.dep_ == "dobj" and c.pos_ in ("NOUN", "VERB")]
    return any(not any(d.dep_ == "det" for d in o.children) for o in objects)


def _pet(doc: Any, speaker: str) -> frozenset[str]:
    for noun in doc:
        kind = PET_KINDS.get(noun.lemma_.casefold()) or PET_KINDS.get(noun.lower_)
        if kind is None or noun.pos_ not in ("NOUN", "PROPN", "ADJ"):
            continue
        # "our tabby Mochi", "my dog Rex": the animal word modifies the name
        head = noun.head if noun.dep_ in ("amod", "compound") and noun.head.pos_ == "PROPN" else noun
        owned = _owned(head, speaker)
        verb = head.head
        if not owned and head.dep_ in ("dobj", "attr") and verb.lemma_.casefold() in HAVE_VERBS:
            owned = _speakers_clause(verb, speaker)
        if owned:
            names = _names_of(head) | ({head.lower_} if head is not noun else set())
            return frozenset({kind, noun.lower_, *names})
    return frozenset()


def _residence(doc: Any, speaker: str) -> frozenset[str]:
    """"home is now a little house outside Geneva", "we bought a flat near Lyon"."""
    for noun in doc:
        if noun.lemma_.casefold() not in DWELLINGS or noun.pos_ != "NOUN":
            continue
        place = _place_after(noun)
        if not place:
            continue
        verb = noun.head
        owners = [noun] + [c for c in verb.children if c.dep_ == "nsubj"] if noun.dep_ == "attr" else [noun]
        if any(
            _owned(o, speaker) or o.lower_ == "home" for o in owners
        ) and verb.lemma_.casefold() not in _NOT_HOME_VERBS:
            return place
        home_verb = noun.dep_ in ("dobj", "attr") and verb.lemma_.casefold() in _HOME_VERBS
        if home_verb and _speakers_clause(verb, speaker):
            return place
    return frozenset()


def visited_home(doc: Any) -> bool:
    """A home that is visited, seen or wanted ("we toured a flat near Lyon"), not lived in."""
    return any(
        t.lemma_.casefold() in DWELLINGS and t.dep_ in ("dobj", "pobj")
        and t.head.lemma_.casefold() in _NOT_HOME_VERBS
        for t in doc
    )


def _place_after(noun: Any) -> frozenset[str]:
    for prep in noun.children:
        if prep.dep_ == "prep" and prep.lower_ in _PLACE_PREPOSITIONS:
            for pobj in prep.children:
                if pobj.dep_ == "pobj" and pobj.pos_ == "PROPN":
                    return frozenset(
                        t.lower_ for t in pobj.subtree if t.pos_ == "PROPN" and t.lower_ not in _NOT_EMPLOYERS
                    )
    return frozenset()


def _vehicle(doc: Any, speaker: str) -> frozenset[str]:
    """"I get around on an old Vespa", "I commute in a little Fiat", "I ride a Ducati now"."""
    for verb in doc:
        if verb.pos_ != "VERB" or verb.lemma_.casefold() not in _TRAVEL_VERBS:
            continue
        objects = [c for c in verb.children if c.dep_ == "dobj"] if verb.lemma_.casefold() in ("drive", "ride") else []
        for prep in verb.children:
            if prep.dep_ == "prep" and prep.lower_ in ("in", "on", "by"):
                objects.extend(c for c in prep.children if c.dep_ == "pobj")
        for thing in objects:
            named = thing.text[:1].isupper() or thing.pos_ == "PROPN"
            if not (named or thing.lemma_.casefold() in VEHICLES):
                continue
            if not _speakers_clause(verb, speaker):
                return frozenset()
            return frozenset(
                t.lower_ for t in thing.subtree
                if (t.pos_ in ("PROPN", "NOUN") or t.text[:1].isupper()) and t.lower_ not in _NOT_EMPLOYERS
            )
    return frozenset()


def _event(doc: Any, speaker: str) -> tuple[str, frozenset[str]] | None:
    """A scheduled thing and its date or place: "my check-up is booked for March 3rd", "they
    moved the recital to the 9th"; the noun need not be in a list of event nouns."""
    for verb in doc:
        if verb.lemma_.casefold() not in _SCHEDULE_VERBS:
            continue
        for noun in verb.children:
            if noun.dep_ not in ("nsubjpass", "dobj") or noun.pos_ not in ("NOUN", "PROPN"):
                continue
            if any(c.dep_ == "poss" for c in noun.children) and not _owned(noun, speaker):
                return None  # "his recital was moved": someone else's
            words = [c for c in noun.lefts if c.dep_ == "compound" or c.text == "-"] + [noun]
            key = ("" if any(t.text == "-" for t in words) else " ").join(t.lower_ for t in words)
            value = frozenset(
                t.lower_ for t in doc
                if (t.pos_ in ("PROPN", "NUM") or t.like_num or t.text[:1].isdigit()) and t not in words
            )
            if value:
                return key, value
    return None


def _owned(noun: Any, speaker: str) -> bool:
    """"my"/"our" or the speaker's name ("Marisol's check-up" in a restatement) owns ``noun``."""
    first = normalise_cue(speaker.split()[0]) if speaker.split() else ""
    return any(
        c.dep_ == "poss" and (c.lower_ in _POSSESSIVE or normalise_cue(c.text) == first)
        for c in noun.children
    )


def _names_of(noun: Any) -> set[str]:
    """"Rex" of "our dog Rex", "a greyhound named Luna", "a beagle called Biscuit"."""
    names: set[str] = set()
    for child in noun.children:
        if child.dep_ in ("appos", "npadvmod") and child.pos_ == "PROPN":
            names.add(child.lower_)
        if child.dep_ in ("acl", "relcl") and child.lemma_.casefold() in ("name", "call"):
            names.update(c.lower_ for c in child.children if c.pos_ == "PROPN")
    return names


def _speakers_clause(verb: Any, speaker: str) -> bool:
    """The speaker ("I", "we", their name, or no subject) is the subject of an asserted clause."""
    first = normalise_cue(speaker.split()[0]) if speaker.split() else ""
    seen = 0
    while seen < 4:
        seen += 1
        if any(c.dep_ == "neg" for c in verb.children):
            return False
        if any(c.dep_ == "aux" and c.lower_ in _MODALS for c in verb.children):
            return False
        subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass", "expl")]
        if subjects:
            subject = subjects[0]
            return subject.lower_ in ("i", "we") or normalise_cue(subject.text) == first
        if verb.dep_ in ("xcomp", "ccomp") and verb.head.lemma_.casefold() in _PLANS:
            return False  # "I'm going to work at ...", "we want to adopt a ..."
        if verb.dep_ not in ("conj", "xcomp", "advcl") or verb.head is verb:
            return True  # "Working at Bosch now": no subject, the speaker's
        verb = verb.head
    return True
