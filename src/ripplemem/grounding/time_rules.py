"""Time rules of our own, for what Duckling misses or gets wrong in dialogue (calendar spans:
:mod:`ripplemem.grounding.time_spans`).

* weekends: "last weekend", "two weekends ago", "this weekend", "over the weekend" (by tense) ->
  Saturday 00:00 .. Sunday 23:59:59 (Duckling's weekend is Friday 18:00 .. Monday 00:00);
* "3 weeks ago last Friday", "a week ago yesterday" -> that day counted back;
* "先週の金曜日", "下个星期一" -> that weekday of the week named (Japanese, Chinese);
* "N days / weeks / months / years ago|back" -> that whole day / Monday..Sunday week / month / year
  (Japanese "三日前", "二週間前" too);
  "a few / a couple of / several <units> ago" and "about N <units> ago" -> a small range of units;
* "in N <units>" -> that unit ahead, unless the sentence is in the past ("first time in 3 years");
  "in a couple of / a few <units>" -> a few of them ahead (as "a few days ago" is a few back);
  "a week from Friday", "two weeks on Monday" -> that day moved;
  "N <units> from now" -> that unit ahead; "two or three weeks ago", "a month or two ago" -> the
  range, "a week or so ago" -> about one week;
* "28/02/2025", "03.04.2023", "17/11/24" -> that day, read day first where only that can be (dots,
  or a first number above 12; Duckling's English reads "28/02/2025" as nothing) or where the
  text's other dates show that order ("12/06/2019 ... 25/06/2019"), and nothing for numbers no
  order makes a day ("31/02/2025"), nor for a day a month named in words has not ("the 30th of
  February", "April 31");
* "2024/03/07", "2024.3.7" -> that day (the year first is followed by the month);
  "2024-07-01T09:00+02:00", "2024-07-01 09:00 UTC", "2024-07-01 at 9am" -> the day written, and
  "2024-07-01T09:00Z to 2024-07-02T11:00Z" both days (Duckling reads the clock time alone);
* "May 2023" -> the month (Duckling only reads it after "in");
* "from 2015 to 2017", "in 2019 and 2020" -> both years; "early / mid / late 2020" -> four
  months of it ("since early 2020": up to the reference); "around 2015" -> the year; "last year
  in June" -> that June (Duckling misreads or skips these);
* decades: "in the 1990s", "during the '90s", "in the nineties", "in the early 80s" -> those ten
  (or about three) years ("in the 1800s": the century; "since the 90s": up to the reference);
  a two-digit decade is the latest one that has ended ("the 20s" said in 2023: the 1920s);
  "in my 20s" (an age), "temperatures in the 90s" and "a book from the 1900s" (the book's age,
  not a time of the memory) are no times; "a decade ago" -> nine to eleven years back;
* anaphora ("the day before", "the next day", "that evening", "the week after", "the year
  after") count from the time named just before them in the same text, as a reader does
  (:func:`ground_anaphora`: "Yesterday I ran 5k and the day before I swam" -> the day before
  yesterday); with none before them, or only one too coarse to count days from ("last week ...
  the day before"), they are kept as phrases, never grounded against the session time, which is
  not the reference they need; so are seasons ("that summer") and vague words ("recently", "the
  other day").
"""

from __future__ import annotations

import bisect
import calendar
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Literal, NamedTuple

from ripplemem.grounding import time_patterns as tp
from ripplemem.grounding.foreign_anaphora import FOREIGN_ANAPHORA, english_anaphor
from ripplemem.grounding.time_spans import (
    day_span,
    hull,
    month_span,
    occurrence,
    shift_months,
    unit_span,
    week_span,
    weekday_after,
    weekday_before,
    weekend_span,
    year_span,
)
from ripplemem.language import tense_in, unit_grain
from ripplemem.records import TimeSpan


@dataclass(frozen=True, slots=True)
class GroundedTime:
    """A time expression as written, its interval (None when it cannot be grounded) and grain:
    hour, day, week, weekend, month, season, quarter, year, range or vague. ``onward``: the time
    is the onset of a change ahead ("from July we'll be paying 1350": ``span`` is July), which
    holds from its start on (:meth:`held`)."""

    phrase: str
    span: TimeSpan | None
    grain: str
    onward: bool = False

    def held(self) -> TimeSpan | None:
        """The time what the phrase tells of holds: its span, or from an onset on, open towards
        the future (:meth:`~ripplemem.records.TimeSpan.onward`), as "since" runs from the past."""
        if self.onward and self.span is not None:
            return TimeSpan.onward(self.span.start)
        return self.span


class Found(NamedTuple):
    start: int
    end: int
    item: GroundedTime | None


# -- rules --------------------------------------------------------------------------------------


def rule_times(
    text: str, ref: datetime | None, day_first: bool = False, language: str | None = None
) -> list[Found]:
    """Our rules' matches, in rule order; an entry with ``item=None`` masks a span that is not
    a time ("my first time in 3 years"). ``day_first``: a slash date both orders make a day
    ("03/04/2023") is read day first when the text shows no order of its own. ``language``:
    the text's (ISO 639-1; None: not known); an English text is not searched for another
    language's anaphora."""
    found: list[Found] = []

    def add(match: re.Match, span: TimeSpan | None, grain: str) -> None:
        phrase = match.group().strip()
        taken.add(match.start(), match.end())
        found.append(Found(match.start(), match.end(), GroundedTime(phrase, span, grain)))

    def free(match: re.Match) -> bool:
        return taken.free(match.start(), match.end())

    taken = _Taken(found)
    numeric = list(tp.NUMERIC_DATE.finditer(text))
    shown = _shown_order(numeric)
    for m in numeric:
        read = _numeric_date(m, day_first if shown is None else shown)
        if read is not False:  # a calendar day, or no time at all ("31/02/2025"); else Duckling's
            taken.add(m.start(), m.end())
            found.append(Found(m.start(), m.end(), GroundedTime(m.group(), day_span(read), "day") if read else None))
    for m in tp.DAY_OF_NAMED_MONTH.finditer(text):
        day, month = (m.group("day"), m.group("month")) if m.group("day") else (m.group("day2"), m.group("month2"))
        if _calendar_day(2024, tp.MONTHS[month.lower().rstrip(".")], int(day)) is None:  # (2024: 29 February is one)
            taken.add(m.start(), m.end())  # no calendar day: no time, not the next 30th
            found.append(Found(m.start(), m.end(), None))
    for m in tp.ISO_DATE_TIME.finditer(text):
        opening = _calendar_day(int(m.group("year")), int(m.group("month")), int(m.group("day")))
        closing = (
            _calendar_day(int(m.group("year2")), int(m.group("month2")), int(m.group("day2")))
            if m.group("year2") else opening
        )
        if free(m):  # no calendar day ("2024-13-45T09:00"), or a range that ends first: no time
            span = hull(day_span(opening), day_span(closing)) if opening and closing and opening <= closing else None
            taken.add(m.start(), m.end())
            grain = "day" if span is not None and opening == closing else "range"
            found.append(Found(m.start(), m.end(), GroundedTime(m.group(), span, grain) if span else None))
    for m in tp.YEAR_FIRST_RANGE.finditer(text):
        if m.group("sep") == "." and min(len(m.group("month") + m.group("day")), len(m.group("month2") + m.group("day2"))) < 4:
            continue  # "2024.1.2-2024.1.5": versions, as below
        opening = _calendar_day(int(m.group("year")), int(m.group("month")), int(m.group("day")))
        closing = _calendar_day(int(m.group("year2")), int(m.group("month2")), int(m.group("day2")))
        if opening and closing and opening <= closing and free(m):
            add(m, hull(day_span(opening), day_span(closing)), "range")
    for m in tp.YEAR_FIRST_DATE.finditer(text):
        if m.group("sep") == "." and len(m.group("month") + m.group("day")) < 4:
            continue  # "2024.1.2": a version, as "1.5.10" is
        if free(m):
            written = _calendar_day(int(m.group("year")), int(m.group("month")), int(m.group("day")))
            taken.add(m.start(), m.end())  # no calendar day ("2024/13/45"): no time
            found.append(Found(m.start(), m.end(), GroundedTime(m.group(), day_span(written), "day") if written else None))
    for m in tp.MONTH_RANGE_YEAR.finditer(text):
        first, last, year = tp.MONTHS[m.group("first").lower()], tp.MONTHS[m.group("month").lower()], int(m.group("year"))
        if free(m):  # "from November to February 2023": November of the year before
            add(m, hull(month_span(year if first <= last else year - 1, first), month_span(year, last)), "range")
    for m in tp.YEAR_ONWARD.finditer(text):
        year = int(m.group("year"))
        if free(m) and ref is not None and year <= ref.year:  # from the year on: up to now
            add(m, TimeSpan(year_span(year).start, ref), "range")
    for m in tp.MONTH_YEAR.finditer(text):
        if free(m) and not tp.DAY_BEFORE.search(text, *tp.before(text, m.start())):  # "8 May 2023": a day
            add(m, month_span(int(m.group("year")), tp.MONTHS[m.group("month").lower()]), "month")
    for m in tp.YEAR_RANGE.finditer(text):
        first, last = int(m.group("a")), int(m.group("b"))
        if free(m) and first <= last:
            add(m, hull(year_span(first), year_span(last)), "range")
    for m in tp.DAY_RANGE.finditer(text):
        if free(m):
            add(m, _day_range(m, text, ref), "range")
    for m in tp.SHORT_YEAR.finditer(text):
        if free(m) and ref is not None:
            year = 2000 + int(m.group("yy"))
            add(m, year_span(year if year <= ref.year else year - 100), "year")
    for m in tp.QUARTER.finditer(text):
        if free(m):
            add(m, _quarter(int(m.group("q")), m.group("year"), ref), "quarter")
    for m in tp.NAMED_QUARTER.finditer(text):
        if free(m):
            add(m, _quarter(tp.quarter_number(m.group("nth")), m.group("year"), ref), "quarter")
    for m in tp.PART_OF_YEAR.finditer(text):
        if free(m) and (m.group("part") or not tp.COUNTED.match(text, m.end())):
            add(m, *_part_of_year(m, ref))
    for m in tp.YEAR_THEN_MONTH.finditer(text):
        if free(m):
            step = {"last": -1, "next": 1, "this": 0}[m.group("which").lower()]
            month = tp.MONTHS[m.group("month").lower()]
            add(m, month_span(ref.year + step, month) if ref else None, "month")
    for m in tp.DECADE.finditer(text):
        if free(m) and not tp.TEMPERATURE.search(tp.clause_of(text, m.start(), m.end())):
            add(m, _decade(m, ref), "range")
    for m in tp.SEASON_BEFORE_LAST.finditer(text):
        if free(m):
            add(m, _season_before_last(m.group("season").lower(), ref), "season")
    relative_day, weekends_back = tp.RELATIVE_DAY.get(language or ""), tp.WEEKENDS_BACK.get(language or "")
    for m in relative_day.finditer(text) if relative_day else ():
        if free(m):
            step = tp.RELATIVE_DAYS[language or ""][m.group().lower()]
            add(m, unit_span(ref, "day", step) if ref else None, "day")
    for m in weekends_back.finditer(text) if weekends_back else ():
        if free(m):
            word = m.group("n").lower()
            back = int(word) if word.isdigit() else tp.WEEKEND_COUNTS[word]
            add(m, weekend_span(ref.date() - timedelta(days=ref.weekday()) + timedelta(days=5 - 7 * back)) if ref else None, "weekend")
    before_last = tp.UNITS_BEFORE_LAST.get(language or "")
    for m in before_last.finditer(text) if before_last else ():
        if free(m):
            unit = "weekend" if m.group("weekend") else unit_grain(m.group("unit")) or "week"
            add(m, _units_from(ref, unit, -2), unit)
    for m in tp.TWO_STEPS.finditer(text):
        if free(m):
            span, grain = _two_steps(m, ref)
            add(m, span, grain)
    for m in tp.COUNTED_ANAPHORA.finditer(text):
        if free(m):
            add(m, None, "vague")
    for m in tp.WEEKDAY_ANAPHORA.finditer(text):
        if free(m):
            add(m, None, "vague")
    for m in tp.ANAPHORA.finditer(text):
        if free(m):
            add(m, None, "vague")
    for m in FOREIGN_ANAPHORA.finditer(text) if language != "en" else ():  # "la veille": read as English
        if free(m):
            add(m, None, "vague")
    for m in tp.VAGUE.finditer(text):
        if free(m):
            add(m, None, "vague")
    for m in tp.WEEKDAY_RANGE.finditer(text):
        if free(m):
            add(m, _weekday_run(m, text, ref), "range")
    for m in tp.NTH_WEEKEND.finditer(text):
        if free(m):
            add(m, _nth_weekend(m, text, ref), "weekend")
    for m in tp.WEEKEND.finditer(text):
        if free(m):
            add(m, _weekend(m, text, ref), "weekend")
    for m in tp.CJK_DAY_RANGE.finditer(text) if language in ("ja", "zh") else ():
        if free(m) and (m.group("year") or m.group("step") or not text[: m.start()].endswith("年")):
            add(m, _cjk_day_range(m, text, ref, language), "range")
    for m in tp.KO_DAY_RANGE.finditer(text) if language == "ko" else ():
        if free(m):
            add(m, _cjk_day_range(m, text, ref, language), "range")
    for m in tp.CJK_WEEK_DAY.finditer(text) if language in ("ja", "zh") else ():
        if free(m):
            add(m, _weekday_of_week(m, ref), "day")
    for m in tp.JA_AGO.finditer(text) if language == "ja" else ():
        if free(m):
            add(m, *_japanese_ago(m, ref))
    for m in tp.PT_COUNT.finditer(text) if language == "pt" else ():
        if free(m):
            add(m, *_portuguese_count(m, ref))
    for m in tp.COUNT_FROM_DAY.finditer(text):
        if free(m):
            add(m, _count_from_day(m, text, ref), "day")
    for m in tp.AGO_FROM_DAY.finditer(text):
        if free(m):
            add(m, _ago_from_day(m, ref), "day")
    for m in tp.AGO.finditer(text):
        if free(m):
            unit = m.group("unit").lower()
            vague = m.group("vague") or m.group("approx") or m.group("upto") or m.group("or")
            vague = vague or unit == "decade"
            add(m, _ago(m, ref), "range" if vague else unit)
    for m in tp.IN_N.finditer(text):
        if not free(m):
            continue
        if tp.tense_of(tp.tense_clause(text, m.start(), m.end())) == "past":  # "first time in 3 years"
            taken.add(m.start(), m.end())
            found.append(Found(m.start(), m.end(), None))
        elif m.group("vague"):  # "in a couple of days": one to three days ahead
            unit = m.group("unit").lower()
            low, high = tp.VAGUE_COUNTS[next(k for k in tp.VAGUE_COUNTS if k in m.group("vague").lower())]
            if unit == "fortnight":
                unit, low, high = "week", 2 * low, 2 * high
            add(m, hull(unit_span(ref, unit, low), unit_span(ref, unit, high)) if ref else None, "range")
        else:
            unit, count = m.group("unit").lower(), tp.count_of(m.group("n"))
            if unit == "fortnight":  # "in a fortnight": two weeks ahead
                unit, count = "week", 2 * count
            add(m, unit_span(ref, unit, count) if ref else None, unit)
    for m in tp.FROM_NOW.finditer(text):
        if free(m):
            unit = m.group("unit").lower()
            add(m, unit_span(ref, unit, tp.count_of(m.group("n"))) if ref else None, unit)
    return found


class _Taken:
    """The spans the rules took so far: disjoint, kept sorted, so a new match's overlap test is a
    binary search (a text with thousands of matches stays linear)."""

    def __init__(self, found: list[Found]) -> None:
        self._starts: list[int] = []
        self._ends: list[int] = []
        for start, end, _ in found:
            self.add(start, end)

    def free(self, start: int, end: int) -> bool:
        i = bisect.bisect_right(self._starts, start)
        # the span starting at or before `start`, and the one after it, are the only candidates
        if i > 0 and self._ends[i - 1] > start:
            return False
        return not (i < len(self._starts) and self._starts[i] < end)

    def add(self, start: int, end: int) -> None:
        i = bisect.bisect_right(self._starts, start)
        self._starts.insert(i, start)
        self._ends.insert(i, end)


def _shown_order(matches: list[re.Match]) -> bool | None:
    """Whether the numeric dates of a text show the day-first order (True: one with slashes
    whose first number cannot be a month, "25/06/2019", and none whose second cannot,
    "02/28/2024"), the month-first one (False), or neither or both (None). A writer keeps one
    order within a text."""
    day_first = month_first = False
    for m in matches:
        if m.group("sep") != "/":
            continue
        a, b = int(m.group("a")), int(m.group("b"))
        day_first |= 12 < a <= 31 and 1 <= b <= 12
        month_first |= 12 < b <= 31 and 1 <= a <= 12
    return None if day_first == month_first else day_first


def _numeric_date(m: re.Match, day_first: bool = False) -> date | None | Literal[False]:
    """A date in numbers read day first, where only that reading can be: with dots ("03.04.2023",
    the European way) or a first number above 12 ("28/02/2025"), and where the text's other
    dates show that order (``day_first``: "12/06/2019 ... 25/06/2019" is 12 June); a two-digit
    year is this century's. None for numbers no reading makes a calendar day ("31/02/2025",
    "45.13.2024"); False where Duckling reads it (month first, "02/28/2024", and "03/04/2023",
    which both orders make a day, in a text that shows no order: the first number is taken for
    the month, as Duckling's English does)."""
    a, b, year = int(m.group("a")), int(m.group("b")), int(m.group("year"))
    if len(m.group("year")) == 2:
        if m.group("sep") == "." and len(m.group("a") + m.group("b")) < 4:
            return False  # "1.5.10": a version, not "01.05.10"
        year += 2000
    if m.group("sep") == "/" and a <= 12 and not (day_first and _calendar_day(year, b, a)):
        return False if _calendar_day(year, a, b) else None
    return _calendar_day(year, b, a)


def _calendar_day(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _quarter(number: int, year_written: str | None, ref: datetime | None) -> TimeSpan | None:
    """"Q3 2022": that quarter (``number`` 3 of the year written); "the Q1 numbers": the nearest
    Q1 (a quarter's numbers are told around it, ahead or after), None without a reference."""
    first = 3 * (number - 1) + 1

    def quarter(year: int) -> TimeSpan:
        return hull(month_span(year, first), month_span(year, first + 2))

    if year_written:
        return quarter(int(year_written))
    if ref is None:
        return None
    return occurrence([quarter(ref.year + k) for k in (-1, 0, 1)], ref, "")


def _part_of_year(m: re.Match, ref: datetime | None) -> tuple[TimeSpan | None, str]:
    year = int(m.group("year"))
    if not m.group("part"):
        return year_span(year), "year"
    first, last = tp.PARTS[m.group("part").lower()]
    span = hull(month_span(year, first), month_span(year, last))
    if m.group("since"):  # "since early 2020": from then on, up to the reference
        if ref is None or ref < span.start:
            return None, "range"
        span = TimeSpan(span.start, ref)
    return span, "range"


def _day_range(m: re.Match, text: str, ref: datetime | None) -> TimeSpan | None:
    """"between 4 and 9 April": those days, in the year written, else the year the clause's
    tense says (:func:`_of_year`); None when they are no calendar days or run backwards."""
    month, first, last = tp.MONTHS[m.group("month").lower()], int(m.group("a")), int(m.group("b"))

    def days(year: int) -> TimeSpan | None:
        start, end = _calendar_day(year, month, first), _calendar_day(year, month, last)
        if start is None or end is None or start > end:
            return None
        return TimeSpan(day_span(start).start, day_span(end).end)

    return _of_year(days, m, text, ref)


def _cjk_day_range(m: re.Match, text: str, ref: datetime | None, language: str | None) -> TimeSpan | None:
    """"3月3日から7日まで", "三月三号到七号", "6월 3일부터 9일까지": the days from the first to the last, the last in the
    start's month when it names none (in the next year when its month comes before the start's:
    "12月28日から1月4日"); in the year written, else the occurrence its sentence's tense says
    (:func:`~ripplemem.language.tense_in`; the nearest when it tells neither or both)."""
    month, first, last = tp.kanji_count(m.group("month")), tp.kanji_count(m.group("a")), tp.kanji_count(m.group("b"))
    month2 = tp.kanji_count(m.group("month2")) if m.group("month2") else month

    def days(year: int) -> TimeSpan | None:
        start = _calendar_day(year, month, first)
        end = _calendar_day(year + (month2 < month), month2, last)
        if start is None or end is None or start > end:
            return None
        return TimeSpan(day_span(start).start, day_span(end).end)

    if m.group("year"):
        return days(int(m.group("year")))
    if ref is None:
        return None
    if m.group("step"):
        return days(ref.year + tp.CJK_YEAR_STEP[m.group("step")])
    spans = [span for span in map(days, (ref.year - 1, ref.year, ref.year + 1)) if span is not None]
    if not spans:
        return None
    tense = tense_in(tp.clause_of(text, m.start(), m.end()), language) if language else ""
    return occurrence(spans, ref, "" if tense == "mixed" else tense)


def _nth_weekend(m: re.Match, text: str, ref: datetime | None) -> TimeSpan | None:
    """"the first weekend of July": the month's first (or second, third, fourth, last) Saturday
    and the Sunday after it, in the year :func:`_of_year` says."""
    month, nth = tp.MONTHS[m.group("month").lower()], m.group("nth").lower()

    def weekend(year: int) -> TimeSpan:
        days = calendar.monthrange(year, month)[1]
        saturdays = [d for d in range(1, days + 1) if calendar.weekday(year, month, d) == 5]
        index = {"first": 0, "second": 1, "third": 2, "fourth": 3, "last": -1}[nth]
        return weekend_span(date(year, month, saturdays[index]))

    return _of_year(weekend, m, text, ref)


def _weekday_run(m: re.Match, text: str, ref: datetime | None) -> TimeSpan | None:
    """"from Friday to Sunday": those days in the week "next week" or "last week" names, else
    the run its clause's tense says: the last that has ended of a clause in the past, the
    coming one of a clause with no past (a plan), the nearest of one with both."""
    if ref is None:
        return None
    names = tp.WEEKDAYS.split("|")
    first, last = names.index(m.group("a").lower()), names.index(m.group("b").lower())
    length = (last - first) % 7
    monday = ref.date() - timedelta(days=ref.weekday())
    week = (m.group("week") or "").lower()
    if week:
        start = monday + timedelta(days=7 * {"next": 1, "last": -1, "this": 0}[week] + first)
        return TimeSpan(day_span(start).start, day_span(start + timedelta(days=length)).end)
    runs = [
        TimeSpan(day_span(begin).start, day_span(begin + timedelta(days=length)).end)
        for begin in (monday + timedelta(days=7 * shift + first) for shift in (-2, -1, 0, 1))
    ]
    tense = tp.phrase_tense(text, m.start(), m.end())
    today = datetime(ref.year, ref.month, ref.day)
    if tense == "past":
        return max((r for r in runs if r.end <= ref), key=lambda r: r.start)
    if tense in ("", "future"):
        return min((r for r in runs if r.start >= today), key=lambda r: r.start)
    return min(runs, key=lambda r: abs(r.start - ref))


def _of_year(make: Callable[[int], TimeSpan | None], m: re.Match, text: str, ref: datetime | None) -> TimeSpan | None:
    """The span ``make`` gives for the year ``m`` writes, else for the year the clause's tense
    says (:func:`~ripplemem.grounding.time_spans.occurrence`)."""
    if m.group("year"):
        years = [int(m.group("year"))]
    elif ref is None:
        return None
    else:
        years = [ref.year - 1, ref.year, ref.year + 1]
    spans = [span for span in map(make, years) if span is not None]
    if not spans or ref is None or len(spans) == 1:
        return spans[0] if spans else None
    return occurrence(spans, ref, tp.phrase_tense(text, m.start(), m.end(), mixed=False))


def _weekend(m: re.Match, text: str, ref: datetime | None) -> TimeSpan | None:
    if ref is None:
        return None
    if m.group("n"):
        word = m.group("n").lower()
        back = 2 if "couple" in word else 3 if "few" in word else tp.count_of(word)
    elif m.group("last"):
        back = 1
    elif m.group("next"):
        back = -1
    elif m.group("this"):
        back = 0
    else:
        tense = tp.tense_of(tp.tense_clause(text, m.start(), m.end()))
        if not tense:
            return None
        back = 0 if tense == "future" or ref.weekday() >= 5 else 1
    return weekend_span(ref.date() - timedelta(days=ref.weekday()) + timedelta(days=5 - 7 * back))


def _ago(m: re.Match, ref: datetime | None) -> TimeSpan | None:
    if ref is None:
        return None
    unit = m.group("unit").lower()
    if m.group("vague"):
        words = m.group("vague").lower()
        low, high = tp.VAGUE_COUNTS[next(k for k in tp.VAGUE_COUNTS if k in words)]
    else:
        n = tp.count_of(m.group("n"))
        other = m.group("upto") or m.group("or")
        so = bool(other) and other.lower() == "so"  # "a week or so"
        rough = (m.group("approx") or so) and unit != "decade"  # "about a decade": rough already
        low, high = (max(n - 1, 0), n + 1) if rough else (n, n)
        if other and not so:  # "two or three weeks", "a month or two"
            low, high = sorted((n, tp.count_of(other)))
    if unit == "decade":  # a round number: "a decade ago" is nine to eleven years back
        unit, low, high = "year", max(10 * low - 1, 0), 10 * high + 1
    if unit == "fortnight":  # "a fortnight ago" is "two weeks ago"
        unit, low, high = "week", 2 * low, 2 * high
    return hull(unit_span(ref, unit, -high), unit_span(ref, unit, -low))


def _weekday_of_week(m: re.Match, ref: datetime | None) -> TimeSpan | None:
    """"先週の金曜日", "下个星期一": the weekday of the week its words count from the week said."""
    if ref is None:
        return None
    week = m.group("week")
    step = next(v for k, v in sorted(tp.CJK_WEEK_STEP.items(), key=lambda kv: -len(kv[0])) if week.startswith(k))
    weekday = tp.CJK_DAY[m.group("ja") or m.group("zh")]
    return day_span(ref.date() - timedelta(days=ref.weekday()) + timedelta(days=7 * step + weekday))


def _ago_from_day(m: re.Match, ref: datetime | None) -> TimeSpan | None:
    """"3 weeks ago last Friday": the day named (yesterday, or the last such weekday before the
    day said) moved back that many units."""
    if ref is None:
        return None
    if m.group("yesterday"):
        anchor = ref.date() - timedelta(days=1)
    else:
        anchor = weekday_before(ref.date(), tp.WEEKDAYS.split("|").index(m.group("weekday").lower()))
    unit, count = m.group("unit").lower(), tp.count_of(m.group("n"))
    if unit in ("day", "week"):
        return day_span(anchor - timedelta(days=count * (7 if unit == "week" else 1)))
    year, month = shift_months(anchor, -count * (12 if unit == "year" else 1))
    return day_span(date(year, month, min(anchor.day, calendar.monthrange(year, month)[1])))


def _japanese_ago(m: re.Match, ref: datetime | None) -> tuple[TimeSpan | None, str]:
    """"二週間前": that unit that many back, as "two weeks ago" is; "数日前" a few of them."""
    unit = tp.JA_UNIT.get(m.group("unit"), "month")
    if m.group("few"):
        low, high = tp.VAGUE_COUNTS["few"]
        return (hull(unit_span(ref, unit, -high), unit_span(ref, unit, -low)) if ref else None), "range"
    return (unit_span(ref, unit, -tp.kanji_count(m.group("n"))) if ref else None), unit


def _portuguese_count(m: re.Match, ref: datetime | None) -> tuple[TimeSpan | None, str]:
    """"há três semanas", "dois dias atrás": that unit that many back; "daqui a dois dias": ahead."""
    words = m.group("unit") or m.group("unit2") or m.group("unit3")
    unit = tp.PT_UNITS[words.lower()]
    if m.group("ahead"):
        count = tp.pt_count(m.group("ahead"))
    else:
        count = -tp.pt_count(m.group("back") or m.group("before"))
    return (unit_span(ref, unit, count) if ref else None), unit


def _count_from_day(m: re.Match, text: str, ref: datetime | None) -> TimeSpan | None:
    """"a week from Friday", "two weeks on Monday": the day named (tomorrow, or the weekday its
    clause's tense names: the last one of a past clause, else the coming one; today when said on
    it) moved on that many units."""
    if ref is None:
        return None
    today = ref.date()
    day = m.group("day").lower()
    if day == "tomorrow":
        anchor = today + timedelta(days=1)
    else:
        weekday = tp.WEEKDAYS.split("|").index(day)
        if today.weekday() == weekday:
            anchor = today
        elif tp.phrase_tense(text, m.start(), m.end()) == "past":
            anchor = weekday_before(today, weekday)
        else:
            anchor = weekday_after(today, weekday)
    unit, count = m.group("unit").lower(), tp.count_of(m.group("n"))
    return day_span(anchor + timedelta(days=count * {"day": 1, "week": 7, "fortnight": 14}[unit]))


def offset_from(span: TimeSpan, unit: str, count: int) -> tuple[TimeSpan, str] | None:
    """A day ``span`` moved ``count`` units ("three days before my birthday on June 20"), at the
    day's grain; None for a span longer than a day (which day of "June"?)."""
    if span.end - span.start >= _LONGEST["day"]:
        return None
    if unit == "fortnight":
        unit, count = "week", 2 * count
    return _moved(span, unit, count)


def _decade(m: re.Match, ref: datetime | None) -> TimeSpan | None:
    years = 10
    if m.group("full"):
        start = int(m.group("full"))
        if start % 100 == 0 and start != 2000:  # "the 1800s": a century ("the 2000s": a decade)
            years = 100
    else:
        tens = (
            int(m.group("short")) if m.group("short") else tp.DECADE_WORDS[m.group("word").lower()]
        )
        if ref is None:
            return None  # which century: the latest such decade that has ended by the reference
        start = 2000 + 10 * tens if 2000 + 10 * tens + 9 < ref.year else 1900 + 10 * tens
    first, last = tp.DECADE_PARTS[m.group("part").lower()] if m.group("part") else (0, 9)
    step = years // 10
    span = hull(year_span(start + first * step), year_span(start + (last + 1) * step - 1))
    if m.group("lead").lower() == "since":  # "since the 90s": from then up to the reference
        return TimeSpan(span.start, ref) if ref is not None and ref > span.start else None
    return span


def _season_before_last(season: str, ref: datetime | None) -> TimeSpan | None:
    """"the summer before last": the season a year before the last one that has ended by the day
    said ("last summer"), by its months (:data:`~ripplemem.grounding.time_patterns.SEASON_MONTHS`)."""
    if ref is None:
        return None
    first, last = tp.SEASON_MONTHS[season]

    def occurrence_ending(year: int) -> TimeSpan:  # the one that ends in ``year``
        return hull(month_span(year - (first > last), first), month_span(year, last))

    year = ref.year if occurrence_ending(ref.year).end < ref else ref.year - 1
    return occurrence_ending(year - 1)


def _two_steps(m: re.Match, ref: datetime | None) -> tuple[TimeSpan | None, str]:
    if m.group("day"):
        step = -2 if m.group("day").lower().startswith("before") else 2
        return (unit_span(ref, "day", step) if ref else None), "day"
    if m.group("ahead"):  # the week after next week's
        if ref is None:
            return None, "day"
        weekday = tp.WEEKDAYS.split("|").index(m.group("ahead").lower())
        return day_span(ref.date() - timedelta(days=ref.weekday()) + timedelta(days=14 + weekday)), "day"
    if m.group("weekday"):
        if ref is None:
            return None, "day"
        weekday = tp.WEEKDAYS.split("|").index(m.group("weekday").lower())
        back = (ref.weekday() - weekday) % 7 or 7  # "last Friday": the latest one before today
        return day_span(ref.date() - timedelta(days=back + 7)), "day"
    unit = m.group("unit").lower()
    return _units_from(ref, unit, -2 if m.group("way").lower().startswith("before") else 2), unit


def _units_from(ref: datetime | None, unit: str, step: int) -> TimeSpan | None:
    """The week, weekend, month or year ``step`` units from the reference's ("the week before
    last": -2, "vorletzte Woche"); a weekend as "last weekend" is read, the previous week's one
    step back."""
    if ref is None:
        return None
    if unit == "weekend":
        return weekend_span(ref.date() - timedelta(days=ref.weekday()) + timedelta(days=5 + 7 * step))
    return unit_span(ref, unit, step)


# -- anaphora -----------------------------------------------------------------------------------

#: the words of an anaphoric time: its unit, and how many of them from the time before it
_ANAPHOR_UNIT = {"day": "day", "night": "day", "morning": "day", "evening": "day",
                 "afternoon": "day", "week": "week", "month": "month", "year": "year"}
_ANAPHOR_STEP = {"before": -1, "prior": -1, "previous": -1, "after": 1, "next": 1, "following": 1}
#: the longest time each unit can count from: a day is counted from a day, a week from a week
_LONGEST = {"day": timedelta(days=1), "week": timedelta(days=7), "month": timedelta(days=31),
            "year": timedelta(days=366)}


def ground_anaphora(found: list[Found], before: TimeSpan | None = None, text: str = "") -> list[Found]:
    """``found`` in text order, each anaphoric time ("the day before", "the next day", "that
    evening"; grain ``vague``, no span) grounded from the time just before it in the text (or
    ``before``, the last time named before the text, for one that comes first): the
    day, week, month or year it names, one unit before or after that time, or that time's own
    ("that day"). A grounded anaphor is the next one's time ("we arrived on Monday, the next day
    we hiked, and the day after we left"). An anaphor that names what it counts from ("the week
    before the exam", "the day after the move") counts from the time that thing was given
    earlier in ``text`` (:func:`_named_anchor`: "the exam is on March 14"). Kept as a phrase when
    no time comes before it, or when that time is longer than the unit counted ("last week ...
    the day before": which day?)."""
    out: list[Found] = []
    last = before
    ordered = sorted(found, key=lambda f: f.start)
    for start, end, item in ordered:
        if item is not None and item.span is None and item.grain == "vague":
            anchor = _named_anchor(text, start, end, ordered) or last
        else:
            anchor = None
        if item is not None and item.span is None and item.grain == "vague" and anchor is not None:
            said = english_anaphor(item.phrase) or item.phrase  # "la veille": "the day before"
            counted = _count_from(said, anchor) or _counted_from(said, anchor) or _weekday_from(said, anchor)
            if counted is not None:
                item = GroundedTime(item.phrase, counted[0], counted[1])
        if item is not None and item.span is not None:
            last = item.span
        out.append(Found(start, end, item))
    return out


#: what an anaphor names as what it counts from: "the week before the exam", "the day after the move"
_NAMED_AFTER = re.compile(r"\s+(?:the|my|our|his|her|their)\s+(?P<noun>[^\W\d_]{3,})\b", re.IGNORECASE)
#: how far after its noun a thing's time may stand in the clause that gives it ("the exam is on
#: March 14", "the party: it has to be on the 2nd of March")
_ANCHOR_REACH = 40


def _named_anchor(text: str, start: int, end: int, found: list[Found]) -> TimeSpan | None:
    """The time of the thing an anaphor at ``start``..``end`` of ``text`` names after it ("the
    week before the exam"): the first time of ``found`` said within :data:`_ANCHOR_REACH`
    characters after that noun's last mention before the anaphor, in the same sentence ("The
    exam is on March 14"); None when the anaphor names nothing or the thing was given no time."""
    named = _NAMED_AFTER.match(text, end) if text else None
    if named is None:
        return None
    timed = [(f_start, item.span) for f_start, _, item in found if item is not None and item.span is not None]
    starts = [f_start for f_start, _ in timed]  # (``found`` is in text order)
    mentions = list(re.finditer(r"\b" + re.escape(named.group("noun")) + r"\b", text[:start], re.IGNORECASE))
    for mention in reversed(mentions):
        at = bisect.bisect_left(starts, mention.end())  # the first time said after the mention
        if at == len(timed) or timed[at][0] > mention.end() + _ANCHOR_REACH:
            continue
        if re.search(r"[.!?]\s", text[mention.end() : timed[at][0]]):
            continue  # another sentence
        return timed[at][1]
    return None


def _counted_from(phrase: str, before: TimeSpan) -> tuple[TimeSpan, str] | None:
    """A counted anaphor ("two days later", "a year earlier", "three days after that"): ``before``
    moved by that many units, at the unit's grain when that is a week, a month or a year ("two
    weeks later": the week, as "two weeks ago" is), else at its own (a day stays a day); None for
    no number ("a few days later") or a ``before`` longer than the unit ("last week ... two days
    later": which day?)."""
    m = tp.COUNTED_ANAPHORA.fullmatch(phrase)
    if m is None or m.group("n") is None:
        return None
    unit = _ANAPHOR_UNIT[m.group("unit").lower()]
    if before.end - before.start >= _LONGEST[unit]:
        return None
    way = m.group("way").lower()
    count = tp.count_of(m.group("n")) * (-1 if way in ("earlier", "before that", "before") else 1)
    moved, grain = _moved(before, unit, count)
    if unit != "day" and grain != unit:  # "two weeks later": that week, as "two weeks ago" is
        return unit_span(moved.start, unit, 0), unit
    return moved, grain


def _weekend_from(words: list[str], before: TimeSpan) -> tuple[TimeSpan, str] | None:
    """"the weekend after", "the following weekend": the first Saturday and Sunday after
    ``before``; "the weekend before", "the previous weekend": the last before it; "that
    weekend": the one of its week. None when ``before`` is longer than a week."""
    if before.end - before.start >= _LONGEST["week"]:
        return None
    first, last = before.start.date(), before.end.date()
    if words[0] == "that":
        saturday = first + timedelta(days=5 - first.weekday())
    elif any(_ANAPHOR_STEP.get(w, 0) < 0 for w in words):
        saturday = weekday_before(first, 6) - timedelta(days=1)  # the Saturday of the Sunday before
    elif any(_ANAPHOR_STEP.get(w, 0) > 0 for w in words):
        saturday = weekday_after(last, 5)
    else:
        return None
    return weekend_span(saturday), "weekend"


def _weekday_from(phrase: str, before: TimeSpan) -> tuple[TimeSpan, str] | None:
    """A weekday counted from ``before`` (:data:`~ripplemem.grounding.time_patterns.WEEKDAY_ANAPHORA`):
    the first such day after it ("the Monday after", "the following Monday"), the last before it
    ("the Saturday before"), or the one of its week ("the Friday of that week", "that Friday"); None when
    ``before`` is longer than a week."""
    m = tp.WEEKDAY_ANAPHORA.fullmatch(phrase)
    if m is None or before.end - before.start >= _LONGEST["week"]:
        return None
    name = (m.group("a") or m.group("b") or m.group("c") or m.group("d")).lower()
    weekday = tp.WEEKDAYS.split("|").index(name)
    first, last = before.start.date(), before.end.date()
    if m.group("c") or m.group("d"):
        day = first + timedelta(days=weekday - first.weekday())
    elif (m.group("step") or "").lower() == "previous" or (m.group("way") or "").lower() == "before":
        day = weekday_before(first, weekday)
    else:
        day = weekday_after(last, weekday)
    return day_span(day), "day"


def _moved(span: TimeSpan, unit: str, count: int) -> tuple[TimeSpan, str]:
    """``span`` (a day, a week or a month at most) ``count`` units later, at its own grain: a
    day stays a day, a Monday-to-Sunday week a week, a calendar month a month, any other span
    keeps its length."""
    first = span.start.date()
    if unit in ("day", "week"):
        shifted = first + timedelta(days=count * (7 if unit == "week" else 1))
    else:
        year, month = shift_months(first, count * (12 if unit == "year" else 1))
        shifted = date(year, month, min(first.day, calendar.monthrange(year, month)[1]))
    if span == day_span(first):
        return day_span(shifted), "day"
    if span == week_span(first):
        return week_span(shifted), "week"
    if span == month_span(first.year, first.month):
        return month_span(shifted.year, shifted.month), "month"
    start = datetime.combine(shifted, span.start.time())
    return TimeSpan(start, start + (span.end - span.start)), "range"


def _count_from(phrase: str, before: TimeSpan) -> tuple[TimeSpan, str] | None:
    """The span and grain of an anaphoric ``phrase`` counted from ``before`` (None: not one
    this counts, or ``before`` too long for its unit)."""
    words = phrase.lower().split()
    if "weekend" in words:
        return _weekend_from(words, before)
    if len(words) != 3 and not (len(words) == 2 and words[0] == "that"):
        return None
    if words[0] == "that" and len(words) == 2:
        unit_word, step = words[1], 0
    elif words[1] in _ANAPHOR_STEP:  # "the next day", "the previous week"
        unit_word, step = words[2], _ANAPHOR_STEP[words[1]]
    else:  # "the day before", "that week after"
        unit_word, step = words[1], _ANAPHOR_STEP.get(words[2], 0)
        if step == 0:
            return None
    unit = _ANAPHOR_UNIT.get(unit_word)
    if unit is None or before.end - before.start >= _LONGEST[unit]:
        return None
    return unit_span(before.start, unit, step), unit
