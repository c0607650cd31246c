"""Restatement without an LLM: split turns into sentences and resolve speaker references.

First person ("I", "me", "my", "mine", "I'm", "I've", ...) becomes the speaker's name and second
person ("you", "your", "you're", ...) the addressee's, with the verb agreement fixed ("I am" ->
"Caroline is", "do you" -> "does Melanie", "I love" -> "Caroline loves"). Where the words alone do not show
the auxiliary or verb of a second-person subject ("Which gym do you go to?", "How old are you?",
"What have you done?"), the sentence's dependency parse does, when one is given ("Which gym
does Melanie go to?"). Everything else keeps the original wording. "we", "you guys", "you know" (the filler) and generic words stay as they are.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ripplemem.language import in_other_language
from ripplemem.write import quotes

#: a word (letters of any alphabet: "näher" is one word, not "nä" and "her"), a run of spaces,
#: or any other character
_TOKEN = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*|\s+|.", re.DOTALL)


def _word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


_ABBREVIATIONS = _word_set("""mr mrs ms dr st jr sr vs etc eg ie prof mt ft approx no""")
# . ! ? … then a space; a line break; a full stop of Chinese or Japanese (no space follows it)
_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"'”’)\]]*\s+|\n+|(?<=[。！？])[」』”’）]*\s*")
#: the last word before a full stop, with the dots inside it ("Dr", "e.g", "U.S")
_LAST_WORD = re.compile(r"([A-Za-z]+(?:\.[A-Za-z]+)*)\W*$")
#: how far back from a full stop the abbreviation check looks ("Dr", "J"): a bounded look, so
#: text made of thousands of "Dr. " costs linear time, not a re-scan of the sentence so far
_LAST_WORD_REACH = 64

ADVERBS = _word_set(
    """also really just still always never actually totally definitely usually often sometimes
    finally recently even only absolutely kinda sorta so truly mostly already probably honestly
    seriously literally certainly simply almost nearly barely hardly currently especially
    personally too myself yourself then now sure def"""
)
#: words of degree that only ever modify the next word before a verb ("I very nearly moved", "I
#: much prefer", "I quite like it"): skipped like adverbs, never taken for the verb
DEGREE = _word_set("very quite rather pretty much somewhat fairly")
#: hedges of several words before a verb ("I kind of want it", "I more or less run it")
HEDGES = (("kind", "of"), ("sort", "of"), ("more", "or", "less"), ("just", "about"))
MODALS = frozenset(
    ["can", "could", "will", "would", "shall", "should", "may", "might", "must", "ought"]
)
PAST_FORMS = _word_set(
    """was were went did had got made took saw came met gave found felt thought told bought brought
    left ran won began begun wrote written sang sung ate eaten spent kept heard knew known
    became become drew drawn drove driven flew flown forgot forgotten grew grown hung held hid
    hidden led lost meant paid rode ridden rose sold sent shot shown sat slept spoke spoken
    stood stole swam swum taught threw thrown understood woke worn wore been gone done seen
    taken given caught chose chosen fell fallen fought built broke broken bit bitten blew blown
    dug fed forgave froze frozen lit mistook quit read put cut hit let set shut spread cost hurt
    burst split beat bet cast said sought shook struck stuck sank swept wept tore swore slid
    spun sprang swung clung flung stung strung strode strove shone shrank stank drank dealt
    dreamt learnt leapt lent bent crept knelt bled fled sped spat spilt arose awoke dove forbade
    laid trod withdrew wove beaten borne drunk forbidden forgiven gotten lain mistaken proven
    risen rung shaken shrunk sprung stolen sunk sworn torn woken woven"""
)
_PARTICIPLES = _word_set(
    """been gone done seen taken given known become begun eaten written driven flown forgotten
    grown hidden ridden shown spoken stolen swum thrown worn broken chosen fallen frozen got
    gotten had made found felt met heard"""
)
_ED_VERBS = _word_set("need feed speed seed bleed breed proceed succeed exceed embed shed wed")
_PREFIXED_PAST = re.compile(
    r"^(?:re|over|under|mis|out|with|up|fore)(?:"
    + "|".join(sorted((w for w in PAST_FORMS if len(w) >= 3), key=len, reverse=True))
    + r")$"
)
#: Base verbs the prefix pattern would take for a past ("re" + "lent"): they agree as usual.
_PREFIXED_BASE = _word_set("relent")
_LY_VERBS = _word_set("fly apply rely reply supply multiply imply comply ally bully tally")
_SUBJECT_AFTER = _word_set(
    """hope think know bet guess sure glad wish believe anytime whenever wherever whatever before
    after maybe like feel heard hear seems unless now cos"""
)
_NOT_VERBS = frozenset(["to", "and", "or", "but", "not", "a", "an", "the", "this", "that", "too"])
_INVERTING = {  # auxiliary before a subject pronoun -> its third-person singular form
    "am": "is", "are": "is", "were": "was", "do": "does", "have": "has",
    "don't": "doesn't", "aren't": "isn't", "weren't": "wasn't", "haven't": "hasn't",
}  # fmt: skip
_AUXILIARIES = (
    frozenset(_INVERTING)
    | MODALS
    | _word_set(
        """is was did does has had can't couldn't won't wouldn't shouldn't didn't isn't wasn't doesn't
    hasn't hadn't"""
    )
)
_AGREEMENT = {
    "am": "is", "are": "is", "were": "was", "have": "has", "do": "does", "don't": "doesn't",
    "haven't": "hasn't", "aren't": "isn't", "weren't": "wasn't", "wanna": "wants to",
    "gotta": "has to", "ain't": "isn't",
}  # fmt: skip
_CLAUSE_STARTERS = _word_set(
    """and but so if when because that as since while or cause though although until till unless
    once where how what why who whether than"""
)
_WH_WORDS = _word_set("what where when why how who which whom whose so and but or then")
#: the hyphen, and Unicode's hyphen and non-breaking one: what joins the parts of one word
_HYPHENS = frozenset({"-", "\u2010", "\u2011"})
_CONTRACTIONS = {"m": "is", "re": "is", "ve": "has", "ll": "will", "s": "is"}


@dataclass(frozen=True, slots=True)
class Resolved:
    """A sentence with speaker references resolved, and which references were resolved."""

    text: str
    speaker_subject: bool  # a first-person subject became the speaker's name
    addressee_used: bool  # a second-person reference became the addressee's name


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text`` (a regex splitter that respects common abbreviations)."""
    pieces: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        if match.group().strip("\n"):
            tail = text[max(start, match.start() - _LAST_WORD_REACH) : match.start()].rstrip()
            last = _LAST_WORD.search(tail)
            word = last.group(1) if last else ""
            letters = word.split(".")
            initials = all(len(part) == 1 and part.isupper() for part in letters)
            if word and (word.replace(".", "").lower() in _ABBREVIATIONS or initials):
                continue  # "Dr. Smith", "J. K. Rowling", "J.K. Rowling", "e.g. Obsidian"
            if "." in word and text[match.end() : match.end() + 1].islower():
                continue  # "7 a.m. on Saturdays", "the U.S. last May": a dotted abbreviation
        candidate = text[start : match.start()].strip()
        if candidate:
            pieces.append(candidate)
        start = match.end()
    tail = text[start:].strip()
    if tail:
        pieces.append(tail)
    return pieces


def third_person(verb: str) -> str:
    """Present-tense agreement with a singular third-person subject ("love" -> "loves")."""
    lower = verb.lower()
    if lower in _AGREEMENT:
        return _AGREEMENT[lower]
    if lower == "go":
        return "goes"
    if re.search(r"(?:s|sh|ch|x|z|o)$", lower):
        return verb + "es"
    if re.search(r"[^aeiou]y$", lower):
        return verb[:-1] + "ies"
    return verb + "s"


def _possessive(name: str) -> str:
    return name + "'s"


class _Sentence:
    """A token list with helpers to look at neighbouring words."""

    def __init__(self, text: str, parse: Parse | None = None) -> None:
        self.tokens = _TOKEN.findall(text)
        self.original = list(self.tokens)  # context checks read the words as written
        self._text = text
        self._parse = parse
        self._doc: Any = None

    def doc(self) -> Any:
        """The sentence's parse, once; None without a parser."""
        if self._doc is None and self._parse is not None:
            self._doc = self._parse([self._text])[0]
            self._parse = None
        return self._doc

    def offset(self, i: int) -> int:
        return sum(len(token) for token in self.original[:i])

    def is_word(self, i: int) -> bool:
        return 0 <= i < len(self.tokens) and self.tokens[i][:1].isalpha()

    def next_word(self, i: int, *, skip_adverbs: bool = False) -> int:
        """Index of the next word after ``i`` within the clause, or -1."""
        j = i + 1
        while j < len(self.tokens):
            token = self.tokens[j]
            if token.isspace():
                j += 1
                continue
            if not token[:1].isalpha():
                return -1
            if skip_adverbs and (hedge := self._hedge(j)):
                j = hedge
                continue
            end = self.compound_end(j)
            if skip_adverbs and _is_adverb(self.tokens[end].lower()):
                j = end + 1  # "very", "half-jokingly"
                continue
            return j
        return -1

    def _hedge(self, i: int) -> int:
        """The index after a degree word or a hedge of several words that starts at ``i``
        ("very", "kind of", "more or less"), or 0 when none starts there."""
        lower = self.tokens[i].lower()
        if lower in DEGREE:
            return i + 1
        for hedge in HEDGES:
            if lower != hedge[0]:
                continue
            j, matched = i, True
            for word in hedge[1:]:
                j += 1
                while j < len(self.tokens) and self.tokens[j].isspace():
                    j += 1
                if j >= len(self.tokens) or self.tokens[j].lower() != word:
                    matched = False
                    break
            if matched:
                return j + 1
        return 0

    def compound_end(self, i: int) -> int:
        """The index of the last part of the word joined by hyphens that starts at ``i``
        ("test-drove", "double-check", "dry-clean"), or ``i`` when no hyphen follows it."""
        j = i
        while (
            j + 2 < len(self.tokens)
            and self.tokens[j + 1] in _HYPHENS
            and self.tokens[j + 2][:1].isalpha()
        ):
            j += 2
        return j

    def prev_word(self, i: int) -> int:
        """Index of the previous word within the clause, or -1 at a clause or sentence start."""
        j = i - 1
        while j >= 0:
            token = self.tokens[j]
            if token.isspace():
                j -= 1
                continue
            return j if token[:1].isalpha() else -1
        return -1

    def text(self) -> str:
        return "".join(self.tokens)


def _is_adverb(lower: str) -> bool:
    return lower in ADVERBS or (lower.endswith("ly") and lower not in _LY_VERBS)


def _is_base_verb(word: str) -> bool:
    lower = word.lower()
    return (
        lower.isalpha()
        and word[:1].islower()
        and lower not in PAST_FORMS
        and (lower in _PREFIXED_BASE or not _PREFIXED_PAST.match(lower))
        and lower not in MODALS
        and lower not in _NOT_VERBS
        and lower not in ADVERBS
        and (not lower.endswith("ed") or lower in _ED_VERBS)
        and not (lower.endswith("ing") and len(lower) > 5)  # "bring", "sing" are verbs
    )


def _agree(s: _Sentence, subject: int, *, plural_before: bool) -> None:
    """Fix the verb after a resolved singular subject at ``subject``."""
    if plural_before:
        return
    j = s.next_word(subject, skip_adverbs=True)
    if j == -1:
        return
    # a verb joined by hyphens agrees as one word, by its last part: "test-drove" stays,
    # "double-check" -> "double-checks"
    j = s.compound_end(j)
    verb = s.tokens[j]
    lower = verb.lower().replace("’", "'")
    if lower in _AGREEMENT:
        s.tokens[j] = _AGREEMENT[lower]
    elif _is_base_verb(verb):
        s.tokens[j] = third_person(verb)


def _contracted(s: _Sentence, i: int, name: str, tail: str) -> bool:
    """Handle "I'm", "you're", "I'd" ...: returns True when the token was rewritten."""
    tail = tail.lower()
    if tail == "d":
        j = s.next_word(i, skip_adverbs=True)
        nxt = s.tokens[j].lower() if j != -1 else ""
        helper = "had" if nxt in _PARTICIPLES or nxt.endswith("ed") else "would"
        s.tokens[i] = f"{name} {helper}"
        return True
    if tail in _CONTRACTIONS:
        s.tokens[i] = f"{name} {_CONTRACTIONS[tail]}"
        return True
    return False


#: spaCy docs of texts (:meth:`ripplemem.write.entities.EntityRecognizer.parse`)
Parse = Callable[[Sequence[str]], list[Any]]


def resolve_speakers(
    sentence: str, speaker: str, addressee: str | None, *, parse: Parse | None = None
) -> Resolved:
    """Replace first-person references by ``speaker`` and second-person ones by ``addressee``;
    a sentence in another language as it is (:mod:`ripplemem.language`). With ``parse``, a
    subject whose agreeing auxiliary or verb the words alone do not place is agreed by the
    sentence's parse (parsed once, only then)."""
    if in_other_language(sentence):
        return Resolved(sentence, False, False)
    s = _Sentence(sentence, parse)
    speaker_subject = False
    addressee_used = False
    quoted = _quoted(s.tokens, sentence) if quotes.has_quote(sentence) else set()
    for i, token in enumerate(s.tokens):
        if i in quoted or not token[:1].isalpha():
            continue
        parts = re.split(r"['’]", token, maxsplit=1)
        head, tail = parts[0].lower(), (parts[1] if len(parts) > 1 else "")
        if head == "i" and token[:1] == "I":
            before = s.prev_word(i)
            prev = s.original[before].lower().replace("’", "'") if before != -1 else ""
            if tail and _contracted(s, i, speaker, tail):
                if prev not in _INVERTING:
                    speaker_subject = True
                    _agree_coordinated(s, i)
                continue
            if tail:
                continue
            s.tokens[i] = speaker
            if prev in _INVERTING and _question_order(s, before):  # "am I", "do I"
                s.tokens[before] = _match_case(s.tokens[before], _INVERTING[prev])
            elif prev not in _AUXILIARIES:
                plural = prev == "and" and _joined_subject(s, before, speaker)
                _agree(s, i, plural_before=plural)
                if not plural:
                    _agree_coordinated(s, i)
                speaker_subject = True
            else:  # "Which gym do I ...": the parse finds the auxiliary
                _agree_by_parse(s, i, "i")
        elif head in ("me",) and not tail:
            s.tokens[i] = speaker
        elif head in ("my", "mine") and not tail:
            s.tokens[i] = _possessive(speaker)
        elif head == "myself" and not tail:
            _reflexive(s, i, speaker, otherwise=speaker)
        elif addressee and head in ("you", "your", "yours", "yourself") and not tail:
            if _second_person(s, i, head, addressee):
                addressee_used = True
        elif addressee and head == "you" and tail and tail.lower() in ("re", "ve", "ll", "d"):
            if _generic_you(s, i):
                continue
            _contracted(s, i, addressee, tail)
            addressee_used = True
    return Resolved(s.text(), speaker_subject, addressee_used)


def _quoted(tokens: list[str], sentence: str) -> set[int]:
    """Positions of the tokens that lie in a quoted span (:mod:`ripplemem.write.quotes`)."""
    spans = quotes.quoted_spans(sentence)
    positions: set[int] = set()
    offset = 0
    for i, token in enumerate(tokens):
        if quotes.inside(offset, spans):
            positions.add(i)
        offset += len(token)
    return positions


def _question_order(s: _Sentence, auxiliary: int) -> bool:
    """Whether the auxiliary opens a question clause ("Are you ...", "What do I ...") rather
    than following a verb ("to have you")."""
    j = s.prev_word(auxiliary)
    return j == -1 or s.original[j].lower() in _WH_WORDS


def _joined_subject(s: _Sentence, conjunction: int, speaker: str) -> bool:
    """Whether the words before "and" are a short noun phrase ("my husband and I"), not a
    clause of their own ("I go hiking and I ...", where the first "I" is already resolved)."""
    words: list[str] = []
    j = s.prev_word(conjunction)
    while j != -1 and s.original[j].lower() not in _CLAUSE_STARTERS:  # "... till Toby and I"
        words.append(s.tokens[j])
        j = s.prev_word(j)
    if not words or len(words) > 4:
        return False
    return not any(
        w == speaker
        or w.startswith(speaker + " ")
        or w.lower() in PAST_FORMS
        or w.lower() in _AUXILIARIES
        or w.lower() in _CLAUSE_STARTERS
        or w.lower().endswith(("ed", "ing"))
        for w in words
    )


def _match_case(original: str, replacement: str) -> str:
    return replacement[:1].upper() + replacement[1:] if original[:1].isupper() else replacement


def _generic_you(s: _Sentence, i: int) -> bool:
    """ "you guys", "you all", "you two": plural; "you know" as a filler; "thank you" stays."""
    j = s.next_word(i)
    nxt = s.tokens[j].lower() if j != -1 else ""
    if nxt in ("guys", "all", "two", "both", "folks", "people"):
        return True
    before = s.prev_word(i)
    prev = s.original[before].lower() if before != -1 else ""
    if prev == "thank":
        return True
    return nxt == "know" and not prev and s.next_word(j) == -1  # "You know, ..." / ", you know?"


def _reflexive(s: _Sentence, i: int, name: str, *, otherwise: str | None = None) -> None:
    """ "myself" / "yourself" -> "themself" once the sentence names the person before it
    ("Caroline did it themself"). With no such name, "myself" is still the speaker ("great for
    expressing myself" -> "expressing Caroline": ``otherwise``); "yourself" is an imperative's or
    anyone's ("Enjoy yourself!", "Taking time for yourself is important") and stays as written:
    "Be themself." would be no one's words."""
    if any(s.tokens[j] != s.original[j] and s.tokens[j].startswith(name) for j in range(i)):
        s.tokens[i] = "themself"
    elif otherwise is not None:
        s.tokens[i] = otherwise


def _second_person(s: _Sentence, i: int, head: str, addressee: str) -> bool:
    if head == "your" or head == "yours":
        s.tokens[i] = _possessive(addressee)
        return True
    if head == "yourself":
        _reflexive(s, i, addressee)
        return True
    if _generic_you(s, i):
        return False
    before = s.prev_word(i)
    prev = s.original[before].lower().replace("’", "'") if before != -1 else ""
    name = addressee
    s.tokens[i] = name
    after = s.next_word(i, skip_adverbs=True)
    nxt = s.tokens[after].lower().replace("’", "'") if after != -1 else ""
    if prev in _INVERTING and _question_order(s, before):  # "are you" -> "is Melanie"
        s.tokens[before] = _match_case(s.tokens[before], _INVERTING[prev])
    elif re.match(r"^(?:how|what|where|who|why|when)'re$", prev):  # "how're you" -> "how's"
        s.tokens[before] = s.original[before][:-3] + "'s"
    elif prev == "" or prev in _CLAUSE_STARTERS or prev in _SUBJECT_AFTER or nxt in _INVERTING:
        _agree(s, i, plural_before=False)
    else:  # "Which gym do you go to?", "How old are you?"
        _agree_by_parse(s, i, "you")
    return True


#: the words that join two verbs of one subject ("I live in Leeds and work in Bradford")
_COORDINATORS = _word_set("and or but nor")


def _agree_coordinated(s: _Sentence, i: int) -> None:
    """Agree the verbs coordinated with the verb of the first-person subject at ``i``, which
    share that subject, as the sentence's parse joins them: "I live in Leeds and work in
    Bradford" -> "Maya lives in Leeds and works in Bradford", "I don't drink and don't smoke" ->
    "... doesn't drink and doesn't smoke". A coordinated verb with a subject of its own ("and
    she works"), in the past or after a modal stays as it is; so does every plain verb after a
    pronoun that is no such conjunct (agreeing those cost LoCoMo recall, see
    :func:`_agree_by_parse`). Parsed only when a coordinating word follows the subject."""
    if not _may_coordinate(s, i):
        return
    doc = s.doc()
    if doc is None:
        return
    offset = s.offset(i)
    word = next((t for t in doc if t.idx == offset and t.lower_ == "i"), None)
    if word is None or word.dep_ != "nsubj" or word.head.i == word.i:
        return
    head = word.head
    own = _finite(head)
    if own.tag_ != "VBP":  # "I went ... and", "I will go and see": nothing to agree
        return
    if head.dep_ in ("relcl", "pcomp", "acl"):  # "the chances I get and ...", "what I believe
        return  # in and reach out": the parse's conjunct is as often the outer clause's verb
    positions = {s.offset(j): j for j in range(len(s.original)) if s.is_word(j)}
    pending = [c for c in head.children if c.dep_ == "conj"]
    while pending:
        verb = pending.pop()
        pending.extend(c for c in verb.children if c.dep_ == "conj")
        if verb.pos_ not in ("VERB", "AUX") or any(
            c.dep_ in ("nsubj", "nsubjpass", "expl") for c in verb.children
        ):
            continue
        finite = _finite(verb)
        if (
            finite.tag_ not in ("VB", "VBP")  # "and loved it", "and will dive"
            or finite.lower_ == "be"  # "... to join the group and be advocates"
            or (finite is verb) != (own is head)  # "I'm gonna chat, get support": the aux's
            or not _right_after_coordinator(finite)  # "and things are looking up"
        ):
            continue
        j = positions.get(finite.idx, -1)
        if j == -1 or s.tokens[j] != s.original[j]:
            continue
        lower = s.original[j].lower().replace("’", "'")
        if lower in _AGREEMENT:
            s.tokens[j] = _match_case(s.tokens[j], _AGREEMENT[lower])
        else:
            j = s.compound_end(j)
            if _is_base_verb(s.original[j]):
                s.tokens[j] = third_person(s.original[j])


def _may_coordinate(s: _Sentence, i: int) -> bool:
    """Whether a coordinating word after the subject at ``i`` is followed (adverbs passed) by a
    word that could agree ("and work", "and don't"): without one the sentence is not parsed (a
    parse of its own costs some 7 ms, and most "and"s join no verb of the subject)."""
    words = [j for j in range(i + 1, len(s.original)) if s.original[j].strip()]
    for at, j in enumerate(words):
        if s.original[j].lower() not in _COORDINATORS:
            continue
        for k in words[at + 1 :]:
            lower = s.original[k].lower().replace("’", "'")
            if _is_adverb(lower):
                continue
            if lower in _AGREEMENT or _is_base_verb(s.original[k]):
                return True
            break
    return False


def _right_after_coordinator(word: Any) -> bool:
    """Whether ``word`` follows a coordinator or a comma, with at most adverbs between ("and
    work", ", visit", "and then turn"): a conjunct with words of its own before its verb ("and
    things are", "and networking non-stop") is no verb of the same subject, however parsed."""
    j = word.i - 1
    while j >= 0 and word.doc[j].pos_ in ("ADV", "PART") and word.doc[j].lower_ not in ("to",):
        j -= 1
    return j >= 0 and (word.doc[j].lower_ in _COORDINATORS or word.doc[j].text == ",")


def _finite(verb: Any) -> Any:
    """The token of ``verb``'s clause that agrees with its subject: its first auxiliary, else
    the verb itself."""
    return min(
        [c for c in verb.children if c.dep_ in ("aux", "auxpass")] + [verb], key=lambda t: t.i
    )


def _agree_by_parse(s: _Sentence, i: int, pronoun: str) -> None:
    """Agree the auxiliary of the subject pronoun at ``i`` with a singular name, as the
    sentence's parse places it: the first of its verb's auxiliaries and the verb itself ("do" of
    "Which gym do you go to", "are" of "How old are you"). A pronoun that is no subject ("I saw
    you"), or that is joined to another ("you and Tom"), and a past or modal form ("did", "can")
    stay as they are. A plain present verb after the pronoun ("the gym you go to") stays too:
    agreeing it ("the gym Maya goes to") changed about 40 of LoCoMo dev's 11,700 sentences and cost
    its ripple recall (@5 69.9 -> 69.5, @10 78.5 -> 78.1, @30 86.9 -> 86.8)."""
    doc = s.doc()
    if doc is None:
        return
    offset = s.offset(i)
    word = next((t for t in doc if t.idx == offset and t.lower_ == pronoun), None)
    if word is None or word.dep_ != "nsubj" or any(c.dep_ == "conj" for c in word.children):
        return
    verb = word.head
    if verb.i == word.i:
        return
    finite = _finite(verb)
    positions = {s.offset(j): j for j in range(len(s.original)) if s.is_word(j)}
    j = positions.get(finite.idx, -1)
    if j == -1 or s.tokens[j] != s.original[j]:
        return
    lower = s.original[j].lower().replace("’", "'")
    if lower in _INVERTING:
        s.tokens[j] = _match_case(s.tokens[j], _INVERTING[lower])
