"""The holder's asserted answers in the order the question asks for, what they did not assert below.

Each unit that *answers* a question (see :mod:`ripplemem.read.supersession`) is read clause by
clause (:mod:`ripplemem.statements`); a clause *fits* the question by the cosine of its own words
with the question's, both without the names of the people the question asks about
(:func:`readings`). Two kinds of clause count:

* a *statement* of the holder: asserted — not negated, modal, conditional, subordinate or
  conceded — or taken as given (a finite relative or adverbial clause in the indicative:
  :attr:`~ripplemem.statements.Clause.presupposed`), not the speaker's own future (an
  intention: "I'll buy an electric car"), of no bounded length ("for two weeks", "while ..."), whose subject is the holder
  ("I", "we", "Emily and I", their name; anybody's clause naming them when the holder is not a
  speaker, or saying "he" or "she" in a memory that names them before it and no other person
  than its speakers: :func:`named_before`, or a thing of theirs by name that the question names: "Tom's car" for "What colour
  is the car Tom drives?", not "Tom's brother"), a thing of theirs or a particular thing nobody owns that the question names ("my
  rent", "the wedding"), or that acts on the holder or on such a thing ("my doctor switched me
  to naproxen", "the clinic moved my check-up", "Dr Okafor increased my dose", "she put our rent
  up", "they moved the class to Friday mornings"; not "my brother moved to Lisbon", "she put the Smiths' rent up", "my manager moved my
  colleague Tom"); a person named by a noun doing something to something ("my dad", "Sam's
  dad") only through what they act on: the holder, a thing of theirs or a particular thing the
  question names ("Sam's dad moved the party"), else it is their doing, an aside ("my dad
  bought a Tesla" for "Did I buy a Tesla?", "my dad has taken up golf"), and that
  gives a value (content words as its object, complement or prepositional phrase); not undone by its words (a refusal, someone else's
  report, an infinitive: :attr:`~ripplemem.statements.Clause.undone`) nor an arrangement
  (:func:`as_told`);
* an *aside*: someone else's statement (another speaker's, or about another person with a
  value: "my cousin moved to Leeds", "my brother has switched to Spurs"), another speaker's advice to the holder ("You should try
  keto"), or the holder's words that give a value they do not assert — a hypothetical, a
  plan, a wish, an intention, the conceded half of "X but Y", a denial — or a stay of bounded
  length; a clause taken as given about someone or something else ("my friend Tom, who moved
  to Berlin"). Another speaker's question or wish is neither.

A unit is ``stated`` when its best-fitting statement fits at least as well as its best aside,
else an ``aside`` ("I had an interview at the Ritz, but I turned the offer down" for "Where
does Marco work as a chef?": the interview fits, the refusal does not); a relative's value is
no rival to the holder's statement ("I took up rowing, but my wife still plays tennis"); a denial proposes no
value and a question asserts none, so beside a statement neither weighs ("I'm not with Barclays
anymore, I switched to Lloyds": stated); nor does a clause whose subject is "he", "she", "it"
or "they", which says more of what the statement names ("Now I've got Pepper - she's a nervous
little whippet"). A unit with neither kind of clause (small talk) has no
reading and does not move.

:func:`order` reads which stated units answer *the same thing*: those whose answering clause is
within :data:`SAME` of the best stated clause's relevance ("I've been vegetarian since the
spring" and "I eat pretty much anything" for "What does Noor eat?"; not "I love a long walk on
Sundays", a later statement of the holder about something else), or are linked or near
(``alike``), and then those that give a value in the same grammatical place as one of them
(``kin``, :func:`~ripplemem.statements.same_place`: "on page 200" / "now on page 220"; for a
question that counts a thing, a different number of it), or that give a value in the place the
question asks for with its own verb (``filling``: "I go to PureGym" for "Which gym did Maya go
to?"). Of those, the latest leads (for a question about an earlier value, the earliest said that
a later one of them says alike or in the same place — an answering unit no reading reads may be
it — else the earliest said) — latest by
the time its value holds from: a clause in the past tense whose own words give a time that
ended before the day it was said ("Back in 2015 I worked at a call centre") speaks of that time
(:func:`spoken_of`), anything else of the time it was said: it moves
up past the units that answer and past any unit less relevant than the best of them (an earlier
answer no reading reads only when it fits the question better than an unrelated sentence does,
:data:`CHANCE`, or speaks of what the question or that answer does); for the present the others
follow it latest first, passing only what it may pass and no other statement more relevant than
themselves; every aside above it goes right below it. Then, stated unit or none, a unit read by
words of what is not so now (a condition, a near miss, a refusal, a past stay of bounded length,
a relative's value, another speaker's own value or advice)
goes right below the first answering unit after it that has no reading (:func:`_not_now_below`).
Nothing else moves, and an aside moves down only past answering units.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from itertools import pairwise
from typing import Literal

from ripplemem.records import MemoryUnit, normalise_cue, said_order
from ripplemem.statements import Clause
from ripplemem.statements.clauses import (
    GOAL_PREPOSITIONS,
    KIN_HE,
    KIN_SHE,
    kin,
    kin_forms,
    person_noun,
)
from ripplemem.stores.text import terms

Role = Literal["stated", "aside"]
#: stated units answer the same thing when their answering clauses' relevance to the question is
#: within SAME (a cosine difference) of the best one's
SAME = 0.12
#: a stated unit within SAME of the best that shares no word with the question or the best
#: answers the same thing when its fit is at least OWN_WORDS of the best's: nearer the best
#: answer's fit than nothing (at three quarters the held-out update suites lost two controls)
OWN_WORDS = 0.5
#: the fit of a text unrelated to the question: the mean cosine of the shipped embedder between
#: a question and a turn of another conversation (0.069 over 518 LoCoMo dev pairs; median 0.06)
CHANCE = 0.07
#: two units speak of the same thing when one is among the other's NEAREST nearest of the lead
NEAREST = 2
#: the relevance of a unit the stage did not weigh (below its lead: the ranking put it under
#: every unit the stage reads), which a statement moving up passes
_BELOW = float("-inf")
#: the subjects of a speaker's clause that may hold others with them ("we", "us")
_GROUP = frozenset({"we", "us"})
#: the object of a clause that is the speaker ("me", "us": their lemmas; or their name)
_SPEAKER_OBJECTS = frozenset({"i", "we"})
#: the places of a clause's value that a change moves something to ("switching to nights")
_MOVED_TO = frozenset(f"prep:{p}" for p in GOAL_PREPOSITIONS)
#: the places of a clause's value that say where something goes, not when ("moved it to June")
_GOALS = frozenset({"prep:to", "prep:until", "prep:till"})
#: the relevance of a text's words to the question (a cosine per text)
Fit = Callable[[Sequence[str]], list[float]]


@dataclass(frozen=True, slots=True)
class Holder:
    """Whose fact the question asks about, and the words it names (case-folded)."""

    name: str  # normalised; a relation's kinship word ("mother") when ``kin_of`` is set
    words: frozenset[str]
    #: whose relative the holder is, when the question names them by a relation ("Ines's
    #: mother": "ines"; "my grandad": "", the asker's); None for a person named or a speaker
    kin_of: str | None = None


@dataclass(frozen=True, slots=True)
class Reading:
    """What an answering unit says about the question: its role, how well its answering
    clause fits the question, and the time that clause speaks of when it is not the time it was
    said (:func:`spoken_of`)."""

    role: Role
    fit: float
    held: datetime | None = None
    #: an aside that is the holder's own words of what is not so now (:func:`_not_now`)
    not_now: bool = False


def holder_of(
    named: str | None, words: frozenset[str], units: Sequence[MemoryUnit], read: Sequence[Sequence[Clause]],
    *, besides: Collection[str] = (),
) -> Holder | None:
    """The person the question names, or else (a question in the first person, or naming
    nobody) the speaker whom ``units`` say the most about — their own statements about
    themself or their things, and the other speakers' about them, each said once (the same
    words said again say nothing more: small talk repeated in every session does not make its
    speaker the holder); most relevant first, a tie goes to the first: the one whose facts they
    are, not the one who answers them ("What is my 5K time?" asked of a user–assistant
    conversation). ``besides``: speakers who are never the holder (the assistant, for a question
    in the first person: "What is my cat's name?" asks about the person, whatever the assistant
    said about the cat)."""
    if named is not None:
        return Holder(named, words)
    counted: dict[str, set[str]] = {}
    speakers = {c.speaker for clauses in read for c in clauses} - set(besides)
    for clauses in read:
        for clause in clauses:
            if _asserted(clause) and clause.by_speaker() and clause.speaker in speakers:
                counted.setdefault(clause.speaker, set()).add(clause.text)
            elif clause.kind == "person":  # "User is getting a loan", said by the assistant
                for who in clause.subject_words & speakers:
                    counted.setdefault(who, set()).add(clause.text)
    if not counted:
        return None
    return Holder(max(counted, key=lambda who: len(counted[who])), words)  # max keeps the first of a tie


def _about_holder(clause: Clause, holder: Holder) -> bool:
    """The clause's subject is the holder or a thing of theirs, or a particular thing nobody
    owns that the question names; or it names the holder as its subject when someone else
    says it."""
    if clause.kind in ("person", "thing") and _of_holder(clause, holder):
        return True  # "my sister Priya lives in Porto", "Priya's flat is in Porto": about Priya
    if clause.speaker != holder.name:
        return False
    if clause.kind == "speaker":
        return True
    if clause.kind == "person" and _changes_holders(clause, holder):
        # "Dr Okafor increased my dose to 100mg", "she put our rent up to 975", "they moved
        # the class to Friday mornings", "Dev moved the standup to 10:15"
        return True
    if clause.human and not clause.subject_words & holder.words:
        return _changes_holders(clause, holder)  # "my dad moved the party", not "my dad bought a Tesla"
    if clause.kind != "thing" or clause.owner == "other":
        return False
    named = bool(clause.subject_words & holder.words) and (clause.owner == "speaker" or clause.definite)
    # "the clinic moved my check-up", "my doctor switched me to naproxen" (not "my brother moved")
    return named or bool(clause.object_words & (holder.words | _SPEAKER_OBJECTS | {holder.name}))


def _changes_holders(clause: Clause, holder: Holder) -> bool:
    """A person the question does not ask about acts on the holder, on a thing of theirs, or on
    a particular thing the question names ("my mother-in-law moved the christening to June",
    "Sam's dad moved the party"; not "my dad bought a Tesla", "my sister switched to Octopus")."""
    return clause.acts_on_speaker or (clause.object_definite and bool(clause.object_words & holder.words))


def _of_holder(clause: Clause, holder: Holder) -> bool:
    """The clause's subject names the holder ("my sister Priya", "Mrs Patel" for "mrs patel"),
    or is a thing of theirs by their name that the question names ("Tom's car" for "What colour
    is the car Tom drives?"; not "Tom's brother" for "Where does Tom live?")."""
    if holder.kin_of is not None:
        return _of_relative(clause, holder, holder.kin_of)
    name = set(holder.name.split())
    if not name:
        return False
    if holder.name in clause.subject_words or name <= clause.subject_words:
        return True
    owner = set(clause.possessor.split())
    return (
        clause.owner == "other" and bool(owner) and (owner <= name or name <= owner)
        and bool(clause.subject_words & holder.words)
    )


def _of_relative(clause: Clause, holder: Holder, whose: str) -> bool:
    """The clause's subject is the relative the question asks about: a word for the relation
    ("Mum", "my mother", "Ines's mum" for "mother", :func:`~ripplemem.statements.clauses.kin`),
    or a pronoun :func:`named_before` read as them, of the one whose relative they are (the name
    that owns it, else the clause's speaker; anyone's for the asker's relative)."""
    if holder.name not in {kin(w) for w in clause.subject_words}:
        return False
    if clause.possessor:
        return not whose or set(whose.split()) <= set(clause.possessor.split())
    return not whose or clause.speaker == whose


def _asserted(clause: Clause) -> bool:
    """Asserted and not undone by its words (a refusal, someone else's report, an infinitive)."""
    return clause.asserted and not clause.undone


def given(clause: Clause) -> bool:
    """Asserted, or taken as true by its sentence ("the part where I now lead five")."""
    return _asserted(clause) or clause.presupposed


def as_told(unit: MemoryUnit, clauses: Sequence[Clause], now: datetime | None = None) -> list[Clause]:
    """``clauses`` as ``unit`` tells them: a unit whose time (resolved from its own words when
    it was written: "next week", "in two weeks") begins after the day it was said speaks of
    what lies ahead, so the speaker's clauses in it in the present progressive are in the future
    ("I'm flying to Lisbon next week": an arrangement, not where they live; "I swim every
    Monday" is a habit, whatever day its time resolves to), and going on with a value there
    starts then ("I'm staying in Rome from Friday": not a value held now).

    A time that holds from its start on (an onset: "from July", "starting 1 August", "as of
    March") is a change announced ahead: once its start has come by ``now`` (the time the
    question is asked), the future its clauses name is the present (:func:`_begun`: "from July
    we'll be paying 1350", asked in September, says what they pay); before it, as above."""
    span, said = unit.time_span, unit.session_time
    if span is None or said is None or span.start.date() <= said.date():
        return list(clauses)
    if span.open_ended and now is not None and span.start.date() <= now.date():
        return [_begun(c) for c in clauses]
    return [_ahead(c) if c.kind == "speaker" and (c.progressive or c.continued) else c for c in clauses]


def _begun(clause: Clause) -> Clause:
    """A clause of a change announced from a time on that has come: in the future ("Starting 1
    August I'll be working four days a week": the time is a clause of its own) or a progressive
    that moves something to a new value ("As of March I'm moving to the night shift", "we're
    moving the newsletter to Thursdays from next month"), it holds now; a progressive stay
    ("I'm staying in Rome from Friday") is an arrangement still, and any other clause is as it
    was said."""
    moves = any(place in _MOVED_TO for place, _ in clause.places)
    if clause.tense == "future" or (clause.progressive and moves):
        return replace(clause, tense="present", progressive=False)
    return _ahead(clause) if clause.kind == "speaker" and (clause.progressive or clause.continued) else clause


def _ahead(clause: Clause) -> Clause:
    """A clause of the speaker's in a memory of what lies ahead: in the future, and going on
    with a value starts then, so it holds nothing now ("I'm staying in Rome from Friday")."""
    if clause.continued:
        return replace(clause, tense="future", continued=False, presupposed=False)
    return replace(clause, tense="future")


def _intended(clause: Clause, holder: Holder | None = None) -> bool:
    """The speaker's own future ("I'll buy an electric car"): an intention, not a value yet;
    not going on with a value they hold ("I'll stick with Vodafone": :attr:`Clause.continued`).
    With ``holder``, also the holder's future told by someone else ("Sam will be living in London
    within a year"): a prediction, not a value held now (a thing's future counts: "the party will
    be at the beach")."""
    if clause.tense != "future" or clause.continued:
        return False
    return clause.kind == "speaker" or (holder is not None and clause.kind == "person" and _of_holder(clause, holder))


def states(clause: Clause, holder: Holder) -> bool:
    """An asserted (or presupposed) statement of the holder with a value (see the module doc)."""
    return (
        given(clause) and not clause.bounded and not _intended(clause, holder)
        and bool(clause.value or clause.named) and _about_holder(clause, holder)
    )


def _aside(clause: Clause, holder: Holder) -> bool:
    """Words that answer without the holder asserting them (see the module doc): someone
    else's, about another person, or the holder's own but not asserted or of bounded length."""
    if clause.speaker != holder.name:
        # another speaker's question or wish says nothing, but their advice to the holder does
        return given(clause) or _advice(clause, holder)
    if clause.kind == "person" and _changes_holders(clause, holder):
        return False  # someone's change to the holder or a thing of theirs: the holder's statement
    if clause.human and not clause.subject_words & holder.words:
        if _changes_holders(clause, holder):
            return False  # the holder's change, told by who made it ("Sam's dad moved the party")
        # that person's doing, an aside ("my dad bought a Tesla" for "Did I buy a Tesla?", "my
        # dad has taken up golf" for "What sport does Zed play?"); beside the holder's own
        # statement it is no rival to it (:func:`readings`: "I took up rowing, but my wife still
        # plays tennis")
        return given(clause) and bool(clause.value or clause.named)
    if clause.kind == "person" or (clause.kind == "thing" and clause.owner == "other") or _relative(clause, holder):
        # someone else's value; what they do with none ("Reid retired, so I've been passed on
        # to Dr Okafor") answers nothing in the holder's stead
        return not _of_holder(clause, holder) and bool(clause.value or clause.named)
    unasserted = not given(clause) or clause.bounded or _intended(clause)
    # what the holder means to do with a thing they have ("I need to renew my membership")
    # proposes no value of its own
    return unasserted and bool(clause.value or clause.named) and not clause.own_value


def _relative(clause: Clause, holder: Holder) -> bool:
    """The subject is a person named by a noun ("my brother", "Zed's sister") who is not the
    holder: someone else, not a thing of the holder's, whether or not they act on something."""
    return clause.kind == "thing" and person_noun(clause.subject) and not clause.subject_words & holder.words


def _someone_elses(clause: Clause, holder: Holder) -> bool:
    """Words of the value of another person, named by a noun ("my brother has switched to
    Spurs", "my dad has taken up golf", another speaker's "my cousin just had laser surgery";
    not what they do to the holder or a thing of theirs: "my landlord put the rent up to 975"),
    or another speaker's own in the first person singular ("I got promoted, I'm a principal
    engineer now" for a question about the holder; not their "we", which may hold the holder):
    not so for the holder, and, beside a statement of the holder's own, no rival to it. A name
    or a pronoun ("he's got a carer from Bluebird") is left out: in a first-person question
    about a relative the holder read may not be whose value it is."""
    if not (clause.value or clause.named) or _of_holder(clause, holder):
        return False
    if _another_speakers_own(clause, holder):
        return True
    return _relative(clause, holder) and not _changes_holders(clause, holder)


def _another_speakers_own(clause: Clause, holder: Holder) -> bool:
    """Another speaker's clause about themself alone ("I joined PureGym last week"; not their
    "we", which may hold the holder)."""
    return (
        clause.speaker != holder.name and clause.kind == "speaker" and not clause.subject_words & _GROUP
        and holder.name not in clause.subject_words
    )


def _not_now(clause: Clause, holder: Holder, *, yes_no: bool = False) -> bool:
    """Words of what is not so now: the holder's own of what did not happen or happens only on a
    condition (:attr:`~ripplemem.statements.clauses.Clause.irrealis`), or of a stay of bounded
    length in the past ("I was in Rome for a week in May", "we visited Oakwood Academy for an
    open day"), or anyone's of a relative's value (:func:`_someone_elses`: "my brother has
    switched to Spurs") or, for a yes/no question (``yes_no``), another speaker's of their own
    ("I joined PureGym last week" for "Does Rhea go to PureGym?"); another speaker's advice to
    the holder (:func:`_advice`)."""
    if _advice(clause, holder):
        return True
    others = _someone_elses(clause, holder) and (yes_no or not _another_speakers_own(clause, holder))
    return others or (
        clause.speaker == holder.name and (clause.irrealis or (clause.bounded and clause.tense == "past"))
    )


def _advice(clause: Clause, holder: Holder) -> bool:
    """Another speaker's words of what the holder should or could do, with a value ("You should
    try keto", "you could move to Leeds with us"): about the holder, neither asserted nor a
    question ("Why not move to Leeds?" asks)."""
    return (
        clause.speaker != holder.name and not clause.asked and not given(clause)
        and holder.name in clause.subject_words and bool(clause.value or clause.named)
    )


def spoken_of(unit: MemoryUnit, clause: Clause) -> datetime | None:
    """The time an asserted clause in the past tense speaks of, when its own words give one that
    ended before the day it was said ("Back in 2015 I worked at a call centre", "Last year I was
    on 35k", said in 2023): the end of the unit's time span (resolved from its words when it was
    written); None when the clause holds at the time it was said (present or perfect: "Since
    April I've been on 100mg") or gives no time of its own.

    A value holds from the time a statement puts it at — its reference time, not the time it
    was said (Reichenbach's R, not S) — and lasts until a later one replaces it: so "I work as
    a paralegal" said in January is a later value than "back in 2015 I worked at a call centre"
    said in June."""
    span, said = unit.time_span, unit.session_time
    if clause.tense != "past" or not clause.asserted or span is None or said is None or span.end is None:
        return None  # not a clause taken as given: "I've lost 10 pounds since I started 3 months ago"
    if (span.end.tzinfo is None) != (said.tzinfo is None) or span.end.date() >= said.date():
        return None
    words = clause.text.casefold()
    # a time the clause moves something to is its new value, not the time it speaks of ("the
    # clinic moved the christening to June")
    goal = {w for place, found in clause.places if place in _GOALS for w in found}
    phrases = [
        p.casefold() for p in unit.time_phrases
        if p.casefold() in words and not set(p.casefold().split()) <= goal
    ]
    if not phrases:
        return None  # the unit's time comes from other words than this clause's
    timing = {w for p in phrases for w in p.split()}
    if all(place <= timing for _, place in clause.places):
        return None  # no value but the time ("the group I attended last year")
    return span.end


def held_order(unit: MemoryUnit, reading: Reading | None) -> tuple[datetime, int, datetime, str]:
    """:func:`~ripplemem.records.said_order` at the time the unit's answering clause speaks of
    (:func:`spoken_of`), when that is earlier than the time it was said."""
    key = said_order(unit)
    if reading is None or reading.held is None:
        return key
    return (reading.held, 0, unit.created_at, unit.id)


def readings(
    units: Sequence[MemoryUnit],
    read: Sequence[Sequence[Clause]],
    holder: Holder,
    fit: Fit,
    asked: Callable[[Clause], bool] | None = None,
    yes_no: bool = False,
) -> dict[str, Reading]:
    """Each unit's reading (see the module doc): ``stated`` when its best stating clause fits
    the question at least as well as its best aside; units with neither have none. ``yes_no``:
    the question asks whether a value it names holds ("Does Rhea go to PureGym?"): another
    speaker's own value, which fits it by that value alone, is not so for the holder
    (:func:`_not_now`); asked for a value ("What book is Gina reading?"), it may be what the
    question takes for the holder's and keeps its place. ``asked``:
    whether a clause gives a value of the kind the question asks for (a frequency for "how
    often", a number of the thing a "how many" counts); a unit that states such a value, and
    gives none in an aside, is read by those statements ("I'm planning to play tennis this
    Sunday, like we do every other week" for "How often do I play tennis?": the frequency, not
    the plan)."""
    stating = [[c for c in clauses if len(c.text.split()) > 1 and states(c, holder)] for clauses in read]
    asides = [[c for c in clauses if len(c.text.split()) > 1 and _aside(c, holder)] for clauses in read]
    occasions = _occasions(units, stating)  # one occasion of a habit is no new habit: an aside
    for n, (said, once) in enumerate(zip(stating, occasions, strict=True)):
        stating[n] = [c for c in said if c not in once]
        asides[n] += once
    if asked is not None:  # the value asked for, stated and not given by an aside: read by it
        for n, (said, aside) in enumerate(zip(stating, asides, strict=True)):
            if any(asked(c) for c in said) and not any(asked(c) for c in aside):
                stating[n], asides[n] = [c for c in said if asked(c)], []
    saying = [unit.id for unit, said in zip(units, stating, strict=True) if said]
    if len(saying) < 2 and not any(asides):  # nothing to weigh: no fit needed
        return {unit_id: Reading("stated", 0.0) for unit_id in saying}
    texts = list(dict.fromkeys(c.text for group in (*stating, *asides) for c in group))
    scores = dict(zip(texts, fit(texts), strict=True)) if texts else {}
    found: dict[str, Reading] = {}
    def score(clause: Clause) -> float:
        return scores[clause.text]

    for unit, said, aside, once in zip(units, stating, asides, occasions, strict=True):
        # a denial proposes no value, and a question asserts none: beside a statement neither is
        # what the unit answers ("I'm not at Acme anymore, I joined Globex in October", "Any
        # tips for a first-time cat owner? We adopted Miso last week"), nor is a relative's
        # value ("I took up rowing in April, but my dad still plays tennis")
        rivals = [
            c for c in aside
            if not (said and (c.denied or c.asked or c.subject in _PRONOUNS or _someone_elses(c, holder)))
        ]
        best = max(said, key=score, default=None)
        worded = max(rivals, key=score, default=None)
        if best is not None and (worded is None or score(best) >= score(worded)):
            found[unit.id] = Reading("stated", score(best), spoken_of(unit, best))
        elif worded is not None:
            found[unit.id] = Reading(
                "aside", score(worded), not_now=worded in once or _not_now(worded, holder, yes_no=yes_no)
            )
    return found


#: the verbs of a state, whose past says the state may have ended ("I had a Golf", "I was a
#: nurse"): a change, not one occasion of a habit
_STATE_VERBS = frozenset({"be", "have"})


def _occasions(units: Sequence[MemoryUnit], stating: Sequence[Sequence[Clause]]) -> list[list[Clause]]:
    """Each unit's stating clauses that tell one occasion of a habit the holder stated before: in the
    simple past, at a time of their own words that ended before the day they were said, with the
    verb of an earlier statement in the present ("I take the number 12 bus to work every day",
    then "Took the train to Bristol on Saturday"): the habit's own verb, told of one past day,
    says what happened that day, not what the holder does now (a change says so: "I've switched
    to the train", "I take the train now"). A state's past ("I had a Golf") is left a statement."""
    habits: dict[str, tuple[datetime, int, datetime, str]] = {}
    for unit, said in zip(units, stating, strict=True):
        for clause in said:
            if clause.tense == "present" and clause.predicate not in _STATE_VERBS:
                key = said_order(unit)
                habits[clause.predicate] = min(habits.get(clause.predicate, key), key)
    return [
        [
            clause for clause in said
            if clause.tense == "past" and clause.predicate in habits and habits[clause.predicate] < said_order(unit)
            and spoken_of(unit, clause) is not None
        ]
        for unit, said in zip(units, stating, strict=True)
    ]


#: a clause's subject that names nobody: beside the holder's statement in the same memory it
#: says more of what that statement names ("Now I've got Pepper - she's a nervous little
#: whippet", "Nan went into Willow Court in November. It's a care home near Mum's"), not
#: someone else's value
_PRONOUNS = frozenset({"he", "she", "it", "they"})


#: a contrastive negation that puts one word in another's place: "Tuesday, not Monday", "not
#: Monday but Tuesday" (a preposition before either word is passed)
_CONTRAST = re.compile(
    r"\b(?P<new>[^\W\d_][\w-]*),?\s+(?:and\s+)?not\s+(?:(?:on|at|in|to)\s+)?(?:the\s+)?(?P<old>[^\W\d_][\w-]*)"
    r"|\bnot\s+(?:(?:on|at|in|to)\s+)?(?:the\s+)?(?P<old2>[^\W\d_][\w-]*),?\s+but\s+(?:(?:on|at|in|to)\s+)?(?:the\s+)?"
    r"(?P<new2>[^\W\d_][\w-]*)",
    re.IGNORECASE,
)


def takes_back(unit: MemoryUnit) -> bool:
    """Whether ``unit`` holds a contrast that may take back a word said before ("Tuesday not
    Monday", "not Monday but Tuesday"; :func:`corrections` reads which)."""
    return any(
        (m.group("old") or m.group("old2")).casefold() not in _NEGATED_NOTHING
        for m in _CONTRAST.finditer(unit.restatement)
    )


def corrections(units: Sequence[MemoryUnit], parts: Mapping[str, Reading]) -> dict[str, Reading]:
    """The units that take back a word of a statement their speaker made before and put another
    in its place ("Scratch that, it's Tuesday not Monday" after "My dentist appointment is on
    Monday"): the word negated in a contrast is one of that statement's and the word set beside
    it is not. Such a unit says that statement again with the new value, whatever its own
    subject ("it", "that"): it reads as stated, with that statement's fit. A contrast that
    names no word of an earlier statement ("I said the blue one, not the red") is left as read."""
    stated = [u for u in units if u.id in parts and parts[u.id].role == "stated"]
    found: dict[str, Reading] = {}
    for unit in units:
        if unit.id in parts and parts[unit.id].role == "stated":
            continue
        for match in _CONTRAST.finditer(unit.restatement):
            new = (match.group("new") or match.group("new2")).casefold()
            old = (match.group("old") or match.group("old2")).casefold()
            for earlier in stated:
                words = {w.casefold() for w in _WORD.findall(earlier.restatement)}
                if (
                    earlier.speakers == unit.speakers and said_order(earlier) < said_order(unit)
                    and old in words and new not in words and old not in _NEGATED_NOTHING
                ):
                    found[unit.id] = Reading("stated", parts[earlier.id].fit)
    return found


#: words a contrast may negate that name no value ("not really", "not only", "not just")
_NEGATED_NOTHING = frozenset({"really", "only", "just", "yet", "now", "sure", "quite", "much", "that", "this", "it"})
_WORD = re.compile(r"[^\W\d_][\w-]*")


def speaks_of(
    units: Sequence[MemoryUnit], read: Sequence[Sequence[Clause]], asked: Collection[str], people: Collection[str]
) -> Callable[[str, str], bool]:
    """Whether unit ``a`` speaks of what the question or unit ``b`` speaks of: a word of ``a``'s
    clauses is a word of the question's (``asked``) or of ``b``'s clauses. Words are index terms
    (stemmed, without stop words, :func:`~ripplemem.stores.text.terms`); the names of ``people``
    and of the units' speakers and participants are none: every memory of a person names them."""
    names = {t for p in people for t in terms(p)} | {
        t for unit in units for p in (*unit.speakers, *unit.participants) for t in terms(p)
    }
    question = {t for word in asked for t in terms(word)} - names
    words = {
        unit.id: {t for clause in clauses for t in terms(clause.text)} - names
        for unit, clauses in zip(units, read, strict=True)
    }

    def topic(a: str, b: str) -> bool:
        said = words.get(a, set())
        return bool(said & question or said & words.get(b, set()))

    return topic


#: the subjects a memory's speaker uses for one person they named before
_THIRD = frozenset({"he", "she"})


def named_before(
    unit: MemoryUnit, clauses: Sequence[Clause], holder: Holder, before: MemoryUnit | None = None
) -> list[Clause]:
    """``clauses`` with a "he" or "she" subject read as the holder's when the unit names the holder
    before it and no other person than its speakers: the one person the pronoun can stand for
    ("Vikram's left Dubai. The bank moved him to Singapore and he's been there since
    September"), a name the write path's recogniser may not have known. With another person
    named (the unit's participants) the pronoun stays unread. A relative (:attr:`Holder.kin_of`)
    is named by a word for the relation of the one whose relative they are ("Mum" in Ana's
    words, "Ana's mum"), and stands for "she" or "he" as the relation says (a mother for
    "she"); a unit that does not name them reads them so when ``before``, the other speaker's
    turn right before it, names them and no other person: what the question it answers asked
    about ("Any news on your mum?" - "she moved into Hollybank Court last month")."""
    name = holder.name
    if not name or name in {normalise_cue(s) for s in unit.speakers} or _others(unit, holder):
        return list(clauses)
    text = unit.restatement.casefold()
    start = _mention(text, unit, holder)
    if start is None:
        if before is None or _others(before, holder) or _mention(before.restatement.casefold(), before, holder) is None:
            return list(clauses)
        start = 0
    pronouns = _pronouns(holder)
    out = []
    for clause in clauses:
        if clause.kind == "person" and clause.subject in pronouns and re.search(
            rf"\b{clause.subject}\b", text[start:]
        ):
            clause = replace(clause, subject_words=clause.subject_words | {name})
        out.append(clause)
    return out


def _others(unit: MemoryUnit, holder: Holder) -> bool:
    """The unit names a person other than its speakers, the holder and whose relative they are."""
    others = {kin(normalise_cue(p)) for p in unit.participants} - {normalise_cue(s) for s in unit.speakers}
    return bool(others - {holder.name, holder.kin_of or ""})


def _mention(text: str, unit: MemoryUnit, holder: Holder) -> int | None:
    """Where the first mention of the holder in ``text`` (the unit's, case-folded) ends: their
    name, or for a relative a word for the relation that is theirs ("Ines's mum", or "Mum" in
    Ines's own words)."""
    if holder.kin_of is None:
        found = re.search(rf"\b{re.escape(holder.name)}\b", text)
        return found.end() if found is not None else None
    forms = "|".join(sorted(map(re.escape, kin_forms(holder.name)), key=len, reverse=True))
    own = not holder.kin_of or holder.kin_of in {normalise_cue(s) for s in unit.speakers}
    for found in re.finditer(rf"(?:\b([\w-]+(?: [\w-]+)?)['’]s |\bmy )?\b(?:{forms})\b", text):
        owner = found.group(1)
        if (owner is None and own) or (owner is not None and (not holder.kin_of or owner.split()[-1] == holder.kin_of)):
            return found.end()
    return None


def _pronouns(holder: Holder) -> frozenset[str]:
    """The pronouns that can stand for the holder: "she" for a mother, "he" for a brother, either
    for a person named (no lexicon guesses a name's gender) or a relation of either sex."""
    if holder.kin_of is not None and holder.name in KIN_SHE:
        return frozenset({"she"})
    if holder.kin_of is not None and holder.name in KIN_HE:
        return frozenset({"he"})
    return _THIRD


def order(
    ids: Sequence[str],
    units: Mapping[str, MemoryUnit],
    answering: Mapping[str, Reading],
    relevance: Mapping[str, float],
    alike: Callable[[str, str], bool],
    *,
    answers: Collection[str] = (),
    latest: bool = True,
    kin: Callable[[str, str], bool] = lambda a, b: False,
    asides_only: bool = False,
    topic: Callable[[str, str], bool] = lambda a, b: True,
    later: Collection[str] = (),
    filling: Collection[str] = (),
) -> tuple[list[str], set[str]]:
    """``ids`` (ranked) in the order of the module doc, and the ids that moved; ``answers``:
    the units that answer but have no reading (the leader passes those said before it);
    ``topic``: whether a unit speaks of what the question or another unit speaks of
    (:func:`speaks_of`; a unit within a margin of the best answer that does not answers
    something else; ``topic(a, "")``: of what the question speaks of);
    ``asides_only``: no statement moves, the best-ranked statement that answers the same thing
    leads, and the asides above it go right below it (a yes-or-no question about a past event:
    whether it happened is what the holder stated, not what they planned or someone else did);
    ``later``: for an earlier value, the units that name the value the question says came later
    ("before Beta"): the latest said before the first of them leads (the value held until it);
    ``filling``: the stated units that give a value in the place the question asks for, with its
    own verb ("I go to PureGym" for "Which gym did Maya go to?"): they answer the same thing.
    """
    ranked, moved = _stated_in_order(
        list(ids), units, answering, relevance, alike, answers=answers, latest=latest, kin=kin,
        asides_only=asides_only, topic=topic, later=later, filling=filling,
    )
    ranked, below = _not_now_below(ranked, answering, answers)
    return ranked, moved | below


def _stated_in_order(
    ranked: list[str],
    units: Mapping[str, MemoryUnit],
    answering: Mapping[str, Reading],
    relevance: Mapping[str, float],
    alike: Callable[[str, str], bool],
    *,
    answers: Collection[str],
    latest: bool,
    kin: Callable[[str, str], bool],
    asides_only: bool,
    topic: Callable[[str, str], bool],
    later: Collection[str] = (),
    filling: Collection[str] = (),
) -> tuple[list[str], set[str]]:
    """:func:`order` up to what is not so now: the statements in order, asides below them."""
    stated = [i for i in ranked if i in answering and answering[i].role == "stated"]
    if not stated:
        return ranked, set()
    best = max(stated, key=lambda i: answering[i].fit)
    top = max(relevance.get(i, 0.0) for i in stated)
    # by its answering clause, or as a whole: a value said apart from the words that name what
    # it is ("my current follower count - I think I'm close to 1300 now") fits in the unit
    # within a margin of the best answer, a memory that shares no word with the question or
    # with it answers the same thing only in words of its own that fit the question about as
    # well ("Started on the sports desk at the Scotsman" 0.20 beside "I work at the Herald" 0.23
    # for "Where does Fin work?"; not "I drive a blue Toyota Yaris" 0.07 beside "I switched my
    # phone contract to Giffgaff" 0.17 for "Which phone network am I on?")
    same = [
        i for i in stated
        if (
            (answering[i].fit >= answering[best].fit - SAME or relevance.get(i, 0.0) >= top - SAME)
            and (topic(i, best) or answering[i].fit >= OWN_WORDS * answering[best].fit)
        )
        or alike(i, best)
    ]
    # and what states a value in the same place as one of them ("on page 200" / "now on page 220")
    same += [i for i in stated if i not in same and any(kin(i, j) for j in same)]
    # and what gives a value in the place the question asks for, in the question's own verb
    same += [i for i in stated if i not in same and i in filling]
    # the order asked for: the latest first, by the time each value holds from (a statement of
    # a past time of its own is older than the time it was said: :func:`held_order`); for an
    # earlier value, the earliest said first (a past time of its own does not make small talk
    # about last Sunday the first value)
    if latest:
        group = sorted(same, key=lambda i: held_order(units[i], answering.get(i)), reverse=True)
    else:
        group = sorted(same, key=lambda i: said_order(units[i]))
        # "before Beta": the value held until the first statement naming Beta, the latest before it
        named = [i for i in group if i in later]
        if named:
            until = said_order(units[named[0]])
            held = [
                i for i in group
                if said_order(units[i]) < until and i not in later and any(kin(i, n) or alike(i, n) or topic(i, n) for n in named)
            ]
            group = held[::-1] + [i for i in group if i not in held]
        else:
            # an earlier value is one a later value replaced: the earliest statement of the
            # group that a later one says alike (linked, near, or a value in the same place)
            # leads, not what was said first and nothing later changes (a sister in Glasgow, a
            # job as a nurse); with none, the earliest answering unit no reading reads that
            # speaks of what the question does and that a later statement says alike ("I drive
            # to work in my old Ford Fiesta", its "to work" parsed as an infinitive, beside "I
            # take the tram to work"; not "A week in Lisbon and I ate my body weight in pastéis"
            # for "Where did Hugo live before his big move?")
            def replaced(pool: list[str]) -> str | None:
                return next((
                    i for i in sorted(pool, key=lambda i: said_order(units[i]))
                    if any(
                        said_order(units[j]) > said_order(units[i]) and (alike(i, j) or kin(i, j))
                        for j in same if j != i
                    )
                ), None)

            unread = [a for a in ranked if a in answers and a not in answering and topic(a, "")]
            first = replaced(same) or replaced(unread)
            if first is not None:
                group = [first, *(i for i in group if i != first)]
    leader = min(same, key=ranked.index) if asides_only else group[0]
    reach = max(relevance.get(i, 0.0) for i in same)
    moved: set[str] = set()
    if asides_only:
        return _asides_below(ranked, leader, answering, moved)

    def passes(other: str, member: str) -> bool:
        if other in answering or relevance.get(other, _BELOW) < reach:
            return True
        # an answer no reading reads, said before: passed by a statement that fits the question
        # better than chance, speaks of what it does or says alike, never by small talk that
        # only outlasts it ("We watched the new Dune film on Saturday" above "I drive to work")
        return (
            other in answers and said_order(units[other]) < said_order(units[member])
            and (
                (member in answering and answering[member].fit > CHANCE) or topic(member, "")
                or alike(member, other)
                or kin(member, other)
            )
        )

    def follows(other: str, member: str) -> bool:
        # an older statement follows the one before it past the group's members, the asides
        # and what answers less than it does, never past another answer more relevant than it
        # ("It reminded John of that sense of community" does not pass "John heard some cool
        # stories from an elderly veteran" for "What does John appreciate about the visit?")
        if other in group or (other in answering and answering[other].role == "aside"):
            return True
        return relevance.get(other, _BELOW) < relevance.get(member, _BELOW)

    here = place = ranked.index(leader)
    while place > 0 and passes(ranked[place - 1], leader):
        place -= 1
    if place < here:
        ranked.insert(place, ranked.pop(here))
        moved.add(leader)
    # for the present, each further statement goes right below the one before it in that order
    # when a statement after it in that order ranks above it, passing only what the leader may
    # pass (for an earlier value the earliest leads and the rest keep their places: what
    # replaced it follows along its supersedes edge)
    for before, member in pairwise(group if latest else ()):
        rest = group[group.index(member) + 1 :]
        here = ranked.index(member)
        if not any(ranked.index(o) < here for o in rest):
            continue
        floor = ranked.index(before) + 1
        at = here
        while at > floor and passes(ranked[at - 1], member) and follows(ranked[at - 1], member):
            at -= 1
        if at < here:
            ranked.insert(at, ranked.pop(here))
            moved.add(member)
    return _asides_below(ranked, leader, answering, moved)


def _not_now_below(
    ranked: list[str], answering: Mapping[str, Reading], answers: Collection[str]
) -> tuple[list[str], set[str]]:
    """Each unit read by words of what is not so now (:func:`_not_now`: "If I moved to Spain
    I'd surf", "I was in Rome for a week in May", another speaker's "You should try keto") right
    below the first answering unit after it that no reading reads ("Lyon in winter is grey"):
    that one may say how things are; the other says they are not so. Also beside a statement of
    the holder's that answers something else and ranks below both ("I bought a Pixel 7" for a
    question about the phone network, under "I very nearly switched to Vodafone" and
    "Giffgaff, ten pounds a month")."""
    moved: set[str] = set()
    for unit_id in [i for i in ranked if i in answering and answering[i].not_now]:
        here = ranked.index(unit_id)
        below = next((i for i in ranked[here + 1 :] if i in answers and i not in answering), None)
        if below is None:
            continue
        item = ranked.pop(here)
        ranked.insert(ranked.index(below) + 1, item)
        moved.add(unit_id)
    return ranked, moved


def _asides_below(
    ranked: list[str], leader: str, answering: Mapping[str, Reading], moved: set[str]
) -> tuple[list[str], set[str]]:
    """Every aside above ``leader`` right below it, when only answering units lie between."""
    place = ranked.index(leader)
    for unit_id in [i for i in ranked[:place] if i in answering and answering[i].role == "aside"]:
        here, top = ranked.index(unit_id), ranked.index(leader)
        if all(ranked[p] in answering for p in range(here + 1, top + 1)):
            ranked.insert(top, ranked.pop(here))  # right below the holder's answer
            moved.add(unit_id)
    return ranked, moved
