"""Slot claims: what a unit states about one attribute of one person, read from its restatement.

A :class:`Claim` is (holder, attribute, value words, changed). Attributes are the single-valued
facts people update: ``residence``, ``employer``, ``partner``, ``pet``, ``car``, ``diet``, a
number (``number:<word>``, the words around it) and a planned event (``event:<noun>``, its date or
place). The holder is the speaker of the words (``"<Name> said:"`` prefixes and the unit's first
participant); a sentence about someone else's change ("Priya's cousin relocated") is no claim of
the speaker's. Precision first: a sentence that is hypothetical, a wish, a plan, declined or
negated ("if", "would", "thinking of", "decided to keep", "turned down", "didn't") states no
claim. ``changed`` says the sentence carries a change cue ("now", "moved", "switched",
"instead", ...); pets, numbers and events only claim with one (they are often several values or
one-off events otherwise).

With a parse (``parse``: the entity recogniser's spaCy pipeline with its parser on), the
sentences worth it are parsed and :mod:`ripplemem.write.parsed_slots` adds the claims of wordings
the phrases miss (an employer said by its work, a pet by its breed, a home with a place, a vehicle
one gets about in, a scheduled thing of any noun), gives numbers their counted noun's measure
class and period, and vetoes what the parse shows is planned, visited or negated.

An LLM extractor may give the attribute itself (``unit.extra["attribute"]``); that claim is
taken as it is (:func:`claims_of`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ripplemem.records import MemoryUnit, normalise_cue
from ripplemem.write.parsed_slots import (
    asserted,
    counted,
    negated_work,
    parsed_claims,
    visited_home,
    worth_parsing,
)

#: texts -> spaCy docs with tags and a dependency parse (``EntityRecognizer.parse``)
Parse = Callable[[Sequence[str]], Sequence[Any]]

# a "<Name> said:" / "asked:" / "answered:" prefix of a restatement piece
_SPEAKER = re.compile(r"(?:^|(?<=[.!?] ))([A-Z][\w'’-]*(?: [A-Z][\w'’-]*)?) (?:said|asked|answered):\s*")
_SENTENCE = re.compile(r"(?<=[.!?;])\s+")
_WORD = re.compile(r"[A-Za-z][\w'’-]*|\d[\d,.]*")

_NOT_A_CLAIM = re.compile(
    r"\b(?:if|would|could|might|(?-i:may)|maybe|perhaps|someday|some day|wish|hope to|hoping to|"
    r"thinking (?:of|about)|considering|tempted|want(?:s|ed)? to|'d (?:love|like)|"
    r"would (?:love|like)|plan(?:s|ned|ning)? to|dream\w*|daydream\w*|decided (?:to keep|to stay|"
    r"against|not)|turned (?:\w+ )*?down|declined|didn't|did not|never|isn't confirmed|"
    r"not confirmed|nothing is confirmed|unless|in case|should i|shall i|whether|said no|"
    r"(?:was|were|got) offered|passed on|rejected|backed out|fell through|didn't work out|"
    r"changed (?:my|his|her|their|our) minds?)\b",
    re.IGNORECASE,
)
_QUESTION = re.compile(r"\?\s*$")
_RELATIVE = (
    r"cousin|brother|sister|sibling|mum|mom|mother|dad|father|parents?|son|daughter|kids?|friend|"
    r"neighbou?r|colleague|co-?worker|boss|uncle|aunt|grand\w+|niece|nephew|room-?mate|flatmate|"
    r"in-laws?|family|team-?mate"
)
_PARTNER_WORDS = r"wife|husband|partner|boyfriend|girlfriend|fianc[ée]e?|spouse"
_SOMEONE_ELSE = re.compile(
    rf"\b(?:[A-Z][\w-]*['’]s|[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir|[Aa]) (?:(?:best|old|new|close|younger|older|little|"
    rf"big) )?(?:{_RELATIVE}|{_PARTNER_WORDS})\b"
)
_CHANGE = re.compile(
    r"\b(?:now|new|newly|anymore|any more|no longer|moved|moving|move|relocat\w+|switch\w*|"
    r"started|starting|joined|left|quit|sold|traded|instead|chang\w+|became|become|since|"
    r"up to|down to|back to|split up|broke up|divorced|separated|passed away|died|rehomed|"
    r"replaced|rescheduled|postponed|pushed|delayed|brought forward|cancell?ed|called off|"
    r"these days|currently|at the moment|went|got (?:a|an|my|our) |bought|adopted|finally|"
    r"hired|promoted|retired|stopped|gave up|took (?:a|the) (?:job|position|role))\b",
    re.IGNORECASE,
)

_RELATIONSHIP = re.compile(
    r"\b(?:engaged|married|marry|dating|seeing (?:someone|a|him|her)|split up|broke up|divorc\w+|"
    r"separated|relationship|together with|called off the (?:wedding|engagement))\b|"
    r"\b(?-i:(?:is|am|'m|are) (?:now )?with [A-Z])",
    re.IGNORECASE,
)
_NAMED_PARTNER = re.compile(rf"\b(?:{_PARTNER_WORDS}),? ([A-Z][a-z]+)\b")
_BORROWED = re.compile(
    r"\b(?:rent(?:ed|ing|al)|hired|borrow\w*|test[- ]?dr[io]v\w*|loaner|courtesy car)\b",
    re.IGNORECASE,
)
_LOSS = re.compile(
    r"\b(?:died|passed away|passed|rehomed|gave (?:\w+ )?(?:away|up)|lost|ran away|no longer|"
    r"anymore|any more|now|replaced|instead)\b",
    re.IGNORECASE,
)
_EVENT_NOUNS = (
    "wedding|party|offsite|off-site|surgery|operation|appointment|meeting|club|conference|trip|"
    "vacation|holiday|interview|ceremony|concert|reunion|graduation|exam|dinner|birthday|launch|"
    "retreat|workshop|recital|match|game|race|marathon|flight|visit|celebration|shower|"
    "festival|class|course|exhibition|presentation|deadline"
)
_ATTRIBUTES: dict[str, re.Pattern[str]] = {
    "residence": re.compile(
        r"\b(?:live[sd]? (?:in|at|near|on|with)|living (?:in|at|near|on|with)|moved (?:to|into|"
        r"back|out|away|house|in with)|relocat\w+|address|based (?:in|at|out of)|settled in|"
        r"rent(?:ing|s)? (?:a|an|the)|(?:house|flat|apartment|condo|home|place|studio|cottage) "
        r"(?:is )?(?:in|at|near|on)|hometown)\b",
        re.IGNORECASE,
    ),
    "employer": re.compile(
        r"\b(?:work(?:s|ed|ing)? (?:at|for|as) |(?:new|first|old|current|full-time|part-time) "
        r"(?:job|position|role|employer)|job (?:at|as|with|in) |(?:got|took|started|landed|lost|quit|"
        r"left) (?:a |the |my |his |her |their )?(?:new )?(?:job|position|role)|employ(?:er|ed|s) |"
        r"hired|(?-i:joined [A-Z])|started (?:at|with|as) |promoted|internship|intern at|freelanc\w*|"
        r"self-employed|(?:is|am|'m|was|as) (?:a|an|the|head) [\w -]{2,40}? (?:at|for|in) (?-i:[A-Z])|"
        r"(?:is|am|'m) (?:now )?at (?-i:[A-Z])|(?:left|quit) (?-i:[A-Z])|teach(?:es|ing)? [\w ]{0,30}at (?-i:[A-Z]))",
        re.IGNORECASE,
    ),
    "partner": re.compile(
        rf"\b(?:{_PARTNER_WORDS}|engaged|married|marry|dating|seeing (?:someone|a|him|her)|"
        r"split up|broke up|divorc\w+|separated|relationship|together with|"
        r"(?-i:(?:is|am|'m|are) (?:now )?with [A-Z])|called off the (?:wedding|engagement))\b",
        re.IGNORECASE,
    ),
    "pet": re.compile(
        r"\b(?:pets?|cats?|dogs?|pupp(?:y|ies)|pups?|kittens?|kitty|rabbits?|bunn(?:y|ies)|"
        r"hamsters?|gerbils?|guinea pigs?|goldfish|fish|parrots?|budgies?|birds?|turtles?|"
        r"tortoises?|horses?|ponies|pony|snakes?|lizards?|ferrets?|chickens?)\b",
        re.IGNORECASE,
    ),
    "car": re.compile(
        r"\b(?:car|drives (?:a|an|the)|driving (?:a|an|the|my|his|her)|drove (?:a|an|the|my)|"
        r"van|truck|pickup|suv|sedan|hatchback|motorbike|motorcycle|scooter|honda|toyota|tesla|ford|"
        r"bmw|volvo|subaru|(?-i:Mini)|audi|vw|volkswagen|mercedes|kia|hyundai|nissan|mazda|jeep|chevy|"
        r"chevrolet|prius|porsche|fiat|peugeot|renault|skoda|lexus)\b",
        re.IGNORECASE,
    ),
    "diet": re.compile(
        r"\b(?:vegetarian|vegan|pescatarian|keto|paleo|gluten|dairy|meat|diet|carnivore|halal|"
        r"kosher|lactose|plant-based|low-carb|sugar-free|intermittent fasting|fasting|carbs|sugar)\b",
        re.IGNORECASE,
    ),
}
_EVENT = re.compile(rf"\b({_EVENT_NOUNS})\b", re.IGNORECASE)
_DATE_WORDS = (
    r"(?i:january|february|march|april|may|june|july|august|september|october|november|"
    r"december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|tomorrow|"
    r"\d{1,2}(?:st|nd|rd|th)?)"
)
_DATE = re.compile(rf"\b{_DATE_WORDS}\b")
_EVENT_DETAIL = re.compile(rf"\b(?:{_DATE_WORDS}|(?i:next|at the|in the)|(?:in|at|to) [A-Z]\w*)\b")
_NUMBER_WORDS = (
    "two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|"
    "fifty|hundred"
)
_NUMBER = re.compile(rf"\b(?:\d[\d,.]*|{_NUMBER_WORDS})\b", re.IGNORECASE)
_UNIT_WORD = re.compile(rf"\b(?:\d[\d,.]*|{_NUMBER_WORDS})\s+([a-z][a-z'-]+)", re.IGNORECASE)
#: the words that carry a value besides names and numbers
_VALUE_WORDS: dict[str, re.Pattern[str]] = {
    "pet": _ATTRIBUTES["pet"],
    "car": _ATTRIBUTES["car"],
}
#: "three years ago", "five minutes": a duration or a time of day is no value of a fact
_TIME_UNITS = frozenset(
    ["years", "year", "months", "month", "weeks", "week", "days", "day", "minutes", "minute", "seconds", "ago", "times", "time", "o'clock", "am", "pm", "hours"]
)
_CHANGE_WORDS = frozenset(
    ["now", "new", "anymore", "moment", "currently", "right", "days", "since", "finally", "up", "down", "back"]
)
#: single-valued attributes claim without a change cue; the others need one
_NEEDS_CHANGE = ("pet", "number", "event")

_STOP = frozenset(
    ["a", "an", "the", "and", "or", "but", "so", "to", "of", "in", "on", "at", "for", "with", "from", "by", "as", "is", "am", "are", "was", "were", "be", "been", "being", "it", "its", "it's", "this", "that", "these", "those", "there", "here", "he", "she", "they", "we", "i", "you", "his", "her", "their", "our", "my", "your", "me", "him", "them", "us", "not", "no", "yes", "just", "still", "also", "very", "really", "too", "then", "now", "new", "old", "about", "into", "over", "after", "before", "since", "than", "up", "down", "out", "off", "all", "some", "any", "more", "most", "much", "many", "few", "own", "same", "other", "such", "only", "again", "ever", "once", "while", "when", "where", "what", "which", "who", "whom", "why", "how", "said", "asked", "answered", "has", "have", "had", "do", "does", "did", "got", "get", "gets", "getting", "going", "go", "went", "will", "would", "can", "could", "should", "may", "might", "must", "shall", "one", "year", "years", "month", "months", "week", "weeks", "day", "days", "time", "lot", "lots", "bit", "big", "small", "good", "great", "nice", "finally"]
)
_DIET_VALUES = re.compile(
    r"\b(?:vegetarian|vegan|pescatarian|keto|paleo|gluten|dairy|meat|fish|carnivore|halal|kosher|"
    r"lactose|plant-based|low-carb|sugar|bread|eggs?|cheese|celiac|fasting)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Claim:
    """One sentence's statement of an attribute's value for a holder."""

    holder: str  # normalised name
    attribute: str
    value: frozenset[str]  # the value's words, case-folded
    changed: bool
    context: frozenset[str] = frozenset()  # for numbers: the content words around them
    unit: str = ""  # for numbers: the word after the first number ("kilometres")
    loss: bool = False  # the sentence says an earlier value ended ("died", "no longer", "now")
    measure: str = ""  # for numbers: the counted noun's class and period ("distance/week")


def claims_of(unit: MemoryUnit, parse: Parse | None = None) -> list[Claim]:
    """The claims of ``unit``: the LLM extractor's attribute when it gave one, else the rules'."""
    return claims_of_units([unit], parse)[0]


def claims_of_units(units: Sequence[MemoryUnit], parse: Parse | None = None) -> list[list[Claim]]:
    """:func:`claims_of` of each unit, with one call of ``parse`` for them all."""
    given = [_given_claims(unit) for unit in units]
    todo = [i for i, claims in enumerate(given) if claims is None]
    read = read_claims_of(
        [
            (u.restatement, u.participants[0] if u.participants else "", u.participants[1:])
            for u in (units[i] for i in todo)
        ],
        parse,
    )
    found = dict(zip(todo, read))
    return [claims if claims is not None else found[i] for i, claims in enumerate(given)]


def _given_claims(unit: MemoryUnit) -> list[Claim] | None:
    """The claim of the LLM extractor's attribute, or None when it gave none."""
    given = unit.extra.get("attribute")
    if not (isinstance(given, dict) and given.get("name") and given.get("holder")):
        return None
    text, name = str(given.get("value") or ""), str(given["name"])
    value = frozenset(_content_words(text, ""))
    update = bool(given.get("update"))
    attribute, _, what = name.partition(":")
    holder = normalise_cue(str(given["holder"]))
    if attribute == "number":  # the measure is in the name: "number:kids"
        context = frozenset({what}) if what else value
        return [Claim(holder, "number", value | _numbers_in(text), update, context, what, update)]
    return [Claim(holder, name, value, update, loss=update)]


def read_claims(
    text: str, holder: str, others: Sequence[str] = (), parse: Parse | None = None
) -> list[Claim]:
    """The claims of a restatement whose unprefixed words are ``holder``'s; ``others`` are the
    other people it names (a sentence whose subject is one of them is their fact). With ``parse``
    (texts -> spaCy docs with a dependency parse) the sentences the parse can add to are parsed
    (:mod:`ripplemem.write.parsed_slots`)."""
    return read_claims_of([(text, holder, others)], parse)[0]


def read_claims_of(
    items: Sequence[tuple[str, str, Sequence[str]]], parse: Parse | None = None
) -> list[list[Claim]]:
    """:func:`read_claims` of each (text, holder, others), with one call of ``parse``."""
    sentences: list[list[tuple[str, str, bool, list[str]]]] = []
    for text, holder, others in items:
        mine: list[tuple[str, str, bool, list[str]]] = []
        for speaker, part in _by_speaker(text, holder):
            if not speaker or normalise_cue(speaker) in ("assistant", "ai", "bot"):
                continue
            loss = bool(_LOSS.search(part))  # "Whiskers passed away. We adopted Biscuit."
            names = [holder, *others] if normalise_cue(speaker) != normalise_cue(holder) else list(others)
            for sentence in _SENTENCE.split(part):
                if _asserted(sentence.strip(), speaker, names):
                    mine.append((sentence.strip(), speaker, loss, names))
        sentences.append(mine)
    wanted = list(
        dict.fromkeys(
            sentence
            for mine in sentences
            for sentence, speaker, loss, names in mine
            if parse
            and (worth_parsing(sentence) or _sentence_claims(sentence, speaker, loss, names))
        )
    )
    docs = dict(zip(wanted, parse(wanted))) if parse and wanted else {}
    return [
        [
            claim
            for sentence, speaker, loss, names in mine
            for claim in _sentence_claims(sentence, speaker, loss, names, docs.get(sentence))
        ]
        for mine in sentences
    ]


def same_attribute(new: Claim, old: Claim) -> bool:
    if new.holder != old.holder or new.attribute != old.attribute:
        return False
    if new.attribute == "number":  # the same measure: "20 kilometres" / "45 kilometres"
        if new.unit and new.unit == old.unit:
            return True
        if new.measure and new.measure == old.measure:  # "8 engineers" / "15 people" on a team
            per_period = "/" in new.measure  # "60 miles a week" / "150 km a week"
            return per_period or bool(new.context & old.context - {new.unit, old.unit})
        if new.unit and old.unit:
            return False  # "6 researchers" / "3 microscopes": two measures of one thing
        return len(new.context & old.context) >= 2
    return True


def restates_value(new: Claim, old: Claim) -> bool:
    """The new claim gives the attribute a value the old one did not state (an update)."""
    if not same_attribute(new, old) or not new.value:
        return False
    if new.attribute.split(":", 1)[0] in _NEEDS_CHANGE and not new.changed:
        return False
    if new.attribute == "pet" and not new.loss:
        return False  # a second pet joins the first; only a loss or "now" replaces it
    if new.attribute == "number":
        return _numbers(new.value) != _numbers(old.value) and bool(_numbers(old.value))
    return not new.value <= old.value


def _numbers_in(text: str) -> frozenset[str]:
    return frozenset(m.group(0).casefold() for m in _NUMBER.finditer(text))


def _numbers(value: frozenset[str]) -> frozenset[str]:
    return frozenset(w for w in value if _NUMBER.fullmatch(w))


def _by_speaker(text: str, holder: str) -> list[tuple[str, str]]:
    parts: list[tuple[str, str]] = []
    speaker, start = holder, 0
    for match in _SPEAKER.finditer(text):
        if match.start() > start:
            parts.append((speaker, text[start : match.start()]))
        speaker, start = match.group(1), match.end()
    parts.append((speaker, text[start:]))
    return [(s, p) for s, p in parts if p.strip()]


def _asserted(sentence: str, speaker: str, others: Sequence[str]) -> bool:
    """Not a question, hypothetical, plan or refusal, nor another person's sentence."""
    if not sentence or _QUESTION.search(sentence) or _NOT_A_CLAIM.search(sentence):
        return False
    return not _other_subject(sentence, speaker, others)


def _sentence_claims(
    sentence: str, speaker: str, loss: bool, others: Sequence[str] = (), doc: Any = None
) -> list[Claim]:
    if doc is not None and not asserted(doc):
        return []  # "I'm going to teach at ...", "we'd move to ..."
    changed = bool(_CHANGE.search(sentence))
    holder = normalise_cue(speaker)
    out: list[Claim] = []
    event = _EVENT.search(sentence)
    detail = event and _EVENT_DETAIL.search(sentence[event.end() :] + " " + sentence[: event.start()])
    if event and detail and not _someone_else(sentence, event.start(), partner_too=True):
        noun = event.group(1).casefold()
        value = _value_words(sentence, speaker, _DATE) - {noun}
        out.append(Claim(holder, f"event:{noun}", value, changed))
    for attribute, pattern in _ATTRIBUTES.items():
        match = pattern.search(sentence)
        if match is None or (out and attribute == "residence"):
            continue  # "the offsite moved to Porto": the event's place, not a new home
        if attribute == "car" and _BORROWED.search(sentence):
            continue  # a rental or a test drive is not the car one has
        if attribute == "employer" and doc is not None and negated_work(doc):
            continue  # "I don't work at Finvera"
        if attribute == "residence" and doc is not None and visited_home(doc):
            continue  # "we visited a cottage near Galway"
        # "Hannah's boyfriend Jake ...": for the partner the relation word is the value
        if _someone_else(sentence, match.end(), partner_too=attribute != "partner"):
            continue
        if attribute == "diet":
            value = frozenset(m.casefold() for m in _DIET_VALUES.findall(sentence))
        elif attribute == "partner" and not _RELATIONSHIP.search(sentence):
            named = _NAMED_PARTNER.search(sentence)  # "her boyfriend Jake"; not "her husband works"
            if named is None:
                continue
            value = frozenset({named.group(1).casefold()})
        else:
            value = _value_words(sentence, speaker, _VALUE_WORDS.get(attribute))
        out.append(Claim(holder, attribute, value, changed, loss=loss))
    if doc is not None:
        claimed = {c.attribute for c in out}
        others_named = frozenset(normalise_cue(n) for n in others)
        for parsed in parsed_claims(doc, speaker, others_named):
            if parsed.attribute.startswith("event:"):  # the event's place, not a new home
                out = [c for c in out if c.attribute != "residence"]
            if parsed.attribute not in claimed:
                out.append(Claim(holder, parsed.attribute, parsed.value, changed, loss=loss))
    number = _NUMBER.search(sentence)
    if number and not _someone_else(sentence, number.start(), partner_too=True):
        words = _content_words(sentence, speaker)
        numbers = _numbers(words)
        context = words - numbers - _CHANGE_WORDS
        count = counted(doc) if doc is not None else None
        if count is not None:  # the parse's counted noun: "15 hard-working people"
            unit, measure, amount = count.noun, count.measure, count.amount
            if measure and count.period:  # "60 miles a week" / "150 km a week"
                measure = f"{measure}/{count.period}"
        else:
            after = _UNIT_WORD.search(sentence)
            unit, measure, amount = (after.group(1).casefold() if after else ""), "", False
        if numbers and context and (amount or unit not in _TIME_UNITS):
            unit = "" if unit in _STOP else unit  # "58,000 a year": no unit word
            out.append(Claim(holder, "number", words, changed, frozenset(context), unit, measure=measure))
    return out


def _other_subject(sentence: str, speaker: str, others: Sequence[str]) -> bool:
    """Another person is named before the speaker is (or before "I", "we"): their fact."""
    first = len(sentence)
    mine = re.search(rf"\b(?:{re.escape(speaker)}|I|we|We|our|Our|my|My)\b", sentence) if speaker else None
    for name in others:
        if name and normalise_cue(name) != normalise_cue(speaker):
            found = re.search(rf"\b{re.escape(name)}\b", sentence)
            if found:
                first = min(first, found.start())
    return first < len(sentence) and (mine is None or first < mine.start())


def _someone_else(sentence: str, before: int, *, partner_too: bool) -> bool:
    """Someone else is the subject: a relative's, friend's or partner's phrase ("Priya's cousin",
    "my sister", "her husband") comes before the attribute's words at ``before``."""
    for match in _SOMEONE_ELSE.finditer(sentence):
        if match.start() >= before:
            break
        relative = match.group(0).rsplit(" ", 1)[-1].casefold()
        if partner_too or not re.fullmatch(_PARTNER_WORDS, relative):
            return True
    return False


def _contraction(word: str) -> bool:
    """"i'm", "we've", "it's": a function word with a clitic."""
    return "'" in word and word.split("'", 1)[0] in _STOP


def _content_words(text: str, speaker: str) -> frozenset[str]:
    skip = {normalise_cue(w) for w in speaker.split()}
    words = set()
    for raw in _WORD.findall(text):
        word = raw.casefold().replace("’", "'")
        word = word.removesuffix("'s")
        word = word.rstrip(".,")
        if not word or word in _STOP or word in skip or _contraction(word):
            continue
        words.add(word)
    return frozenset(words)


def _value_words(
    text: str, speaker: str, vocabulary: re.Pattern[str] | None
) -> frozenset[str]:
    """The words that carry a value: names (capitalised, not function words), numbers and the
    attribute's own vocabulary (species, makes, dates); the content words when none is there."""
    skip = {normalise_cue(w) for w in speaker.split()}
    named = {
        word.casefold().replace("’", "'").removesuffix("'s").rstrip(".,")
        for word in _WORD.findall(text)
        if (word[0].isupper() or word[0].isdigit())
    }
    if vocabulary is not None:
        named |= {m.group(0).casefold() for m in vocabulary.finditer(text)}
    named |= {m.group(0).casefold() for m in _NUMBER.finditer(text)}
    words = frozenset(
        w for w in named if w and w not in _STOP and w not in skip and not _contraction(w)
    )
    return words or _content_words(text, speaker)
