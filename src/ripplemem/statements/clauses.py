"""Clauses read from spaCy's dependency parse: who states what about whom, and whether as a fact.

A :class:`Clause` is one predicate of a sentence with its subject, the value its complements give
(the content words of its objects, complements and prepositional phrases, by grammatical place)
and its *mood*. Nothing here lists attributes, nouns or change phrases: what a clause is about is
its predicate and its subject, and whether it is asserted comes from the structure alone:

* a question (the sentence ends with "?") asserts nothing;
* a negated predicate ("I don't work at Finvera", "I never moved") is no value;
* a modal auxiliary other than "will"/"shall" ("would", "could", "might", "may", "should",
  "must", "can", "'d") makes it hypothetical; a clause with an "if"/"unless" clause is a
  consequent, the conditional clause itself a condition — neither is asserted;
* a subordinate clause (adverbial, relative, an infinitive complement such as "want to move",
  "decided to keep", "going to teach", a gerund after a preposition such as "thinking about
  moving") is not the sentence's statement — but a clause with its own subject after a
  verbless heading ("Big news: Maya moved to Bristol") is; a gerund complement ("started seeing Ravi") is, and
  gives the clause its predicate and value;
* the first half of "X but Y" is conceded: Y is what the speaker concludes ("I test drove a
  Volvo but kept the Mini", "I had an interview there but turned the offer down"); but when Y
  says something of another subject, neither a pronoun nor "there" ("We moved to Leeds, but
  my brother stayed in York", "I went onto nights, but the pay is better"), the "but" sets two
  subjects side by side and X is taken as given, as it would be alone;
* a verb of near miss ("I very nearly switched to British Gas", "we almost moved"; not "be": "I'm
  nearly 40") did not happen, and the complement clause of a verb of wishing, dreaming or hoping
  ("I wish I drove a Porsche", "I hope I get the job") is not the speaker's fact (a non-factual
  attitude, unlike "know" or "say");
* a verb of deliberation with what it weighs ("I'm seriously considering veganism", "I'm
  thinking about law", "been weighing up Bristol", "toying with a Kindle") says the value is
  weighed, not held: like a near miss, the clause is not the subject's fact;
* a coordinated clause without its own subject shares the first one's subject and mood;
* a necessity in the past tense entails its complement ("we had to move the wedding" moved it,
  unlike "we have to move it" or "we want to move it"), and so does an implicative verb ("I
  managed to join the club", "I remembered to renew it", "I got round to moving my account"),
  unless negated or under a modal ("I didn't manage to get in"; "tried to", "forgot to" entail
  nothing);
* a participle clause hung from its sentence without a subordinating word ("I sold the Panda,
  driving a Skoda now") is asserted as its head is; a gerund after "since" or "after" ("since
  moving to Chorlton, I walk everywhere") is taken as given;
* a clause the sentence rests on is taken as given whatever the sentence does, a question
  included: a reason or a comparison ("since", "because", "as", "like", "now that": "Any tips,
  since I work in Canary Wharf these days?", "..., like we do every other week"; not "as soon
  as", "as long as"), the complement of "considering", "given" or "seeing" said without a
  subject of their own ("..., given that I live in Hove now?"), and a relative clause set off
  by a comma ("my daughter Ada, who is in year six now").

A "which" that the parse hangs as an adverbial clause of a verb comments on that whole clause
("Saw a bittern yesterday, which brings my tally to 41 species"): it speaks of that clause's
subject (here the speaker, whose "I" chat dropped), and like any subordinate clause it is never
asserted.

A clause without a subject of its own shares its governing clause's: a coordinated clause's, an
infinitive's, a participle clause's, a gerund's after a preposition ("since moving to Chorlton, I
..."), but not an "it" ("Cycling to work, it's quicker": "it" is the cycling). A sentence with no
subject at all, in a past or participle form ("Moved to Hove in March", "Been on 30mg since the
review", "Loving the new job"), is the speaker's, as chat drops the "I"; the base form of an
imperative ("Call me") and the third person of a dropped "it" ("Sounds good") are not. So is a
sentence with neither subject nor verb ("Still at Acme.", "New deadlift PR: 102.5kg!", "Two kids
now"), whose noun phrase at the root is its value, unless it holds another person's possessive
("Great news about Tom's new job") or its root noun follows a person's name (a verb the tagger
read as a noun: "Sam banks with Nationwide"). "Most of us", "the rest of us" are the speaker
with others, as "we" is.

A clause of the speaker's that goes on with a value (stay, stick with, keep, remain, continue,
carry on: "I'll stick with Vodafone", "we'll stay fortnightly", "I'm going to keep doing yoga") is
*continued* (:attr:`Clause.continued`): going on presupposes the value is held now, so it is taken
as given even said of the future, and a length of time marked as going on beyond now is how long
it goes on, not a stay ("I'll stay with Three for another year", "for two more years": not
*bounded*; "I'll stay with my aunt for two weeks" is a stay); not under a
modal, a negation, a condition or a wish, nor as the infinitive of another verb ("I try to keep
red meat to weekends").

A clause can be asserted by its mood and *undone* by its words (:attr:`Clause.undone`, read by
the read path only): a verb of refusal with its object ("I turned down the job"), someone else's
words or thoughts about the speaker ("my mum thinks I should move"), an infinitive the parse
hangs as a complement clause ("wants me to apply").

A clause is *bounded* when it states something of bounded length (unless it goes on: above): a duration ("for two weeks",
"for the weekend") on a clause not in the perfect ("I've lived here for a decade" lasts up to
now, as does "Been vegetarian for ten years now"), or a "while" / "until" clause ("while the kitchen is redone, we're living with my
sister"): a stay, not a lasting state. So is being somewhere in the past ("I was in Seville last
month for a conference"): "be" with a place is where one is at a time (a stage-level predicate),
not where one lives or works; in the past it is a visit that ended (not "I was a nurse", not
"I'm in Leeds now").

The subject is the *speaker* ("I", "we", the speaker's name), another *person* (a name of the
unit's people, "he", "she", "they") or a *thing* ("my team", "the wedding", "it"); ``owner`` says
whose thing ("my team": the speaker's), ``possessor`` the name that owns it ("Tom's car").
:func:`counts` reads the numbers a clause gives to a noun ("41 species"), :func:`frequency`
whether its words give a frequency ("every other week", "twice a week", "monthly"). Docs come from
:meth:`ripplemem.write.entities.EntityRecognizer.parse`; nothing here loads spaCy.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ripplemem.records import normalise_cue

#: the English words of a number (a regex alternation)
NUMBER_WORDS = (
    "zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
    "sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|"
    "hundred|thousand|million|billion|dozen"
)
#: a number as a value keeps it: digits ("41", "5,000", "15th") or a number word
_NUMERAL = re.compile(r"^(?:\d[\d,.]*(?:st|nd|rd|th)?|" + NUMBER_WORDS + r")$")

#: texts -> spaCy docs with tags, lemmas and a dependency parse
Parse = Callable[[Sequence[str]], Sequence[Any]]

SubjectKind = Literal["speaker", "person", "thing", "none"]
Tense = Literal["past", "present", "future"]

#: grammatical places whose words are a clause's value
_VALUE_DEPS = frozenset(
    {"dobj", "attr", "acomp", "oprd", "prep", "dative", "agent", "obj", "pobj", "npadvmod"}
)
#: clause heads that are not the sentence's statement
_SUBORDINATE = frozenset({"advcl", "relcl", "acl", "csubj", "csubjpass", "pcomp", "amod", "npadvmod"})
_CONDITIONS = frozenset({"if", "unless", "whether"})
_FACTUAL_MODALS = frozenset({"will", "shall"})
_SELF = frozenset({"i", "we", "me", "us"})
_PEOPLE_PRONOUNS = frozenset({"he", "she", "they", "him", "her", "them", "someone", "somebody", "everyone"})
_CONTENT = frozenset({"NOUN", "PROPN", "NUM", "ADJ"})
_DEFINITE = frozenset({"the", "this", "that", "these", "those"})
_INDEFINITE = frozenset({"a", "an", "another", "some", "any"})
#: nouns for a person ("my dad", "Sam's mum", "the coach"; shared with the write path's pronouns)
PEOPLE_NOUNS = frozenset(
    str.split("""mom mum mommy mother dad daddy father parent stepmom stepdad stepmother stepfather
    brother sister sibling son daughter child kid baby toddler boy girl teen teenager
    grandma grandmother granny grandpa grandfather grandparent grandson granddaughter grandchild
    aunt auntie uncle cousin niece nephew husband wife spouse partner fiance fiancee fiancé
    fiancée boyfriend girlfriend ex wifey hubby friend bestie buddy pal mate bff neighbor
    neighbour roommate flatmate housemate classmate schoolmate teammate coworker co-worker
    colleague boss manager supervisor employee employer intern mentor mentee teacher professor
    coach tutor instructor trainer student doctor nurse therapist counselor counsellor dentist
    surgeon vet lawyer officer pastor priest boss guy dude lady gentleman man woman person someone
    somebody stranger author writer artist singer musician actor actress player owner client
    customer patient member leader host guest date crush mother-in-law father-in-law
    sister-in-law brother-in-law""")
)
#: the everyday forms of a kinship word ("mum", "mom" and "mother" name one relation): the
#: words a question and a memory may each use for the relative (:func:`kin`)
_KIN_FORMS = {
    "mother": "mum mom mam mummy mommy mama ma",
    "father": "dad daddy papa pa",
    "grandmother": "nan nana nanna nanny gran granny grandma gramma",
    "grandfather": "grandad granddad grandpa gramps grampa",
    "husband": "hubby",
    "wife": "wifey missus",
}
_KIN = {form: relation for relation, forms in _KIN_FORMS.items() for form in (relation, *forms.split())}
#: the relations "she" can stand for and those "he" can (every other person noun: either)
KIN_SHE = frozenset(
    str.split("""mother grandmother sister daughter wife aunt auntie niece granddaughter girlfriend
    fiancee fiancée stepmother mother-in-law sister-in-law""")
)
KIN_HE = frozenset(
    str.split("""father grandfather brother son husband uncle nephew grandson boyfriend fiance fiancé
    stepfather father-in-law brother-in-law""")
)


def kin(word: str) -> str:
    """The relation a kinship word names ("mum", "mom" -> "mother"; "nan" -> "grandmother");
    any other word is itself."""
    return _KIN.get(word, word)


def kin_forms(relation: str) -> frozenset[str]:
    """Every word for ``relation`` (:func:`kin`'s inverse): "mother" -> mother, mum, mom, ..."""
    return frozenset({relation, *_KIN_FORMS.get(relation, "").split()})


def person_noun(word: str) -> bool:
    """A noun for a person (:data:`PEOPLE_NOUNS`) or a kinship word's everyday form ("nan")."""
    return word in PEOPLE_NOUNS or word in _KIN


#: the words that mark a length of time as going on beyond now ("for another year")
_FURTHER = frozenset({"another", "more", "longer", "further"})
#: the units a bounded length is counted in ("for two weeks", "for the weekend")
DURATION_UNITS = frozenset(
    {"minute", "hour", "day", "night", "week", "weekend", "fortnight", "month", "year", "decade",
     "term", "semester"}
)
#: the words of a frequency: "every/each (other) <word>" ("every Sunday"), a number of times in
#: a unit of time ("twice a week", "three times per month"), a unit of time's adverb ("daily")
_UNITS = "|".join(sorted(DURATION_UNITS))
_FREQUENCY = re.compile(
    rf"\b(?:every|each)\s+\w+|\b(?:once|twice|\w+\s+times)\s+(?:a|an|per|each|every)\s+(?:{_UNITS})\b|"
    r"\b(?:hourly|nightly|daily|weekly|fortnightly|monthly|yearly|annually)\b",
    re.IGNORECASE,
)
_BOUNDING_MARKS = frozenset({"while", "until", "till"})
#: the prepositions of a goal: where a change moves something to
GOAL_PREPOSITIONS = frozenset({"to", "into", "onto"})
#: the marks of a clause the sentence takes as true whatever it does itself: a reason ("since",
#: "because", "as") or a comparison of manner ("like we do every week", "as I said"); "as" not
#: in "as soon as", "as long as" (a time to come, a condition)
_REASON_MARKS = frozenset({"since", "because", "as", "like"})
#: the words before a second "as" that make it a time or a condition, not a reason
_AS_BOUNDS = frozenset({"soon", "long", "far", "much", "well", "often"})
#: participles that introduce a clause as given ("considering I start at 8 now", "given that I
#: live in Hove", "seeing that it rained"); not "assuming", "supposing", "provided": conditions
_GIVEN_PARTICIPLES = frozenset({"considering", "given", "seeing"})
#: verbs of seeming: a "like" clause of theirs says what seems, not what is ("it feels like I live
#: at the office", "looks like we're moving")
_SEEMING = frozenset({"feel", "look", "seem", "sound", "appear", "smell", "taste"})
#: verbs whose object is what the subject does not take: a negation in the verb itself (lemma,
#: and lemma with its particle)
_REFUSALS = frozenset({"refuse", "decline", "reject", "forgo", "forego"})
_REFUSALS_WITH = frozenset({("turn", "down"), ("pass", "up")})
#: verbs of refusal whose refused thing is the object of a preposition ("I passed on the job",
#: "we said no to the flat"): lemma, preposition, and the word the verb needs besides, if any
_REFUSALS_OF = frozenset({("pass", "on", ""), ("say", "to", "no")})
#: subjects of a governing verb that are nobody ("it turns out I moved", "that means ...")
_IMPERSONAL = frozenset({"it", "this", "that", "which", "what"})
#: the tags of a relative pronoun ("who", "which", "that" heading a relative clause)
_RELATIVE = frozenset({"WDT", "WP"})
#: the tags of a finite verb
_FINITE = frozenset({"VBZ", "VBP", "VBD", "MD"})
#: the forms of a clause that, without a subject, drops "I" ("Moved to Hove", "Been on 30mg",
#: "Loving the new job"): a past, a past participle, a present participle; not the base form of an
#: imperative ("Call me") nor the third person of a dropped "it" ("Sounds good", "Turns out ...")
_DROPPED_I = frozenset({"VBD", "VBN", "VBG"})
#: the root of a sentence with neither verb nor subject that chat reads as the speaker's
_VERBLESS = frozenset({"NOUN", "PROPN", "ADP", "ADV", "NUM"})
_NOMINAL = frozenset({"NOUN", "PROPN", "NUM"})
#: the participles of a non-finite clause whose subject is its governing clause's
_PARTICIPLES = frozenset({"VBG", "VBN"})
#: implicative verbs: the subject did what the infinitive says ("I managed to join the club",
#: "I remembered to renew it"); negated, they say it was not done (Karttunen's implicatives)
_IMPLICATIVES = frozenset({"manage", "remember", "bother", "dare", "happen"})
#: verbs of habit: in the simple present, the subject does what the infinitive says, as a habit
#: ("I like to wake up at 7:30 on Saturdays", "I tend to cycle in"); a wish is not one ("I'd like
#: to", a modal), nor a liking negated ("I don't like to drive")
_HABITUAL = frozenset({"like", "love", "prefer", "tend"})
#: prepositions before a gerund whose event the sentence takes as done ("since moving to
#: Chorlton", "after starting at the library")
_AFTER_EVENT = frozenset({"since", "after"})
#: adverbs of near miss: on a verb, its event did not happen ("I very nearly switched", "we
#: almost moved"); on another word they grade it ("almost always", "nearly 40")
_NEAR_MISS = frozenset({"nearly", "almost"})
#: verbs of wishing, dreaming, hoping or pretending: their complement clause is what the subject
#: does not have, or does not know they have ("I wish I drove a Porsche", "I hope I get the job");
#: a non-factual attitude, unlike "know", "realise" (factive) or "say", "think" (reports)
_NON_FACTUAL = frozenset({"wish", "hope", "dream", "imagine", "pretend", "fantasize", "fantasise"})
#: verbs of deliberation: their object (or the object of their particle or preposition) is what the
#: subject weighs, not what they have ("considering veganism", "weighing up Bristol", "thinking
#: about law", "toying with a Kindle"); lemma, or lemma with the particle or preposition it needs
_DELIBERATIVE = frozenset({"consider", "contemplate", "ponder", "mull"})
_DELIBERATIVE_WITH = frozenset(
    {("think", "about"), ("think", "of"), ("weigh", "up"), ("toy", "with"), ("look", "into"), ("mull", "over")}
)
#: verbs of going on: the subject holds their value now and goes on holding it ("I'll stick with
#: Vodafone", "we'll stay fortnightly", "I'm going to keep doing yoga"), a presupposition of
#: continuation that holds under the future, a modal or a negation ("I won't stay with Three"
#: says one is with Three); "carry" with its particle "on"
_CONTINUATIVE = frozenset({"stay", "stick", "keep", "remain", "continue", "carry"})


def _inflected(lemmas: frozenset[str], irregular: str = "") -> frozenset[str]:
    """``lemmas`` with their regular forms ("hope": hopes, hoped, hoping) and ``irregular``
    ones: a verb is known by its form, since the parse's lemma can be wrong ("hopes": "hop")."""
    forms = set(lemmas) | set(irregular.split())
    for verb in lemmas:
        stem = verb.removesuffix("e")
        third = verb[:-1] + "ies" if verb.endswith("y") and verb[-2:-1] not in "aeiou" else (
            verb + "es" if verb.endswith(("s", "sh", "ch", "x", "z", "o")) else verb + "s"
        )
        past = verb[:-1] + "ied" if third.endswith("ies") else (verb + "d" if verb.endswith("e") else verb + "ed")
        forms |= {third, past, stem + "ing"}
    return frozenset(forms)


#: the non-factual verbs in every form (another module reads a wish before a modal by them)
NON_FACTUAL_FORMS = _inflected(_NON_FACTUAL, "dreamt")
_CONTINUATIVE_FORMS = _inflected(_CONTINUATIVE, "stuck kept")


@dataclass(frozen=True, slots=True)
class Clause:
    """One predicate of a sentence: its subject, value and mood."""

    speaker: str  # who said it, normalised ("maya")
    subject: str  # the subject's head, case-folded lemma ("i", "team", "wedding"; "" none)
    subject_words: frozenset[str]  # its noun phrase's words ("our dog Rex": dog, rex)
    #: the words of its direct object when the object is the speaker's or nobody's ("moved my
    #: check-up": check-up): a thing of the speaker's that someone changed
    object_words: frozenset[str]
    kind: SubjectKind
    owner: Literal["speaker", "other", ""]  # whose thing the subject is ("my team": speaker)
    #: the subject is one particular thing ("the offsite", "my team"), not a kind ("yoga is
    #: relaxing", "pets are the best": a bare noun says something of every one of them)
    definite: bool
    predicate: str  # the clause head's lemma ("live", "be", "call")
    #: the value's words by grammatical place: (("prep:in", ("leeds",)), ("attr", ("nurse",)))
    places: tuple[tuple[str, frozenset[str]], ...]
    named: frozenset[str]  # the value's names and numbers ("leeds", "15")
    asserted: bool  # stated as a fact by its subject (see the module doc)
    tense: Tense
    bounded: bool = False  # of bounded length: a stay, not a lasting state (see the module doc)
    #: not asserted but taken as true by the sentence: a finite relative or adverbial clause in
    #: the indicative, the first half of "but" between two subjects (see the module doc); read
    #: by the read path only
    presupposed: bool = False
    #: the clause's own words, without the clauses inside it ("I turned the offer down")
    text: str = ""
    #: asserted by its mood but undone by its words (``asserted`` is also True): a verb of
    #: refusal with its object ("I turned down the job at the bank"), someone else's words or
    #: thoughts about the speaker ("my mum thinks I should move"), an infinitive the parse hangs
    #: as a complement ("wants me to apply"). The read path does not take these as the speaker's
    #: statement; the write path reads ``asserted`` alone.
    undone: bool = False
    #: in the present progressive ("I'm flying to Lisbon"): a state now, or an arrangement when
    #: the words give a time ahead (the read path's :func:`~ripplemem.read.latest_first.as_told`)
    progressive: bool = False
    #: every value is a thing the speaker already has ("renew my swim membership", "book my cat's
    #: jab"): what the clause does with it brings no new value
    own_value: bool = False
    #: its predicate is negated ("I'm not at Acme anymore", "we never moved"): it denies a value
    #: and proposes none
    denied: bool = False
    #: the name that owns the subject ("Tom's car": "tom"; "Mrs Patel's class": "mrs patel"),
    #: normalised; "" when the subject has no possessor that is a name
    possessor: str = ""
    #: the speaker goes on with a value ("I'll stick with Vodafone", "we'll stay fortnightly"): a
    #: value they hold now, whatever the tense (also ``presupposed``); see :data:`_CONTINUATIVE`
    continued: bool = False
    #: its direct object is the speaker ("moved me", "moved Ravi" in Ravi's words) or a thing
    #: they own themself ("increased my dose", "put our rent up"; not "my mum's dose"): what the
    #: clause's subject changes is the speaker's
    acts_on_speaker: bool = False
    #: the subject is a person named by a noun, not by a name ("my dad", "Sam's mum", "the
    #: coach"), doing something to something (a direct object: "my dad bought a Tesla", not "our
    #: fourth child was born"): that person's doing, the holder's only through what it acts on
    human: bool = False
    #: a direct object is one particular thing ("the wedding", "my lesson", "Octopus"), not any
    #: one of a kind ("a Tesla")
    object_definite: bool = False
    #: what did not happen, or happens only on a condition: a condition or its consequent, a
    #: near miss, a verb of refusal with its object ("If I moved to Spain I'd surf", "I nearly
    #: took the job", "I turned the offer down"; not a modal alone: "I'd like a strength
    #: block" is a wish for what may well come); read by the read path only
    irrealis: bool = False
    #: said in a question (its sentence ends with "?"): it asks, and asserts nothing
    asked: bool = False

    @property
    def value(self) -> frozenset[str]:
        return frozenset(w for _, words in self.places for w in words)

    def by_speaker(self) -> bool:
        """The speaker states it about themself ("I live in Leeds"), or about their own thing
        ("my rent is 1,200")."""
        return self.kind == "speaker" or (self.kind == "thing" and self.owner == "speaker")


def same_place(a: Clause, b: Clause) -> bool:
    """Two statements of one thing with different values: the same speaker, predicate, kind of
    subject (and subject words, for a thing or a person) and a grammatical place where each
    names or counts something the other does not ("I'm on page 200" / "I'm now on page 220",
    "1250 followers on Instagram" / "1400 followers on Instagram"). Mood and tense are the
    caller's. (The write path's :func:`~ripplemem.write.supersede.parallel` is stricter: no
    name in common in that place.)"""
    if a.speaker != b.speaker or a.predicate != b.predicate or a.kind != b.kind:
        return False
    if a.kind != "speaker" and a.subject_words != b.subject_words:
        return False  # "my rent" / "my car", "my sister Priya" / "my sister Ana": two things
    there = dict(a.places)
    for place, words in b.places:
        if place not in there:
            continue
        one, two = there[place] & a.named, words & b.named
        # the names differ but name one kind of thing: the place's other words agree, where
        # both have some ("page 200" / "page 220"; not "a job interview at Spire" / "a cat
        # called Miso": two things had, not one thing's two values)
        kinds = there[place] - a.named, words - b.named
        if one - two and two - one and (not all(kinds) or kinds[0] & kinds[1]):
            return True
    return False


def counts(clause: Clause, noun: str) -> frozenset[str]:
    """The numbers ``clause`` gives to ``noun`` (a lemma): those in a value's place that holds
    the noun ("which brings my tally to 41 species": 41 for "specie"; "I've run three
    marathons": three for "marathon")."""
    return frozenset(
        w for _, words in clause.places if noun in words for w in words & clause.named if _NUMERAL.match(w)
    )


def frequency(clause: Clause) -> bool:
    """The clause's own words give a frequency: "every" or "each" with what it counts ("every
    other week", "every Sunday"), a number of times in a unit of time ("twice a week", "three
    times per month"), or a time unit's adverb ("daily", "weekly", "monthly")."""
    return bool(_FREQUENCY.search(clause.text))


def clauses_of(doc: Any, speaker: str, people: Collection[str] = ()) -> list[Clause]:
    """The clauses of ``doc`` (the words of ``speaker``); ``people``: the names of the other
    people the text may name (a subject among them is another person)."""
    me = normalise_cue(speaker)
    mine = {normalise_cue(part) for part in speaker.split()} | {me}
    others = {normalise_cue(p) for p in people} - mine
    found: list[Clause] = []
    for sentence in doc.sents:
        question = sentence.text.rstrip().endswith("?")
        for head in sentence:
            if _is_clause_head(head):
                found.append(_clause(head, me, mine, others, question))
            elif _new_of_mine(head, mine):
                found.append(_having(head, me, mine))
    return found


def _new_of_mine(noun: Any, mine: set[str]) -> bool:
    """A noun phrase of the speaker's that says the thing is new ("my new place in York", "our
    new car")."""
    return (
        noun.pos_ in ("NOUN", "PROPN")
        and any(c.dep_ == "amod" and c.lemma_.casefold() == "new" for c in noun.children)
        and any(c.dep_ == "poss" and (normalise_cue(c.text) in ("my", "our") or normalise_cue(c.text) in mine)
                for c in noun.children)
    )


def _having(noun: Any, me: str, mine: set[str]) -> Clause:
    """What "my new place in York" takes as given, whatever the sentence says of it: the
    speaker has a new place, in York (a clause of its own, taken as given, never asserted)."""
    words = _own_tokens(noun, frozenset({"relcl", "acl"}))
    inside = {t.i for t in words}
    places: dict[str, set[str]] = {}
    named: set[str] = set()
    for token in words:
        found = _value_word(token, mine)
        if found is None:
            continue
        word, proper = found
        prep = next((a for a in token.ancestors if a.dep_ == "prep" and a.i in inside), None)
        places.setdefault(f"prep:{prep.lower_}" if prep is not None else "dobj", set()).add(word)
        if proper:
            named.add(word)
    return Clause(
        speaker=me, subject="i", subject_words=frozenset(), object_words=frozenset(),
        kind="speaker", owner="", definite=True, predicate="have",
        places=tuple(sorted((p, frozenset(w)) for p, w in places.items())), named=frozenset(named),
        asserted=False, tense="present", presupposed=True,
        text=" ".join(t.text for t in words if not t.is_punct and t.dep_ not in ("poss", "case")),
    )


def _commented(head: Any, subject: Any | None) -> Any | None:
    """The clause a sentential relative comments on: a clause whose subject is "which" and that
    the parse hangs as an adverbial clause of a verb ("Saw a bittern on the marsh yesterday,
    which brings my tally to 41 species": "Saw"), else None. Such a clause is subordinate, so it
    is never ``asserted``; the read path takes it as given (:attr:`Clause.presupposed`)."""
    if subject is None or subject.lower_ != "which" or subject.head.i != head.i:
        return None
    if head.dep_ != "advcl" or head.head.i == head.i or head.head.pos_ not in ("VERB", "AUX"):
        return None
    return head.head


def _is_clause_head(token: Any) -> bool:
    if token.dep_ == "ROOT":
        return True
    if token.pos_ not in ("VERB", "AUX"):
        return False
    if token.dep_ == "xcomp" and not _infinitive(token):
        return False  # "started seeing Ravi": part of its head's clause
    return token.dep_ in ("conj", "ccomp", "parataxis", "xcomp") or token.dep_ in _SUBORDINATE


def _clause(head: Any, me: str, mine: set[str], others: set[str], question: bool) -> Clause:
    core = _gerund_core(head)
    subject = _subject(head)
    # "Saw a bittern yesterday, which brings my tally to 41": a comment on the clause before it
    # speaks of that clause's subject
    commented = _commented(head, subject)
    if commented is not None:
        subject = _subject(commented)
    kind, owner = _kind(subject, mine, others)
    verbless = subject is None and not question and _verbless(head, mine, others)
    if verbless or (subject is None and not question and _drops_i(commented if commented is not None else head)):
        kind = "speaker"  # "Moved to Hove in March", "Still at Acme": chat drops the "I"
    if kind != "speaker" and _by_who(head):
        kind = "person"  # "my friend Tom, who moved to Berlin": "who" stands for a person
    places, named = _places(core, mine)
    if verbless and head.pos_ in _NOMINAL:
        places, named = _named_value(head, places, named, mine)  # "New car! A blue Kia Picanto"
    objects = _objects(core, mine)
    partners = _partners(subject, mine) if subject is not None else []
    if partners:  # "Emily and I got engaged": the speaker, with Emily
        kind, owner = "speaker", ""
        words = frozenset(p.text.casefold() for p in partners)
        places = tuple(sorted((*places, ("with", words))))
        named = named | frozenset(p.text.casefold() for p in partners if p.pos_ == "PROPN")
    asserted = not question and _asserted(head)
    # going on with a time alone ("I keep meaning to try it, maybe this weekend") holds no value
    valued = any(place != "npadvmod" for place, _ in places)
    continued = not question and kind == "speaker" and valued and _continues(head)
    return Clause(
        speaker=me,
        subject=subject.lemma_.casefold() if subject is not None else "",
        subject_words=_phrase(subject) if subject is not None else frozenset(),
        possessor=_possessor(subject) if subject is not None else "",
        object_words=_own_object(objects),
        kind=kind,
        owner=owner,
        definite=subject is not None and _definite(subject),
        predicate=core.lemma_.casefold(),
        places=places,
        named=named,
        asserted=asserted,
        undone=asserted and (
            not _asserted(head, strict=True) or (kind == "speaker" and _reported(head, mine))
        ),
        tense=_tense(head),
        bounded=not (continued and _further(head))
        and (_bounded(head) or (kind in ("speaker", "person") and _was_at(head))),
        presupposed=_presupposed(head, question) or (not question and _contrasted(head, mine)) or continued
        or _given_through(head, question),
        text=_own_text(head),
        progressive=_progressive(head),
        own_value=_own_value(core, mine),
        denied=_negated(head),
        continued=continued,
        acts_on_speaker=_acts_on_speaker(objects, mine),
        human=kind == "thing" and subject is not None and subject.pos_ == "NOUN"
        and subject.lemma_.casefold() in PEOPLE_NOUNS and bool(objects),
        object_definite=any(_particular(child) for child, _, _ in objects),
        irrealis=not question and (_irrealis(head) or _refused_after(head)),
        asked=question,
    )


def _own_text(head: Any) -> str:
    """The words of ``head``'s subtree but those of the clauses inside it."""
    return " ".join(t.text for t in _own_tokens(head) if not t.is_punct)


def _own_tokens(head: Any, inner_deps: frozenset[str] = frozenset()) -> list[Any]:
    """``head``'s subtree without the clauses inside it (clause heads, and dependants of
    ``inner_deps``, with their subtrees)."""
    inner: set[int] = set()
    for token in head.subtree:
        if token is not head and token.i not in inner and (_is_clause_head(token) or token.dep_ in inner_deps):
            inner.update(t.i for t in token.subtree)
    return [t for t in head.subtree if t.i not in inner]


def _gerund_core(head: Any) -> Any:
    """"I've started seeing a woman called Ingrid": the predicate and value are the gerund's."""
    while not any(c.dep_ in _VALUE_DEPS for c in head.children):
        gerund = next((c for c in head.children
                       if c.dep_ == "xcomp" and not _infinitive(c) and c.pos_ == "VERB"), None)
        if gerund is None:
            break
        head = gerund
    return head


def _infinitive(token: Any) -> bool:
    return any(c.dep_ == "aux" and c.tag_ == "TO" for c in token.children)


def _subject(head: Any) -> Any | None:
    """The clause's subject; a coordinated or complement clause without one shares its head's."""
    seen = 0
    while head is not None and seen < 6:
        seen += 1
        subjects = [c for c in head.children if c.dep_ in ("nsubj", "nsubjpass", "expl", "csubj")]
        if subjects:
            # a mis-parse may give two subjects ("I test drove ...", "No more Netflix for me, I
            # switched ..."): a pronoun or name wins, the one nearest the verb
            named = [s for s in subjects if s.pos_ in ("PRON", "PROPN")]
            found = min(named, key=lambda s: abs(head.i - s.i)) if named else subjects[0]
            if found.tag_ in _RELATIVE and head.dep_ == "relcl" and head.head is not head:
                return _antecedent(head.head, found)  # "Rachel, who works at Northwind"
            return found
        governor = _governor(head)
        if governor is None:
            return None
        if head.dep_ in ("advcl", "pcomp") and _impersonal_subject(governor):
            return None  # a participle's subject is no "it" ("Cycling to work, it's quicker")
        head = governor
    return None


def _governor(head: Any) -> Any | None:
    """The clause whose subject ``head`` shares when it has none of its own: a coordinated
    clause's or an infinitive complement's head, a participle clause's governing verb
    ("driving a Skoda now" in "Got rid of the Panda, driving a Skoda now"), the verb a gerund
    after a preposition hangs from ("since moving to Chorlton, I walk", "got round to moving my
    account")."""
    if head.head is head:
        return None
    if head.dep_ in ("conj", "xcomp"):
        return head.head
    if head.dep_ == "advcl" and head.tag_ in _PARTICIPLES and not _infinitive(head):
        return head.head
    if head.dep_ == "pcomp" and head.tag_ == "VBG":
        token = head.head
        for _ in range(3):
            if token.pos_ in ("VERB", "AUX"):
                return token
            if token.head is token or token.dep_ not in ("prep", "acomp", "advmod", "prt"):
                return None
            token = token.head
    return None


def _drops_i(head: Any) -> bool:
    """A clause of a sentence that has no subject anywhere up its chain of governing clauses,
    in a past or participle form ("Moved to Hove in March", "Been on 30mg since the review",
    "Loving the new job"): the speaker's words with the "I" left out, as chat writes."""
    token: Any = head
    formed = False  # the form is read on the first clause of the chain that is no infinitive
    for _ in range(6):
        if not formed and not _infinitive(token):
            auxiliaries = [c for c in token.children if c.dep_ in ("aux", "auxpass")]
            if (auxiliaries[0].tag_ if auxiliaries else token.tag_) not in _DROPPED_I:
                return False
            formed = True
        if any(c.dep_ in ("nsubj", "nsubjpass", "expl", "csubj") for c in token.children):
            return False
        if _juxtaposed(token):
            return True  # "Finally ditched Vodafone, I'm on Giffgaff": its own sentence
        governor = _governor(token)
        if governor is None:
            return token.dep_ == "ROOT"
        if token.dep_ in ("advcl", "pcomp") and _impersonal_subject(governor):
            return True  # "Cycling to work these days, it's quicker": "it" is the cycling
        token = governor
    return False


def _verbless(head: Any, mine: set[str], others: set[str]) -> bool:
    """A sentence with no verb and no subject, a noun, a preposition, an adverb or a number at
    its root ("Still at Acme.", "Back on the night shift.", "New deadlift PR: 102.5kg!", "Two
    kids now"): the speaker's words with "I'm" or "I've got" left out, as chat writes; not a
    person's thing or doing ("Great news about Tom's new job": a name's, or another person's,
    possessive in it), nor a sentence whose verb the tagger took for a noun after a person's name
    ("Sam banks with Nationwide": the names the speaker, ``mine``, and the others, ``others``, go
    by)."""
    if head.dep_ != "ROOT" or head.pos_ not in _VERBLESS:
        return False
    if any(c.dep_ in ("nsubj", "nsubjpass", "expl", "csubj") for c in head.children):
        return False
    if any(c.dep_ == "compound" and normalise_cue(c.text) in mine | others for c in head.children):
        return False
    return not any(t.dep_ == "poss" and t.lower_ not in ("my", "our") for t in head.subtree)


def _impersonal_subject(token: Any) -> bool:
    return any(
        c.dep_ == "expl" or (c.dep_ in ("nsubj", "nsubjpass") and c.lower_ in _IMPERSONAL)
        for c in token.children
    )


def _by_who(head: Any) -> bool:
    """A relative clause whose subject is "who" or "whom" (which stand for a person)."""
    return head.dep_ == "relcl" and any(
        c.dep_ in ("nsubj", "nsubjpass") and c.lower_ in ("who", "whom") for c in head.children
    )


def _antecedent(noun: Any, pronoun: Any) -> Any:
    """What a relative pronoun stands for: the noun its clause hangs from; for "who"/"whom",
    which stand for a person, the nearest name or pronoun above that noun through prepositions
    and appositions when the parse hangs the clause from a noun inside the person's description
    ("Karim, an old teammate from my first job, who's now at KPMG": Karim, not the job)."""
    if pronoun.lower_ not in ("who", "whom"):
        return noun
    node = noun
    for _ in range(8):
        if node.pos_ in ("PROPN", "PRON"):
            return node
        if node.dep_ not in ("pobj", "prep", "appos") or node.head is node:
            return noun
        node = node.head
    return noun


def _kind(subject: Any | None, mine: set[str], others: set[str]) -> tuple[SubjectKind, Literal["speaker", "other", ""]]:
    if subject is None:
        return "none", ""
    word = normalise_cue(subject.text)
    if word in _SELF or word in mine or _of_us(subject):
        return "speaker", ""
    owner: Literal["speaker", "other", ""] = ""
    for child in _determiners(subject):
        if child.dep_ == "poss":
            whose = normalise_cue(child.text)
            owner = "speaker" if whose in ("my", "our") or whose in mine else "other"
    if not owner and (word in _PEOPLE_PRONOUNS or (subject.pos_ == "PROPN" and word in others)):
        return "person", ""
    return "thing", owner  # "our dog Rex" is the speaker's, whatever the name


def _of_us(subject: Any) -> bool:
    """A part of a group the speaker is in ("most of us", "the rest of us", "a couple of us"):
    what it does, the speaker does with them; not "none of us", "neither of us"."""
    if subject.lower_ in ("none", "neither"):
        return False
    return any(
        c.dep_ == "prep" and c.lower_ == "of" and any(g.dep_ == "pobj" and g.lower_ in ("us", "we") for g in c.children)
        for c in subject.children
    )


def _definite(subject: Any) -> bool:
    """A pronoun, a name, a noun with a possessor or a definite determiner, or a singular noun
    without a determiner ("Book club moved to Sundays": spoken English drops the article; a kind
    is a bare plural or a mass noun: "pets are the best")."""
    if subject.pos_ in ("PRON", "PROPN"):
        return True
    if subject.tag_ == "NN" and not any(c.dep_ == "det" for c in _determiners(subject)):
        return True
    return any(
        c.dep_ == "poss" or (c.dep_ == "det" and c.lower_ in _DEFINITE) for c in _determiners(subject)
    )


def _determiners(noun: Any) -> list[Any]:
    """The dependants of a noun and of its compound modifiers ("Our team offsite": "Our" hangs
    from "team")."""
    found = list(noun.children)
    for child in noun.children:
        if _compound(child):
            found.extend(child.children)
    return found


def _compound(child: Any) -> bool:
    """A noun modifying a noun: a compound, or a noun the parse hangs as the subject of a noun
    ("Our team offsite is ...": "team" as the subject of "offsite")."""
    return child.dep_ == "compound" or (
        child.dep_ == "nsubj" and child.pos_ in ("NOUN", "PROPN") and child.head.pos_ in ("NOUN", "PROPN")
    )


def _possessor(noun: Any) -> str:
    """The name that owns a noun ("Tom's car": "tom", "Mrs Patel's class": "mrs patel"), else ""."""
    for child in _determiners(noun):
        if child.dep_ == "poss" and child.pos_ == "PROPN":
            parts = [c for c in child.children if _compound(c)] + [child]
            return normalise_cue(" ".join(t.text for t in sorted(parts, key=lambda t: t.i)))
    return ""


def _phrase(subject: Any) -> frozenset[str]:
    """The lemmas of a subject's head and its noun modifiers ("our dog Rex": dog, rex)."""
    words = [subject, *(c for c in subject.children if c.dep_ in ("amod", "appos", "nmod") or _compound(c))]
    return frozenset(w.lemma_.casefold() for w in words)


def _objects(head: Any, mine: set[str]) -> list[tuple[Any, list[str], bool]]:
    """Each direct object of ``head``, its possessors (normalised) and whether all of them are
    the speaker's own ("my", "our", their name)."""
    found = []
    for child in head.children:
        if child.dep_ == "dobj":
            owners = [normalise_cue(c.text) for c in child.children if c.dep_ == "poss"]
            found.append((child, owners, all(o in ("my", "our") or o in mine for o in owners)))
    return found


def _particular(noun: Any) -> bool:
    """A name, or a noun with a possessor or a definite determiner ("the wedding", "my lesson",
    "Octopus"); not one with an indefinite one ("a Tesla": any car of the make)."""
    determiners = _determiners(noun)
    if any(c.dep_ == "det" and c.lower_ in _INDEFINITE for c in determiners):
        return False
    return noun.pos_ == "PROPN" or any(
        c.dep_ == "poss" or (c.dep_ == "det" and c.lower_ in _DEFINITE) for c in determiners
    )


def _own_object(objects: list[tuple[Any, list[str], bool]]) -> frozenset[str]:
    """The words of the direct objects (:func:`_objects`) that are the speaker's or nobody's."""
    return frozenset(w for child, _, speakers in objects if speakers for w in _phrase(child))


def _acts_on_speaker(objects: list[tuple[Any, list[str], bool]], mine: set[str]) -> bool:
    """The direct object is the speaker or a thing of theirs by a possessive of their own ("my
    dose", "our rent", "Ravi's desk" in Ravi's words; not through someone else's: "my mum's
    dose"; not a person of theirs: "my colleague Tom", "my mate Dev")."""
    return any(
        normalise_cue(child.text) in _SELF or normalise_cue(child.text) in mine
        or (owners and speakers and not _a_person(child))
        for child, owners, speakers in objects
    )


def _a_person(noun: Any) -> bool:
    """A noun for a person, or one with a name beside it ("my colleague Tom")."""
    return noun.lemma_.casefold() in PEOPLE_NOUNS or noun.pos_ == "PROPN" or any(
        c.pos_ == "PROPN" and c.dep_ in ("appos", "compound", "npadvmod") for c in noun.children
    )


def _partners(subject: Any, mine: set[str]) -> list[Any]:
    """The other conjuncts of a subject that includes the speaker ("Emily and I"), else []."""
    conjuncts = [subject, *(c for c in subject.children if c.dep_ == "conj")]
    if len(conjuncts) < 2:
        return []
    speaker = [c for c in conjuncts if normalise_cue(c.text) in _SELF or normalise_cue(c.text) in mine]
    return [c for c in conjuncts if c not in speaker] if speaker else []


def _places(head: Any, mine: set[str]) -> tuple[tuple[tuple[str, frozenset[str]], ...], frozenset[str]]:
    """The value's content words by grammatical place, and its names and numbers (the speaker's
    own name is no value: "Caroline's voice" in Caroline's words is her voice)."""
    places: dict[str, set[str]] = {}
    named: set[str] = set()
    for child in _value_children(head):
        place = f"prep:{child.lower_}" if child.dep_ in ("prep", "agent") else child.dep_
        words = places.setdefault(place, set())
        for token in _subtree(child):
            found = _value_word(token, mine)
            if found is not None:
                words.add(found[0])
                if found[1]:
                    named.add(found[0])
    return tuple(sorted((p, frozenset(w)) for p, w in places.items() if w)), frozenset(named)


def _named_value(
    head: Any, places: tuple[tuple[str, frozenset[str]], ...], named: frozenset[str], mine: set[str]
) -> tuple[tuple[tuple[str, frozenset[str]], ...], frozenset[str]]:
    """A verbless sentence's noun phrase at its root as the value it names ("A blue Kia
    Picanto": what "I've got" would have as its object), beside the values hanging from it."""
    found = [
        word for token in head.subtree
        if head.i in (token.i, token.head.i, token.head.head.i) and token.dep_ not in ("prep", "pobj")
        and (word := _value_word(token, mine)) is not None
    ]
    if not found:
        return places, named
    words = frozenset(w for w, _ in found)
    return tuple(sorted((*places, ("attr", words)))), named | frozenset(w for w, proper in found if proper)


def _value_word(token: Any, mine: set[str]) -> tuple[str, bool] | None:
    """A content word of a value as it is kept (a name or number as written, else its lemma,
    case-folded) and whether it names something; None for other words and the speaker's name."""
    if not (token.pos_ in _CONTENT or token.like_num) or normalise_cue(token.text) in mine:
        return None
    proper = token.pos_ == "PROPN" or token.like_num
    return (token.text if proper else token.lemma_).casefold(), proper


def _own_value(head: Any, mine: set[str]) -> bool:
    """Each value of ``head`` is a noun phrase of the speaker's: "my swim membership", "my cat's
    jab" (a chain of possessives that ends with the speaker), "for my dog"; a time ("this week")
    is no value here."""
    values = [v for v in _value_children(head) if v.dep_ != "npadvmod"]
    nouns = [next((c for c in v.children if c.dep_ == "pobj"), None) if v.dep_ == "prep" else v for v in values]
    return bool(nouns) and all(n is not None and _owned(n, mine) for n in nouns)


def _owned(noun: Any, mine: set[str], depth: int = 0) -> bool:
    """``noun``'s possessor is the speaker, directly or through a few possessives."""
    for child in noun.children:
        if child.dep_ == "poss":
            whose = normalise_cue(child.text)
            if whose in ("my", "our") or whose in mine:
                return True
            return depth < 3 and _owned(child, mine, depth + 1)
    return False


def _value_children(head: Any) -> list[Any]:
    """The dependants of ``head`` in a value's place, and the prepositional phrases the parse
    hangs from an adverbial particle of the verb ("moved back to Lisbon", "went over to
    Berlin": "to" hangs from "back", "over")."""
    found = []
    for child in head.children:
        if child.dep_ in _VALUE_DEPS:
            found.append(child)
        elif child.dep_ in ("advmod", "prt") and child.pos_ in ("ADV", "ADP", "PART"):
            found.extend(c for c in child.children if c.dep_ == "prep")
    return found


def _subtree(token: Any) -> list[Any]:
    """``token`` and its dependants, without the clauses embedded in it (depth first, in order;
    a loop, not a recursion: a parse can be thousands of tokens deep)."""
    out: list[Any] = []
    stack = [token]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(reversed([
            child for child in node.children
            if not (child.dep_ in ("relcl", "advcl", "ccomp", "parataxis", "pcomp", "xcomp")
                    or (child.dep_ == "conj" and child.pos_ in ("VERB", "AUX")))
        ]))
    return out


def _asserted(head: Any, *, strict: bool = False, conceding: bool = True) -> bool:
    """Stated as a fact: no negation, no hypothetical modal, not a condition or its consequent,
    not subordinate, not conceded by a following "but". A coordinated clause without a subject
    of its own is also under its first conjunct's modal or condition ("I would move and buy a
    house"); a complement clause after its verb ("I don't think we'll move") under its mood.
    ``strict`` (the read path's :attr:`Clause.undone`): nor a verb of refusal with its object,
    nor an infinitive the parse hangs as a complement clause."""
    if _negated(head) or _near_miss(head) or _deliberated(head) or _hypothetical(head) or _conditional(head) or (
        conceding and _conceded(head)
    ):
        return False
    if strict and _refused(head):
        return False
    token, seen = head, 0
    while seen < 6:
        seen += 1
        # "we had to move it", "I managed to join the club", "I got round to moving my account"
        entailing = _entailing(token)
        if entailing is not None:
            if _negated(entailing) or _hypothetical(entailing) or _conditional(entailing):
                return False
            token = entailing
            continue
        if _after_heading(token):
            return True
        if _free_adjunct(token):  # "Got rid of the Panda, driving a Skoda now": as its head
            token = token.head
            if _hypothetical(token) or _conditional(token):
                return False
            continue
        # an infinitive is no assertion, whatever the parse calls it ("wants me to apply")
        infinitive = token.dep_ in (("xcomp", "ccomp") if strict else ("xcomp",)) and _infinitive(token)
        if token.dep_ in _SUBORDINATE or infinitive:
            return False
        shared = token.dep_ == "conj" and not any(c.dep_ in ("nsubj", "nsubjpass") for c in token.children)
        reported = token.dep_ == "ccomp" and token.i > token.head.i
        if not (shared or reported) or token.head is token:
            return True  # a clause before its "head" is a clause of its own ("X, it's not enough")
        token = token.head
        if _hypothetical(token) or _conditional(token) or (reported and (_negated(token) or _non_factual(token))):
            return False
    return True


def _irrealis(head: Any) -> bool:
    """:attr:`Clause.irrealis` of the clause, or of the clause whose subject and mood it shares
    (a coordinated clause without a subject of its own, an infinitive)."""
    token = head
    for _ in range(4):
        if _conditional(token) or _near_miss(token) or _refused(token) or _deliberated(token):
            return True
        shared = token.dep_ == "conj" and not any(c.dep_ in ("nsubj", "nsubjpass") for c in token.children)
        if not (shared or (token.dep_ == "xcomp" and _infinitive(token))) or token.head is token:
            return False
        token = token.head
    return False


def _refused_after(head: Any) -> bool:
    """X of "X but Y" when Y refuses X itself, by a pronoun ("They offered me the job, but I
    turned it down", "the club asked me to captain, but I declined it", "but I passed on it"): what X offers did not
    come to be, as a refusal's own object does not."""
    other = _but_clause(head)
    return other is not None and _refused(other) and any(
        (c.dep_ in ("dobj", "obj") and c.pos_ == "PRON")
        or (c.dep_ == "prep" and any(g.dep_ == "pobj" and g.pos_ == "PRON" for g in c.children))
        for c in other.children
    )


def _near_miss(token: Any) -> bool:
    """A verb of near miss ("I very nearly switched to British Gas", "we almost moved"): its
    event did not happen. Not "be" ("I'm nearly 40": the value is graded, not the event)."""
    return token.lemma_.casefold() != "be" and any(
        c.dep_ == "advmod" and c.lower_ in _NEAR_MISS for c in token.children
    )


def _deliberated(token: Any) -> bool:
    """A verb of deliberation with what it weighs (:data:`_DELIBERATIVE`): "I'm seriously
    considering veganism", "I'm thinking about law", "been weighing up Bristol"; not "I
    consider myself a runner" (an object with its complement: a judgement, not a choice)."""
    lemma = token.lemma_.casefold()
    if token.pos_ not in ("VERB", "AUX"):
        return False
    if lemma in _DELIBERATIVE:
        objects = [c for c in token.children if c.dep_ in ("dobj", "obj", "prep", "prt")]
        judged = any(c.dep_ in ("oprd", "ccomp", "xcomp") for c in token.children)
        return bool(objects) and not judged
    linked = {c.lower_ for c in token.children if c.dep_ in ("prt", "prep")}
    return any((lemma, word) in _DELIBERATIVE_WITH for word in linked)


def _non_factual(token: Any) -> bool:
    """A verb of wishing, dreaming or hoping (:data:`_NON_FACTUAL`): its complement clause is
    not asserted ("I wish I drove a Porsche", "I dream that I work at a bookshop")."""
    return token.pos_ in ("VERB", "AUX") and (
        token.lemma_.casefold() in _NON_FACTUAL or token.lower_ in NON_FACTUAL_FORMS
    )


def _continues(head: Any) -> bool:
    """The speaker says they go on with a value (:data:`_CONTINUATIVE`), as a fact or of their
    own future: "I'll stick with Vodafone", "we'll stay fortnightly", "I'm going to keep doing
    yoga"; not under a modal, a negation, a condition, a wish, a near miss, nor as the infinitive
    of another verb ("I try to keep red meat to weekends", "I want to stay with Three"); "staying"
    in the present progressive is lodging somewhere for a while ("I'm staying in Rome from
    Friday", "I'm staying with my aunt"), not going on."""
    lemma = head.lemma_.casefold()
    if head.pos_ not in ("VERB", "AUX") or not (lemma in _CONTINUATIVE or head.lower_ in _CONTINUATIVE_FORMS):
        return False
    if head.lower_.startswith("carr") and not any(c.dep_ == "prt" and c.lower_ == "on" for c in head.children):
        return False
    if head.lower_ == "staying" and _progressive(head):
        return False  # "I'm staying in Rome from Friday": lodging for a while, not going on
    if any(c.dep_ == "dobj" and c.tag_ in ("VBG", "NN") and c.lower_.endswith("ing") and not list(c.children)
           for c in head.children):
        return False  # "I keep meaning to try it": an "-ing" word the parse takes for the object is no value
    if _asserted(head):
        return True
    going = head.head
    return (
        head.dep_ == "xcomp" and _infinitive(head) and going.lower_ == "going" and going.tag_ == "VBG"
        and _asserted(going) and not _near_miss(head) and not _hypothetical(head)
    )


def _entailing(token: Any) -> Any | None:
    """The verb whose complement ``token`` is, when that verb entails it: a necessity in the
    past ("we had to move the wedding"), an implicative verb ("I managed to join the Highgate
    club", "I remembered to renew it", "I finally got to move": :func:`_got_to`), "get round to" with a gerund ("I finally got round to
    moving my account to Monzo")."""
    if token.dep_ == "xcomp" and _infinitive(token):
        verb = token.head
        lemma = verb.lemma_.casefold()
        if _past_necessity(verb) or (verb.pos_ == "VERB" and lemma in _IMPLICATIVES):
            return verb
        if verb.pos_ == "VERB" and lemma in _HABITUAL and verb.tag_ in ("VBP", "VBZ"):
            return verb
        if _got_to(verb):
            return verb
    if token.dep_ == "pcomp" and token.tag_ == "VBG" and token.head.lower_ == "to":
        particle = token.head.head
        verb = particle.head
        if particle.lower_ in ("round", "around") and particle is not verb and verb.lemma_.casefold() == "get":
            return verb
    return None


def _got_to(verb: Any) -> bool:
    """"get to" in the simple past, with no object of its own: the chance came and was taken ("I
    finally got to move into my own place"); not the obligation of "I've got to move out", nor
    "I got my brother to move it" (his doing)."""
    return (
        verb.pos_ == "VERB" and verb.lemma_.casefold() == "get" and verb.tag_ == "VBD"
        and not any(c.dep_ in ("aux", "dobj") for c in verb.children)
    )


def _given_through(head: Any, question: bool) -> bool:
    """An infinitive whose verb entails it (:func:`_entailing`) where that verb's clause is
    given: "considering I like to wake up at 7:30" takes the waking up as true."""
    verb = _entailing(head)
    return verb is not None and not _negated(verb) and _presupposed(verb, question)


def _free_adjunct(token: Any) -> bool:
    """A participle clause hung from its sentence without a word that subordinates it ("...,
    driving a Skoda Octavia now", "Been on 30mg since the review, feels better"): it asserts
    what it says, as its head does."""
    return (
        token.dep_ == "advcl" and token.tag_ in _PARTICIPLES and not _infinitive(token)
        and not any(c.dep_ == "mark" for c in token.children)
    ) or _juxtaposed(token)


def _juxtaposed(token: Any) -> bool:
    """A clause in the simple past with no subject and no word that subordinates it, set before
    the sentence's own clause ("Finally ditched Vodafone, I'm on Giffgaff these days"): a
    sentence of its own with the "I" left out, which the parse hangs from the next one."""
    return (
        token.dep_ == "advcl" and token.tag_ == "VBD" and token.i < token.head.i
        and not any(c.dep_ in ("mark", "nsubj", "nsubjpass", "expl", "csubj") for c in token.children)
    )


def _refused(head: Any) -> bool:
    """A verb of refusal with its object: the object is what the subject does not take ("I
    turned down the job at the bank", "we rejected the house"), a negation in the verb."""
    lemma = head.lemma_.casefold()
    particles = {c.lower_ for c in head.children if c.dep_ == "prt"}
    refusal = lemma in _REFUSALS or any((lemma, p) in _REFUSALS_WITH for p in particles)
    if refusal and any(c.dep_ in ("dobj", "obj") for c in head.children):
        return True
    # "I passed on the job", "we said no to the flat": the preposition's object is refused
    for prep in (c for c in head.children if c.dep_ == "prep" and any(g.dep_ == "pobj" for g in c.children)):
        for verb, word, besides in _REFUSALS_OF:
            if lemma == verb and prep.lower_ == word and (
                not besides or any(t.lower_ == besides for t in (*head.children, *prep.children))
            ):
                return True
    return False


def _reported(head: Any, mine: set[str]) -> bool:
    """A clause about the speaker that is the complement of someone else's verb of saying or
    thinking ("my mum thinks I should move", "Dad says I drive too fast"): their words about
    the speaker, not the speaker's statement. Read from the structure: a complement clause after
    its governing verb, whose subject is not the speaker."""
    token, seen = head, 0
    while seen < 6:
        seen += 1
        if token.dep_ == "conj" and not any(c.dep_ in ("nsubj", "nsubjpass") for c in token.children):
            token = token.head
            continue
        if token.dep_ != "ccomp" or token.head is token or token.i < token.head.i:
            return False  # a clause before its "head" is one of its own ("I moved, the boxes are ...")
        governor = token.head
        subjects = [c for c in governor.children if c.dep_ in ("nsubj", "nsubjpass")]
        if subjects:
            word = normalise_cue(subjects[0].text)
            return not (word in _SELF or word in mine or subjects[0].lower_ in _IMPERSONAL)
        token = governor
    return False


def _presupposed(head: Any, question: bool = False) -> bool:
    """A finite relative or adverbial clause in the indicative that the sentence takes as true
    ("the part where I now lead a team of five", "on days when I go to yoga", "Rachel, who
    works at Northwind"): with a subject and a finite verb of its own, neither negated nor
    under a modal, not a condition and not of bounded length; and no clause above it is
    hypothetical or a condition or a verb of wishing, dreaming or imagining (in any form the parse
    gives it: "At night I dream that I run a bakery in Paris"), nor — for an adverbial clause — in
    the future or an infinitive ("I'll buy a bike when I move", "planning to go when the weather
    turns").

    What a reason or comparison clause (:func:`_reason`: "since I'm on night shifts now, could
    you ...", "now that our rent went up", "like we do every week") or a relative clause set off by a comma ("my daughter Ada, who is in year six now")
    takes as true stays true whatever the sentence around it does: it is given also in a
    question and under a modal or a condition above it; the rest of a question is not."""
    if _after_event(head):  # "since moving to Chorlton": done, unless the sentence is ahead
        if _negated(head):
            return False
    else:
        reason = _reason(head)
        appositive = head.dep_ == "relcl" and _after_comma(head)
        if question and not (reason or appositive):
            return False
        if head.dep_ not in ("relcl", "advcl") and not reason:
            return False
        if not any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in head.children):
            return False
        auxiliaries = [c for c in head.children if c.dep_ in ("aux", "auxpass")]
        finite = auxiliaries[0] if auxiliaries else head
        if finite.tag_ not in _FINITE or any(a.tag_ == "MD" for a in auxiliaries):
            return False
        marks = {m.lower_ for m in head.children if m.dep_ == "mark"}
        if _negated(head) or marks & (_CONDITIONS | _BOUNDING_MARKS):
            return False
        if reason or appositive:
            return True
    adverbial = head.dep_ in ("advcl", "pcomp")
    token, seen = head.head, 0
    while seen < 8:
        seen += 1
        # under a verb of wishing, dreaming or imagining, whatever the parse calls the clause
        # ("At night I dream that I run a bakery": a relative of "dream"; "imagines" as a noun)
        if _hypothetical(token) or _conditional(token) or _non_factual(token) or token.lower_ in NON_FACTUAL_FORMS:
            return False
        if adverbial and (_infinitive(token) or _tense(token) == "future"):
            return False
        if token.head is token:
            return True
        token = token.head
    return True


def _after_event(head: Any) -> bool:
    """A gerund after "since" or "after" ("since moving to Chorlton", "after starting at the
    library"): the sentence takes its event as done."""
    return head.dep_ == "pcomp" and head.tag_ == "VBG" and head.head.lower_ in _AFTER_EVENT


def _reason(head: Any) -> bool:
    """A clause the sentence gives as true: its reason or a comparison, marked "since",
    "because", "as" (not "as soon as", "as long as") or "like"; the complement of "considering",
    "given" or "seeing" said without a subject of their own ("..., considering I start at 8
    now"); or "now that" ("now that our rent went up": the parse hangs it from "now", or hangs
    "now" and the clause from the same verb, or "now" from the clause; "now" right before the
    clause's "that")."""
    if head.dep_ not in ("advcl", "ccomp", "pcomp"):
        return False
    marks = [m for m in head.children if m.dep_ == "mark"]
    for mark in marks:
        if mark.lower_ == "as" and mark.i > 0 and head.doc[mark.i - 1].lower_ in _AS_BOUNDS:
            return False  # "as soon as I move": a time to come
    words = {m.lower_ for m in marks}
    found = words & _REASON_MARKS
    if found & {"since", "because"} and head.dep_ != "pcomp":
        return True
    seems = head.head.lemma_.casefold() in _SEEMING or bool(words & {"if", "though"})
    if found and head.dep_ == "advcl" and not seems:
        return True
    governor = head.head
    if (
        governor.lower_ in _GIVEN_PARTICIPLES
        and governor.tag_ in ("VBG", "VBN")
        and not any(c.dep_ in ("nsubj", "nsubjpass") for c in governor.children)
    ):
        return True  # "..., considering I start at 8": not "I was considering it"
    if head.dep_ == "pcomp":
        return False
    that = next((m for m in marks if m.lower_ == "that"), None)
    if that is None:
        return False
    first = head.left_edge.i
    before = head.doc[first - 1].lower_ if first > 0 else ""
    right_before = head.doc[that.i - 1].lower_ if that.i > 0 else ""
    return head.head.lower_ == "now" or "now" in (before, right_before)


def _after_comma(head: Any) -> bool:
    """A clause set off by a comma before its first word ("Ada, who is in year six")."""
    first = head.left_edge.i
    return first > 0 and head.doc[first - 1].text == ","


def _after_heading(token: Any) -> bool:
    """"Big news: Maya moved to Bristol": a clause with its own subject that the parse hangs
    from a verbless sentence root ("news")."""
    root = token.head
    return (
        token.dep_ == "acl" and root.dep_ == "ROOT" and root.pos_ in ("NOUN", "PROPN", "ADJ")
        and any(c.dep_ in ("nsubj", "nsubjpass") for c in token.children)
    )


def _past_necessity(token: Any) -> bool:
    """"had to": the verb "have" in the past tense, or in the perfect with no modal ("we've had
    to move the wedding", "they had had to cancel"; not "we would have had to"), with an
    infinitive complement: a necessity told as done is done (the perfective entails it)."""
    if token.lemma_.casefold() != "have" or token.pos_ != "VERB":
        return False
    if token.tag_ == "VBD":
        return True
    auxiliaries = [c for c in token.children if c.dep_ == "aux"]
    return (
        token.tag_ == "VBN" and any(a.lemma_.casefold() == "have" for a in auxiliaries)
        and not any(a.tag_ == "MD" for a in auxiliaries)
    )


def _bounded(head: Any) -> bool:
    """Of bounded length (see the module doc)."""
    for child in head.children:
        marks = child.dep_ == "advcl" and any(
            m.dep_ == "mark" and m.lower_ in _BOUNDING_MARKS for m in child.children
        )
        if marks and _done_during(head, child):
            continue
        if marks or (child.dep_ == "prep" and child.lower_ in ("until", "till")):
            return True
    auxiliaries = [c for c in head.children if c.dep_ in ("aux", "auxpass")]
    if any(c.dep_ == "aux" and c.lemma_.casefold() == "have" for c in auxiliaries):
        return False  # the perfect: up to now
    if head.tag_ == "VBN" and not auxiliaries and _drops_i(head):
        return False  # "Been vegetarian for ten years now": the perfect with "I've" left out
    if _spends(head):
        return True
    return any(
        token.dep_ == "prep" and token.lower_ == "for"
        and any(p.dep_ == "pobj" and p.lemma_.casefold() in DURATION_UNITS for p in token.children)
        for token in _subtree(head)
    )


def _done_during(head: Any, bound: Any) -> bool:
    """A change done while something went on, both in the past: "while I was at it I moved the
    number across to Vodafone", "while the reorganisation was going on they transferred me to
    Leeds": the clause moves something to a place (a goal: "to", "into", "onto") in the simple
    past, and the "while" clause names a time that is over. The move is done and its result
    holds on; "while" bounds a state ("I lived in Leeds while I was at uni"), or a change while
    something still goes on ("I've moved in with my parents while the house is rewired"), not a
    finished change."""
    if not any(m.dep_ == "mark" and m.lower_ == "while" for m in bound.children):
        return False
    if _tense(head) != "past" or _tense(bound) != "past" or _progressive(head):
        return False
    return any(
        child.dep_ == "prep" and child.lower_ in GOAL_PREPOSITIONS
        for token in (head, *(c for c in head.children if c.dep_ in ("prt", "advmod", "prep")))
        for child in token.children
    )


def _further(head: Any) -> bool:
    """A length of time marked as going on beyond now ("for another year", "for two more
    years", "for a bit longer"): how long what already holds goes on, not a stay."""
    return any(
        token.dep_ == "prep" and token.lower_ == "for"
        and any(t.lower_ in _FURTHER and _further_on(t) for t in token.subtree)
        for token in head.children
    )


def _further_on(word: Any) -> bool:
    """Not a comparison of lengths ("for more than a week", "for longer than two weeks": a stay
    of some length, not one going on beyond now)."""
    follows = word.doc[word.i + 1] if word.i + 1 < len(word.doc) else None
    return follows is None or follows.lower_ != "than"


def _was_at(head: Any) -> bool:
    """"I was in Seville last month", "we were at my parents' over Easter": the verb "be" in
    the past tense, its value a place ("in" or "at" a phrase), no complement of its own. Read
    for a person's clause only: a person's whereabouts, not a thing's place ("the wedding was
    in Bath")."""
    if head.lemma_.casefold() != "be" or _tense(head) != "past":
        return False
    if any(c.dep_ in ("attr", "acomp", "xcomp", "ccomp") for c in head.children):
        return False
    return any(c.dep_ == "prep" and c.lower_ in ("in", "at") and any(p.dep_ == "pobj" for p in c.children)
               for c in head.children)


def _spends(head: Any) -> bool:
    """A counted length of time as the object ("spent a lovely weekend in Galway", "had three
    days in Rome"): the clause's event lasts that long; not a rate ("six hours a night", "40
    hours a week") nor a measure of something ("eight hours of sleep")."""
    for child in head.children:
        if child.dep_ != "dobj" or child.lemma_.casefold() not in DURATION_UNITS:
            continue
        counted = any(d.dep_ == "nummod" or (d.dep_ == "det" and d.lower_ in ("a", "an")) for d in child.children)
        bare = all(d.dep_ in ("det", "nummod", "amod", "quantmod", "advmod", "compound") for d in child.children)
        rate = any(c.dep_ == "npadvmod" and c.lemma_.casefold() in DURATION_UNITS for c in head.children)
        if counted and bare and not rate:
            return True
    return False


def _progressive(head: Any) -> bool:
    """The present progressive: a present participle with a present form of "be" ("I'm
    flying", "we are moving")."""
    return head.tag_ == "VBG" and any(
        c.dep_ == "aux" and c.lemma_.casefold() == "be" and c.tag_ in ("VBZ", "VBP") for c in head.children
    )


def _negated(token: Any) -> bool:
    return any(c.dep_ == "neg" for c in token.children)


def _hypothetical(token: Any) -> bool:
    """Under a modal ("I might move"), a modal adverb ("Perhaps I'm living in Paris by 2030", "In
    ten years I probably live in Paris": :data:`_EPISTEMIC`), or set in a dream ("I had a bacon
    sandwich in a dream last night"): what the clause says is not told as so."""
    return any(
        (c.dep_ == "aux" and c.tag_ == "MD" and c.lemma_.casefold() not in _FACTUAL_MODALS)
        or (c.dep_ == "advmod" and c.lower_ in _EPISTEMIC)
        or _in_a_dream(c) or (c.dep_ == "dobj" and any(_in_a_dream(d) for d in c.children))
        for c in token.children
    )


def _in_a_dream(prep: Any) -> bool:
    """"in a dream", "in my dreams" (the parse may hang it from the verb or from its object)."""
    return prep.dep_ == "prep" and prep.lower_ == "in" and any(
        o.dep_ == "pobj" and o.lemma_.casefold() in _DREAMS for o in prep.children
    )


#: the modal adverbs of English, a closed class: a clause they modify is a guess, not a fact
_EPISTEMIC = frozenset({"perhaps", "maybe", "probably", "possibly", "presumably", "conceivably"})
#: where what a clause tells did not happen ("in a dream", "in my dreams")
_DREAMS = frozenset({"dream", "nightmare", "daydream", "fantasy", "imagination"})


def _conditional(token: Any) -> bool:
    """A condition ("if we moved") or the clause it conditions ("..., I'd want a garden")."""
    if any(c.dep_ == "mark" and c.lower_ in _CONDITIONS for c in token.children):
        return True
    return any(
        c.dep_ == "advcl" and any(m.dep_ == "mark" and m.lower_ in _CONDITIONS for m in c.children)
        for c in token.children
    )


def _conceded(token: Any) -> bool:
    """"X but Y": X is conceded (its head has a "but" and a coordinated clause)."""
    return _but_clause(token) is not None


def _but_clause(token: Any) -> Any | None:
    """Y of "X but Y" when ``token`` heads X."""
    children = list(token.children)
    if not any(c.dep_ == "cc" and c.lower_ in ("but", "yet") for c in children):
        return None
    return next((c for c in children if c.dep_ == "conj" and c.pos_ in ("VERB", "AUX")), None)


def _contrasted(head: Any, mine: set[str]) -> bool:
    """X of "X but Y" when Y says something of another subject ("We moved to Leeds in May, but
    my brother stayed in York", "I went onto nights, but the pay is better"): the "but" sets
    two subjects side by side, and X is stated as it would be alone. A concession is the other
    "but", where Y goes on about X's subject or X itself ("I test drove a Volvo but kept the
    Mini", "we looked at a house in Leeds, but we're staying in York", "I applied there, but
    it fell through"): Y without a subject of its own, with X's, or with a pronoun or "there"
    that can stand for X's subject or for X; or with the speaker's name, which a restatement
    writes for their "I" ("Google offered Ike a job, but Ike turned it down": "but I turned it
    down")."""
    other = _but_clause(head)
    if other is None:
        return False
    theirs = [c for c in other.children if c.dep_ in ("nsubj", "nsubjpass", "expl", "csubj")]
    if not theirs or theirs[0].pos_ == "PRON" or theirs[0].dep_ in ("expl", "csubj"):
        return False
    if normalise_cue(theirs[0].text) in mine:
        return False  # the speaker's "I", restated by name
    subject = _subject(head)
    if subject is not None and _phrase(subject) & _phrase(theirs[0]):
        return False  # "Maya test drove a Volvo, but Maya kept the Mini" (as a restatement says it)
    return _asserted(head, conceding=False)


def _tense(head: Any) -> Tense:
    auxiliaries = [c for c in head.children if c.dep_ in ("aux", "auxpass")]
    if any(a.lemma_.casefold() in _FACTUAL_MODALS for a in auxiliaries):
        return "future"
    finite = auxiliaries[0] if auxiliaries else head
    if finite.tag_ == "VBD" or (not auxiliaries and head.tag_ == "VBD"):
        return "past"
    return "present"
