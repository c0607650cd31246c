"""Third-person pronouns resolved to a name, only when the referent is unambiguous.

The paper asks for speaker references resolved to explicit names and for fields left empty
rather than invented. :mod:`ripplemem.write.restate` resolves "I" and "you"; this stage resolves
"she", "her", "hers", "he", "him" and "his" in a restatement to a person named just before it:

* the candidates are the people (not the speakers) named earlier in the same turn, or in the
  :data:`LOOKBACK_TURNS` turns before it in the session, or referred to there by a pronoun this
  stage resolved (a pronoun is a mention of its referent, so a chain of "she"s carries on);
* a pronoun is resolved only when there is exactly one candidate and nothing competes with it:
  no person mentioned without a name ("my brother", "a friend", "someone", "her mom": a singular
  person noun that is not said of a name, as in "my sister Priya", "Tom, my teacher", "someone
  named David", "Rowling is a writer"; a plural is no antecedent of a singular pronoun) and no
  pronoun of the other gender in the same turn or the turns before it (with one named person,
  "he" and "she" cannot both be that person, and we cannot tell which one is). We keep no
  gender lexicon: nothing guesses whether a name is a "he".
  An unnamed person in an earlier turn does not compete with a name the speaker gives in the
  current turn before the pronoun ("Who was that actress?" - "Emma Watson, she's ..."): the
  newest name is the focus; in the same turn any unnamed person competes;
* the speakers are never candidates: in a two-person chat "she" is rarely the addressee, and "I"
  and "you" are resolved already;
* "they" is left alone (singular or plural, it cannot be told apart without a parser), and so
  are "himself" / "herself" (their referent is the subject of the clause, already named);
* words in double quotes (a title, someone else's words: :mod:`ripplemem.write.quotes`) stay as
  written and neither resolve nor compete ("She Loves You", "make him an offer he can't refuse").

``LOOKBACK_TURNS = 2``: in an alternating chat the two turns before a turn are the last turn of
each speaker (a question and its answer, or a mention and the reply to it), where most antecedents
of a dialogue pronoun are; it is also the segmenter's window overlap, so the turns it looks back
at are always in the window, and where windows are cut does not change a resolution.

Rewriting: "she"/"he"/"him" become the name, "his"/"hers" the possessive ("Maya's"), "her" the
name before a word that starts a new phrase ("for her this year", "sends her to"), after "let",
"watch" or "hear", or at the end of a clause, else the possessive ("her birthday").
Contractions are spelled out ("he's gone" -> "Max has gone", "she'll" -> "Maya will"). A pronoun
right after the name and a comma stays ("Emma Watson, she's ..."), its referent still counted.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ripplemem.language import in_other_language
from ripplemem.statements.clauses import PEOPLE_NOUNS
from ripplemem.write import quotes

LOOKBACK_TURNS = 2


def _word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


_FEMININE = _word_set("she her hers")
_MASCULINE = _word_set("he him his")
_REFLEXIVE = _word_set("herself himself")
#: a noun for a person or a pet (he / she may stand for it): the statements layer's people and
#: the pets
PERSON_NOUNS = PEOPLE_NOUNS | _word_set("dog puppy cat kitten pet horse pup")
_APPOSITION_WORDS = 3  # "Tom, my pottery teacher", "Rowling is such an inspiring writer"
_COPULAS = _word_set("is was 's ’s")
_NOT_APPOSITION = _word_set("and or with of but nor to from for by than")
_PHRASE_STARTERS = _word_set(
    """to at in on into onto for from with by about of off out up down back over around away
    through after before during since until till like as than and or but so because if when
    while that this these those a an the some every each last next today tonight tomorrow
    yesterday now then again too also already still yet even just all both here there know
    what how why where who is was will would can could should might must have has had feel
    feels felt"""
)
_BEFORE_OBJECT = _word_set(
    "let lets letting watch watches watched watching hear hears heard hearing"
)  # "let her go", "watch her grow": "her" then a bare verb (not after "help": "help her career")
_HAS_BEFORE = _word_set("been got gotten had done gone seen made taken given become found")
_EXPANSIONS = {"s": "is", "d": "would", "ll": "will"}
#: a word, in letters of any alphabet ("näher" is one word, not "nä" and "her")
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*(?:-[^\W\d_]+)*")
_NAMING = re.compile(r"\s+(?:named|called)\s+$")


@dataclass(frozen=True, slots=True)
class Mentions:
    """Who a stretch of dialogue mentions, as far as resolving a later pronoun is concerned."""

    people: tuple[str, ...] = ()  # people (not speakers) named or resolved, first mention first
    unnamed: bool = False  # a person mentioned without a name ("my brother", "someone")
    genders: frozenset[str] = frozenset()  # "she" / "he": the pronoun families used

    def merged(self, other: Mentions) -> Mentions:
        """Both stretches' mentions (``other`` the later one)."""
        return Mentions(
            tuple(dict.fromkeys((*self.people, *other.people))),
            self.unnamed or other.unnamed,
            self.genders | other.genders,
        )


@dataclass(frozen=True, slots=True)
class ThirdPerson:
    """A text with its third-person pronouns resolved, and what it mentions."""

    text: str
    referents: tuple[str, ...]  # the people its pronouns were resolved to
    mentions: Mentions  # what the text itself mentions (for the pronouns of later texts)


@dataclass(frozen=True, slots=True)
class Passage:
    """One text of a session in order: a piece of the restatement of turn number ``turn``."""

    turn: int  # position of its turn in the session (or window)
    text: str
    people: tuple[str, ...]  # people the recogniser found in it (speakers included or not)


@dataclass(slots=True)
class _Scan:
    people: dict[str, None] = field(default_factory=dict)
    unnamed: bool = False
    genders: set[str] = field(default_factory=set)


def genders_of(text: str) -> frozenset[str]:
    """The third-person pronoun families ("she", "he") a text uses outside quotes (a title's
    "She Loves You" mentions nobody of the conversation)."""
    spans = quotes.quoted_spans(text)
    found = (
        _gender(m.group().lower().replace("’", "'").split("'", 1)[0])
        for m in _WORD.finditer(text)
        if not spans or not quotes.inside(m.start(), spans)  # most texts have no quotes
    )
    return frozenset(g for g in found if g)


def _gender(head: str) -> str | None:
    if head in _FEMININE or head == "herself":
        return "she"
    if head in _MASCULINE or head == "himself":
        return "he"
    return None


def _person_noun(word: str) -> bool:
    """ "friend", "friend's", "Iron Man" (a name the recogniser missed competes too): one person
    mentioned by a common noun. Plurals ("my kids") are no antecedent of a singular pronoun."""
    return word.lower().replace("’", "'").split("'", 1)[0] in PERSON_NOUNS


def _same_person(name: str, other: str) -> bool:
    """ "Maya" and "Maya Lopez" (a name and a longer form of it) are one person."""
    short, long = sorted((name.casefold().split(), other.casefold().split()), key=len)
    return short == long or (len(short) == 1 and short[0] in (long[0], long[-1]))


def _distinct(names: Iterable[str]) -> list[str]:
    """People once each; a longer form of a name stands for both."""
    out: list[str] = []
    for name in names:
        same = [i for i, kept in enumerate(out) if _same_person(name, kept)]
        if not same:
            out.append(name)
        elif len(name.split()) > len(out[same[0]].split()):
            out[same[0]] = name
    return out


def _name_spans(text: str, names: Iterable[str]) -> list[tuple[int, int, str]]:
    """Where each name occurs in ``text`` (every occurrence, case-insensitive, whole words)."""
    spans = []
    for name in names:
        pattern = re.compile(r"(?<![\w'’])" + re.escape(name) + r"(?!\w)", re.IGNORECASE)
        found = [(m.start(), m.end(), name) for m in pattern.finditer(text)]
        spans.extend(found or [(0, 0, name)])  # not found as written: mentioned from the start
    return sorted(spans)


def _apposition(text: str, start: int, end: int, spans: list[tuple[int, int, str]]) -> bool:
    """Whether the person noun at ``start:end`` describes a name next to it ("my sister
    Priya", "The teacher, Tom", "someone named David", "Tom, my pottery teacher", "Rowling is
    an inspiring writer"), rather than another person."""
    for s, e, _ in spans:
        if e == s:
            continue
        if s >= end:
            between = text[end:s]
            if re.fullmatch(r",?\s*", between) or _NAMING.match(between):
                return True  # "sister Priya", "The teacher, Tom", "someone named David"
        elif e <= start:
            words = [w.lower().replace("’", "'") for w in _WORD.findall(text[e:start])]
            comma = text[e:start].lstrip().startswith(",")
            copula = bool(words) and words[0] in _COPULAS and not comma
            if copula:
                words = words[1:]
            if (
                (comma or copula)
                and len(words) < _APPOSITION_WORDS + copula
                and not any(w in _NOT_APPOSITION for w in words)
            ):
                return True  # "Tom, Alex's pottery teacher", "Rowling is an inspiring writer"
    return False


def _rewrite(token: str, head: str, name: str, before: str, after: str) -> str:
    if head in ("his", "hers"):
        return f"{name}'s"
    if head == "her":
        following = _WORD.match(after.lstrip())
        previous = _WORD.findall(before[-20:])
        is_object = (
            following is None
            or not after[:1].isspace()  # "her." / "her," / "her!"
            or following.group().lower() in _PHRASE_STARTERS
            or (bool(previous) and previous[-1].lower() in _BEFORE_OBJECT)
        )
        return name if is_object else f"{name}'s"
    tail = token[len(head) + 1 :].lower()
    if tail in _EXPANSIONS:  # "he's" -> "Max is", "she'd moved" -> "Maya had moved"
        following = _WORD.match(after.lstrip())
        nxt = following.group().lower() if following else ""
        perfect = nxt in _HAS_BEFORE or (tail == "d" and nxt.endswith("ed"))
        helper = {"s": "has", "d": "had"}[tail] if perfect and tail != "ll" else _EXPANSIONS[tail]
        return f"{name} {helper}"
    return name


def resolve_third_person(
    text: str,
    people: Sequence[str],
    *,
    speakers: Sequence[str],
    context: Mentions = Mentions(),
    turn: Mentions = Mentions(),
) -> ThirdPerson:
    """Resolve the third-person singular pronouns of ``text`` against the people named in it
    before each pronoun (``people``: the recogniser's names), in the earlier texts of its ``turn``
    and in the turns before (``context``)."""
    named = [p for p in dict.fromkeys(people) if not any(_same_person(p, s) for s in speakers)]
    spans = _name_spans(text, named)
    described = sorted(spans + _name_spans(text, speakers))  # "when Audrey was a kid"
    own = _Scan(dict.fromkeys(turn.people), turn.unnamed, set(turn.genders | genders_of(text)))
    out: list[str] = []
    referents: dict[str, None] = {}
    cursor = 0
    pending = iter(spans)
    upcoming = next(pending, None)
    quoted = quotes.quoted_spans(text)  # a title's or someone else's words stay as written
    foreign = in_other_language(text)  # "her" is "here" in Danish: names are still met
    for match in _WORD.finditer(text):
        while upcoming is not None and upcoming[0] <= match.start():
            own.people.setdefault(upcoming[2], None)
            upcoming = next(pending, None)
        if quoted and quotes.inside(match.start(), quoted):
            continue
        token = match.group()
        lower = token.lower().replace("’", "'")
        head = lower.split("'", 1)[0]
        gender = None if foreign else _gender(head)
        if gender is None:
            if _person_noun(token) and not _apposition(text, match.start(), match.end(), described):
                own.unnamed = True
            continue
        candidates = _distinct((*context.people, *own.people))
        other = "he" if gender == "she" else "she"
        unambiguous = (
            len(candidates) == 1
            and not own.unnamed
            and not (context.unnamed and not own.people)  # the speaker named them just now
            and other not in context.genders
            and other not in own.genders
        )
        if not unambiguous or head in _REFLEXIVE:
            continue
        name = candidates[0]
        referents.setdefault(name, None)
        own.people.setdefault(name, None)
        if re.search(re.escape(name) + r",\s*$", text[: match.start()]):
            continue  # "Emma Watson, she's ...": the name is right there
        out.append(text[cursor : match.start()])
        out.append(_rewrite(token, head, name, text[: match.start()], text[match.end() :]))
        cursor = match.end()
    out.append(text[cursor:])
    while upcoming is not None:
        own.people.setdefault(upcoming[2], None)
        upcoming = next(pending, None)
    mentions = Mentions(tuple(own.people), own.unnamed, frozenset(own.genders))
    return ThirdPerson("".join(out), tuple(referents), mentions)  # ``turn`` included


def resolve_passages(
    passages: Sequence[Passage], *, speakers: Sequence[str], lookback: int = LOOKBACK_TURNS
) -> list[ThirdPerson]:
    """Resolve a session's passages in order, each against its own turn so far and the
    ``lookback`` turns before it."""
    turn_genders: dict[int, frozenset[str]] = {}
    for passage in passages:  # "he" and "she" anywhere in a turn: two people
        turn_genders[passage.turn] = turn_genders.get(passage.turn, frozenset()) | genders_of(
            passage.text
        )
    results: list[ThirdPerson] = []
    recent: deque[tuple[int, Mentions]] = deque()  # (turn, what it mentions), oldest first
    for passage in passages:
        while recent and recent[0][0] < passage.turn - lookback:
            recent.popleft()
        current = recent.pop()[1] if recent and recent[-1][0] == passage.turn else Mentions()
        current = Mentions(current.people, current.unnamed, turn_genders[passage.turn])
        context = Mentions()
        for _, mentions in recent:
            context = context.merged(mentions)
        result = resolve_third_person(
            passage.text, passage.people, speakers=speakers, context=context, turn=current
        )
        results.append(result)
        recent.append((passage.turn, result.mentions))
    return results
