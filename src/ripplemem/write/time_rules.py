"""Time rules of our own, for what Duckling misses or gets wrong in dialogue (calendar spans:
:mod:`ripplemem.write.time_spans`).

* weekends: "last weekend", "two weekends ago", "this weekend", "over the weekend" (by tense) ->
  Saturday 00:00 .. Sunday 23:59:59 (Duckling's weekend is Friday 18:00 .. Monday 00:00);
* "N days / weeks / months / years ago|back" -> that whole day / Monday..Sunday week / month / year;
  "a few / a couple of / several <units> ago" and "about N <units> ago" -> a small range of units;
* "in N <units>" -> that unit ahead, unless the sentence is in the past ("first time in 3 years");
* "May 2023" -> the month (Duckling only reads it after "in");
* "from 2015 to 2017" -> both years; "early / mid / late 2020" -> four months of it ("since
  early 2020": up to the reference); "around 2015" -> the year; "last year in June" -> that June
  (Duckling misreads or skips these);
* decades: "the 1990s", "the '90s", "the nineties", "the early 80s" -> those ten (or about
  three) years ("the 1800s": the century); a two-digit decade is the latest one that has ended
  ("the 20s" said in 2023: the 1920s); "in my 20s" (an age) and "temperatures in the 90s" are no
  times; "a decade ago" -> about ten years back (nine to eleven);
* anaphora ("the week before", "the next day", "that day") and vague words ("recently", "the other
  day") are kept as phrases but never grounded: the reference they need is not the session time.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import NamedTuple

from ripplemem.records import TimeSpan
from ripplemem.write.time_spans import day_span, hull, month_span, unit_span, year_span

_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
_MONTHS.update({m.lower(): i for i, m in enumerate(calendar.month_abbr) if m})
_MONTHS["sept"] = 9
_MONTH_RE = "|".join(sorted(_MONTHS, key=len, reverse=True))
WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
    "thirty": 30,
}  # fmt: skip
_NUMBER_RE = r"\d{1,3}|" + "|".join(sorted(_NUMBERS, key=len, reverse=True))
_VAGUE_COUNTS = {"couple": (1, 3), "few": (2, 5), "several": (3, 8)}
_DECADE_NAMES = "twenties thirties forties fifties sixties seventies eighties nineties"
_DECADE_WORDS = {word: tens for tens, word in enumerate(_DECADE_NAMES.split(), start=2)}
_DECADE_WORDS_RE = "|".join(_DECADE_WORDS)

TIMEISH = re.compile(
    r"\d|\b(?:yesterday|today|tonight|tomorrow|ago|back|weekends?|weeks?|months?|years?|days?|"
    r"morning|afternoon|evening|night|summer|winter|spring|fall|autumn|christmas|easter|"
    r"halloween|thanksgiving|recently|lately|since|while|decades?|"
    + _DECADE_WORDS_RE
    + "|"
    + WEEKDAYS
    + "|"
    + _MONTH_RE
    + r")\b"
    r"|\b(?:last|next|this|on|by|till|until|since|from|every|each) "
    r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\b",
    re.IGNORECASE,
)
_SHORT_WEEKDAY = re.compile(
    r"\b(?:last|next|this|by|on|till|until|since|from|every|each) "
    r"(?P<day>mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\b",
    re.IGNORECASE,
)
_FULL_WEEKDAY = {day[:3]: day for day in WEEKDAYS.split("|")}
_FULL_WEEKDAY.update({"tues": "tuesday", "thur": "thursday", "thurs": "thursday"})
_WEEKEND = re.compile(
    r"\b(?:(?P<n>" + _NUMBER_RE + r"|a couple of|a few) weekends? (?:ago|back)"
    r"|(?P<last>this past|last|past|previous) weekend"
    r"|(?P<next>next) weekend"
    r"|(?P<this>this coming|this|coming) weekend"
    r"|(?P<the>over|during|on|at) the weekend)\b(?! (?:before|after))",
    re.IGNORECASE,
)
_AGO = re.compile(
    r"\b(?P<approx>(?:about|around|almost|nearly|roughly|over|just|like) )?"
    r"(?:(?P<n>" + _NUMBER_RE + r")|(?P<vague>a couple of|couple of|a few|few|several)) "
    r"(?P<unit>day|week|month|year|decade)s? (?:ago|back)\b",
    re.IGNORECASE,
)
# "the 1990s", "the '90s", "the nineties", "the late 80s" ("the": "in my 20s" is an age)
_DECADE = re.compile(
    r"\bthe (?:(?P<part>early|mid|late)[- ])?(?:(?P<full>1\d\d0|20\d0)'?s"
    r"|['’]?(?P<short>[1-9])0'?s|(?P<word>" + _DECADE_WORDS_RE + r"))\b",
    re.IGNORECASE,
)
_TEMPERATURE = re.compile(
    r"\b(?:degrees?|temperatures?|temps?|weather|hot|warm|cold|cool|chilly|highs|lows|"
    r"forecast|fahrenheit|celsius)\b|°",
    re.IGNORECASE,
)
_DECADE_PARTS = {"early": (0, 3), "mid": (4, 6), "late": (7, 9)}
_IN_N = re.compile(
    r"\bin (?P<n>" + _NUMBER_RE + r") (?P<unit>day|week|month|year)s?\b", re.IGNORECASE
)
_MONTH_YEAR = re.compile(
    r"\b(?:in |of )?(?P<month>" + _MONTH_RE + r")\.?,? (?:of )?(?P<year>(?:19|20)\d\d)\b",
    re.IGNORECASE,
)
_PART_OF_YEAR = re.compile(
    r"\b(?P<since>since )?(?:(?P<part>early|mid|late)[- ]|(?:around|about|circa|roughly|"
    r"approximately) )(?P<year>(?:19|20)\d\d)\b",
    re.IGNORECASE,
)
# "about 2015 people": a count, not a year (a lower-case word after it that starts no clause)
_COUNTED = re.compile(
    r"\s+(?!(?:when|and|or|but|so|because|before|after|until|since|i|we|you|he|she|they|it|the|"
    r"in|on|at|to|for|was|were|is)\b)[a-z]"
)
_PARTS = {"early": (1, 4), "mid": (5, 8), "late": (9, 12)}
# "from 2015 to 2017": Duckling drops the end and reads "from 2015" (up to the reference)
_YEAR_RANGE = re.compile(
    r"\b(?:from|between) (?P<a>(?:19|20)\d\d) (?:to|until|till|through|thru|and) "
    r"(?P<b>(?:19|20)\d\d)\b",
    re.IGNORECASE,
)
_YEAR_THEN_MONTH = re.compile(
    rf"\b(?P<which>last|next|this) year,? (?:in|during) (?P<month>{_MONTH_RE})\b", re.IGNORECASE
)
# "the day before yesterday", "the week before last", "the Friday before last", "the month after
# next": two steps from the reference (before the anaphora rule, which would read "the week before")
_TWO_STEPS = re.compile(
    r"\b(?:the )?(?:day (?P<day>before yesterday|after tomorrow)"
    r"|(?P<unit>week|weekend|month|year) (?P<way>before last|after next)"
    r"|(?P<weekday>" + WEEKDAYS + r") before last)\b",
    re.IGNORECASE,
)
_ANAPHORA = re.compile(
    r"\b(?:(?:the|that) (?:day|night|morning|evening|week|weekend|month|year|summer|winter|"
    r"spring|fall) (?:before|after|prior)"
    r"|the (?:next|following|previous|prior) (?:day|night|morning|week|weekend|month|year)"
    r"|that (?:day|night|morning|evening|afternoon|week|weekend|month|year|summer|time))\b",
    re.IGNORECASE,
)
_VAGUE = re.compile(
    r"\b(?:recently|lately|the other day|a while (?:ago|back)|some time ago|long ago|"
    r"a long time ago|back then|these days|nowadays)\b",
    re.IGNORECASE,
)
_DAY_BEFORE = re.compile(r"\b\d{1,2}(?:st|nd|rd|th)?(?: of)? ?$", re.IGNORECASE)
BARE_DEFINITE = re.compile(
    r"^(?:(?:on|for|of|by|in|during|at|all) )?the (?:day|week|weekend|month|year)$", re.IGNORECASE
)
GENERIC_PLURAL = re.compile(
    r"\b(?:" + WEEKDAYS + r"|weekend|morning|afternoon|evening|night|summer|winter)s\b$",
    re.IGNORECASE,
)
ORDINAL_ONLY = re.compile(
    r"^(?:the |on the )?\d*(?:first|second|third|st|nd|rd|th)$", re.IGNORECASE
)
DAY_ANCHOR = re.compile(
    r"\b(?:today|tonight|yesterday|tomorrow|morning|afternoon|evening|night|noon|midnight|ago|"
    + WEEKDAYS
    + "|"
    + _MONTH_RE
    + r")\b|\d+/\d+",
    re.IGNORECASE,
)
_NOT_PAST_WORDS = """need indeed speed feed seed bleed breed proceed succeed exceed embed bed red
    shed weed wed greed deed"""
_NOT_PAST = frozenset(_NOT_PAST_WORDS.split())  # -ed words that are no past tense
_PAST = re.compile(
    r"\b(?:was|were|went|did|had|got|made|took|saw|came|met|gave|found|felt|thought|told|"
    r"bought|brought|left|ran|won|began|wrote|sang|ate|spent|kept|heard|ago|been|(\w{2,}ed))\b",
    re.IGNORECASE,
)
_FUTURE = re.compile(
    r"\b(?:will|shall|gonna|going|plan|planning|plans|next|upcoming|tomorrow|soon|"
    r"(?:am|'m|’m|are|'re|’re|is) \w+ing|"
    r"can't wait|cannot wait|looking forward|hope to|hoping to|want to|would like|'ll)\b|’ll",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class GroundedTime:
    """A time expression as written, its interval (None when it cannot be grounded) and grain:
    hour, day, week, weekend, month, season, quarter, year, range or vague."""

    phrase: str
    span: TimeSpan | None
    grain: str


class Found(NamedTuple):
    start: int
    end: int
    item: GroundedTime | None


def expand_weekdays(text: str) -> tuple[str, list[tuple[int, int, int, int]]]:
    """``text`` with "last Wed" spelled "last wednesday" (Duckling reads only full names), and
    the replacements as ``(new_start, new_end, old_start, old_end)``."""
    parts: list[str] = []
    moves: list[tuple[int, int, int, int]] = []
    last = 0
    size = 0
    for match in _SHORT_WEEKDAY.finditer(text):
        start, end = match.start("day"), match.end()
        full = _FULL_WEEKDAY[match.group("day").lower()]
        parts.append(text[last:start])
        size += start - last
        moves.append((size, size + len(full), start, end))
        parts.append(full)
        size += len(full)
        last = end
    parts.append(text[last:])
    return "".join(parts), moves


def original_offset(position: int, moves: list[tuple[int, int, int, int]]) -> int:
    """Map an offset in :func:`expand_weekdays` output back to the original text."""
    delta = 0
    for new_start, new_end, old_start, old_end in moves:
        if position < new_start:
            break
        if position <= new_end:
            return old_end if position == new_end else old_start
        delta = old_end - new_end
    return position + delta


# -- helpers ---------------------------------------------------------------------------------------


def count_of(word: str) -> int:
    word = word.lower()
    return int(word) if word.isdigit() else _NUMBERS[word]


def clause_of(text: str, start: int, end: int) -> str:
    left = max(text.rfind(c, 0, start) for c in ".!?\n") + 1
    rights = [i for i in (text.find(c, end) for c in ".!?\n") if i != -1]
    return text[left : min(rights) if rights else len(text)]


def tense_of(clause: str) -> str:
    past = any(
        m.group(1) is None or m.group(1).lower() not in _NOT_PAST for m in _PAST.finditer(clause)
    )
    future = bool(_FUTURE.search(clause))
    if past and not future:
        return "past"
    if future and not past:
        return "future"
    return ""


# -- rules --------------------------------------------------------------------------------------


def rule_times(text: str, ref: datetime | None) -> list[Found]:
    """Our rules' matches, in rule order; an entry with ``item=None`` masks a span that is not
    a time ("my first time in 3 years")."""
    found: list[Found] = []

    def add(match: re.Match, span: TimeSpan | None, grain: str) -> None:
        phrase = match.group().strip()
        found.append(Found(match.start(), match.end(), GroundedTime(phrase, span, grain)))

    def free(match: re.Match) -> bool:
        return not any(match.start() < e and s < match.end() for s, e, _ in found)

    for m in _MONTH_YEAR.finditer(text):
        if not _DAY_BEFORE.search(text, 0, m.start()):  # "8 May 2023" is Duckling's (a day)
            add(m, month_span(int(m.group("year")), _MONTHS[m.group("month").lower()]), "month")
    for m in _YEAR_RANGE.finditer(text):
        first, last = int(m.group("a")), int(m.group("b"))
        if free(m) and first <= last:
            add(m, hull(year_span(first), year_span(last)), "range")
    for m in _PART_OF_YEAR.finditer(text):
        if free(m) and (m.group("part") or not _COUNTED.match(text, m.end())):
            add(m, *_part_of_year(m, ref))
    for m in _YEAR_THEN_MONTH.finditer(text):
        if free(m):
            step = {"last": -1, "next": 1, "this": 0}[m.group("which").lower()]
            month = _MONTHS[m.group("month").lower()]
            add(m, month_span(ref.year + step, month) if ref else None, "month")
    for m in _DECADE.finditer(text):
        if free(m) and not _TEMPERATURE.search(clause_of(text, m.start(), m.end())):
            add(m, _decade(m, ref), "range")
    for m in _TWO_STEPS.finditer(text):
        if free(m):
            span, grain = _two_steps(m, ref)
            add(m, span, grain)
    for m in _ANAPHORA.finditer(text):
        if free(m):
            add(m, None, "vague")
    for m in _VAGUE.finditer(text):
        if free(m):
            add(m, None, "vague")
    for m in _WEEKEND.finditer(text):
        if free(m):
            add(m, _weekend(m, text, ref), "weekend")
    for m in _AGO.finditer(text):
        if free(m):
            unit = m.group("unit").lower()
            vague = m.group("vague") or m.group("approx") or unit == "decade"
            add(m, _ago(m, ref), "range" if vague else unit)
    for m in _IN_N.finditer(text):
        if not free(m):
            continue
        if tense_of(clause_of(text, m.start(), m.end())) == "past":  # "first time in 3 years"
            found.append(Found(m.start(), m.end(), None))
        else:
            unit = m.group("unit").lower()
            add(m, unit_span(ref, unit, count_of(m.group("n"))) if ref else None, unit)
    return found


def _part_of_year(m: re.Match, ref: datetime | None) -> tuple[TimeSpan | None, str]:
    year = int(m.group("year"))
    if not m.group("part"):
        return year_span(year), "year"
    first, last = _PARTS[m.group("part").lower()]
    span = hull(month_span(year, first), month_span(year, last))
    if m.group("since"):  # "since early 2020": from then on, up to the reference
        if ref is None or ref < span.start:
            return None, "range"
        span = TimeSpan(span.start, ref)
    return span, "range"


def _weekend(m: re.Match, text: str, ref: datetime | None) -> TimeSpan | None:
    if ref is None:
        return None
    if m.group("n"):
        word = m.group("n").lower()
        back = 2 if "couple" in word else 3 if "few" in word else count_of(word)
    elif m.group("last"):
        back = 1
    elif m.group("next"):
        back = -1
    elif m.group("this"):
        back = 0
    else:
        tense = tense_of(clause_of(text, m.start(), m.end()))
        if not tense:
            return None
        back = 0 if tense == "future" or ref.weekday() >= 5 else 1
    saturday = ref.date() - timedelta(days=ref.weekday()) + timedelta(days=5 - 7 * back)
    return TimeSpan(day_span(saturday).start, day_span(saturday + timedelta(days=1)).end)


def _ago(m: re.Match, ref: datetime | None) -> TimeSpan | None:
    if ref is None:
        return None
    unit = m.group("unit").lower()
    if m.group("vague"):
        words = m.group("vague").lower()
        low, high = _VAGUE_COUNTS[next(k for k in _VAGUE_COUNTS if k in words)]
    else:
        n = count_of(m.group("n"))
        rough = m.group("approx") and unit != "decade"  # "about a decade": the decade is rough
        low, high = (max(n - 1, 0), n + 1) if rough else (n, n)
    if unit == "decade":  # a round number: "a decade ago" is nine to eleven years back
        unit, low, high = "year", max(10 * low - 1, 0), 10 * high + 1
    return hull(unit_span(ref, unit, -high), unit_span(ref, unit, -low))


def _decade(m: re.Match, ref: datetime | None) -> TimeSpan | None:
    years = 10
    if m.group("full"):
        start = int(m.group("full"))
        if start % 100 == 0 and start != 2000:  # "the 1800s": a century ("the 2000s": a decade)
            years = 100
    else:
        tens = int(m.group("short")) if m.group("short") else _DECADE_WORDS[m.group("word").lower()]
        if ref is None:
            return None  # which century: the latest such decade that has ended by the reference
        start = 2000 + 10 * tens if 2000 + 10 * tens + 9 < ref.year else 1900 + 10 * tens
    first, last = _DECADE_PARTS[m.group("part").lower()] if m.group("part") else (0, 9)
    step = years // 10
    return hull(year_span(start + first * step), year_span(start + (last + 1) * step - 1))


def _two_steps(m: re.Match, ref: datetime | None) -> tuple[TimeSpan | None, str]:
    if m.group("day"):
        step = -2 if m.group("day").lower().startswith("before") else 2
        return (unit_span(ref, "day", step) if ref else None), "day"
    if m.group("weekday"):
        if ref is None:
            return None, "day"
        weekday = WEEKDAYS.split("|").index(m.group("weekday").lower())
        back = (ref.weekday() - weekday) % 7 or 7  # "last Friday": the latest one before today
        return day_span(ref.date() - timedelta(days=back + 7)), "day"
    unit = m.group("unit").lower()
    step = -2 if m.group("way").lower().startswith("before") else 2
    if unit == "weekend":
        if ref is None:
            return None, "weekend"
        # as in _weekend: "last weekend" is the one of the previous week, so this is one before
        saturday = ref.date() - timedelta(days=ref.weekday()) + timedelta(days=5 + 7 * step)
        return TimeSpan(day_span(saturday).start, day_span(saturday + timedelta(days=1)).end), unit
    return (unit_span(ref, unit, step) if ref else None), unit
