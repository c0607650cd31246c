"""The supersession stage: the holder's latest answer first, what they did not assert below it.

It runs after the final ranking and only reorders units that answer the question. A unit's
*relevance* to the question is the cosine of its vector with the question's vector **without
the holder's name** (centred on the namespace like the dense view's query): every memory of a
person names them, and a ranking that reads the name favours short chit-chat naming them over
the memory that answers. The units that *answer* are those of the first :data:`LEAD` of the
ranking (with the further pieces of their source turns, which the ranking spread lower) within :data:`MARGIN` of the most relevant one that is not a question nor words the
ranking lowered as not the asked person's (an assistant's advice in the question's own words,
a partner's reply: they may answer, but set no bar), never a shared
image's caption (an image captioner's description, not its speaker's words); a question
answers only when its clauses are read (step 2), where only what it takes as given states a
value ("Can you recommend toys for my dog, who is three now?"). So does, for step 2, a unit of
the lead said after an answering unit that names one of its values, whatever its relevance: a
change told by naming the old value (:func:`naming_old_values`); one said after an answering
unit with a clause about a thing of its speaker's that the question names, which names a value: a
change told as what someone did to the thing ("she put our rent up to 975",
:func:`naming_the_thing`); for a question that counts
a thing ("How many bird species has Gus seen?"), one said after an answering unit where both give
that thing a number they assert or take as given: a new count told in other words
(:func:`counting_anew`); and one said after an answering unit that speaks of the same thing (each
among the other's nearest units of the lead, and more alike than the namespace's average pair)
and names a value it does not: a change told in
words of its own (:func:`saying_alike`; for a yes-or-no question, one said before it too); and
one that replies to an answering question of the other speaker in the turn right after it
(:func:`answering_the_asked`): its first words, a yes or a reply with no verb, are read with that
question (:func:`_with_questions`), as a short reply kept with its question is.

What the question asks for is read from its words:

* an **earlier value** ("before", "used to", "originally", "at first", "initially",
  "previously", "earlier", "first") unless it also says "now", "currently", "these days", ...;
  with a parse, only such a word that sets the question's own time counts (not one inside an
  apposition, a relative or noun clause, or the "than" of a comparison: :func:`_sets_time`);
* a **time of its own** that is not now ("in August 2023", "last summer": a time span that
  ended before the question; "next month", "in June": one that begins after it) or a question about a past event ("When did Caroline go to the support
  group?", "What was the dog called?": the main clause in the past tense, no present word)
  keeps the ranking — but for a yes-or-no question about a past event ("Did I switch to
  Octopus?", "Did Maya move to Bristol?") what the holder did not assert (a plan, a stay, a
  wish, someone else's change) goes below their statement that answers (step 2, no value
  ordered); so does a question for what someone has done over time ("Which cities has Jon
  visited?", "What has Melanie painted?": a question word, then a main clause in the present
  perfect, :func:`_experience`), whose every value answers;
* otherwise the **present** — also "How many sessions did I attend?": a count grows to the
  latest.

Then, in this order:

1. a chain of ``supersedes`` edges (written by :mod:`ripplemem.write.supersede`, an LLM's verdict
   or :meth:`Memory.update`) with a member among the answering units: for the present its
   latest unit takes the place of its best-ranked older member (pulled in along the edges when
   the ranking did not find it) and passes the units less relevant than the chain's best, when
   the chain is about the holder; for an earlier value the unit a found unit replaced is pulled
   in (or moved up) right after it. A chain is ordered by its edges (a unit after the units it
   supersedes: :func:`~ripplemem.records.chain_order`), never by when its units were said, and
   after step 2 (which orders by when each was said) the members of a chain it read take their
   places in chain order (:func:`_chains_in_order`);
2. the answering units' readings (:mod:`ripplemem.read.latest_first`): the clause of each that
   fits the question best (the cosine of its own words with the question's, both without the
   names of the people it asks about) says whether the holder asserts the answer (``stated``)
   or not (an ``aside``: someone else's words or change, a hypothetical, plan, wish, refusal,
   denial, a stay of bounded length). Of the stated units that answer the same thing (their
   clauses within :data:`~ripplemem.read.latest_first.SAME` of the best fit) the latest said
   leads (the earliest, for an earlier value); the asides above it go right below it. The
   holder is the person the question names (a name as the subject of its main clause even
   when it says "my": :func:`question_subject`; a name elsewhere in it when its "my" only
   describes that person: "the team led by my former manager Rachel", :func:`asks_the_asker`),
   or a relative it names by their relation and no name ("Where does Ines's mother live?":
   :func:`question_relation`; their memories are what the one they belong to says of them),
   or else — a question in the first person ("How often do I see Dr. Smith?") or naming
   nobody — the speaker the answering units say most about. For a question that counts a
   thing, two statements that give it different numbers answer the same thing ("40 species" /
   "which brings my tally to 41 species"). When the question's words say what kind of value it
   asks for — a frequency ("how often"), a number of the thing counted — a unit that states
   such a value and gives none in an aside is read by those statements (:func:`value_kind`).

Every moved unit gets the score of its place (:func:`~ripplemem.read.rank.rescore`, term
``supersession``), the budget is kept (a unit pulled in pushes the last one out), and the trace
notes the moves. The marks of what a later unit replaced (``superseded_by`` / ``valid_until``)
are the store's, put on every recipe's evidence after it (:mod:`ripplemem.read.superseded`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

import numpy as np

from ripplemem.read.adjacency import SENTENCE_END, only_asks
from ripplemem.read.focus import NOT_THE_USER
from ripplemem.read.latest_first import (
    NEAREST,
    Fit,
    Holder,
    Reading,
    as_told,
    corrections,
    given,
    holder_of,
    named_before,
    order,
    readings,
    speaks_of,
    states,
    takes_back,
)
from ripplemem.read.other_languages import asks_in, latest_alike_first
from ripplemem.read.rank import rescore
from ripplemem.read.speaker import ASKER_TERM, SPEAKER_TERM
from ripplemem.records import (
    Cues,
    Evidence,
    ExpansionPath,
    Hit,
    MemoryUnit,
    chain_order,
    normalise_cue,
    said_order,
    shares_a_photo,
)
from ripplemem.statements import Clause, Parse, StatementReader, counts, frequency, same_place
from ripplemem.statements.answers import affirms
from ripplemem.statements.clauses import DURATION_UNITS, kin, person_noun
from ripplemem.statements.reader import speaker_parts
from ripplemem.stores.base import MemoryStore, supersedes_of

#: the question asks for the value before a change
_EARLIER_VALUE = re.compile(
    r"\b(?:before|used to|did\b[^?]*\buse to|originally|original|previous(?:ly)?|formerly|at first|initially|"
    r"earlier|prior|first)\b",
    re.IGNORECASE,
)
#: a question in the simple past asks about an event ("When did she go?", "What was it called?")
_PAST_EVENT = re.compile(r"\b(?:did|was|were|had)\b", re.IGNORECASE)
#: ... read without a parse when the question opens with its past auxiliary, after a question
#: word or none ("When did she go?", "Did he ever call?"): the main clause's own auxiliary
_OPENS_PAST = re.compile(
    r"^\W*(?:(?:when|where|why|what|who|whom|whose|which|how)\s+)?(?:did|was|were|had)\b",
    re.IGNORECASE,
)
#: ... unless it counts: a count grows to the latest ("How many sessions did I attend?"); a
#: count of units of time is a length of time between dates ("How many days ago did I watch
#: the final?", "How many weeks did it take me?"), not a count that grows
_TIME_UNITS = "|".join(sorted(DURATION_UNITS | {"second", "time"}))
_COUNT = re.compile(
    rf"\bhow (?:many|much)\b(?!\s+(?:more\s+|fewer\s+)?(?:{_TIME_UNITS})s?\b)", re.IGNORECASE
)
#: a yes-or-no question in the simple past ("Did I switch to Octopus?", "Was Tom at the party?")
_POLAR_PAST = re.compile(r"^\W*(?:did|was|were|had)\b", re.IGNORECASE)
#: a yes/no question ("Does Rhea go to PureGym?", "Is Lena still vegetarian?")
_POLAR = re.compile(r"^\W*(?:do|does|did|is|are|am|was|were|has|have|had)\b", re.IGNORECASE)
#: a question that asks for a frequency
_HOW_OFTEN = re.compile(r"\bhow (?:often|frequently)\b", re.IGNORECASE)
_PRESENT = re.compile(
    r"\b(?:now|currently|current|these days|nowadays|at the moment|today|still|latest|"
    r"(?:most )?recent(?:ly)?|so far|any ?more)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
#: a question word that asks for a noun's value ("which gym", "what books")
_WH_DETERMINERS = frozenset({"what", "which", "whose"})
#: a question that opens with its question word
_WH = re.compile(r"^\W*(?:what|which|where|who|whom|whose|how)\b", re.IGNORECASE)
_NAME = re.compile(r"\b[A-Z][a-z'’-]+\b")
_FIRST_PERSON = frozenset({"i", "me", "my", "mine", "we", "us", "our", "ours"})
#: the places in a question's parse where a word describes something else than its time
_ELSEWHERE = frozenset({"appos", "relcl", "acl"})
#: a question's time span that ended this long before the question, or begins this long after it, is a time of its own
_PAST_MARGIN = timedelta(days=1)
_CHAIN_DEPTH = 4
#: only units among the first LEAD of the ranking answer the question (and only they move)
LEAD = 10
#: the units that answer: those of the lead that are not questions, whose relevance is at least
#: the best one's less MARGIN (a cosine difference)
MARGIN = 0.25

Relevance = Callable[[Sequence[MemoryUnit]], list[float]]
Mode = str  # "present", "earlier" or "past" (a time of its own that is not now: before the question or ahead)


def last_question(query: str) -> str:
    asked = [q for q in re.split(r"(?<=\?)\s+", query.strip()) if q.strip()] or [query]
    return asked[-1]


def _sets_time(token: Any) -> bool:
    """Whether a word of the question sets the question's own time: no word above it in the
    parse is an apposition, a relative or noun clause ("Lena, my friend from my first school")
    or the "than" clause of a comparison ("more often than I did previously")."""
    node = token
    for _ in range(12):
        if node.dep_ in _ELSEWHERE or any(c.dep_ == "mark" and c.lower_ == "than" for c in node.children):
            return False
        if node.head is node:
            return True
        node = node.head
    return True


def _earlier_word(last: str, parse: Parse | None) -> re.Match[str] | None:
    """The first earlier-value word of the question that sets its own time (each one, without
    a parse)."""
    found = list(_EARLIER_VALUE.finditer(last))
    if not found or parse is None:
        return found[0] if found else None
    (doc,) = parse([last])
    for match in found:
        token = next((t for t in doc if t.idx <= match.start() < t.idx + max(len(t.text), 1)), None)
        if token is None or _sets_time(token):
            return match
    return None


def _says_when(word: re.Match[str]) -> tuple[int, int]:
    """Where an earlier-value word says when: all of it, but for the habitual past of a question
    ("How did Maya use to get to work?") its "use to" alone: "did" is the question's own
    auxiliary, and "Maya" its subject ("How did Maya get to work?" is read, not "How get to
    work?")."""
    found = re.search(r"\buse to\b", word.group(), re.IGNORECASE)
    if found is None or found.start() == 0:
        return word.span()
    return word.start() + found.start(), word.start() + found.end()


def _in_the_past(last: str, parse: Parse | None) -> bool:
    """The question's main clause is in the past tense (its first auxiliary's, or its verb's,
    ``Tense=Past``: "When did she go?", "What was it called?"; not "Do I go more often than I
    did?"); without a parse, any of "did", "was", "were", "had". A question that opens with its
    past auxiliary (:data:`_OPENS_PAST`) is not parsed: on the dev questions the parse agrees
    with it except where it misreads the question (two of LoCoMo dev's 1,353, e.g. "What did
    John do that put a strain on his wallet?")."""
    if _OPENS_PAST.match(last):
        return True
    if parse is None:
        return bool(_PAST_EVENT.search(last))
    (doc,) = parse([last])
    for sentence in doc.sents:
        root = sentence.root
        auxiliaries = [c for c in root.children if c.dep_ in ("aux", "auxpass")]
        finite = auxiliaries[0] if auxiliaries else root
        if "Past" in finite.morph.get("Tense"):
            return True
    return False


def _experience(last: str, parse: Parse | None) -> bool:
    """A question for what someone has done over time: a question word, then a main clause in
    the present perfect ("What has Melanie painted?", "Which cities has Jon visited?", "Where
    has Melanie camped?"). It asks for every value up to now, each an answer of its own, so no
    later one replaces an earlier one. Read only with a parse; a yes-or-no question ("Has Sunil
    gone back to Netflix?"), a perfect in a clause below the main one ("What's the highest
    grade Marco has passed?") or a question for one thing, its noun in the singular ("Which gym
    has Sam joined?": the one that holds now), is not one."""
    if parse is None or not _WH.match(last):
        return False
    (doc,) = parse([last])
    for sentence in doc.sents:
        asked = next((t.head for t in sentence if t.dep_ == "det" and t.lower_ in _WH_DETERMINERS), None)
        if asked is not None and asked.tag_ in ("NN", "NNP"):
            return False  # "Which gym has Sam joined?": one value, the one that holds now
        root = sentence.root
        if root.tag_ != "VBN":
            continue
        auxiliaries = [c for c in root.children if c.dep_ == "aux"]
        if auxiliaries and auxiliaries[0].lemma_ == "have" and "Pres" in auxiliaries[0].morph.get("Tense"):
            return True
    return False


def question_subject(query: str, parse: Parse) -> str | None:
    """The person the question's main clause is about, when it names them ("Where does Priya,
    my sister, work now?", "What company is Tomasz working at?"): a name as the subject (or the
    complement of "is") of its root, or the name in apposition to a subject that says how the
    person is related to someone ("Where does Arjun's brother Vikram live?": Vikram, not Arjun);
    None for "I", a thing, a relation without a name or no name. A name that "is" equates with
    someone's relative or thing ("Is Tariq's dentist Dr Moss?", "Is Maya's supplier Octopus?")
    is the value asked about: the question is about whose they are (Tariq, Maya; None for "Is
    my dentist Dr Moss?", the asker's)."""
    (doc,) = parse([last_question(query)])
    for sentence in doc.sents:
        if (owner := _equated_owner(sentence.root)) is not None:
            return normalise_cue(owner.text) if owner.pos_ == "PROPN" else None
        for child in sentence.root.children:
            if child.dep_ not in ("nsubj", "nsubjpass", "attr"):
                continue
            if child.pos_ == "PROPN":
                return normalise_cue(child.text)
            named = [c for c in child.children if c.dep_ == "appos" and c.pos_ == "PROPN"]
            if named:
                return normalise_cue(named[0].text)
    return None


def _equated_owner(root: Any) -> Any | None:
    """The possessor (a name, or "my") when a copula root equates a name with someone's
    relative or thing ("Is Tariq's dentist Dr Moss?": Tariq), else None. Without a complement of
    "is", the parse hangs the name on the subject (in apposition, or as its head with the rest
    as compounds: "Maya's energy supplier Octopus"); a question "Is <noun phrase>?" asks
    nothing, so the name is what "is" equates."""
    if root.lemma_ != "be":
        return None
    sides = [c for c in root.children if c.dep_ in ("nsubj", "attr")]
    complement = any(c.dep_ in ("attr", "acomp", "oprd") for c in root.children)
    for side in sides:
        owner = next((c for c in side.children if c.dep_ == "poss"), None)
        if owner is None:
            continue
        named = side.pos_ == "PROPN" or any(c.dep_ == "appos" and c.pos_ == "PROPN" for c in side.children)
        if (complement and any(c is not side and c.pos_ == "PROPN" for c in sides)) or (not complement and named):
            return owner
    return None


def question_relation(query: str, parse: Parse) -> tuple[str, str] | None:
    """The relative the question's main clause is about when it names them by their relation to
    someone, not by a name: a person noun with a possessor as the subject (or the complement of
    "is") of its root, and whose relative: ("mother", "ines") for "Where does Ines's mother
    live?", ("grandfather", "") for "Which care home is my grandad in?" (the asker's;
    :func:`~ripplemem.statements.clauses.kin`); None when a name
    stands beside it ("Arjun's brother Vikram": :func:`question_subject`), for a thing ("Ines's
    job"), a person noun nobody's ("the coach"), or who the relative is ("Who is Kevin's
    partner?", "Is Kevin's dentist Dr Moss?": a fact of Kevin's)."""
    (doc,) = parse([last_question(query)])
    for sentence in doc.sents:
        root = sentence.root
        if root.lemma_ == "be" and any(c.lower_ in ("who", "whom") for c in root.children):
            return None  # "Who is Kevin's partner?": who the relative is, a fact of Kevin's
        for child in root.children:
            if child.dep_ not in ("nsubj", "nsubjpass", "attr") or child.pos_ not in ("NOUN", "PROPN"):
                continue
            word = child.lemma_.casefold()
            if not person_noun(word) and not person_noun(child.lower_):
                continue  # "Amira's Nan": the parse may take the kinship word for a name
            if any(c.pos_ == "PROPN" and c.dep_ in ("appos", "compound") for c in child.children):
                return None  # "Arjun's brother Vikram": about Vikram
            if _equated_owner(root) is not None:
                return None  # "Is Kevin's dentist Dr Moss?": who the relative is, as for "Who is"
            owner = next((c for c in child.children if c.dep_ == "poss"), None)
            if owner is not None:
                whose = normalise_cue(owner.text) if owner.pos_ == "PROPN" else ""
                return kin(word if person_noun(word) else child.lower_), whose
    return None


def asks_the_asker(query: str, parse: Parse | None) -> bool:
    """The question is in the first person: it says "I", "me", "my", "we", ... other than as
    the possessor in the description of someone it names ("the team led by my former manager
    Rachel", "my sister Priya's job": about Rachel, Priya; "What did I buy for my sister
    Priya?": about the one who asks)."""
    if parse is None:
        return bool(question_words(query, None) & _FIRST_PERSON)
    (doc,) = parse([last_question(query)])
    return any(t.lower_ in _FIRST_PERSON and not _describes_a_name(t) for t in doc)


def _describes_a_name(token: Any) -> bool:
    """A possessive that belongs to the description of a named person ("my" of "my former
    manager Rachel", of "my sister Priya's job"): its noun is a name or has one in apposition."""
    if token.dep_ != "poss":
        return False
    noun = token.head
    return noun.pos_ == "PROPN" or any(
        c.pos_ == "PROPN" and c.dep_ in ("appos", "compound") for c in noun.children
    )


def counted(query: str, parse: Parse | None) -> str | None:
    """The thing a question counts: the lemma of the noun of its "how many" ("How many bird
    species has Gus seen?": "specie", as the parse lemmatises it); None without one or a parse."""
    if parse is None or not _COUNT.search(last_question(query)):
        return None
    (doc,) = parse([last_question(query)])
    for token in doc:
        if token.lower_ == "many" and token.i > 0 and doc[token.i - 1].lower_ == "how":
            noun = token.head
            if noun.i != token.i and noun.pos_ in ("NOUN", "PROPN"):
                return str(noun.lemma_).casefold()
    return None


def value_kind(query: str, counted: str | None) -> Callable[[Clause], bool] | None:
    """Whether a clause gives a value of the kind the question asks for, when its words say
    which: a frequency for "how often" (:func:`~ripplemem.statements.frequency`), a number of
    the thing a "how many" counts (:func:`counted`); None for any other question."""
    if _HOW_OFTEN.search(last_question(query)):
        return frequency
    if counted is not None:
        return lambda clause: bool(counts(clause, counted))
    return None


def asks_for(
    query: str, cues: Cues | None, reference_time: datetime | None, *, parse: Parse | None = None
) -> Mode:
    """What the question asks for (see the module doc). Of several questions the last one
    counts, and of a present and an earlier-value word in it the first ("What was my previous
    status before I got the current one?": an earlier value); with ``parse``, an earlier-value
    word counts only where it sets the question's own time (:func:`_sets_time`)."""
    last = last_question(query)
    present = _PRESENT.search(last)
    earlier = _earlier_word(last, parse)
    span = cues.time_span if cues is not None else None
    now = reference_time or datetime.now(span.end.tzinfo if span and span.end else None)
    if not present and span is not None and span.end is not None and (
        span.end < now - _PAST_MARGIN or span.start > now + _PAST_MARGIN
    ):
        return "past"  # a time of its own, before the question or ahead of it ("next month")
    if earlier and (not present or earlier.start() < present.start()):
        return "earlier"
    if not present and not _COUNT.search(last) and _in_the_past(last, parse):
        return "past"  # "When did Caroline go to the support group?": an event, not a state
    if not present and not _COUNT.search(last) and _experience(last, parse):
        return "past"  # "What has Melanie painted?": every value answers, none replaces one
    return "present"


def question_words(query: str, cues: Cues | None) -> frozenset[str]:
    """The question's words but the names of the people it asks about, case-folded, with a
    plural's singular."""
    names = _asked_names(cues)
    words: set[str] = set()
    for raw in _WORD.findall(query):
        word = raw.casefold().replace("’", "'").removesuffix("'s")
        for part in {word, *word.split("-")}:
            if part and part not in names:
                words.add(part)
                if len(part) > 3 and part.endswith("s"):
                    words.add(part[:-1])
    return frozenset(words)


def lemmas(query: str, parse: Parse, cues: Cues | None) -> frozenset[str]:
    """The lemmas of the (last) question's inflected nouns but the names of the people it asks
    about, case-folded: an irregular plural's singular ("children", "women", "wives")."""
    (doc,) = parse([last_question(query)])
    found = {t.lemma_.casefold() for t in doc if t.pos_ == "NOUN" and t.lemma_.casefold() != t.lower_}
    return frozenset(found - _asked_names(cues))


def _asked_names(cues: Cues | None) -> set[str]:
    """The words of the names of the people the question asks about, case-folded."""
    return {part for p in (cues.participants if cues else ()) for part in normalise_cue(p).split()}


def _name_in(query: str) -> str | None:
    """A name the question gives that no memory's participants know ("Where does Ingrid live?"
    when only Alex speaks of his cousin Ingrid): its first capitalised word after the first."""
    found = _NAME.findall(query)[1:]
    return normalise_cue(found[0]) if found else None


def later_value(query: str, parse: Parse | None) -> tuple[str, frozenset[str]] | None:
    """The words of a question for an earlier value that name the later one: the "before"
    phrase that sets the question's time, its object or its clause ("Where did I work before
    Beta?", "before she joined Greenfield?"; not "before" in a clause that describes someone
    else), and the words in it that name a value (names, nouns, numbers: "beta", "greenfield";
    none for "before I moved"). The value a "before" names is the later one: the question asks
    for the value held until it, so the phrase says when, not what is asked for. None without
    such a phrase or a parse."""
    if parse is None:
        return None
    last = last_question(query)
    (doc,) = parse([last])
    for token in doc:
        if token.lower_ != "before" or not _sets_time(token):
            continue
        if token.dep_ == "prep" and any(c.dep_ in ("pobj", "pcomp") for c in token.children):
            words = list(token.subtree)
        elif token.dep_ == "mark" and token.head.dep_ == "advcl":
            words = list(token.head.subtree)
        else:
            continue
        start, end = words[0].idx, words[-1].idx + len(words[-1].text)
        named = frozenset(
            t.lower_ for t in words
            if t.pos_ in ("PROPN", "NOUN", "NUM") and t.i != token.i and len(t.text) > 1 and t.lower_ != "one"
        )
        return last[start:end], named
    return None


def asked_place(query: str, parse: Parse | None) -> tuple[str, str] | None:
    """The verb of a question whose object it asks for through a stranded preposition, and that
    place: ("go", "prep:to") for "Which gym did Maya go to?", "... use to go to?" (the verb
    after the habitual "use to"), ("report", "prep:to") for "Who does Nell report to?"; the
    question word is the object of the preposition left at the verb. None when the preposition
    has an object of its own, for a question without one, or without a parse."""
    if parse is None:
        return None
    last = last_question(query)
    if not _WH.match(last):
        return None
    (doc,) = parse([last])
    for sentence in doc.sents:
        verb = sentence.root
        if verb.lemma_ == "use" and (done := next((c for c in verb.children if c.dep_ == "xcomp"), None)) is not None:
            verb = done  # "did Maya use to go to?": the habitual past of "go"
        for child in verb.children:
            if child.dep_ in ("prep", "dative") and child.tag_ == "IN" and not any(
                c.dep_ in ("pobj", "pcomp") for c in child.children
            ):
                return str(verb.lemma_).casefold(), f"prep:{child.lower_}"
    return None


def asked_text(query: str, question: QuestionReading | None) -> str:
    """The question as its answers' relevance reads it: for an earlier value, without the
    "before" phrase that names the later value (:func:`later_value`: "Where did I work before
    Beta?" asks where, and both the old and the new employer answer where; read with the phrase,
    the later value fits best and the earlier one falls out of the answers)."""
    if question is None or question[1] != "earlier":
        return query
    found = later_value(query, question[0])
    if found is not None and (at := query.rfind(found[0])) >= 0:
        query = query[:at] + query[at + len(found[0]):]
    # the earlier-value word says when too ("What was my first job?": which job, by time)
    word = _earlier_word(last_question(query), question[0])
    if word is not None and question[0] is not None:
        at = query.rfind(last_question(query))
        start, end = _says_when(word)
        query = query[:at + start] + query[at + end:]
    return " ".join(query.split())


def nameless_query(query: str, cues: Cues | None) -> str:
    """The question without the names of the people it asks about ("Where does Maya live?" ->
    "Where does live?")."""
    text = query
    for name in cues.participants if cues else ():
        text = re.sub(rf"\b{re.escape(name)}(?:['’]s)?\b", " ", text, flags=re.IGNORECASE)
    return " ".join(text.split())


@dataclass(slots=True)
class _Chains:
    """The ``supersedes`` edges of units, fetched as needed (one store call per step): ``links``
    both ways, ``newer`` the units that supersede one, ``older`` those it supersedes. A chain is
    ordered by its edges, never by clocks (:func:`~ripplemem.records.chain_order`)."""

    store: MemoryStore
    namespace: str
    units: dict[str, MemoryUnit]
    links: dict[str, list[str]] = field(default_factory=dict)
    newer: dict[str, list[str]] = field(default_factory=dict)
    older: dict[str, list[str]] = field(default_factory=dict)

    def load(self, ids: Sequence[str]) -> None:
        asked = [i for i in dict.fromkeys(ids) if i not in self.links]
        if not asked:
            return
        found = supersedes_of(self.store, self.namespace, asked)
        for unit_id in asked:
            self.newer[unit_id], self.older[unit_id] = found.get(unit_id, ([], []))
            self.links[unit_id] = [*self.newer[unit_id], *self.older[unit_id]]
        missing = list(dict.fromkeys(o for i in asked for o in self.links[i] if o not in self.units))
        if missing:
            for unit in self.store.get_units(self.namespace, missing, with_vectors=False):
                self.units[unit.id] = unit

    def _in_order(self, ids: Sequence[str]) -> list[MemoryUnit]:
        """The loaded units of ``ids`` in chain order (their edges among them read first)."""
        units = [self.units[i] for i in ids if i in self.units]
        if len(units) < 2:
            return units
        self.load([u.id for u in units])
        among = {u.id for u in units}
        return chain_order(units, {u.id: [o for o in self.older.get(u.id, []) if o in among] for u in units})

    def successor(self, unit_id: str) -> MemoryUnit | None:
        """The first of the units that supersede ``unit_id``."""
        later = self._in_order(self.newer.get(unit_id, []))
        return later[0] if later else None

    def predecessor(self, unit_id: str) -> MemoryUnit | None:
        """The last of the units ``unit_id`` supersedes."""
        earlier = self._in_order(self.older.get(unit_id, []))
        return earlier[-1] if earlier else None

    def members(self, unit_id: str) -> list[MemoryUnit]:
        """The unit and the chain after it, up to :data:`_CHAIN_DEPTH` steps each way, in chain
        order (its last member is the latest)."""
        found, current = [self.units[unit_id]], unit_id
        for _ in range(_CHAIN_DEPTH):
            self.load([current])
            after = self.successor(current)
            if after is None or after in found:
                break
            found.append(after)
            current = after.id
        before, current = [], unit_id
        for _ in range(_CHAIN_DEPTH):
            self.load([current])
            earlier = self.predecessor(current)
            if earlier is None or earlier in found or earlier in before:
                break
            before.append(earlier)
            current = earlier.id
        return before[::-1] + found


def apply_supersession(
    evidence: Sequence[Evidence],
    *,
    store: MemoryStore,
    namespace: str,
    query: str,
    cues: Cues | None,
    reference_time: datetime | None,
    notes: list[str],
    relevance: Relevance | None = None,
    statements: StatementReader | None = None,
    fit: Fit | None = None,
    question: QuestionReading | None = None,
    language: str | None = None,
) -> list[Evidence]:
    """Mark superseded evidence and reorder it for what the question asks (see the module doc).

    ``relevance``: each unit's relevance to the question without its holder's name (None: the
    chains alone, with the first unit's place as the only answer); ``statements``: reads the
    units' clauses and ``fit`` the relevance of their words to that question (None: the chains
    alone); ``question``: the question read beforehand (:func:`read_question`, with the same
    arguments), or None to read it here."""
    if not evidence:
        return list(evidence)
    chains = _Chains(store, namespace, {e.unit.id: e.unit for e in evidence})
    chains.load([e.unit.id for e in evidence])
    parse, mode = question or read_question(query, cues, reference_time, statements)
    if language is not None and statements is None:  # its own tense, not English words ("Als was ...")
        mode = asks_in(query, language, cues)
    polar = mode == "past" and _POLAR_PAST.match(last_question(query)) is not None
    if mode == "past" and not polar:
        return list(evidence)  # a time of its own ("in August 2023")
    lead = _lead(evidence)
    scores = relevance([e.unit for e in lead]) if relevance is not None else [0.0] * len(lead)
    by_id = {e.unit.id: r for e, r in zip(lead, scores, strict=True)}
    people = [normalise_cue(p) for p in (cues.participants if cues else ())]
    yes_no = _POLAR.match(last_question(query)) is not None
    answering = (
        answering_units(
            lead, scores, questions=statements is not None, person=_asked_speaker(people, lead) if yes_no else None
        )
        if relevance is not None else [lead[0].unit.id]
    )
    words = question_words(query, cues)
    said = {e.unit.id: e.unit.episode_id for e in lead}
    if language is not None and statements is None and mode in ("present", "earlier"):
        # a language the statement reader cannot read: the holder's latest alike answer first
        evidence, other = latest_alike_first(
            evidence, query=query, language=language, names=people, lead=len(lead), alike=_alike(lead, chains),
            earliest=mode == "earlier",
        )
        if other:
            notes.append(
                f"supersession: the question is in {language}; the holder's latest alike answer leads "
                f"({', '.join(sorted(other))})"
            )
    # a later value needs a later session: answers all said in one sit still (nothing to order),
    # but for a correction, said later in the same sitting ("Scratch that, it's Tuesday not Monday")
    corrects = {e.unit.id for e in lead if takes_back(e.unit)}
    reads = statements is not None and fit is not None and relevance is not None and (
        len(set(said.values())) > 1 or bool(corrects)
    )
    read = answering
    noun: str | None = None  # the thing the question counts
    if reads:
        assert statements is not None and parse is not None  # for mypy: ``reads`` says so
        words = words | lemmas(query, parse, cues)  # "children": "child"
        alike = _alike(lead, chains)  # which units of the lead speak of the same thing
        read = answering + naming_old_values(lead, answering, statements, words | set(people))
        things = asked_things(query, parse)
        read += [i for i in naming_the_thing(lead, answering, statements, things) if i not in read]
        if (noun := counted(query, parse)) is not None:
            read += [i for i in counting_anew(lead, answering, statements, noun) if i not in read]
        read += [i for i in saying_alike(lead, answering, alike, statements, before=polar or yes_no) if i not in read]
        read += [i for i in answering_the_asked(lead, answering) if i not in read]
        reads = len({said[i] for i in read if i in said}) > 1 or bool(corrects.intersection(read))
    if not reads and not any(chains.links.get(e.unit.id) for e in evidence):
        # no chain and no readings to order: nothing moves, and whom the question is about is
        # not read (its tense was read above, from the one parse of it)
        return rescore(evidence, (), "supersession")
    # "How often do I see Dr. Smith?": about the one who asks, whoever else it names; "Where
    # does Priya, my sister, work?": about Priya
    first_person = asks_the_asker(query, parse)
    # "Where does Ines's mother live?": about the mother, whose memories are Ines's words
    relation = question_relation(query, parse) if parse is not None else None
    subject = question_subject(query, parse) if parse is not None and relation is None else None
    named = subject or (relation[0] if relation else None) or (
        None if first_person else (people[0] if people else _name_in(query))
    )
    moved: set[str]
    if polar:  # "Did I switch to Octopus?": no value is ordered, asides go below statements
        ordered, moved = list(evidence), set()
    elif mode == "earlier":
        ordered, moved = _with_predecessors(evidence, chains)
    else:
        ordered, moved = _chain_first(evidence, chains, named, answering, by_id)
    budget = len(evidence)
    kept = {e.unit.id for e in evidence}
    pulled = [e.unit.id for e in ordered[:budget] if e.unit.id not in kept]
    if reads:
        assert statements is not None and fit is not None  # for mypy: ``reads`` says so
        # "before Beta": the units that name the value the question says came later
        later = _naming_later(query, parse, [e.unit for e in ordered if e.unit.id in read]) if mode == "earlier" else []
        ordered, stated = _statements_first(
            ordered, read, by_id, statements, fit, Holder(named or "", words, relation[1] if relation else None),
            named is None, alike, chains, latest=mode == "present", notes=notes,
            counted=noun, asked=value_kind(query, noun), asides_only=polar,
            later=later, place=asked_place(query, parse),
            besides={normalise_cue(s) for s in NOT_THE_USER} if first_person else (),
            now=reference_time or datetime.now(), yes_no=yes_no,
        )
        moved |= stated
        if not polar:  # step 2 orders by when each was said; within a chain its edges decide
            ordered, kept = _chains_in_order(ordered, chains, read, latest=mode == "present", later=later)
            moved |= kept
    marked = rescore(ordered[:budget], moved, "supersession")
    if moved:
        notes.append(
            f"supersession: the question asks about {_MODES['polar' if polar else mode]}; {len(moved)} units moved, "
            f"{len(pulled)} pulled in along supersedes edges"
            + (f" ({', '.join(pulled)})" if pulled else "")
        )
    return marked


def _lead(evidence: Sequence[Evidence]) -> list[Evidence]:
    """The first :data:`LEAD` units and the further pieces of their source turns: the ranking
    spreads a turn's pieces (:mod:`~ripplemem.read.rank_spread`), and the piece that holds a
    turn's place may be its question while the piece that answers waits lower down."""
    lead = list(evidence[:LEAD])
    turns = {t for e in lead for t in e.unit.turn_ids}
    return lead + [e for e in evidence[LEAD:] if turns.intersection(e.unit.turn_ids)]


#: the question's parse (each text parsed once) and what it asks for (:func:`asks_for`)
QuestionReading = tuple[Parse | None, Mode]


def read_question(
    query: str,
    cues: Cues | None,
    reference_time: datetime | None,
    statements: StatementReader | None,
    parse: Parse | None = None,
) -> QuestionReading:
    """What :func:`apply_supersession` reads of the question alone, before any evidence: a
    caller may read it while the query's vector is computed. ``parse``: the search's parse of
    its question, shared with the stages that read it too (:func:`parse_once`)."""
    if parse is None:
        parse = parse_once(statements.parse) if statements is not None else None
    return parse, asks_for(query, cues, reference_time, parse=parse)


def weighs_relevance(query: str, mode: Mode) -> bool:
    """Whether :func:`apply_supersession` reads the units' relevance to a question it reads as
    ``mode`` (not for a past event with a time of its own)."""
    return mode != "past" or _POLAR_PAST.match(last_question(query)) is not None


_MODES = {"present": "the present", "earlier": "an earlier value", "polar": "whether something happened"}


def parse_once(parse: Parse) -> Parse:
    """``parse`` that parses each text once (the question is read twice)."""
    done: dict[str, Any] = {}

    def parsed(texts: Sequence[str]) -> list[Any]:
        todo = [t for t in dict.fromkeys(texts) if t not in done]
        if todo:
            done.update(zip(todo, parse(todo), strict=True))
        return [done[t] for t in texts]

    return parsed


def answering_units(
    lead: Sequence[Evidence], scores: Sequence[float], *, questions: bool = False, person: str | None = None
) -> list[str]:
    """The ids of the units that answer, most relevant first (see the module doc); with
    ``questions``, also the questions within the margin of the best unit that is not one: a
    question may take a value as given ("Can you recommend toys for my dog, who is three
    now?"), which only its clauses tell (the statement reader's). ``person``: the one speaker a
    yes/no question asks about (:func:`_asked_speaker`); a unit another speaker says without
    naming them answers, but sets no bar: the question names a value, which fits whoever has it
    ("I joined PureGym last week", said by Tom, for "Does Rhea go to PureGym?": Rhea's "The Gym
    Group on Mill Road" answers too). A question that asks for a value ("What seminars is Tim
    running?") keeps its bar: there the best fit comes from what it asks about."""
    said = [(r, i) for i, r in enumerate(scores) if not _says_nothing(lead[i].unit)]
    if not said:
        return []
    # the bar is the asked person's: words the ranking took as not theirs answer, but set no bar
    theirs = [(r, i) for r, i in said if not _not_about(lead[i]) and not _of_another(lead[i].unit, person)]
    best = max(theirs or said)[0]
    asked = sorted(
        ((r, i) for i, r in enumerate(scores)
         if (questions or not _question(lead[i].unit)) and not _photo(lead[i].unit)),
        reverse=True,
    )
    return [lead[i].unit.id for r, i in asked if r >= best - MARGIN]


def _asked_speaker(people: Sequence[str], lead: Sequence[Evidence]) -> str | None:
    """The one person the question names when they are a speaker of the lead (normalised)."""
    if len(set(people)) != 1:
        return None
    spoken = {normalise_cue(s) for e in lead for s in e.unit.speakers}
    return people[0] if people[0] in spoken else None


def _of_another(unit: MemoryUnit, person: str | None) -> bool:
    """Said by speakers other than ``person`` only, and not naming them."""
    if person is None or not unit.speakers or person in {normalise_cue(s) for s in unit.speakers}:
        return False
    return re.search(rf"\b{re.escape(person)}\b", normalise_cue(unit.restatement)) is None


def _not_about(item: Evidence) -> bool:
    """Words the ranking lowered as not the asked person's (:mod:`ripplemem.read.speaker`)."""
    extra = item.terms.extra if item.terms is not None else {}
    return extra.get(SPEAKER_TERM, 0.0) < 0 or extra.get(ASKER_TERM, 0.0) < 0


def naming_old_values(
    lead: Sequence[Evidence], answering: Sequence[str], statements: StatementReader, asked: Collection[str]
) -> list[str]:
    """The units of the lead said after a unit that answers which name a value it gives: a
    change is often told by naming the old value, not the question's words ("The cetirizine
    stopped working, so the GP put me on fexofenadine" for "What do I take for my hay fever?",
    after "For my hay fever I take cetirizine"). The values are the words in a value's place of
    the answering units' clauses of their speaker about themself or their things, but the
    question's words, names of the people asked about and units of time ("weekends"). Their own
    clauses then tell whether they state anything of the holder's."""
    units = {e.unit.id: e.unit for e in lead}
    found = [units[i] for i in answering if i in units]
    if not found:
        return []
    values: dict[str, MemoryUnit] = {}
    for unit, clauses in zip(found, statements.clauses(found), strict=True):
        for clause in clauses:
            if not clause.by_speaker():
                continue
            for place, words in clause.places:
                for word in words if place != "npadvmod" else ():
                    if len(word) > 2 and word not in asked and word not in DURATION_UNITS and not word.isdigit():
                        values[word] = min(values.get(word, unit), unit, key=said_order)
    if not values:
        return []
    out = []
    for item in lead:
        unit = item.unit
        if unit.id in answering or _says_nothing(unit):
            continue
        text = question_words(unit.restatement, None)  # its words, with a plural's singular
        if any(said_order(values[w]) < said_order(unit) for w in text & values.keys()):
            out.append(unit.id)
    return out


def answering_the_asked(lead: Sequence[Evidence], answering: Sequence[str]) -> list[str]:
    """The units of the lead that reply to a question among the answering units: said by
    another speaker in the turn right after it, in the same session ("Did you find a new piano
    teacher?" / "Yes, Lorenzo Ricci, a friend of my cousin. He's patient ..." for "Who is Ada's
    piano teacher?"). A reply says what it answers with the question, and may share no word with
    either; its clauses, read with the question (:func:`_with_questions`), tell whether it
    states anything of the holder's."""
    units = {e.unit.id: e.unit for e in lead}
    asked = [units[i] for i in answering if i in units and only_asks(units[i])]
    found: list[str] = []
    for question in asked:
        at = question.extra.get("turn_index")
        if at is None:
            continue
        found += [
            e.unit.id for e in lead
            if e.unit.id not in answering and e.unit.id not in found
            and e.unit.episode_id == question.episode_id and e.unit.extra.get("turn_index") == at + 1
            and not set(e.unit.speakers) & set(question.speakers)
        ]
    return found


def saying_alike(
    lead: Sequence[Evidence], answering: Sequence[str], alike: Callable[[str, str], bool],
    statements: StatementReader, *, before: bool = False,
) -> list[str]:
    """The units of the lead said after a unit that answers which speak of the same thing as it
    (``alike``: each among the other's nearest of the lead, or linked) and name a value it does
    not (a name or a number, not a person's name): a change is often told in words of its own,
    far from the question's ("We're going to stick with Anytime Fitness for another year" after
    "Our gym is The Gym Group on Oxford Road", for "Which gym does Sam go to?"), yet said like
    the memory it changes. Two memories that say alike and name the same values add nothing to
    order ("I'll stick to the Focus" after "I commute in my Ford Focus"). With ``before`` (a
    yes-or-no question, where no value is ordered by time), those said before it too: the
    memory of the value held ("We're with EDF") beside the plan the question names ("I was going
    to switch us to Octopus" for "Did I switch to Octopus?"; "I only read paper books now"
    beside "I was this close to ordering the new Kindle" for "Does Greta read on a Kindle?", in
    the present as in the past). Their own clauses then tell whether they state anything of the
    holder's."""
    units = {e.unit.id: e.unit for e in lead}
    found = [units[i] for i in answering if i in units]
    # each candidate with the answering units it says alike, said before it (or at any time)
    pairs = {
        e.unit.id: [f for f in found if (before or said_order(f) < said_order(e.unit)) and alike(f.id, e.unit.id)]
        for e in lead if e.unit.id not in answering and not _says_nothing(e.unit)
    }
    pairs = {i: fs for i, fs in pairs.items() if fs}
    if not pairs:
        return []
    read = found + [units[i] for i in pairs]
    people = {w for u in read for p in (*u.participants, *u.speakers) for w in normalise_cue(p).split()}
    names = {
        u.id: frozenset(w for c in clauses if c.by_speaker() for w in c.named if w not in people)
        for u, clauses in zip(read, statements.clauses(read), strict=True)
    }
    return [i for i, fs in pairs.items() if any(names[i] - names[f.id] for f in fs)]


def asked_things(query: str, parse: Parse | None) -> frozenset[str]:
    """The things a question names: the lemmas of its common nouns ("How much rent do we pay?":
    rent; "What dose of sertraline am I on?": dose, sertraline); none without a parse."""
    if parse is None:
        return frozenset()
    (doc,) = parse([last_question(query)])
    return frozenset(str(t.lemma_).casefold() for t in doc if t.pos_ == "NOUN" and len(t.text) > 2)


def naming_the_thing(
    lead: Sequence[Evidence], answering: Sequence[str], statements: StatementReader, things: Collection[str]
) -> list[str]:
    """The units of the lead said after a unit that answers with a clause about a thing of its
    speaker's that the question names, which names a value: a change is often told as what
    someone did to the thing ("The landlady came round and she put our rent up to 975" for "How
    much rent do we pay?", after "Our rent is 900 a month"), worded far from the question. The
    thing is the clause's direct object when it is the speaker's own
    (:attr:`~ripplemem.statements.Clause.acts_on_speaker`: "my dose", "our rent") or its subject
    when that is a thing of the speaker's ("my rent went up to 975"); the value must name
    something or give a number ("975", "Vodafone"). Their clauses then tell whether they state
    anything of the holder's."""
    if not things:
        return []
    units = {e.unit.id: e.unit for e in lead}
    found = [units[i] for i in answering if i in units]
    if not found:
        return []
    first = min(said_order(u) for u in found)
    rest = [e.unit for e in lead if e.unit.id not in answering and not _says_nothing(e.unit) and said_order(e.unit) > first]
    out = []
    for unit, clauses in zip(rest, statements.clauses(rest), strict=True):
        for clause in clauses:
            mine = clause.kind == "thing" and clause.owner == "speaker"
            named = (clause.object_words if clause.acts_on_speaker else frozenset()) | (
                clause.subject_words if mine else frozenset()
            )
            if named.intersection(things) and clause.named - named:
                out.append(unit.id)
                break
    return out


def counting_anew(
    lead: Sequence[Evidence], answering: Sequence[str], statements: StatementReader, noun: str
) -> list[str]:
    """The units of the lead said after a unit that answers which both give a number to the
    thing the question counts (:func:`counted`): a new count is often told with other words
    than the question's ("Saw a bittern yesterday, which brings my tally to 41 species" after
    "I've spotted 40 species on the marsh", for "How many bird species has Gus seen?"). Their
    own clauses then tell whether they state a count of the holder's. Only a count the unit
    asserts or takes as given counts ("..., which would bring my tally to 41" gives none)."""
    units = {e.unit.id: e.unit for e in lead}
    found = [units[i] for i in answering if i in units]
    counting = [u for u, clauses in zip(found, statements.clauses(found), strict=True)
                if any(given(c) and counts(c, noun) for c in clauses)]
    if not counting:
        return []
    first = min(said_order(u) for u in counting)
    others = [e.unit for e in lead if e.unit.id not in answering and not _says_nothing(e.unit)
              and said_order(e.unit) > first]
    return [u.id for u, clauses in zip(others, statements.clauses(others), strict=True)
            if any(given(c) and counts(c, noun) for c in clauses)]


def _photo(unit: MemoryUnit) -> bool:
    """A shared image's caption ("Evan shared a photo of a car near a lake") states nothing of
    its speaker's: an image captioner described the picture."""
    return shares_a_photo(unit.restatement, unit.speakers)


def _says_nothing(unit: MemoryUnit) -> bool:
    """A question that only asks, or a shared image's caption: neither answers by itself."""
    return _question(unit) or _photo(unit)


def _question(unit: MemoryUnit) -> bool:
    """A unit that only asks ("Tom asked: Any news?") answers nothing."""
    return unit.restatement.rstrip().endswith("?") and " asked: " in f" {unit.restatement}"


def _chain_first(
    evidence: Sequence[Evidence],
    chains: _Chains,
    named: str | None,
    answering: Sequence[str],
    relevance: dict[str, float],
) -> tuple[list[Evidence], set[str]]:
    """Each chain with an answering member: its latest unit up (step 1 of the module doc)."""
    ordered = list(evidence)
    moved: set[str] = set()
    for group in _chain_groups(evidence[:LEAD], chains):
        present = [u for u in group if u.id in answering]
        if not present:
            continue  # no member answers the question: its chain is not what is asked about
        latest = group[-1]  # the chain's last: what replaced every other member
        reach = max(relevance.get(u.id, -np.inf) for u in present)
        about = named is None or any(normalise_cue(p) == named for u in group for p in u.participants)
        placed = _move_up(ordered, latest, group, reach if about else -np.inf, relevance, moved)
        if placed is not None:
            ordered = placed
            moved.add(latest.id)
    return ordered, moved


def _statements_first(
    ordered: list[Evidence],
    answering: Sequence[str],
    relevance: dict[str, float],
    statements: StatementReader,
    fit: Fit,
    holder: Holder,
    unnamed: bool,
    alike: Callable[[str, str], bool],
    chains: _Chains,
    *,
    latest: bool,
    notes: list[str],
    counted: str | None = None,
    asked: Callable[[Clause], bool] | None = None,
    asides_only: bool = False,
    later: Collection[str] = (),
    place: tuple[str, str] | None = None,
    besides: Collection[str] = (),
    now: datetime | None = None,
    yes_no: bool = False,
) -> tuple[list[Evidence], set[str]]:
    """Step 2 of the module doc: the holder's asserted answers in order, asides below;
    ``counted``: the thing the question counts, if any (two statements that give it different
    numbers answer the same thing); ``place``: the question's verb and the place of the value it
    asks for (:func:`asked_place`): a statement with that verb and a value in that place answers
    it in its own words ("I go to PureGym on Oxford Road" for "Which gym did Maya go to?");
    ``besides``: the speakers who are never the holder of a question naming nobody (the
    assistant, for a question in the first person); ``now``: when the question is asked (a
    change announced from a time on holds once that time has come: :func:`as_told`);
    ``yes_no``: the question asks whether a value it names holds (:func:`readings`)."""
    items = {e.unit.id: e for e in ordered}
    units = [items[i].unit for i in answering if i in items]
    read = _with_questions(units, statements.clauses(units), statements, chains)
    read = [as_told(u, clauses, now) for u, clauses in zip(units, read, strict=True)]
    found = holder_of(None, holder.words, units, read, besides=besides) if unnamed else holder
    if found is None:
        return ordered, set()
    # "Any news on your mum?" - "she moved into Hollybank Court": a relative's pronoun, named the
    # turn before (for a name, whose "he" or "she" no word checks, the turn before is not read)
    before = (
        _turns_before([u for u, clauses in zip(units, read, strict=True) if _says_he_or_she(clauses)], chains)
        if found.kin_of is not None else {}
    )
    read = [named_before(u, clauses, found, before.get(u.id)) for u, clauses in zip(units, read, strict=True)]
    parts = readings(units, read, found, fit, asked, yes_no=yes_no)
    parts.update(corrections(units, parts))  # "Scratch that, it's Tuesday not Monday"
    stating = {u.id: [c for c in clauses if states(c, found)] for u, clauses in zip(units, read, strict=True)}

    # the names a statement gives as its values (not the question's words, not numbers)
    given_names = {
        i: frozenset(w for c in clauses for _, words in c.places for w in words & c.named if w not in found.words and not w.isdigit())
        for i, clauses in stating.items()
    }

    said_words: dict[str, frozenset[str]] = {}  # each unit's words, read once (kin runs pairwise)

    def renames(a: str, b: str) -> bool:  # a, said later, names a value b states
        names = given_names.get(b)
        if not names or said_order(items[a].unit) <= said_order(items[b].unit):
            return False
        if a not in said_words:
            said_words[a] = question_words(items[a].unit.restatement, None)
        return bool(said_words[a] & names)

    def kin(a: str, b: str) -> bool:  # a value in the same grammatical place, or a new count
        return renames(a, b) or renames(b, a) or any(
            same_place(x, y) or (counted is not None and _recounts(x, y, counted))
            for x in stating.get(a, ()) for y in stating.get(b, ())
        )

    def same(a: str, b: str) -> bool:  # linked, near, or a value in the same place
        return alike(a, b) or kin(a, b)

    for unit in units:  # a recorded update of a stated unit states its new value
        reading = parts.get(unit.id)
        if reading is not None and reading.role != "stated" and any(
            parts.get(o, _NONE).role == "stated" for o in chains.older.get(unit.id, [])
        ):
            parts[unit.id] = Reading("stated", reading.fit)
    ids, moved = order(
        [e.unit.id for e in ordered], {i: e.unit for i, e in items.items()}, parts, relevance,
        same, answers=set(answering), latest=latest, kin=kin, asides_only=asides_only, later=later,
        filling={
            i for i, clauses in stating.items()
            if place is not None and any(
                c.predicate == place[0] and any(at == place[1] and words for at, words in c.places) for c in clauses
            )
        },
        topic=speaks_of(units, read, found.words, [found.name] if found.kin_of is None else []),
    )
    if moved:
        stated = sum(1 for r in parts.values() if r.role == "stated")
        notes.append(
            f"supersession: of {len(parts)} answering units {stated} are asserted statements of "
            f"{found.name or 'one speaker'} ({'latest' if latest else 'earliest'} first), "
            f"{len(parts) - stated} say what they did not assert or someone else's (below them)"
        )
    return [items[i] for i in ids], moved


def _naming_later(query: str, parse: Parse | None, units: Sequence[MemoryUnit]) -> list[str]:
    """The ids of ``units`` that name the later value a question for an earlier value gives in
    its "before" phrase (:func:`later_value`: every word of it that names a value)."""
    found = later_value(query, parse)
    if found is None or not found[1]:
        return []
    return [u.id for u in units if found[1] <= question_words(u.restatement, None)]


def _says_he_or_she(clauses: Sequence[Clause]) -> bool:
    return any(c.kind == "person" and c.subject in ("he", "she") for c in clauses)


def _first_words(unit: MemoryUnit) -> tuple[str, str] | None:
    """The speaker of ``unit`` and the first sentence of their words, when they may answer a
    question by themselves: a yes ("Yes, Lorenzo Ricci, a friend of Ada's cousin.") or at most
    :data:`_FRAGMENT_WORDS` words (a reply with no verb, "Ironworks, the old warehouse gym by the
    river."); None for a unit already kept with the question it answers."""
    if " answered: " in unit.restatement:
        return None
    speaker = unit.speakers[0] if unit.speakers else (unit.participants[0] if unit.participants else "")
    parts = speaker_parts(unit.restatement, speaker)
    if not parts or parts[0][0] != speaker:
        return None
    first = SENTENCE_END.split(parts[0][1], maxsplit=1)[0].strip()
    if not first or first.endswith("?") or not (affirms(first) or len(first.split()) <= _FRAGMENT_WORDS):
        return None
    return speaker, first


def _with_questions(
    units: Sequence[MemoryUnit], read: Sequence[Sequence[Clause]], statements: StatementReader, chains: _Chains
) -> list[list[Clause]]:
    """Each unit's clauses, and for a unit whose first words answer the question the other
    speaker asked in the turn right before it, what those words assert with that question
    (:mod:`ripplemem.statements.answers`: "Did Ada find a new piano teacher?" / "Yes, Lorenzo
    Ricci, a friend of Ada's cousin. He's patient ..." asserts "Ada did find a new piano
    teacher"): a longer reply is a unit of its own, not kept with its question, and its words
    alone say nothing of what they answer. A "no", or words that are a clause of their own,
    assert nothing more."""
    out = [list(clauses) for clauses in read]
    opening = {u.id: found for u in units if (found := _first_words(u)) is not None}
    if not opening:
        return out
    before = _turns_before([u for u in units if u.id in opening], chains)
    pairs: dict[str, MemoryUnit] = {}
    for unit in units:
        asking = before.get(unit.id)
        if asking is None:
            continue
        speaker = asking.speakers[0] if asking.speakers else ""
        asker, words = (speaker_parts(asking.restatement, speaker) or [("", "")])[-1]
        question = SENTENCE_END.split(words.strip())[-1].strip()
        if not asker or not question.endswith("?"):
            continue
        who, first = opening[unit.id]
        pairs[unit.id] = replace(unit, restatement=f"{asker} asked: {question} {who} answered: {first}")
    if not pairs:
        return out
    asserted = dict(zip(pairs, statements.clauses(list(pairs.values())), strict=True))
    for n, unit in enumerate(units):
        own = {c.text for c in out[n]}
        out[n].extend(c for c in asserted.get(unit.id, ()) if not c.asked and c.text not in own)
    return out

#: the most words of a reply's first sentence that may answer a question with no verb of its own
_FRAGMENT_WORDS = 8


def _turns_before(units: Sequence[MemoryUnit], chains: _Chains) -> dict[str, MemoryUnit]:
    """For each of ``units``, a unit of the turn right before it in its session said by someone
    else (a dialogue neighbour), when there is one: the question it may answer."""
    if not units:
        return {}
    linked = chains.store.neighbours(chains.namespace, [u.id for u in units], "structural")
    wanted = sorted({n for u in units for n, _ in linked.get(u.id, ())})
    near = {n.id: n for n in chains.store.get_units(chains.namespace, wanted, with_vectors=False)} if wanted else {}
    found: dict[str, MemoryUnit] = {}
    for unit in units:
        at = unit.extra.get("turn_index")
        if at is None:
            continue
        previous = [
            near[n] for n, _ in linked.get(unit.id, ()) if n in near
            and near[n].episode_id == unit.episode_id and near[n].extra.get("turn_index") == at - 1
            and not set(near[n].speakers) & set(unit.speakers)
        ]
        if previous:
            found[unit.id] = min(previous, key=lambda u: (u.created_at, u.id))
    return found


_NONE = Reading("aside", 0.0)


def _recounts(a: Clause, b: Clause, noun: str) -> bool:
    """Two statements that give the thing counted different numbers ("40 species" / "41
    species")."""
    one, two = counts(a, noun), counts(b, noun)
    return bool(one) and bool(two) and one != two


def _alike(lead: Sequence[Evidence], chains: _Chains) -> Callable[[str, str], bool]:
    """Whether two units of ``lead`` speak of the same thing: a ``supersedes`` edge links them,
    or each is among the other's :data:`~ripplemem.read.latest_first.NEAREST` nearest units of
    the lead (by cosine) and the two are more alike than the namespace's average pair (the
    cosine of their vectors less the namespace centroid is positive, read when the lead holds
    three units or more: among a newcomer's five memories of five things, every pair is among
    each other's nearest)."""
    units = [e.unit for e in lead if e.unit.vector is not None]
    near: dict[str, set[str]] = {}
    if len(units) > 1:
        vectors = np.asarray([u.vector for u in units], dtype=np.float32)
        vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        cosines = vectors @ vectors.T
        np.fill_diagonal(cosines, -np.inf)
        # and more alike than the memory's average pair: in a memory of a few things every pair
        # is among each other's nearest (its vectors less the namespace's mean, as the query's;
        # of two units, each is half the mean and the test says nothing)
        centroid = chains.store.centroid(chains.namespace) if len(units) > 2 else None
        if centroid is not None:
            centred = vectors - np.asarray(centroid, dtype=np.float32)
            centred /= np.maximum(np.linalg.norm(centred, axis=1, keepdims=True), 1e-12)
            above = (centred @ centred.T) > 0
        else:
            above = np.ones_like(cosines, dtype=bool)
        for row, unit in enumerate(units):
            nearest = np.argsort(-cosines[row])[:NEAREST]
            near[unit.id] = {units[int(i)].id for i in nearest if above[row, int(i)]}

    def alike(a: str, b: str) -> bool:
        linked = b in chains.links.get(a, ()) or a in chains.links.get(b, ())
        return linked or (b in near.get(a, ()) and a in near.get(b, ()))

    return alike


def _chain_groups(lead: Sequence[Evidence], chains: _Chains) -> list[list[MemoryUnit]]:
    groups: list[list[MemoryUnit]] = []
    seen: set[str] = set()
    for item in lead:
        if item.unit.id in seen or not chains.links.get(item.unit.id):
            continue
        members = chains.members(item.unit.id)
        seen.update(u.id for u in members)
        groups.append(members)
    return groups


def _chains_in_order(
    ordered: list[Evidence], chains: _Chains, read: Collection[str], *, latest: bool,
    later: Collection[str] = (),
) -> tuple[list[Evidence], set[str]]:
    """The members of each chain of the lead with a member step 2 read (``read``) take the
    places they hold among ``ordered`` in chain order: the latest in the first of them for the
    present (``latest``), the earliest for an earlier value. Step 2 orders statements by when
    they were said; an update may be said (given a session time) before the memory it replaced,
    and its edge says which is newer. For an earlier value before one the question names
    (``later``: the units that name it), the members before the first that names it come latest
    first (the value held until it), or every member when the whole chain was said before the
    first unit that names it."""
    units = {e.unit.id: e.unit for e in ordered}
    until = min((said_order(units[i]) for i in later if i in units), default=None)
    out = list(ordered)
    moved: set[str] = set()
    for group in _chain_groups(ordered[:LEAD], chains):
        if not any(u.id in read for u in group):
            continue  # a chain step 2 did not read keeps the order step 1 gave it
        # read from the order as it is now: two groups may share a unit (a chain that branches),
        # and each permutes only the places its own members hold
        place = {e.unit.id: at for at, e in enumerate(out)}
        items = {e.unit.id: e for e in out}
        present = [u for u in {u.id: u for u in group}.values() if u.id in place]
        wanted = present[::-1] if latest else present
        if not latest and until is not None:
            cut = next((n for n, u in enumerate(present) if u.id in later), None)
            if cut is None and all(said_order(u) < until for u in present):
                cut = len(present)
            if cut:
                wanted = present[:cut][::-1] + present[cut:]
        for at, unit in zip(sorted(place[u.id] for u in present), wanted, strict=True):
            if out[at].unit.id != unit.id:
                out[at] = items[unit.id]
                moved.add(unit.id)
    return out, moved


def _move_up(
    ordered: list[Evidence],
    latest: MemoryUnit,
    group: Sequence[MemoryUnit],
    reach: float,
    relevance: dict[str, float],
    moved: set[str],
) -> list[Evidence] | None:
    """``ordered`` with ``latest`` (the last of its chain ``group``) at the place of its group's
    best-ranked older member, then up past the units less relevant than ``reach``, not past a
    unit another group moved (``reach`` ``-inf``: no further); None when it stays where it is."""
    ids = [e.unit.id for e in ordered]
    older = {u.id for u in group if u.id != latest.id}
    places = [i for i, unit_id in enumerate(ids) if unit_id in older]
    if not places:
        return None
    here = ids.index(latest.id) if latest.id in ids else len(ids)
    target = min(min(places), here)
    while target > 0:
        above = ids[target - 1]
        if above in moved or relevance.get(above, np.inf) >= reach:
            break
        target -= 1
    if target == here:
        return None  # already above its older values and every unit it may pass
    item = ordered[here] if here < len(ordered) else _pulled(latest, ordered[min(places)])
    rest = [e for e in ordered if e.unit.id != latest.id]
    return rest[:target] + [item] + rest[target:]


def _pulled(unit: MemoryUnit, source: Evidence) -> Evidence:
    path = ExpansionPath(source.unit.id, "supersedes", (source.unit.id, unit.id), 1.0, 0.0)
    return Evidence(unit, source.score, (Hit("expansion", 0, 1.0),), None, (path,))


def _with_predecessors(evidence: Sequence[Evidence], chains: _Chains) -> tuple[list[Evidence], set[str]]:
    """Each found unit followed by the unit it replaced, pulled in or moved up from below."""
    ranks = {e.unit.id: rank for rank, e in enumerate(evidence)}
    out: list[Evidence] = []
    placed: set[str] = set()
    moved: set[str] = set()
    for rank, item in enumerate(evidence):
        if item.unit.id in placed:
            continue
        out.append(item)
        placed.add(item.unit.id)
        before = chains.predecessor(item.unit.id)
        if before is not None and before.id not in placed and ranks.get(before.id, rank + 1) > rank + 1:
            found = ranks.get(before.id)
            out.append(evidence[found] if found is not None else _pulled(before, item))
            placed.add(before.id)
            moved.add(before.id)
    return out, moved
