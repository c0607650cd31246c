"""Time grounding: map time expressions in a text to intervals, against a reference time.

Our own rules (:mod:`ripplemem.grounding.time_rules`) run first and mask what they cover; Duckling
(``pyduckling-native-phihos``) does the rest. Its results are cleaned: generic plurals ("on
Fridays", "weekends"), bare ordinals and words it reads as times but are not ("boy") are dropped;
bare clock times ("at 7") stay ungrounded; a yearless date or bare weekday ("in March", "on
Friday") goes to the past or future occurrence by the tense of its sentence, else the nearest.
With ``reference=None`` only absolute expressions ground: a parse is trusted only when two
far-apart reference times give the same interval. Numbers that are not times ("2 kids", "3 times",
"25 years old") give nothing, and texts with no time-ish word skip Duckling entirely.
"""

from __future__ import annotations

import calendar
import logging
import re
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import partial
from pathlib import Path

from ripplemem import deadline
from ripplemem.grounding.duckling_process import (
    ZONEINFO,
    DucklingProcess,
    NativeParserError,
    Parsed,
)
from ripplemem.grounding.foreign_anaphora import (
    month_language,
    named_weekday,
    names_a_month,
    weekday_language,
)
from ripplemem.grounding.time_patterns import (
    BARE_DEFINITE,
    COMPLEMENTIZER,
    COUNT_BEFORE_EVENT,
    DAY_ANCHOR,
    EVENT_WORDS,
    GENERIC_PLURAL,
    MONTH_RE,
    NOT_PAST,
    ORDINAL_DAY,
    ORDINAL_ONLY,
    PAST,
    SHORT_WEEKDAY,
    TIMEISH,
    WEEKDAYS,
    arranged_for,
    bare_bounds,
    before,
    count_of,
    expand_weekdays,
    mistyped_days,
    original_offset,
    phrase_tense,
    relative_day_language,
    tense_clause,
)
from ripplemem.grounding.time_rules import (
    Found,
    GroundedTime,
    ground_anaphora,
    offset_from,
    rule_times,
)
from ripplemem.grounding.time_spans import (
    SECOND,
    day_span,
    month_span,
    occurrence,
    shift_months,
    week_span,
    year_span,
)
from ripplemem.language import (
    FUNCTION_WORDS,
    english_words,
    habitual_in,
    language_of,
    own_clause_in,
    since_in,
    tense_in,
    unit_grain,
    year_after,
)
from ripplemem.records import TimeSpan

__all__ = [
    "GroundedTime",
    "Grounding",
    "ParseBudget",
    "TimeGrounder",
    "default_grounder",
    "ground_times",
    "parse_budget",
    "query_grounder",
    "request_parse_budget",
    "sentence_chunks",
]

log = logging.getLogger(__name__)
#: the longest text Duckling parses at once: a sentence, or a piece of a longer one
CHUNK_CHARS = 300
#: a sentence's parse past this is stopped (a normal one takes 1-10 ms; see duckling_process.py)
PARSE_TIMEOUT_S = 0.5
#: the parsing one text may take in all (a 4,000-character query holds a few dozen sentences)
TEXT_BUDGET_S = 1.0
#: the parsing one request (an ``add``) may take in all: a base, plus so much per 1,000 characters
#: of its text. Ordinary dialogue needs ~0.01 s per 1,000 characters (LoCoMo: 0.6 s for 58k).
REQUEST_BUDGET_S = 2.0
REQUEST_BUDGET_S_PER_1000_CHARS = 0.05
#: the share of what is left of a call's time budget (a server's per-request CPU budget) the time
#: parser may spend: the rest is kept for the other stages, so a time-dense text is grounded by
#: the rules rather than making the call run out of its budget
PARSER_SHARE = 0.5
_MIN_PARSE_S = 0.01
# a sentence ends at . ! ? (then a space and a capital, a quote or a non-Latin letter), at a line
# break, or at a full stop of Chinese / Japanese (no space follows those); "Dec. 3" stays whole,
# and so does a day written as an ordinal with a full stop ("am 3. März", "den 5. maj")
_SENTENCE_BREAK = re.compile(
    r"(?<!(?<![\w.])\d)(?<!(?<![\w.])\d\d)"
    r"[.!?…]+[\"'”’)\]]*\s+(?=[\"'“‘(\[]?[A-Z\u00c0-\u024f]|[^\x00-\u024f])|\n+|[。！？!?]+"
)
#: a season as a time of its own starts with a preposition or "the" ("in the spring", "the
#: winter") and ends where its noun phrase does: the end, a mark, a function word or "season(s)",
#: "month(s)" ("during the winter months"); not "winter clothes", "the summer of '21"
_SEASON_LEAD = re.compile(r"\b(?:in|during|for|over|through|by|at|about|the)\s+$", re.IGNORECASE)
_SEASON_WORD = re.compile(r"summer|winter|spring|fall|autumn", re.IGNORECASE)
_AFTER_SEASON = re.compile(
    r"^(?:\s*$|\s*[,.;:!?)—–]|\s+(?:and|or|but|so|then|when|while|because|as|since|until|before|after|"
    r"with|to|at|in|on|for|from|by|i|we|you|he|she|they|it|is|was|will|season|seasons|months?)\b)",
    re.IGNORECASE,
)
_BARE_SEASON = re.compile(  # a date only by its clause's tense (TimeGrounder._season)
    r"^(?:(?:about|in|during|for|over|at|by|through) )?(?:the )?"
    r"(?:summer|winter|spring|fall|autumn)$",
    re.IGNORECASE,
)
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
#: a month's name: a span that names one and no year recurs every year ("from 3 to 7 April")
_MONTH = re.compile(r"\b(?:" + MONTH_RE + r")\b", re.IGNORECASE)
#: a holiday on a fixed day of the calendar: like a month's name, a span of such holidays and no
#: year recurs every year, on the same days ("between Christmas and New Year"; not Easter or
#: Thanksgiving, whose day moves from year to year)
_HOLIDAY = re.compile(r"\b(?:christmas|xmas|new year['’]?s?|halloween|valentine['’]?s)\b", re.IGNORECASE)
#: an open span from a time up to now
_SINCE = re.compile(r"(?:ever\s+)?since\b", re.IGNORECASE)
#: the words of an onset: when a change starts ("from Friday", "starting in March")
_ONSET = re.compile(r"(?:from|starting(?:\s+(?:from|in|on))?|beginning(?:\s+(?:in|on))?|as of)\b", re.IGNORECASE)
#: a day of the month by its ordinal ("on the 14th"), as the whole phrase
_ON_THE_DAY = re.compile(rf"^{ORDINAL_DAY}$", re.IGNORECASE)
#: "the 11th" after a preposition of time ("booked the vet for the 11th", "until the 20th")
_THE_DAY = re.compile(r"^the (?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)$", re.IGNORECASE)
_DAY_PREPOSITION = re.compile(r"\b(?:on|for|to|until|till|by|from|since|before|after|of)\s+$", re.IGNORECASE)
#: what may follow such a day: the end, punctuation, a function word (a time, "of" a month, a
#: conjunction, an auxiliary, a pronoun), a verb
_AFTER_DAY = re.compile(
    r"^\s*(?:$|[,.;:!?)—–-]|(?:at|of|and|or|but|so|when|in|on|for|to|from|until|till|by|with|before|"
    r"after|instead|then|too|again|if|which|that|who|because|since|as|is|was|will|would|should|could|"
    r"can|must|might|may|has|had|have|does|did|do|are|were|be|i|we|you|he|she|they|it|my|our|your|"
    r"his|her|their|this|next|last|please)\b"
    # or a verb in the present ("my flight on the 29th needs"): a noun an ordinal counts is one
    # ("the 2nd floor", "the 3rd try")
    r"|\w*[^\Ws]s\b)",
    re.IGNORECASE,
)
#: words that set a span's year themselves ("between June and August last year")
_RELATIVE_YEAR = re.compile(r"\b(?:last|next|this)\s+year\b|\byears?\s+ago\b", re.IGNORECASE)
_HABITUAL = re.compile(
    r"\b(?:every|each)\s+(?:(?:other|second|third|fourth|alternate)\s+)?$", re.IGNORECASE
)
#: French and Italian put the definite article before a weekday for a habit ("le mardi", "il
#: martedì": on Tuesdays; the day itself goes without it: "mardi", "martedì")
_ARTICLE_HABIT = {
    "fr": re.compile(r"\ble\s+\w", re.IGNORECASE),
    "it": re.compile(r"\bil\s+\w", re.IGNORECASE),
}
#: the grains a count of units can widen a day to, finest first
_COARSER = ("day", "week", "month", "year")
#: the languages whose time parser ends a range of months or years where its last one begins
#: (:func:`_with_last_unit`)
_RANGE_ENDS_BEFORE_LAST = frozenset({"es"})
#: a unit of time after "last", which a possessor before it makes the final one of something
#: ("my last day at the old job", "our last night in Rome", "Ana's last week there"), not the
#: one before the reference
_FINAL = re.compile(r"^last\s+(?:day|night|week|weekend|month|year|summer|winter|autumn|spring)$", re.IGNORECASE)
_POSSESSOR_BEFORE = re.compile(r"(?:\b(?:my|your|his|her|our|their)|\w['’]s)\s*$", re.IGNORECASE)
#: a number before "in" and a month: a count of something, not the month's day ("we had one
#: in March", "I ran 3 in May"; a day is "1 May", "May 1", "the first of May")
_COUNT_IN_MONTH = re.compile(r"^(?P<count>one|\d{1,2})\s+in\s+(?:" + MONTH_RE + r")\b", re.IGNORECASE)
#: the words for a person the parser reads as a holiday's name without its "day" ("my boss":
#: Boss's Day, "my valentine": Valentine's Day), hidden from it
_PEOPLE_AS_HOLIDAYS = re.compile(
    r"\bboss(?:es)?\b(?!['’]?s?\s+day)|(?:(?<=\bmy )|(?<=\bour )|(?<=\bhis )|(?<=\bher ))valentine\b", re.IGNORECASE
)
#: what a span our rules read is hidden from the parser with (:func:`_hidden`)
_HIDING = "|"
#: what may stand between a month and the year it is of, said apart ("em maio do ano passado",
#: "去年の5月", "No ano passado, em maio"): spaces, commas, and a preposition of a time or of
#: ("in", "em", "del", "do", "の"); not a conjunction ("last year, but tomorrow night": two times)
_JOINER = re.compile(
    r"[\s,、]*(?:(?:in|im|em|en|a|à|de|del|do|da|di|dell['’]|of|の)(?![^\W\d_]))?[\s,、]*", re.IGNORECASE
)
#: what joins the first and the last year of a range where the parser reads the two apart (Chinese)
_YEARS_JOINED = re.compile(r"\s*[到至]\s*")
#: the grains of a clock time (Duckling reads "7" in "de 7 a 11 de junho" as 7 o'clock)
_CLOCK_GRAINS = ("second", "minute", "hour")
#: a phrase that is only a number (Duckling's year), and the word after a phrase
_BARE_NUMBER = re.compile(r"^\d{4}$")
_THOUSANDS = re.compile(r"\d{1,3}(?:[.,’' ]\d{3})+")
#: a time told from now ("last quarter", "this quarter"): of the calendar
_RELATIVE = re.compile(r"^(?:(?:in|for|during|over) )?(?:the )?(?:last|this|next|previous|past|coming|current)\b", re.IGNORECASE)
#: two numbers joined by a hyphen and no year ("7-8 hours", "a 2-2 draw"): a range of counts or a
#: score; a numeric date is written with slashes or dots, or with its year ("2023-05-08")
_HYPHEN_PAIR = re.compile(r"(?<![\d/.-])\d{1,2}\s?[-–]\s?\d{1,2}(?![\d/.-])")
_ARTICLE_AS_DAY = re.compile(r"\s+(?:ein|eine|einen|einem|einer|un|une|una|uno|um|uma|een)(?:\s+paar)?$", re.IGNORECASE)
_PLURAL_WEEKDAY = re.compile(r"\b(?:" + WEEKDAYS + r")s\b", re.IGNORECASE)
#: "on a Sunday afternoon", "which is a Saturday": some Sunday, no particular day (read on the
#: phrase with the words before it; "on a Sunday afternoon last month" keeps its month)
_SOME_WEEKDAY = re.compile(
    r"\ban?\s+(?:" + WEEKDAYS + r")(?:\s+(?:morning|afternoon|evening|night))?$", re.IGNORECASE
)
_NEXT_WORD = re.compile(r"\s+([^\W\d_]+)")
#: another language's preposition of a goal right before a time ("la cita para el martes", "den
#: Termin auf Donnerstag verschoben", "pour lundi", "per lunedì", "naar maandag"): a time something
#: is meant or moved for, ahead whatever the clause's tense (as English "moved it to" does:
#: :func:`~ripplemem.grounding.time_patterns.arranged_for`)
_GOAL = re.compile(
    r"(?<!\w)(?:para|pra|pour|per|auf|für|naar)\s+(?:(?:el|la|le|il|lo|o|a|den|die|das)\s+)?(?:$|\s)", re.IGNORECASE
)
#: a time an arrangement was moved to in French, Italian and Spanish, whose "à", "a", "al" also
#: say where ("a avancé mon rendez-vous à jeudi", "ha spostato la visita a giovedì", "ha movido
#: la cita al jueves", "repoussée au 4 juin"): the participles of the verbs of moving a time, a
#: closed class, and the preposition right before the time (as English "moved it to Friday")
_ARRANGED_TO = re.compile(
    r"(?<!\w)(?:avancée?s?|repoussée?s?|décalée?s?|reportée?s?|déplacée?s?|"
    r"spostat[oaie]|rimandat[oaie]|anticipat[oaie]|posticipat[oaie]|"
    r"movid[oa]s?|pasad[oa]s?|aplazad[oa]s?|adelantad[oa]s?|cambiad[oa]s?|retrasad[oa]s?)"
    r"\b[^.;!?]{0,30}?\s(?:à|au|aux|a|al|alla|allo|ad)\s+(?:(?:le|la|il|el|lo)\s+)?$",
    re.IGNORECASE,
)
#: a form of avoir before "été": the participle of être ("a été repoussée"), not the summer
_BEEN = re.compile(r"(?<!\w)(?:a|ai|as|avons|avez|ont|avait|avaient|aurait|auraient|aura|auront)\s+été(?!\w)", re.IGNORECASE)
#: the words for last and next that follow a date in the Romance languages ("le 9 mai dernier",
#: "il 9 maggio scorso", "el 9 de mayo pasado", "le 12 mai prochain"): the latest such date not
#: after the day said, the first not before it (Duckling reads them a year off when that is recent)
_STEP_AFTER_DATE = {
    "fr": (frozenset({"dernier", "dernière"}), frozenset({"prochain", "prochaine"})),
    "it": (frozenset({"scorso", "scorsa"}), frozenset({"prossimo", "prossima"})),
    "es": (frozenset({"pasado", "pasada"}), frozenset({"próximo", "próxima"})),
    "pt": (frozenset({"passado", "passada"}), frozenset({"próximo", "próxima"})),
}
_LAST_WORD = re.compile(r"([^\W\d_]+)\W*$")
_FIRST_WORD = re.compile(r"^\s*([^\W\d_]+)")
#: "que viene" (that comes) after a Spanish weekday: "el próximo martes", next week's
_COMING = re.compile(r"\bque viene$", re.IGNORECASE)
_DIGIT = re.compile(r"\d")
#: a present copula right before a time (a word between at most, and a preposition or an article):
#: the time is what its subject is on ("The meeting is on 12/06", "Ma soutenance est prévue le
#: 21 novembre", "Der Termin ist am 7. März")
_COPULA_BEFORE = re.compile(
    r"(?:\b(?:is|are|ist|sind|est|sont|es|son|è|sono|é|são|zijn)|\b(?:it|that|this|he|she|there|which|who)['’]s|['’]re)"
    r"\s+(?:[^\W\d_]+\s+)?"
    r"(?:(?:on|for|am|le|la|el|il|lo|o|a|op|de|em|no|na|für|pour|para|per)\s+)?$",
    re.IGNORECASE,
)


#: a dash between two days, months or years ("6–12 May", "6th—12th May", "6.–12. Mai",
#: "2019–2021", "Monday–Friday"): a range, as Duckling reads one joined by a hyphen
_RANGE_DASH = re.compile(r"(?<=\S)(\s?)[–—](\s?)(?=\S)")
_DAY_NUMBER_END = re.compile(r"\d(?:st|nd|rd|th|\.)?$", re.IGNORECASE)
_TIME_NAME = re.compile(r"(?:" + WEEKDAYS + "|" + MONTH_RE + r")\.?$", re.IGNORECASE)
#: German articles between "zwischen", "und", "bis" and a day's number ("zwischen dem 6. und dem
#: 12. Mai"): Duckling reads the range without them
_GERMAN_DAY_ARTICLE = re.compile(
    r"(?:(?<=\bzwischen\s)|(?<=\d\.\sund\s)|(?<=\d\.\sbis\s))(?:dem|den|zum)\s(?=\d)", re.IGNORECASE
)


#: a weekday's kanji that starts a word after "から" or "まで" ("2月から日本語を": 日本語, no
#: Sunday): another kanji follows it, not one that makes it a time ("日曜", "月末", "月初")
_JAPANESE_WORD_AFTER_SPAN = re.compile(r"(?<=から|まで)[月火水木金土日](?=[\u4e00-\u9fff])(?![曜末初中頭])")


def _for_parser(text: str, language: str) -> str:
    """``text`` as Duckling reads its ranges, each character in its place: a dash between two
    times as a hyphen (:data:`_RANGE_DASH`), German articles before a range's days blanked, a
    Japanese word after a span's postposition that starts with a weekday's kanji masked
    (:data:`_JAPANESE_WORD_AFTER_SPAN`)."""
    def hyphen(m: re.Match[str]) -> str:
        left = text[max(0, m.start() - 12) : m.start()].split()
        right = text[m.end() : m.end() + 12].split()
        if not left or not right:
            return m.group()
        digits = _DAY_NUMBER_END.search(left[-1]) is not None and right[0][:1].isdigit()
        names = _TIME_NAME.match(left[-1]) is not None and _TIME_NAME.match(right[0].rstrip(",.;:!?")) is not None
        return m.group(1) + "-" + m.group(2) if digits or names else m.group()

    if "–" in text or "—" in text:
        text = _RANGE_DASH.sub(hyphen, text)
    if language == "de":
        text = _GERMAN_DAY_ARTICLE.sub(lambda m: " " * len(m.group()), text)
    if language == "ja":
        text = _JAPANESE_WORD_AFTER_SPAN.sub("\u3000", text)
    return text


def _predicated(text: str, start: int) -> bool:
    """Whether the time at ``start`` is what a present copula says its subject is on (:data:`_COPULA_BEFORE`)."""
    return _COPULA_BEFORE.search(text, max(0, start - 40), start) is not None
_HIRAGANA = re.compile(r"[\u3040-\u309f]")
_KANJI = re.compile(r"[\u4e00-\u9fff]")
_WEEKDAY_WORD = re.compile(r"\b(?:" + WEEKDAYS + r")\b", re.IGNORECASE)
#: the languages written without spaces between words: a find may touch letters on both sides
_UNSPACED = frozenset({"zh", "ja", "th"})
#: punctuation that closes a phrase, in any script
_CLOSING = ",;:.!?。，、！？"
# "my Sunday group rides", "the Friday night dinner": a weekday that names a kind of event (it
# stands between a determiner and the noun it modifies) is not a date
_BARE_WEEKDAY = re.compile(
    r"^(?:" + WEEKDAYS + r")(?: (?:morning|afternoon|evening|night))?$", re.IGNORECASE
)
_DETERMINER_BEFORE = re.compile(  # a possessive is a determiner too ("Rachel's Thursday morning class";
    # not a pronoun's "is": "it's Tuesday")
    r"(?:\b(?:my|your|his|her|our|their|its|the|a|an|usual|regular|weekly)"
    r"|\b(?!(?:it|that|what|there|here|he|she|who|where|when|today|tomorrow)['’]s)\w+['’]s)\s+$",
    re.IGNORECASE,
)
_NOUN_AFTER = re.compile(
    r"^\s+(?!(?:before|after|of|when|that|and|or|not|but|instead|i|we|you|he|she|they)\b)[a-z]", re.IGNORECASE
)
#: a time its sentence says it is not ("it's Tuesday not Monday", "nicht am Montag, sondern am
#: Dienstag", "pas lundi mais mardi", "no el lunes sino el martes"): each language's negation
#: right before it, a preposition or an article between at most (not "not until Monday": a bound)
_NEGATION = {  # with the copula after it where the negation goes before the verb ("no es el lunes")
    "en": r"not|isn['’]t|wasn['’]t|aren['’]t", "de": "nicht|kein|keinen", "fr": "pas|non",
    "es": r"no(?:\s+(?:es|era|fue|será))?", "it": r"non(?:\s+(?:è|era|sarà))?",
    "pt": r"não(?:\s+(?:é|era|foi|será))?", "nl": "niet|geen",
}  # (Portuguese "no" is "in the": "no ano passado")
_NEGATED = {
    language: re.compile(
        rf"(?<![\w'’])(?:{words})\s+(?:(?:on|in|at|the|am|im|an|le|la|les|au|à|en|el|il|lo|op|de|em|no|na)\s+)?$",
        re.IGNORECASE,
    )
    for language, words in _NEGATION.items()
}
# a weekday's part of the day and nothing else ("on Saturday night", "lunch on Thursday"): the
# parts of the day Duckling's English reads as spans of hours
_WEEKDAY_PART = re.compile(
    r"^(?:on )?(?:a )?(?:(?:" + WEEKDAYS + r") (?:morning|afternoon|evening|night|lunch(?:time)?)"
    r"|(?:morning|afternoon|evening|night|lunch(?:time)?) on (?:" + WEEKDAYS + r"))$",
    re.IGNORECASE,
)
_ABSOLUTE_PROBES = (datetime(2001, 6, 13, 12, 0), datetime(2012, 2, 21, 12, 0))


@dataclass(frozen=True, slots=True)
class Grounding:
    """The times of one text; ``complete`` is False when part of it was left to the rules (the
    parser ran out of time), which the write path notes in the unit's ``extra``."""

    times: list[GroundedTime]
    complete: bool


class ParseBudget:
    """Seconds of parsing left for one request (an ``add``, a ``search``), shared by its texts."""

    def __init__(self, seconds: float) -> None:
        self.left = max(0.0, seconds)
        self.exhausted = False  # a parse was refused or cut short for want of time


_REQUEST_BUDGET: ContextVar[ParseBudget | None] = ContextVar("ripplemem_parse_budget", default=None)


@contextmanager
def parse_budget(seconds: float) -> Iterator[ParseBudget]:
    """Every text grounded in this block (this thread or task) shares ``seconds`` of parsing,
    and at most :data:`PARSER_SHARE` of what is left of the call's time budget; past them the
    rules ground alone. Blocks nest: the inner one cannot spend more than the outer has left."""
    outer = _REQUEST_BUDGET.get()
    until_deadline = deadline.remaining()
    if until_deadline is not None:
        seconds = min(seconds, PARSER_SHARE * until_deadline)
    budget = ParseBudget(min(seconds, outer.left) if outer is not None else seconds)
    granted = budget.left
    token = _REQUEST_BUDGET.set(budget)
    try:
        yield budget
    finally:
        _REQUEST_BUDGET.reset(token)
        if outer is not None:
            outer.left = max(0.0, outer.left - (granted - budget.left))
            outer.exhausted = outer.exhausted or budget.exhausted


def request_parse_budget(characters: int) -> float:
    """Seconds of parsing a request of ``characters`` characters may take (:func:`parse_budget`)."""
    return REQUEST_BUDGET_S + REQUEST_BUDGET_S_PER_1000_CHARS * characters / 1000


class _Spending:
    """The parse time one text may still spend: its own budget and its request's."""

    def __init__(self, seconds: float, request: ParseBudget | None) -> None:
        self._own, self._request = seconds, request

    def left(self) -> float:
        left = self._own if self._request is None else min(self._own, self._request.left)
        until_deadline = deadline.remaining()  # the call's whole budget (a server's request)
        return left if until_deadline is None else min(left, until_deadline)

    def spend(self, seconds: float) -> None:
        self._own -= seconds
        if self._request is not None:
            self._request.left = max(0.0, self._request.left - seconds)

    def short(self) -> None:
        if self._request is not None:
            self._request.exhausted = True


def sentence_chunks(text: str, limit: int = CHUNK_CHARS) -> list[tuple[int, int]]:
    """``(start, end)`` of the sentences of ``text``, each cut to at most ``limit`` characters
    (at a clause break or a space when there is one)."""
    chunks: list[tuple[int, int]] = []
    start = 0
    for match in _SENTENCE_BREAK.finditer(text):
        _cut(text, start, match.end(), limit, chunks)
        start = match.end()
    _cut(text, start, len(text), limit, chunks)
    return chunks


def _cut(text: str, start: int, end: int, limit: int, chunks: list[tuple[int, int]]) -> None:
    while end - start > limit:
        window = text[start : start + limit]
        cut = max(window.rfind(mark) for mark in (", ", "; ", " - ", ": "))
        if cut < limit // 3:
            cut = window.rfind(" ")
        cut = cut + 1 if cut > 0 else limit
        chunks.append((start, start + cut))
        start += cut
    if text[start:end].strip():
        chunks.append((start, end))


def _rules_cover(chunk: str, start: int, taken: Sequence[tuple[int, int]]) -> bool:
    """Whether Duckling can add nothing to the rules in ``chunk`` (at ``start`` of its text):
    each :data:`TIMEISH` match of the chunk lies in one of the spans ``taken``.

    A find of Duckling is kept only when its phrase holds a :data:`TIMEISH` match and it is not
    part of a longer token, and only when it overlaps no span the rules took. Such a match is a
    match of the chunk too (its word boundaries fall on the same characters, since the find
    stands apart from letters and digits; a ``_`` beside it, a word character that is neither,
    is why a chunk with one is parsed), so it overlaps one of the chunk's matches, which lies in
    a taken span: the find would be dropped. A chunk with a short weekday ("last Wed") or a
    mistyped day ("tomorow") is parsed as before (Duckling reads it spelled out, at other
    offsets)."""
    if "_" in chunk or SHORT_WEEKDAY.search(chunk) or mistyped_days(chunk):
        return False
    for match in TIMEISH.finditer(chunk):
        first, last = start + match.start(), start + match.end()
        if not any(s <= first and last <= e for s, e in taken):
            return False
    return True


class TimeGrounder:
    """Grounds the time expressions of texts: our rules, then Duckling sentence by sentence
    (a sentence whose time words the rules have all read is not parsed: :func:`_rules_cover`).

    Duckling runs in a child process (:class:`~ripplemem.grounding.duckling_process.
    DucklingProcess`, started on first use) with a bounded cost: each sentence (cut at
    ``chunk_chars``) is parsed on its own with a deadline of ``parse_timeout_s``, and one text
    gets at most ``text_budget_s`` of parsing, less when a :func:`parse_budget` of the request
    around it has less left. A sentence past its deadline, or left when the budget is spent, is
    grounded by the rules alone, and :meth:`ground_text` says so (``complete=False``).
    """

    def __init__(
        self,
        zoneinfo: str | Path = ZONEINFO,
        *,
        chunk_chars: int = CHUNK_CHARS,
        parse_timeout_s: float = PARSE_TIMEOUT_S,
        text_budget_s: float = TEXT_BUDGET_S,
    ) -> None:
        self.zoneinfo = str(zoneinfo)
        self.chunk_chars = chunk_chars
        self.parse_timeout_s, self.text_budget_s = parse_timeout_s, text_budget_s
        self._lock = threading.Lock()
        self._process: DucklingProcess | None = None

    @property
    def restarts(self) -> int:
        """Parser processes killed for running past a deadline (since this grounder started)."""
        return self._process.restarts if self._process is not None else 0

    def close(self) -> None:
        """Stop the parser process (the next text starts a new one)."""
        with self._lock:
            process, self._process = self._process, None
        if process is not None:
            process.close()

    def _parser(self) -> DucklingProcess:
        with self._lock:
            if self._process is None:
                self._process = DucklingProcess(self.zoneinfo)
            return self._process

    def _parse(self, text: str, reference: datetime, timeout: float, language: str = "en") -> Parsed:
        """Duckling's results (None when the parse ran out of time) and the CPU it took; the
        parser's CPU counts against the call's budget (a server's per-request CPU budget)."""
        stamp = calendar.timegm(reference.replace(microsecond=0).timetuple())
        parsed = self._parser().parse(text, stamp, timeout, language)
        deadline.charge(parsed.cpu_s)
        return parsed

    def ground(self, text: str, reference: datetime | None, *, day_first: bool = False) -> list[GroundedTime]:
        """All time expressions in ``text``, in order, grounded against ``reference``."""
        return self.ground_text(text, reference, day_first=day_first).times

    def ground_text(
        self, text: str, reference: datetime | None, before: TimeSpan | None = None,
        *, day_first: bool = False, language: str | None = None,
    ) -> Grounding:
        """The time expressions of ``text`` and whether the parser read all of it; ``before``
        is the last time named before the text (an earlier piece of the same turn), which an
        anaphoric time at its start counts from (:func:`~ripplemem.grounding.time_rules.ground_anaphora`);
        ``day_first``: a slash date either order makes a day ("03/04/2023") is read day first
        when the text shows no order of its own (``Settings.date_order``); ``language``: the
        text's (an ISO 639-1 code), read from it when None (:func:`~ripplemem.language.language_of`:
        a short phrase cut from a sentence says too little of its own).

        Never fails on text: a phrase whose date falls outside what Python can hold, or a
        failure of the native parser (a panic on a text), leaves the text without those times
        (logged) rather than failing the ``add`` or ``search`` around it."""
        read = text.translate(_ASCII_DIGITS)  # "５月３日", as Japanese and Chinese keyboards type it
        try:
            return self._ground(read, reference, before, day_first, language, written=text)
        except (OverflowError, ValueError) as error:
            log.warning("time grounding skipped a text it could not date: %s", error)
            return Grounding([], True)
        except NativeParserError as error:
            log.warning("the time parser failed on a text; it keeps its rule times: %s", error)
            found = _as_written(rule_times(read, reference, day_first), read, text)
            return Grounding(self._collect(found, before, text), True)

    def _ground(
        self, text: str, reference: datetime | None, before: TimeSpan | None, day_first: bool,
        language: str | None = None, *, written: str,
    ) -> Grounding:
        if not text:
            return Grounding([], True)
        language = language or language_of(text)  # another language's are Duckling's to read
        if language == "en" and not TIMEISH.search(text) and not mistyped_days(text):
            # a text too short for its language to show ("Iré a Madrid el lunes", "Da marzo
            # studio spagnolo") names its weekday or month in its own language, when it holds no
            # English function word
            language = (
                weekday_language(text) or month_language(text) or relative_day_language(text)
            ) if not english_words(text) else None
            if language is None:
                return Grounding([], True)
        found: list[Found] = rule_times(text, reference, day_first, language)
        taken = [(s, e) for s, e, _ in found]
        parsed, complete = self._from_duckling(text, reference, taken, language)
        for start, end, item in parsed:
            if not any(start < e and s < end for s, e in taken):
                found.append(Found(start, end, item))
        found = _month_in_its_year(_in_apposition(_not_negated(found, text, language), text), text)
        if language == "en":
            found = _onward(_offset_from_event(found, text), text, reference)
        if reference is not None:
            found = _since_said(found, text, language, reference)
        return Grounding(self._collect(_as_written(found, text, written), before, written), complete)

    @staticmethod
    def _collect(found: list[Found], before: TimeSpan | None = None, text: str = "") -> list[GroundedTime]:
        found = ground_anaphora(found, before, text)  # in text order, "the day before" counted
        out: list[GroundedTime] = []
        seen: set[tuple[str, TimeSpan | None]] = set()
        for _, _, item in found:
            if item is None:  # a masked span: not a time
                continue
            key = (item.phrase.lower(), item.span)
            if key not in seen:
                seen.add(key)
                out.append(item)
        return out

    # -- duckling -------------------------------------------------------------------------------

    def _from_duckling(
        self, text: str, ref: datetime | None, taken: Sequence[tuple[int, int]], language: str = "en"
    ) -> tuple[list[Found], bool]:
        """Duckling's finds, sentence by sentence within the budget, read in ``language`` (an ISO
        639-1 code: :func:`~ripplemem.language.language_of`); False when a sentence was left to
        the rules. An English sentence whose time words all lie in ``taken`` (the rules' spans)
        is not parsed (:func:`_rules_cover`); the rules' spans are hidden from the parser, which
        would glue a time beside them into one find with theirs and lose it ("in two weeks, on
        the 3rd of June")."""
        budget = _Spending(self.text_budget_s, _REQUEST_BUDGET.get())
        found: list[Found] = []
        complete = True
        for start, end in sentence_chunks(text, self.chunk_chars):
            chunk = text[start:end]
            if language == "en" and _rules_cover(chunk, start, taken):
                continue  # (a chunk with no time word at all is covered)
            chunk = _counts_hidden(_hidden(chunk, start, taken))
            if language == "en":  # "my boss on Monday": Boss's Day to the parser
                chunk = _PEOPLE_AS_HOLIDAYS.sub(lambda m: _HIDING * len(m.group()), chunk)
            finds = (
                self._chunk_finds(chunk, ref, budget) if language == "en"
                else self._duckling_finds(chunk, ref, budget, language)
            )
            if finds is None:
                complete = False
                continue
            found.extend(Found(s + start, e + start, item) for s, e, item in finds)
        return found, complete

    def _chunk_finds(
        self, original: str, ref: datetime | None, budget: _Spending
    ) -> list[Found] | None:
        """Duckling's finds in one sentence, on the text with abbreviated weekdays spelled out and
        a bound's "by", "until" or "from" read as "on" (:func:`bare_bounds`), mapped back; None
        when the budget was spent before it was parsed."""
        text, moves = expand_weekdays(original)
        bare, bounds = bare_bounds(text)
        finds = self._duckling_finds(bare, ref, budget)
        if finds is None or not (moves or bounds):
            return finds
        mapped = []
        for start, end, item in finds:
            # a find that starts on a bound's "on" starts after it ("until the 20th": "the 20th")
            start = next((e + 1 for s, e in bounds if s <= start < e), start)
            start, end = original_offset(start, moves), original_offset(end, moves)
            if item is not None:
                phrase = original[start:end].strip().rstrip(",;:.!?")
                item = GroundedTime(phrase, item.span, item.grain)
            mapped.append(Found(start, end, item))
        return mapped

    def _timed_parse(
        self, text: str, ref: datetime, budget: _Spending, language: str = "en"
    ) -> list[dict] | None:
        timeout = min(self.parse_timeout_s, budget.left())
        if timeout <= _MIN_PARSE_S:
            budget.short()
            return None
        # the parser's CPU, not the wall time: waiting for the parser (another thread's sentence,
        # a busy machine) spends nothing, so what is stored does not depend on the load
        readable = _for_parser(text, language)
        found = self._parse(readable, ref, timeout, language)
        budget.spend(found.cpu_s)
        parsed = found.results
        if parsed is None:
            log.info("a sentence of %d characters ran past the time parser's deadline", len(text))
            budget.short()
        elif readable != text:  # each find's words as written ("6–12 May", not "6-12 May")
            parsed = [
                {**r, "body": text[r["start"] : r["end"]]} if readable[r["start"] : r["end"]] != text[r["start"] : r["end"]] else r
                for r in parsed
            ]
        return parsed

    def _duckling_finds(
        self, text: str, ref: datetime | None, budget: _Spending, language: str = "en"
    ) -> list[Found] | None:
        if ref is not None:
            parsed = self._timed_parse(text, ref, budget, language)
            if parsed is None:
                return None
            return [
                Found(r["start"], r["end"], item)
                for r in parsed
                if (item := self._convert(r, text, ref, language)) is not None
            ]
        # no reference: trust only parses that two far-apart references agree on
        first = self._timed_parse(text, _ABSOLUTE_PROBES[0], budget, language)
        second = (
            self._timed_parse(text, _ABSOLUTE_PROBES[1], budget, language) if first is not None else None
        )
        if first is None or second is None:
            return None
        results = []
        for r in first:
            item = self._convert(r, text, _ABSOLUTE_PROBES[0], language)
            if item is None:
                continue
            twin = next(
                (o for o in second if (o["start"], o["end"]) == (r["start"], r["end"])), None
            )
            other = self._convert(twin, text, _ABSOLUTE_PROBES[1], language) if twin else None
            if other is None or other.span != item.span:
                item = GroundedTime(item.phrase, None, item.grain)
            results.append(Found(r["start"], r["end"], item))
        return results

    def _convert(self, result: dict, text: str, ref: datetime, language: str = "en") -> GroundedTime | None:
        try:
            if language != "en":
                return self._convert_other(result, text, ref, language)
            return self._convert_unchecked(result, text, ref)
        except (ValueError, OverflowError):
            # Duckling can produce dates Python cannot hold ("-2477-05-01", year 10000) from
            # numbers that only look like years: such a phrase is not a groundable time.
            return None

    def _convert_unchecked(self, result: dict, text: str, ref: datetime) -> GroundedTime | None:
        result = _unglued(result, text)
        phrase = result["body"].strip().rstrip(",;:.!?")
        value = result["value"]
        if _BARE_SEASON.match(phrase):
            return self._season(phrase, value, text, result, ref)
        if (
            not TIMEISH.search(phrase)  # Duckling reads "boy" as a time; we do not
            or BARE_DEFINITE.match(phrase)
            or GENERIC_PLURAL.search(phrase)
            or (ORDINAL_ONLY.match(phrase) and not _day_of_month(phrase, text, result["start"], result["end"]))
            or "weekend" in phrase.lower()
        ):
            return None
        start, end = result["start"], result["end"]
        if (start > 0 and (text[start - 1].isalnum() or text[start - 1] in "-/")) or (
            end < len(text) and text[end].isalnum()
        ):
            return None  # part of a longer token: "K-200A" is a model name, not 2 AM
        if (_HYPHEN_PAIR.search(phrase) and not _MONTH.search(phrase)) or _SOME_WEEKDAY.search(
            text[max(0, start - 5) : start] + phrase
        ):
            return None  # "7-8 hours" (not "22-26 May"), "on a Sunday", "which is a Saturday"
        if _HABITUAL.search(text, *before(text, result["start"])):
            return None  # "every Saturday": a habit, not a date
        if _FINAL.match(phrase) and _POSSESSOR_BEFORE.search(text, *before(text, result["start"])):
            return None  # "my last day at the old job", "our last night in Rome": the final one
        if (
            _BARE_WEEKDAY.match(phrase)
            and _DETERMINER_BEFORE.search(text, *before(text, result["start"]))
            and _NOUN_AFTER.match(text[result["end"] :])
        ):
            return None  # "my Sunday group rides": a kind of event, not a date
        if value.get("type") == "interval":
            start, end = result["start"], result["end"]
            goal = self._goal(phrase, value, text, start, ref)
            if goal is not None:
                return goal
            tense = phrase_tense(text, start, end)
            weekly = self._weekly_interval(phrase, value, ref, tense)
            return self._interval(phrase, weekly, ref, "" if tense == "mixed" else tense)
        points = _points(value)
        if not points:
            return None
        moment, grain = points[0]
        if grain == "quarter" and not _YEAR.search(phrase) and not _RELATIVE.match(phrase):
            return None  # "the 4th quarter" of a game, far more often than of a year ("last quarter": one)
        if grain in ("second", "minute", "hour"):
            days = _clock_days(points)
            if days and len(days) > 1 and not _PLURAL_WEEKDAY.search(phrase):  # ("on Fridays at 6 pm": a habit)
                tense = phrase_tense(text, result["start"], result["end"])
                return GroundedTime(phrase, day_span(self._pick(days, "day", ref, tense).date()), "day")
            if not DAY_ANCHOR.search(phrase):
                return GroundedTime(phrase, None, "hour")  # a bare clock time: which day?
            return GroundedTime(phrase, day_span(moment.date()), "day")
        if len(points) == 1 and grain == "day" and _WEEKDAY_WORD.search(phrase) and _DIGIT.search(phrase) and not _YEAR.search(phrase):
            month = _MONTH.search(phrase) is not None or "/" in phrase
            tense = phrase_tense(text, start, end)
            return self._weekday_date(phrase, moment, ref, tense, month=month, present=_predicated(text, start))
        if len(points) > 1:
            tense = phrase_tense(text, result["start"], result["end"])
            dated = _DIGIT.search(phrase) is not None and _predicated(text, start)
            moment = self._pick([p for p, _ in points], grain, ref, tense, dated=dated)
        counted = _COUNT_IN_MONTH.match(phrase)
        if counted is not None and grain == "day":  # "the new one in May": May, not its 1st
            return GroundedTime(phrase[counted.end("count") :].strip(), month_span(moment.year, moment.month), "month")
        return GroundedTime(phrase, self._grain_span(moment, grain), grain)

    def _goal(self, phrase: str, value: dict, text: str, start: int, ref: datetime) -> GroundedTime | None:
        """"moved my check-up to June 2nd": Duckling reads a span up to the day; after a verb of
        arranging (:func:`~ripplemem.grounding.time_patterns.arranged_for`) the day is what the
        arrangement was made for, the next one."""
        to = re.search(r"\bto\s+", phrase, re.IGNORECASE)
        values = value.get("values") or ()
        if to is None or not values or values[0].get("from") or not arranged_for(text, start + to.end()):
            return None
        days = [datetime.fromisoformat(v["to"]["value"][:19]) for v in values if v.get("to")]
        if not days or any(v["to"].get("grain") != "day" for v in values if v.get("to")):
            return None
        moment = self._pick(days, "day", ref, "future")
        return GroundedTime(phrase[to.end() :], day_span(moment.date()), "day")

    def _season(self, phrase: str, value: dict, text: str, result: dict, ref: datetime) -> GroundedTime | None:
        """A season with no word of its own ("in the spring", "the winter"): in a clause that
        tells the past or the future, the last or the next one ("The winter was brutal", "In the
        autumn I'm going back to university"); told in the present it is a habit or a kind ("In
        the summer I swim in the sea", "the autumn colours"), no date."""
        word = _SEASON_WORD.search(phrase)
        lead = text[max(0, result["start"] - 12) : result["start"]] + phrase[: word.start() if word else 0]
        if not _SEASON_LEAD.search(lead) or not _AFTER_SEASON.match(text[result["end"] :]):
            # "winter clothes", "the Summer Nights event", "the summer of '21" (its year tells
            # which), "as spring approaches", "did the Roman Empire fall": a kind, a name or a verb
            return None
        tense = phrase_tense(text, result["start"], result["end"], mixed=False)
        if tense not in ("past", "future") or value.get("type") != "interval":
            return None
        return self._interval(phrase, _recurring_interval(value, ref, tense), ref, "")

    def _convert_other(self, result: dict, text: str, ref: datetime, language: str) -> GroundedTime | None:
        """A find of Duckling's in another language. Its English filters do not apply (they read
        English words); a day or month that recurs is the occurrence its clause's tense says, read
        from the language's closed classes (:func:`~ripplemem.language.tense_in`; the nearest
        when it says neither or both), a bare clock time ("à 15h": Duckling lists several days)
        is no day, and a find inside a longer word is none, but in the scripts written without
        spaces."""
        start, end = result["start"], result["end"]
        phrase = text[start:end].strip().rstrip(_CLOSING)  # Duckling's "body" is mis-decoded
        if not phrase:
            return None
        if language not in _UNSPACED and (
            (start > 0 and text[start - 1].isalnum()) or (end < len(text) and text[end].isalnum())
        ):
            return None
        if language == "ja" and start > 0 and _HIRAGANA.match(phrase) and _KANJI.match(text[start - 1]):
            return None  # "会いました": a verb's kana after its kanji (okurigana), not "いま" (now)
        if language == "ja" and phrase == "いま" and text[end : end + 1] in ("す", "せ", "し"):
            return None  # "しています", "いません", "いました": the polite forms of いる, not "いま" (now)
        if _HYPHEN_PAIR.search(phrase) and not re.search(r"[^\W\d_]{3}", phrase):
            return None  # "2-2": a score, "7-8": a range of counts (a month's name: a range of days)
        if habitual_in(text[max(0, start - 24) : start], language):
            return None  # "jeden Montag", "deux fois par semaine": a habit, not a date
        value = result["value"]
        if language in _RANGE_ENDS_BEFORE_LAST:
            value = _with_last_unit(value)
        subordinate = None if language in _UNSPACED else COMPLEMENTIZER
        clause = tense_clause(text, start, end, lambda piece: own_clause_in(piece, language), subordinate)
        if language == "fr" and _BEEN.search(text, max(0, start - 12), end) and phrase.lower() == "été":
            return None  # "a été repoussée": the participle of être, not the summer
        goal = (
            _GOAL.search(text[max(0, start - 16) : start] + " ") or _GOAL.match(phrase + " ")
            or _ARRANGED_TO.search(text, max(0, start - 50), start)
        )
        tense = "future" if goal else tense_in(clause, language)
        closed = value.get("type") == "interval" and value.get("to") is not None
        since = not goal and not closed and since_in(text[max(0, start - 24) : start], phrase, text[end:], language, tense)
        if since:
            tense = "past"  # "seit Montag", "depuis lundi": the span began behind, up to now
        if value.get("type") == "interval" and not closed and (onset := self._open_start(value, ref, tense, since)):
            span, grain = onset
            return GroundedTime(phrase, span, grain, onward=grain in _COARSER)
        if value.get("type") == "interval" and (bound := self._bound(value, ref, tense)) is not None:
            return GroundedTime(phrase, *bound)  # "bis zum 31. Juli", "entro il 31 luglio": that day
        if value.get("type") == "interval":
            weekly = self._weekly_interval(phrase, value, ref, tense or "", any_phrase=True)
            return self._interval(phrase, _recurring_interval(_one_month(weekly, phrase), ref, tense), ref, "")
        if _THOUSANDS.fullmatch(phrase):
            return None  # "1.200 Euro": a number with a thousands separator is no year
        if _BARE_NUMBER.match(phrase) and not since and not _year_of_its_own(text, end, language):
            return None  # "2000 Euro": a count, not the year 2000 ("seit 2019": a year)
        points = _points(value)
        if not points:
            return None
        moment, grain = points[0]
        if grain == "quarter":
            return None
        if grain in ("second", "minute", "hour"):
            days = _clock_days(points)
            if not days:
                return GroundedTime(phrase, None, "hour")  # a bare clock time: which day?
            return GroundedTime(phrase, day_span(self._pick(days, "day", ref, tense or "").date()), "day")
        if grain == "day" and _ARTICLE_AS_DAY.search(phrase):
            # "im Oktober eine Woche", "en septiembre unos días": Duckling reads the article as a
            # day's number; the month is what is named
            phrase = _ARTICLE_AS_DAY.sub("", phrase).strip()
            grain = "month"
        # (a named month or weekday keeps its grain: "en mai l'année dernière" is May, not last
        # year; "Mittwoch nächste Woche" the Wednesday, not the week)
        unit = (
            unit_grain(phrase) if len(points) == 1 and grain in _COARSER
            and not names_a_month(phrase) and named_weekday(phrase) is None else None
        )
        if unit is not None and _COARSER.index(unit) > _COARSER.index(grain):
            grain = unit  # "vor zwei Wochen": Duckling's day two weeks back, in its week
        if len(points) == 1 and grain == "day" and _DIGIT.search(phrase) and not _YEAR.search(phrase) and (
            step := _step_after_date(phrase, text[end:], language)
        ) and not named_weekday(phrase):
            return GroundedTime(phrase, day_span(_stepped_date(moment.date(), ref.date(), step)), "day")
        if len(points) == 1 and grain == "day" and _DIGIT.search(phrase) and not _YEAR.search(phrase) and (
            day := named_weekday(phrase)
        ):
            rest = phrase[: day.start()] + phrase[day.end() :]
            month = re.search(r"[^\W\d_]{3,}", rest) is not None  # a month's name beside the day's number
            return self._weekday_date(phrase, moment, ref, tense, month=month, present=_predicated(text, start))
        if len(points) > 1:
            habit = _ARTICLE_HABIT.get(language)
            if (points[1][0] - points[0][0]).days == 7 and habit and habit.search(text, max(0, start - 5), start + 4):
                return None  # "le mardi", "il martedì": on Tuesdays, a habit
            dated = _DIGIT.search(phrase) is not None and _predicated(text, start)
            moment = self._pick([p for p, _ in points], grain, ref, tense or "", dated=dated)
        if grain == "day" and _COMING.search(phrase) and week_span(moment.date() - timedelta(days=7)).start > ref:
            # "el martes que viene" is "el próximo martes", next week's (Duckling reads a week on)
            moment -= timedelta(days=7)
        told = year_after(text[end:], language) if grain in ("day", "month") and not _YEAR.search(phrase) else None
        if told is not None and (grain == "month" or names_a_month(phrase)):  # "im Mai letzten Jahres": that year's May
            step, length = told
            try:
                moment = moment.replace(year=ref.year + step)
            except ValueError:  # 29 February in a year that has none
                return None
            phrase = text[start : end + length].strip()
        span = self._grain_span(moment, grain)
        if since and span.start <= ref:  # "seit 2019", "depuis mars": from it up to now, as "since March"
            return GroundedTime(phrase, TimeSpan(span.start, ref), "range")
        return GroundedTime(phrase, span, grain)

    def _open_start(
        self, value: dict, ref: datetime, tense: str, since: bool
    ) -> tuple[TimeSpan, str] | None:
        """A span Duckling reads with a start and no end ("da lunedì", "ab Montag"), listing the
        coming occurrences of its start: the one its clause's ``tense`` names (:meth:`_pick`);
        ``since`` or a start behind, the span from it up to ``ref``; else the onset ahead, at its
        grain (what holds from it on: :meth:`~ripplemem.grounding.time_rules.GroundedTime.held`)."""
        starts = [v["from"] for v in value.get("values") or () if v.get("from") and not v.get("to")]
        if not starts:
            return None
        grain = starts[0].get("grain", "day")
        if grain not in _COARSER:
            return None  # a clock time: which day?
        moments = [datetime.fromisoformat(v["value"][:19]) for v in starts]
        begin = self._pick(moments, grain, ref, tense) if len(moments) > 1 else moments[0]
        if since and begin > ref:
            return None
        if since or begin <= ref:
            return TimeSpan(begin, ref), "range"
        return self._grain_span(begin, grain), grain

    def _bound(self, value: dict, ref: datetime, tense: str) -> tuple[TimeSpan, str] | None:
        """A span Duckling reads with an end and no start ("bis zum 31. Juli", "entro il 31
        luglio", "tot 31 juli", "bis Freitag"): the day or month the bound names, as English "by
        Friday" and "until the 20th" are read, of the occurrences it lists the one the clause's
        ``tense`` names; in a clause told in no past, the coming one (a deadline lies ahead)."""
        ends = [v["to"] for v in value.get("values") or () if v.get("to") and not v.get("from")]
        if not ends or ends[0].get("grain") not in _COARSER:
            return None
        grain = ends[0].get("grain", "day")
        moments = [datetime.fromisoformat(v["value"][:19]) for v in ends]
        moment = self._pick(moments, grain, ref, tense if tense == "past" else "future") if len(moments) > 1 else moments[0]
        return self._grain_span(moment, grain), grain

    def _weekly_interval(
        self, phrase: str, value: dict, ref: datetime, tense: str | None, *, any_phrase: bool = False
    ) -> dict:
        """A part of a weekday ("on Saturday night", "Friday evening", "el sábado por la noche"
        with ``any_phrase``: Duckling lists the coming weeks' first) moved to the week
        :meth:`_pick` chooses for a weekday, by the same tense; and a span of a day of the month
        ("the evening of the 14th", "between the 6th and the 12th": Duckling lists the coming
        months' first) moved to the month :meth:`_pick` chooses for a bare ordinal day."""
        values = [v for v in value.get("values") or () if v.get("from")]
        if len(values) < 2:
            return value
        starts = [datetime.fromisoformat(v["from"]["value"][:19]) for v in values]
        every = (starts[1] - starts[0]).days
        # (a span whose end stays while its start recurs, "zwischen 6. und 12. Mai", is a month's:
        # :func:`_one_month`)
        monthly = 28 <= every <= 31 and not _MONTH.search(phrase) and values[1].get("to") != values[0].get("to")
        if not monthly and (every != 7 or not (any_phrase or _WEEKDAY_PART.match(phrase))):
            return value  # "a Sunday afternoon last month": its week is told by the rest
        return _shifted(values[0], self._pick(starts, "day", ref, tense) - starts[0])

    def _weekday_date(
        self, phrase: str, moment: datetime, ref: datetime, tense: str, *, month: bool, present: bool
    ) -> GroundedTime:
        """A weekday with a date ("on Thursday, March 7", "Thursday the 7th", "le jeudi 7 mars"),
        of which Duckling reads the next day that is both, years away when they disagree: the
        date wins, and is the occurrence its clause's tense names (:meth:`_pick`), of the year
        (``month``: the phrase names one) or of the month."""
        candidates = []
        for step in (-1, 0, 1):
            year, number = (ref.year + step, moment.month) if month else shift_months(ref.date(), step)
            try:
                candidates.append(datetime(year, number, moment.day))
            except ValueError:  # 29 February, or a 31st the month has not
                continue
        day = self._pick(candidates, "day", ref, "" if tense == "mixed" else tense, dated=present)
        return GroundedTime(phrase, day_span(day.date()), "day")

    @staticmethod
    def _pick(
        candidates: list[datetime], grain: str, ref: datetime, tense: str | None, *, dated: bool = False
    ) -> datetime:
        """Choose among the repeating occurrences Duckling lists (plus the one before them): the
        last one of a clause in the past, the next one of a clause in the future, else the
        nearest; but a weekday or a day of the month in a clause with no past is the coming one,
        and so is a date in numbers a present copula says a thing is on (``dated``: "I have a
        meeting on Friday", "Dinner at Mum's on Saturday", "Payday is on the 28th", "The meeting
        is on 12/06": plans are told ahead; a date told otherwise in the present is as often of the
        past, "the productions I've seen: March 25th", and a holiday is told after it as much as
        before, "a sugar high from Halloween"). ``tense``
        "mixed" (a past and a future in one clause: "I want to use up what I bought on
        Wednesday") or None (another language's present, whose past its closed classes may not
        show: "am Dienstag habe ich ... vergessen"): the nearest."""
        every = (candidates[1] - candidates[0]).days if len(candidates) >= 2 else 0
        if (every == 7 or 28 <= every <= 31 or (every >= 300 and grain == "day" and dated)) and tense == "":
            tense = "future"  # a weekday, a day of the month or a date told in the present: the coming one
        step = candidates[1] - candidates[0] if len(candidates) >= 2 else timedelta(0)
        # the occurrence before the listed ones, for a time that recurs at a steady step (not
        # "Monday the 19th": June, then February)
        if len(candidates) >= 2 and (step.days >= 300 or step.days < 63):  # ("the 31st": two months)
            if step.days >= 300:  # yearly: a fixed day, or a movable one (Easter: 350-385 days)
                before = (
                    _year_before(candidates[0], candidates[1]) if grain == "day"
                    else _shift_years(candidates[0], -1)  # "the second week of November"
                )
            elif step.days >= 28:  # a day of the month: the same day a month before
                year, month = shift_months(candidates[0].date(), -1)
                try:
                    before = candidates[0].replace(year=year, month=month)
                except ValueError:  # the 31st: the month before has none
                    before = candidates[0] - step
            else:
                before = candidates[0] - step
            candidates = [before, *candidates]
        # (a weekday said on that weekday is that day in either tense: "which made Thursday
        # morning a struggle", "my class on Friday", said on a Thursday, a Friday)
        if tense == "past":
            past = [c for c in candidates if c <= ref]
            if past:
                return max(past)
        if tense == "future":
            day_start = datetime(ref.year, ref.month, ref.day)
            future = [c for c in candidates if c >= day_start]
            if future:
                return min(future)
        return min(candidates, key=lambda c: abs(c - ref))

    @staticmethod
    def _grain_span(moment: datetime, grain: str) -> TimeSpan:
        if grain == "week":
            return week_span(moment.date())
        if grain == "month":
            return month_span(moment.year, moment.month)
        if grain == "quarter":
            end_year, end_month = shift_months(moment.date(), 2)
            return TimeSpan(
                month_span(moment.year, moment.month).start, month_span(end_year, end_month).end
            )
        if grain == "year":
            return year_span(moment.year)
        return day_span(moment.date())

    @staticmethod
    def _interval(phrase: str, value: dict, ref: datetime, tense: str = "") -> GroundedTime | None:
        """A span Duckling reads from ``phrase``. One that names no year ("since January", "from
        3 to 7 April", "mid-July") is the occurrence its clause's ``tense`` says: Duckling gives
        the next one (what a future or present tense means), and "since" or a past tense ("I was
        in Rome from 3 to 7 April", said in May) mean the last one."""
        start = value.get("from")
        end = value.get("to")
        if start is None:
            return GroundedTime(phrase, None, "range")  # "before May": open towards the past
        begin = datetime.fromisoformat(start["value"][:19])
        # a day or month of the calendar without a year recurs every year (not "tonight",
        # "this weekend", "after a day": those are read from the reference itself)
        yearless = (
            (_MONTH.search(phrase) is not None or _HOLIDAY.search(phrase) is not None)
            and not _YEAR.search(phrase) and not _RELATIVE_YEAR.search(phrase)
        )
        if end is None:  # "since 2016": up to the reference
            if begin > ref and _SINCE.match(phrase) and (yearless or not _YEAR.search(phrase)):
                # "since Monday", "since the 20th", "since Christmas": the last one, of the
                # occurrences Duckling lists (each week's, month's, year's) and the one before
                starts = [datetime.fromisoformat(v["from"]["value"][:19]) for v in value.get("values") or () if v.get("from")]
                begin = (
                    TimeGrounder._pick(starts, start.get("grain", "day"), ref, "past") if len(starts) > 1
                    else _years_back(begin, ref)
                )
                if begin > ref:
                    begin = _years_back(begin, ref)
            if begin > ref and _SINCE.match(phrase):
                return GroundedTime(phrase, None, "range")
            if begin > ref and _ONSET.match(phrase):  # "as of Friday": from the onset ahead on
                grain = start.get("grain", "day")
                return GroundedTime(phrase, TimeGrounder._grain_span(begin, grain), grain, onward=True)
            return GroundedTime(phrase, TimeSpan(begin, ref), "range")
        finish = datetime.fromisoformat(end["value"][:19]) - SECOND
        if finish < begin:
            return None
        if yearless and tense == "past" and begin > ref:
            back = _years_back(begin, ref)
            finish, begin = _shift_years(finish, back.year - begin.year), back
        if re.search(r"summer|winter|spring|fall|autumn", phrase, re.IGNORECASE):
            grain = "season"
            if phrase.lower().startswith("this ") and begin.year > ref.year:
                # "this summer" said in October: the summer just gone, not next year's
                begin, finish = begin.replace(year=ref.year), finish.replace(year=ref.year)
        elif begin.date() == finish.date():
            grain = "day"
        else:
            grain = "range"
        return GroundedTime(phrase, TimeSpan(begin, finish), grain)


#: full-width digits (U+FF10..U+FF19, what Japanese and Chinese input methods type) as the ASCII
#: digits the rules and Duckling read; one character for one, so every offset stays the text's
_ASCII_DIGITS = {0xFF10 + digit: ord("0") + digit for digit in range(10)}


def _as_written(found: list[Found], read: str, written: str) -> list[Found]:
    """``found`` in ``read`` (``written`` with its full-width digits made ASCII: the same length)
    with each phrase as ``written`` has it ("５月３日", not "5月3日"), as the readers of a phrase
    look for it in the text."""
    if read == written:
        return found
    out = []
    for start, end, item in found:
        at = read.find(item.phrase, start, max(end, start + len(item.phrase))) if item is not None else -1
        if item is not None and at >= 0:
            item = GroundedTime(written[at : at + len(item.phrase)], item.span, item.grain)
        out.append(Found(start, end, item))
    return out


#: the words of an onset right before a time: when a change starts ("from July we'll be paying",
#: "Starting 1 Aug I work", "beginning in September", "as of June 1"; Duckling reads the time alone)
_ONSET_BEFORE = re.compile(
    r"\b(?:from|starting(?:\s+(?:from|in|on))?|beginning(?:\s+(?:in|on))?|as\s+of|effective)\s+$", re.IGNORECASE
)
#: what makes such a time a range's first end, not an onset ("from June to August", "from Friday-Sunday")
_RANGE_GOES_ON = re.compile(r"^\s*(?:[-–—]|(?:to|until|till|through|thru|and)\b)", re.IGNORECASE)
#: the grains a time that starts a change can have (not a clock time, not a span of its own)
_ONSET_GRAINS = frozenset({"day", "week", "weekend", "month", "quarter", "season", "year"})


def _onward(found: list[Found], text: str, ref: datetime | None) -> list[Found]:
    """``found`` with each time ahead of ``ref`` that an onset's words start ("from July we'll be
    paying 1350": :data:`_ONSET_BEFORE`) marked as an onset: what it tells of holds from its
    start on (:meth:`~ripplemem.grounding.time_rules.GroundedTime.held`), as "since" runs from
    the past up to the day said; a time behind the day said, or one a range goes on from ("from
    June to August"), as is."""
    if ref is None:
        return found
    out = []
    for start, end, item in found:
        if (
            item is not None and item.span is not None and item.grain in _ONSET_GRAINS
            and item.span.start.date() > ref.date()
            and _ONSET_BEFORE.search(text, max(0, start - 24), start)
            and not _RANGE_GOES_ON.match(text, end)
        ):
            item = GroundedTime(item.phrase, item.span, item.grain, onward=True)
        out.append(Found(start, end, item))
    return out


def _step_after_date(phrase: str, after: str, language: str) -> int:
    """-1 when a word for last follows the date ``phrase`` (the last word of the phrase or the
    first after it: :data:`_STEP_AFTER_DATE`), 1 for a word for next, else 0."""
    words = _STEP_AFTER_DATE.get(language)
    if words is None:
        return 0
    said = [m.group(1).lower() for m in (_LAST_WORD.search(phrase), _FIRST_WORD.match(after)) if m]
    return -1 if words[0].intersection(said) else 1 if words[1].intersection(said) else 0


def _stepped_date(day: date, today: date, step: int) -> date:
    """The day of the year ``day`` names (its month and day) that is the latest not after
    ``today`` (``step`` -1), or the first not before it (1)."""
    candidates = []
    for year in (today.year - 1, today.year, today.year + 1):
        try:
            candidates.append(date(year, day.month, day.day))
        except ValueError:  # 29 February
            continue
    if step < 0:
        return max((c for c in candidates if c <= today), default=day)
    return min((c for c in candidates if c >= today), default=day)


#: what stands between a weekday and the date it is in apposition with ("Donnerstag, dem 7. März")
_APPOSITION = re.compile(r"^\s*,?\s*(?:(?:the|dem|den|der|le|el|il|de|o)\s+)?$", re.IGNORECASE)


def _not_negated(found: list[Found], text: str, language: str) -> list[Found]:
    """``found`` with each time its sentence negates masked (:data:`_NEGATED`, in the text's
    ``language``): it is the time the memory is not of ("Scratch that, it's Tuesday not Monday")."""
    negated = _NEGATED.get(language)
    if negated is None:
        return found
    return [
        Found(start, end, None) if item is not None and negated.search(text, max(0, start - 24), start) else
        Found(start, end, item)
        for start, end, item in found
    ]


def _offset_from_event(found: list[Found], text: str) -> list[Found]:
    """``found`` with each count of units before or after an event whose date follows the event
    ("three days before my birthday on June 20", "two days after the wedding, on May 4":
    :data:`~ripplemem.grounding.time_patterns.COUNT_BEFORE_EVENT`) read as one time, that date
    moved; the date alone is the event's, not what the sentence tells of."""
    ordered = sorted(found, key=lambda f: f.start)
    for head in COUNT_BEFORE_EVENT.finditer(text):
        date_at = next((f for f in ordered if f.start >= head.end() and f.item is not None), None)
        if (
            date_at is None or date_at.item is None or date_at.item.span is None
            or not EVENT_WORDS.match(text[head.end() : date_at.start])
        ):
            continue
        unit, count = head.group("unit").lower(), count_of(head.group("n"))
        moved = offset_from(date_at.item.span, unit, -count if head.group("way").lower() == "before" else count)
        if moved is None:
            continue
        start, end = head.start(), date_at.end
        phrase = text[start:end].strip().rstrip(",;:.!?")
        ordered = [f for f in ordered if f.end <= start or f.start >= end]
        ordered.append(Found(start, end, GroundedTime(phrase, *moved)))
        ordered.sort(key=lambda f: f.start)
    return ordered


def _names_month(text: str) -> bool:
    """Whether ``text`` names a month, in English or another language's words."""
    return _MONTH.search(text) is not None or names_a_month(text)


def _hidden(chunk: str, offset: int, taken: Sequence[tuple[int, int]]) -> str:
    """``chunk`` (at ``offset`` in its text) with the characters of the ``taken`` spans as
    :data:`_HIDING`: no word, no digit, no space to read a time across."""
    if not taken:
        return chunk
    characters = list(chunk)
    for start, end in taken:
        for at in range(max(start - offset, 0), min(end - offset, len(chunk))):
            characters[at] = _HIDING
    return "".join(characters)


def _counts_hidden(chunk: str) -> str:
    """``chunk`` with each pair of numbers joined by a dash that no month stands beside ("chapters
    1-4", "won 3-1", "4-6 pm"; not "May 6-12", "6–12 May", "6-12 de mayo") as :data:`_HIDING`: a
    range of counts, which the parser read as a clock time with the time after it ("4 this week":
    four o'clock) or glued to it, so that the time was dropped with the count."""
    out = chunk
    for pair in _HYPHEN_PAIR.finditer(chunk):
        around = chunk[max(0, pair.start() - 12) : pair.start()] + " " + chunk[pair.end() : pair.end() + 16]
        if _names_month(around):
            continue
        out = out[: pair.start()] + _HIDING * (pair.end() - pair.start()) + out[pair.end() :]
    return out


def _month_in_its_year(found: list[Found], text: str) -> list[Found]:
    """``found`` with a month (or a day of one) and the year it is of joined into one time, when
    the parser found them apart, side by side with at most a preposition between (:data:`_JOINER`:
    "No ano passado, em maio", "去年の5月", "Vorig jaar in mei": last year's May, where the month
    alone is this one): the month or day in that year, the words of both its phrase; and two
    years a range joins into the range (:func:`_joined`)."""
    ordered = sorted(found, key=lambda f: f.start)
    out: list[Found] = []
    at = 0
    while at < len(ordered):
        here = ordered[at]
        after = ordered[at + 1] if at + 1 < len(ordered) else None
        joined = _joined(here, after, text) if after is not None else None
        if joined is not None:
            out.append(joined)
            at += 2
            continue
        out.append(here)
        at += 1
    return out


def _joined(first: Found, second: Found, text: str) -> Found | None:
    """The time of a month and a year found side by side (:func:`_month_in_its_year`), or of two
    years a range joins ("从2019年到2023年": the parser finds the two years alone), or None."""
    if first.item is None or second.item is None or second.start < first.end:
        return None
    if _YEARS_JOINED.fullmatch(text[first.end : second.start]) and first.item.grain == second.item.grain == "year":
        opening, closing = first.item.span, second.item.span
        if opening is not None and closing is not None and opening.start < closing.start:
            start, end = first.start, second.end
            return Found(start, end, GroundedTime(text[start:end].strip(), TimeSpan(opening.start, closing.end), "range"))
    if not _JOINER.fullmatch(text[first.end : second.start]):
        return None
    year, month = (first, second) if first.item.grain == "year" else (second, first)
    if year.item is None or month.item is None or year.item.grain != "year" or month.item.grain not in ("month", "day"):
        return None
    whole, part = year.item.span, month.item.span
    if whole is None or part is None or _YEAR.search(month.item.phrase) or part.start.month != part.end.month:
        return None
    if not _names_month(month.item.phrase):
        return None  # a day told by the reference ("tomorrow night"), not by the calendar
    if (whole.start.month, whole.start.day, whole.end.month, whole.end.day) != (1, 1, 12, 31) or whole.start.year != whole.end.year:
        return None  # not one calendar year
    if part.start.year == whole.start.year:
        moved = part
    elif month.item.grain == "month":
        moved = month_span(whole.start.year, part.start.month)
    else:
        try:
            moved = day_span(part.start.date().replace(year=whole.start.year))
        except ValueError:  # 29 February in a year that has none
            return None
    start, end = min(first.start, second.start), max(first.end, second.end)
    return Found(start, end, GroundedTime(text[start:end].strip(), moved, month.item.grain))


def _since_said(found: list[Found], text: str, language: str, ref: datetime) -> list[Found]:
    """``found`` with a day, month or year our rules read after a preposition of "since"
    (:func:`~ripplemem.language.since_in`: "since April 2023", "Seit April 2023", "Depuis avril
    2023", where the rules' "April 2023" masks the parser's reading of the whole) read as the
    span from it up to ``ref``, as the parser's finds are."""
    out = []
    subordinate = None if language in _UNSPACED else COMPLEMENTIZER
    for start, end, item in found:
        span = item.span if item is not None else None
        lead = text[max(0, start - 24) : start]
        # (the clause's tense only when a preposition of since stands there: it costs a search)
        if (
            item is not None and span is not None and item.grain in ("day", "month", "year") and span.start <= ref
            and since_in(lead, item.phrase, text[end:], language, "")
        ):
            clause = tense_clause(text, start, end, lambda piece: own_clause_in(piece, language), subordinate)
            if since_in(lead, item.phrase, text[end:], language, tense_in(clause, language)):
                item = GroundedTime(item.phrase, TimeSpan(span.start, ref), "range")
        out.append(Found(start, end, item))
    return out


def _in_apposition(found: list[Found], text: str) -> list[Found]:
    """``found`` without a weekday that a date follows in apposition ("Am Donnerstag, dem 7. März",
    "el jueves, 7 de marzo"): the date names the day (a date wins over its weekday)."""
    ordered = sorted(found, key=lambda f: f.start)
    out = []
    for at, (start, end, item) in enumerate(ordered):
        after = ordered[at + 1] if at + 1 < len(ordered) else None
        if (
            item is not None and after is not None and after.item is not None and item.grain == "day"
            and after.item.grain == "day" and after.item.span is not None and _DIGIT.search(after.item.phrase)
            and (_WEEKDAY_WORD.search(item.phrase) or named_weekday(item.phrase))
            and not _DIGIT.search(item.phrase) and after.start >= end and _APPOSITION.match(text[end : after.start])
        ):
            continue
        out.append(Found(start, end, item))
    return out


def _one_month(value: dict, phrase: str) -> dict:
    """A range whose start names no month ("vom 4. bis 11. Juni", "de 7 a 11 de junho": Duckling
    reads the 4th of this month, or 7 o'clock) in the month of its end: its listed occurrences
    keep one end while the start recurs, or the start is a clock time; the first number of the
    phrase, one or two digits, is its first day. A range that names two months ("du 28 mai au 3
    juin") is left as read, and so is one of whole months or years ("von 2019 bis 2023")."""
    values = [v for v in value.get("values") or () if v.get("from") and v.get("to")]
    if not values or values[0]["to"]["value"][11:19] != "00:00:00":
        return value  # the end is no whole day
    first = values[0]
    start_recurs = len(values) > 1 and values[1]["to"]["value"] == first["to"]["value"]
    if first["from"].get("grain") not in _CLOCK_GRAINS and not start_recurs:
        return value
    number = re.search(r"(?<!\d)\d{1,2}(?!\d)", phrase)
    last = datetime.fromisoformat(first["to"]["value"][:19]) - SECOND
    if number is None or not 1 <= int(number.group()) <= last.day:
        return value
    begin = last.replace(day=int(number.group()), hour=0, minute=0, second=0)
    shifted = {**first, "from": {**first["from"], "value": begin.isoformat(), "grain": "day"}}
    return {**value, "type": "interval", "from": shifted["from"], "to": first["to"],
            "values": [shifted, *(_shifted(shifted, partial(_shift_years, years=k)) for k in (1, 2))]}


def _with_last_unit(value: dict) -> dict:
    """A closed range of whole months or years ending where its last one begins (Duckling's
    Spanish "de marzo a junio": March to May, "de 2019 a 2023": to 2022) with that last one:
    a range says its last month or year as it says its first ("del 3 al 7 de abril", a range of
    days, is read with its last day already)."""

    def closed(interval: dict) -> dict:
        start, end = interval.get("from"), interval.get("to")
        if not start or not end or start.get("grain") != end.get("grain"):
            return interval
        grain = end.get("grain")
        moment = datetime.fromisoformat(end["value"][:19])
        if grain == "year" and (moment.month, moment.day, moment.time()) == (1, 1, datetime.min.time()):
            moment = _shift_years(moment, 1)
        elif grain == "month" and (moment.day, moment.time()) == (1, datetime.min.time()):
            year, month = shift_months(moment.date(), 1)
            moment = moment.replace(year=year, month=month)
        else:
            return interval
        return {**interval, "to": {**end, "value": moment.isoformat()}}

    if value.get("type") != "interval":
        return value
    return {**closed(value), "values": [closed(v) for v in value.get("values") or ()]}


def _recurring_interval(value: dict, ref: datetime, tense: str) -> dict:
    """Of the occurrences Duckling lists for an interval that recurs yearly ("du 3 au 7 avril":
    next April's first), and the one a year before the first, the one the clause's ``tense``
    names (:func:`~ripplemem.grounding.time_spans.occurrence`)."""
    values = [v for v in value.get("values") or () if v.get("from") and v.get("to")]
    if len(values) < 2:
        return value
    candidates = [_shifted(values[0], lambda moment: _shift_years(moment, -1)), *values]
    spans = [
        TimeSpan(
            datetime.fromisoformat(v["from"]["value"][:19]),
            datetime.fromisoformat(v["to"]["value"][:19]) - SECOND,  # Duckling's "to" is open
        )
        for v in candidates
    ]
    if (spans[2].start - spans[1].start).days < 300:
        return value  # not yearly
    return candidates[spans.index(occurrence(spans, ref, tense))]


def _shifted(interval: dict, shift: timedelta | Callable[[datetime], datetime]) -> dict:
    """Duckling's ``interval`` (its "from" and "to") moved by ``shift``: a time to add, or a
    function of each end."""
    def moved(end: dict) -> dict:
        moment = datetime.fromisoformat(end["value"][:19])
        return {**end, "value": (shift(moment) if callable(shift) else moment + shift).isoformat()}

    return {**interval, **{side: moved(interval[side]) for side in ("from", "to") if interval.get(side)}}


def _clock_days(points: Sequence[tuple[datetime, str]]) -> list[datetime] | None:
    """The days a clock time's listed occurrences fall on (a day with its time: "Valentine's Day
    at 8", "le 12 juin à 10h", each year's; "due giorni fa", one day); None for a bare clock time,
    whose occurrences follow day after day ("at 8": today, then tomorrow)."""
    days = sorted({moment.date() for moment, _ in points})
    if len(days) > 1 and (days[1] - days[0]).days <= 1:
        return None
    return [datetime(d.year, d.month, d.day) for d in days]


def _unglued(result: dict, text: str) -> dict:
    """A find of several words whose first is glued to the word before it by a hyphen or a slash
    ("my check-up to June 2nd": "up to June 2nd") without that first word ("to June 2nd"); a find
    of one token so glued stays whole, and is dropped as part of a longer token ("K-200A")."""
    start, body = result["start"], result["body"]
    if start > 0 and text[start - 1] in "-/" and (space := body.find(" ")) > 0:
        rest = body[space:].lstrip()
        return {**result, "body": rest, "start": start + len(body) - len(rest)}
    return result


def _points(value: dict) -> list[tuple[datetime, str]]:
    """The moments (and grains) Duckling lists for a value: its occurrences, or itself."""
    return [
        (datetime.fromisoformat(v["value"][:19]), v["grain"])
        for v in value.get("values") or [value] if "value" in v
    ]


def _year_of_its_own(text: str, end: int, language: str) -> bool:
    """Whether a bare four-digit number at ``text[:end]`` stands as a year: nothing but
    punctuation after it, or a function word of its language ("2019 nach Berlin"), not a noun
    it counts ("2000 Euro")."""
    following = _NEXT_WORD.match(text, end)
    if following is None:
        return True
    return following.group(1).lower() in FUNCTION_WORDS.get(language, frozenset())


def _year_before(first: datetime, second: datetime) -> datetime:
    """The occurrence a year before ``first`` of a yearly date Duckling lists as ``first``,
    ``second``, by the rule the two share: the same day of the calendar (Christmas); the same
    distance from Easter Sunday (Easter, Good Friday); the same weekday counted from the start of
    the month (Thanksgiving, the fourth Thursday of November) or from its end (the last Monday
    of May); else a step back as long as the one between them."""
    if (first.month, first.day) == (second.month, second.day):
        if (first.month, first.day) == (2, 29):  # the leap year before, not 28 February
            year = next(y for y in range(first.year - 1, first.year - 9, -1) if calendar.isleap(y))
            return first.replace(year=year)
        return _shift_years(first, -1)
    offset = first.date() - _easter(first.year)
    if offset == second.date() - _easter(second.year):
        return datetime.combine(_easter(first.year - 1) + offset, first.time())
    if first.weekday() == second.weekday() and first.month == second.month:
        year, month, weekday = first.year - 1, first.month, first.weekday()
        days = calendar.monthrange(year, month)[1]
        counted = [d for d in range(1, days + 1) if calendar.weekday(year, month, d) == weekday]
        nth = (first.day - 1) // 7
        if nth == (second.day - 1) // 7 and nth < len(counted):
            return first.replace(year=year, day=counted[nth])
        from_end = (calendar.monthrange(first.year, month)[1] - first.day) // 7
        second_end = (calendar.monthrange(second.year, month)[1] - second.day) // 7
        if from_end == second_end and from_end < len(counted):
            return first.replace(year=year, day=counted[-1 - from_end])
    return first - (second - first)


def _easter(year: int) -> date:
    """Easter Sunday of ``year`` in the Gregorian calendar (the anonymous Gregorian computus)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    ell = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * ell) // 451
    month, day = divmod(h + ell - 7 * m + 114, 31)
    return date(year, month, day + 1)


def _day_of_month(phrase: str, text: str, start: int, end: int) -> bool:
    """"on the 14th" names a day of the month when no word follows that it could describe
    ("on the 2nd floor", "on the 3rd try"): the sentence ends, or a time, a month or a clause
    goes on ("on the 14th at 10:15", "on the 14th, so ..."), or a verb in the past ("the
    results from the 2nd came back": a verb describes nothing)."""
    if _ON_THE_DAY.match(phrase) is None and not (
        _THE_DAY.match(phrase) and _DAY_PREPOSITION.search(text, max(0, start - 12), start)
    ):
        return False
    following = text[end:]
    if _AFTER_DAY.match(following) is not None:
        return True
    verb = PAST.match(following.lstrip())
    return verb is not None and (verb.group(1) is None or verb.group(1).lower() not in NOT_PAST)


def _shift_years(moment: datetime, years: int) -> datetime:
    """``moment`` ``years`` later (earlier, when negative); 29 February becomes the 28th."""
    try:
        return moment.replace(year=moment.year + years)
    except ValueError:
        return moment.replace(year=moment.year + years, day=28)


def _years_back(moment: datetime, ref: datetime) -> datetime:
    """The last occurrence of ``moment``'s day of the year not after ``ref``."""
    back = _shift_years(moment, ref.year - moment.year)
    return back if back <= ref else _shift_years(back, -1)


_default = TimeGrounder()
_queries = TimeGrounder()


def default_grounder() -> TimeGrounder:
    """The grounder :func:`ground_times` and the write path use (one parser process)."""
    return _default


def query_grounder() -> TimeGrounder:
    """The grounder of search queries: a parser process of its own, so a query never waits
    behind the sentences of an add being parsed."""
    return _queries


def ground_times(text: str, reference: datetime | None, *, day_first: bool = False) -> list[GroundedTime]:
    """Time expressions of ``text`` grounded against ``reference`` (the session time), in order.

    With ``reference=None`` only absolute expressions ("May 2023", "in 2022") get a span.
    """
    return _default.ground(text, reference, day_first=day_first)
