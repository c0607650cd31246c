"""The words and patterns of time expressions that :mod:`ripplemem.grounding.time_rules` and
:mod:`ripplemem.grounding.ground_time` read: numbers, months, weekdays, the rules' regexes, and
the clause and tense helpers the rules' decisions look at.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable

MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
MONTHS.update({m.lower(): i for i, m in enumerate(calendar.month_abbr) if m})
MONTHS["sept"] = 9
MONTH_RE = "|".join(sorted(MONTHS, key=len, reverse=True))
WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
    "thirty": 30,
}  # fmt: skip
NUMBER_RE = r"\d{1,3}|" + "|".join(sorted(NUMBERS, key=len, reverse=True))
VAGUE_COUNTS = {"couple": (1, 3), "few": (2, 5), "several": (3, 8)}
DECADE_NAMES = "twenties thirties forties fifties sixties seventies eighties nineties"
DECADE_WORDS = {word: tens for tens, word in enumerate(DECADE_NAMES.split(), start=2)}
DECADE_WORDS_RE = "|".join(DECADE_WORDS)

TIMEISH = re.compile(
    r"\d|\b(?:yesterday|today|tonight|tomorrow|ago|back|weekends?|weeks?|fortnights?|months?|quarters?|years?|days?|"
    r"morning|afternoon|evening|night|summer|winter|spring|fall|autumn|christmas|easter|"
    r"halloween|thanksgiving|recently|lately|since|while|decades?|"
    + DECADE_WORDS_RE
    + "|"
    + WEEKDAYS
    + "|"
    + MONTH_RE
    + r")\b"
    r"|\b(?:last|next|this|on|by|till|until|since|from|every|each) "
    r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\b",
    re.IGNORECASE,
)
SHORT_WEEKDAY = re.compile(
    r"\b(?:last|next|this|by|on|till|until|since|from|every|each) "
    r"(?P<day>mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\b",
    re.IGNORECASE,
)
FULL_WEEKDAY = {day[:3]: day for day in WEEKDAYS.split("|")}
FULL_WEEKDAY.update({"tues": "tuesday", "thur": "thursday", "thurs": "thursday"})
WEEKEND = re.compile(
    r"\b(?:(?P<n>" + NUMBER_RE + r"|a couple of|a few) weekends? (?:ago|back)"
    r"|(?P<last>this past|last|past|previous) weekend"
    r"|(?P<next>next) weekend"
    r"|(?P<this>this coming|this|coming) weekend"
    r"|(?P<the>over|during|on|at) the weekend)\b(?! (?:before|after))",
    re.IGNORECASE,
)
# "two or three weeks ago", "a month or two ago", "a week or so ago": a range, or about n
AGO = re.compile(
    r"\b(?P<approx>(?:about|around|almost|nearly|roughly|over|just|like) )?"
    r"(?:(?P<n>" + NUMBER_RE + r")(?: or (?P<upto>" + NUMBER_RE + r"))?"
    r"|(?P<vague>a couple of|couple of|a few|few|several)) "
    r"(?P<unit>day|week|fortnight|month|year|decade)s?(?: or (?P<or>so|" + NUMBER_RE + r"))? (?:ago|back)\b",
    re.IGNORECASE,
)
# "3 weeks ago last Friday", "a week ago yesterday", "two weeks ago Tuesday": a count back from
# the day named after it, not from the moment said
AGO_FROM_DAY = re.compile(
    r"\b(?P<n>" + NUMBER_RE + r") (?P<unit>day|week|month|year)s? ago,? "
    r"(?:(?P<yesterday>yesterday)|(?:last |on )?(?P<weekday>" + WEEKDAYS + r"))\b",
    re.IGNORECASE,
)
# "先週の金曜日", "来週の月曜日" (Japanese), "上周五", "下个星期一" (Chinese): a weekday of the week
# named before it (the words for the weeks and the days, closed classes)
CJK_WEEK_DAY = re.compile(
    r"(?P<week>先々週|先週|今週|再来週|来週|上上个?(?:星期|周|週|礼拜)|上个?(?:星期|周|週|礼拜)"
    r"|这个?(?:星期|周|礼拜)|這個?(?:星期|週|禮拜)|本(?:星期|周|週)|下下个?(?:星期|周|週|礼拜)|下个?(?:星期|周|週|礼拜))"
    r"(?:の(?P<ja>[月火水木金土日])曜日?|(?P<zh>[一二三四五六日天]))"
)
#: Japanese "三日前", "二週間前", "3か月前", "2年前", "数日前": that many days, weeks, months, years
#: ago (Duckling's Japanese reads none); not a count before an event ("試験の二週間前": two weeks
#: before the exam), nor "前後" (about)
JA_AGO = re.compile(
    r"(?<![\d一二三四五六七八九十百〇の])(?:(?P<n>\d{1,3}|[一二三四五六七八九十]{1,3})|(?P<few>数))"
    r"(?P<unit>日|週間|週|か月|ヶ月|カ月|ヵ月|ケ月|箇月|年)前(?!後)"
)
JA_UNIT = {"日": "day", "週間": "week", "週": "week", "年": "year"}  # (the rest: months)
_KANJI_DIGIT = {d: n for n, d in enumerate("〇一二三四五六七八九")}


def kanji_count(word: str) -> int:
    """A count written in digits or in kanji up to 99 ("3", "三", "十二", "二十三")."""
    if word.isdigit():
        return int(word)
    if "十" not in word:
        return _KANJI_DIGIT[word]
    tens, _, ones = word.partition("十")
    return 10 * (_KANJI_DIGIT[tens] if tens else 1) + (_KANJI_DIGIT[ones] if ones else 0)


#: a Japanese or Chinese range of days, "3月3日から7日まで", "5月20日到25日", "三月三号到七号",
#: "12月28日から1月4日": the end's month is written only when it differs from the start's (the end
#: inherits the start's month and year); not a count of days after a date ("3月3日から7日間")
_CJK_NUMBER = r"\d{1,2}|[一二三四五六七八九十]{1,3}"
CJK_DAY_RANGE = re.compile(
    r"(?<![\d〇一二三四五六七八九十])(?:(?P<year>(?:19|20)\d\d)年|(?P<step>去年|昨年|今年|明年|来年|來年))?"
    r"(?P<month>" + _CJK_NUMBER + r")月(?P<a>" + _CJK_NUMBER + r")[日号號](?:[(（][^)）]{1,3}[)）])?"
    r"\s*(?:から|到|至|~|〜|～|-|–|—)\s*"
    r"(?:(?P<month2>" + _CJK_NUMBER + r")月)?(?P<b>" + _CJK_NUMBER + r")[日号號](?![間间])"
)
#: a Korean range of days, "6월 3일부터 9일까지", "6월 3일부터 6월 9일까지", "6월 3일~9일": as
#: :data:`CJK_DAY_RANGE`, the end's month written only when it differs; not a count of days after
#: a date ("6월 3일부터 9일간", "9일 동안": for nine days)
KO_DAY_RANGE = re.compile(
    r"(?<!\d)(?:(?P<year>(?:19|20)\d\d)년\s*|(?P<step>작년|올해|금년|내년)\s+)?"
    r"(?P<month>\d{1,2})월\s*(?P<a>\d{1,2})일\s*(?:부터|에서|~|〜|～|-|–|—)\s*"
    r"(?:(?P<month2>\d{1,2})월\s*)?(?P<b>\d{1,2})일(?!\s*(?:간|동안))"
)
#: the years such a range may be told of before its month: last year, this year, next year
CJK_YEAR_STEP = {"去年": -1, "昨年": -1, "今年": 0, "明年": 1, "来年": 1, "來年": 1, "작년": -1, "올해": 0, "금년": 0, "내년": 1}
#: Portuguese numbers (a closed class) and units of time, for its counts back and ahead
PT_NUMBERS = {
    "um": 1, "uma": 1, "dois": 2, "duas": 2, "três": 3, "tres": 3, "quatro": 4, "cinco": 5, "seis": 6,
    "sete": 7, "oito": 8, "nove": 9, "dez": 10, "onze": 11, "doze": 12, "quinze": 15, "vinte": 20, "trinta": 30,
}  # fmt: skip
PT_UNITS = {"dia": "day", "dias": "day", "semana": "week", "semanas": "week", "mês": "month", "mes": "month",
            "meses": "month", "ano": "year", "anos": "year"}
_PT_COUNT = r"\d{1,3}|" + "|".join(sorted(PT_NUMBERS, key=len, reverse=True))
_PT_UNIT = r"(?:" + "|".join(sorted(PT_UNITS, key=len, reverse=True)) + r")(?!\w)"
#: Portuguese "há três semanas", "faz dois dias", "dois dias atrás" (ago: "há" before a count, or
#: "atrás" after it) and "daqui a três semanas" (from now): that unit back or ahead, as "three weeks
#: ago" is; not "há três dias de festa" (there are) nor "há dois anos que moro aqui" (for: a span)
PT_COUNT = re.compile(
    r"(?<!\w)(?:(?:há|faz)\s+(?P<back>" + _PT_COUNT + r")\s+(?P<unit>" + _PT_UNIT + r")(?!\s+(?:que|de|da|do|das|dos)\b)"
    r"|(?P<before>" + _PT_COUNT + r")\s+(?P<unit2>" + _PT_UNIT + r")\s+atrás"
    r"|daqui\s+a\s+(?P<ahead>" + _PT_COUNT + r")\s+(?P<unit3>" + _PT_UNIT + r"))(?:\s+atrás)?(?!\w)",
    re.IGNORECASE,
)


def pt_count(word: str) -> int:
    """A Portuguese count, in digits or in words up to thirty (:data:`PT_NUMBERS`)."""
    return int(word) if word.isdigit() else PT_NUMBERS[word.lower()]


CJK_WEEK_STEP = {"先々": -2, "先": -1, "今": 0, "来": 1, "再来": 2, "上上": -2, "上": -1, "这": 0, "這": 0,
                 "本": 0, "下下": 2, "下": 1}
CJK_DAY = {**{day: n for n, day in enumerate("月火水木金土日")}, **{day: n for n, day in enumerate("一二三四五六日")},
           "天": 6}
# "in the 1990s", "in the '90s", "in the nineties", "in the late 80s" ("in my 20s": an age)
DECADE = re.compile(  # after "in" / "during" / "since" ...: "a book from the 1900s" is its age
    r"\b(?P<lead>(?:back )?in|during|through|throughout|since|until|till|by) "
    r"the (?:(?P<part>early|mid|late)[- ])?(?:(?P<full>1\d\d0|20\d0)'?s"
    r"|['’]?(?P<short>[1-9])0'?s|(?P<word>" + DECADE_WORDS_RE + r"))\b",
    re.IGNORECASE,
)
TEMPERATURE = re.compile(  # not "cool": "a super cool book" is slang
    r"\b(?:degrees?|temperatures?|temps?|weather|hot|warm|cold|chilly|highs|lows|"
    r"forecast|fahrenheit|celsius)\b|°",
    re.IGNORECASE,
)
DECADE_PARTS = {"early": (0, 3), "mid": (4, 6), "late": (7, 9)}
#: "in 3 days", "in a couple of weeks", "in a few days": that unit ahead, or a few of them (as
#: "a few days ago" is a few back: :data:`VAGUE_COUNTS`)
IN_N = re.compile(
    r"\bin (?:(?P<n>" + NUMBER_RE + r")|(?P<vague>a couple of|a few|several)) "
    r"(?P<unit>day|week|fortnight|month|year)s?\b",
    re.IGNORECASE,
)
#: "a week from Friday", "a week on Friday", "two weeks from Monday", "three days from tomorrow":
#: that day moved (not "a week on Friday's report", nor "a week from Monday to Friday": a span)
COUNT_FROM_DAY = re.compile(
    r"\b(?P<n>" + NUMBER_RE + r") (?P<unit>day|week|fortnight)s? (?:from|on) (?:this )?"
    r"(?P<day>" + WEEKDAYS + r"|tomorrow)\b(?!['’]s\b|\s*[-–]|\s+(?:to|until|till|through|thru)\b)",
    re.IGNORECASE,
)
#: "three days before my birthday on June 20", "two days after the wedding, on May 4": a count
#: of units before or after an event, whose date follows the event's few words (the date is read
#: on its own; :func:`~ripplemem.grounding.ground_time.TimeGrounder` moves it)
COUNT_BEFORE_EVENT = re.compile(
    r"\b(?P<n>" + NUMBER_RE + r") (?P<unit>day|week|fortnight|month|year)s? (?P<way>before|after)\s+", re.IGNORECASE
)
#: the words of the event between such a count and its date: a noun phrase or a short clause of
#: one to four words (no conjunction that starts another clause), then "on", "in" or a comma
EVENT_WORDS = re.compile(
    r"^(?:(?!(?:and|but|so|or|then|because|while|although|though|until|till|unless|when)\b)"
    r"[^\W\d_][\w'’-]*\s+){1,4}?(?:(?:on|in)\s+|,\s*)?$",
    re.IGNORECASE,
)
# "from Friday to Sunday", "Tuesday to Thursday next week": a run of weekdays
WEEKDAY_RANGE = re.compile(
    r"\b(?:from )?(?P<a>" + WEEKDAYS + r") (?:to|until|till|through|thru) (?P<b>" + WEEKDAYS
    + r")(?: (?P<week>next|last|this) week)?\b",
    re.IGNORECASE,
)
# "the first weekend of July", "the last weekend in May" (not "last weekend")
NTH_WEEKEND = re.compile(
    r"\b(?:the )?(?P<nth>first|second|third|fourth|last) weekend (?:of|in) (?P<month>" + MONTH_RE
    + r")\b(?:,? (?P<year>(?:19|20)\d\d)\b)?",
    re.IGNORECASE,
)
FROM_NOW = re.compile(  # "two days from now": Duckling leaves it at the hour, ungrounded
    r"\b(?P<n>" + NUMBER_RE + r") (?P<unit>day|week|month|year)s? from (?:now|today)\b",
    re.IGNORECASE,
)
#: a day of a month named in words, "the 30th of February", "February 30th", "31 April": the
#: rules mask the ones no calendar holds (Duckling reads "the 30th" alone as the next 30th)
DAY_OF_NAMED_MONTH = re.compile(
    r"\b(?:the\s+)?(?P<day>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<month>" + MONTH_RE + r")\b\.?"
    r"|\b(?P<month2>" + MONTH_RE + r")\.?\s+(?:the\s+)?(?P<day2>\d{1,2})(?:st|nd|rd|th)?\b"
    r"(?:,?\s+(?:19|20)\d\d\b)?",
    re.IGNORECASE,
)
# "28/02/2025", "03.04.2023", "17/11/24": a date in numbers (day first where only that can be)
NUMERIC_DATE = re.compile(
    r"(?<![\w/.-])(?P<a>\d{1,2})(?P<sep>[/.])(?P<b>\d{1,2})(?P=sep)(?P<year>\d{4}|\d{2})(?![\w/]|\.\d)"
)
# "2024/03/07", "2024.3.7": a date in numbers with its year first, which is always followed by
# the month (ISO 8601's order; "2024-03-07" is Duckling's)
YEAR_FIRST_DATE = re.compile(
    r"(?<![\w/.-])(?P<year>(?:19|20)\d\d)(?P<sep>[/.])(?P<month>\d{1,2})(?P=sep)(?P<day>\d{1,2})(?![\w/]|\.\d)"
)
#: an ISO date with its clock time, as agents paste timestamps ("2024-07-01T09:00+02:00",
#: "2024-07-01 09:00 UTC", "2024-07-01 at 9am"): the day written (its own zone's), a clock time
#: after "T", a space or "at", then a zone ("Z", "+02:00", "UTC"). The date alone is Duckling's
_ISO_DAY = r"(?P<{y}>(?:19|20)\d\d)-(?P<{m}>\d\d)-(?P<{d}>\d\d)"
_ISO_CLOCK = (
    r"(?:T|\s+(?:at\s+)?)(?:[01]?\d|2[0-3])(?:(?::[0-5]\d){1,2}(?:[.,]\d+)?(?:\s?[ap]\.?m)?|\s?[ap]\.?m)"
    r"(?:\s?(?:Z|[+-](?:[01]\d|2[0-3])(?::?[0-5]\d)?|UTC|GMT|[A-Z]{2,4}T)(?![\w+-]))?"
)
ISO_DATE_TIME = re.compile(
    r"(?<![\w/.-])" + _ISO_DAY.format(y="year", m="month", d="day") + _ISO_CLOCK
    # a range: "to", "until" or a dash, then another such date (with or without its time) or a
    # clock time of the same day ("2024-07-01 09:00-11:00")
    + r"(?:\s*(?:[-–—]|\b(?:to|until|till|through)\b)\s*(?:"
    + _ISO_DAY.format(y="year2", m="month2", d="day2") + r"(?:" + _ISO_CLOCK + r")?"
    + r"|(?:[01]?\d|2[0-3]):[0-5]\d(?:\s?(?:Z|UTC|GMT))?))?"
    + r"(?![\w:])"
)
# "2024/3/7-2024/3/9": two such dates joined by a hyphen or a dash, a range from the first to the second
YEAR_FIRST_RANGE = re.compile(
    r"(?<![\w/.-])(?P<year>(?:19|20)\d\d)(?P<sep>[/.])(?P<month>\d{1,2})(?P=sep)(?P<day>\d{1,2})\s?[-–]\s?"
    r"(?P<year2>(?:19|20)\d\d)(?P=sep)(?P<month2>\d{1,2})(?P=sep)(?P<day2>\d{1,2})(?![\w/]|\.\d)"
)
MONTH_YEAR = re.compile(
    r"\b(?:in |of )?(?P<month>" + MONTH_RE + r")\.?,? (?:of )?(?P<year>(?:19|20)\d\d)\b",
    re.IGNORECASE,
)
PART_OF_YEAR = re.compile(
    r"\b(?P<since>since )?(?:(?P<part>early|mid|late)[- ]|(?:around|about|circa|roughly|"
    r"approximately) )(?P<year>(?:19|20)\d\d)\b",
    re.IGNORECASE,
)
# "about 2015 people": a count, not a year (a lower-case word after it that starts no clause)
COUNTED = re.compile(
    r"\s+(?!(?:when|and|or|but|so|because|before|after|until|since|i|we|you|he|she|they|it|the|"
    r"in|on|at|to|for|was|were|is)\b)[a-z]"
)
PARTS = {"early": (1, 4), "mid": (5, 8), "late": (9, 12)}
# "from 2015 to 2017": Duckling drops the end and reads "from 2015" (up to the reference)
#: a range of months that shares one year ("From January to March 2023", "Jan–Mar 2023"):
#: the year's month alone is read otherwise
MONTH_RANGE_YEAR = re.compile(
    rf"\b(?:(?:from|between) )?(?P<first>{MONTH_RE})\.? ?(?:(?:to|until|till|through|thru|and) |[-–—] ?)"
    rf"(?P<month>{MONTH_RE})\.?,? (?:of )?(?P<year>(?:19|20)\d\d)\b",
    re.IGNORECASE,
)
#: a year and what holds from it on ("From 2020 onwards", "since 2019 on")
YEAR_ONWARD = re.compile(r"\b(?:from|since) (?P<year>(?:19|20)\d\d) (?:on|onwards?)\b", re.IGNORECASE)
YEAR_RANGE = re.compile(  # also "in 2019 and 2020": Duckling reads only "in 2019"
    r"\b(?:from|between|in) (?P<a>(?:19|20)\d\d) (?:to|until|till|through|thru|and|or) "
    r"(?P<b>(?:19|20)\d\d)\b",
    re.IGNORECASE,
)
YEAR_THEN_MONTH = re.compile(
    rf"\b(?P<which>last|next|this) year,? (?:in|during) (?P<month>{MONTH_RE})\b", re.IGNORECASE
)
# "the day before yesterday", "the week before last", "the Friday before last", "the Tuesday after
# next", "the month after next": two steps from the reference (before the anaphora rule, which would read "the week before")
TWO_STEPS = re.compile(
    r"\b(?:the )?(?:day (?P<day>before yesterday|after tomorrow)"
    r"|(?P<unit>week|weekend|month|year) (?P<way>before last|after next)"
    r"|(?P<weekday>" + WEEKDAYS + r") before last|(?P<ahead>" + WEEKDAYS + r") after next)\b",
    re.IGNORECASE,
)
#: the unit before the last in other languages' words ("vorletzte Woche", "vorletztes Jahr",
#: "la semana antepasada", "el año antepasado"), which Duckling reads as nothing: the unit's
#: word, as English names it (a closed class, as "the week before last" is TWO_STEPS')
UNITS_BEFORE_LAST = {  # (the unit's grain: language.unit_grain, or a weekend)
    "de": re.compile(
        r"(?<!\w)vorletzte[nmrs]?\s+(?:(?P<weekend>wochenende)|(?P<unit>woche|monat|jahr))(?:e?s)?(?!\w)",
        re.IGNORECASE,
    ),
    "es": re.compile(
        r"(?<!\w)(?:el|la)\s+(?:(?P<weekend>fin\s+de\s+semana)|(?P<unit>semana|mes|año))\s+antepasad[oa](?!\w)",
        re.IGNORECASE,
    ),
}
#: "the summer before last", "the winter before last": the season one before the last one that
#: has ended (before the anaphora rule, which would read "the summer before")
SEASON_BEFORE_LAST = re.compile(r"\b(?:the )?(?P<season>summer|winter|spring|fall|autumn) before last\b", re.IGNORECASE)
#: the months of each season (winter: December of the year before, January, February)
SEASON_MONTHS = {"spring": (3, 5), "summer": (6, 8), "fall": (9, 11), "autumn": (9, 11), "winter": (12, 2)}
#: relative days other languages say in one word that Duckling's reading of them misses ("dopodomani",
#: "anteontem", "おととい", "그저께"; "一昨日" it reads as "昨日"): the days from the day said.
#: Their neighbours are Duckling's ("l'altroieri", "depois de amanhã", "vorgestern", "모레")
RELATIVE_DAYS = {
    "it": {"dopodomani": 2},
    "pt": {"anteontem": -2},
    "ja": {"おととい": -2, "おとつい": -2, "一昨日": -2, "明後日": 2, "あさって": 2, "しあさって": 3, "明々後日": 3},
    "ko": {"그저께": -2, "글피": 3},
    "nl": {"vanochtend": 0, "vanmorgen": 0, "vanmiddag": 0},
}
_UNSPACED_LANGUAGES = ("ja", "ko")  # (Korean: a particle follows the word, "그저께는")
RELATIVE_DAY = {
    language: re.compile(
        (r"(?<!\w)" if language not in _UNSPACED_LANGUAGES else r"(?<!엊)(?<!し)")
        + r"(?:" + "|".join(sorted(words, key=len, reverse=True)) + r")"
        + (r"(?!\w)" if language not in _UNSPACED_LANGUAGES else ""),
        re.IGNORECASE,
    )
    for language, words in RELATIVE_DAYS.items()
}
#: a count of weekends back in other languages ("vor zwei Wochenenden", "hace dos fines de semana",
#: "il y a deux week-ends", "due fine settimana fa", "há dois fins de semana", "twee weekenden
#: geleden"), as English "two weekends ago"
WEEKENDS_BACK = {
    "de": re.compile(r"(?<!\w)vor\s+(?P<n>\d|einem|zwei|drei|vier)\s+wochenenden?(?!\w)", re.IGNORECASE),
    "es": re.compile(r"(?<!\w)hace\s+(?P<n>\d|un|dos|tres|cuatro)\s+fines?\s+de\s+semana(?!\w)", re.IGNORECASE),
    "fr": re.compile(r"(?<!\w)il\s+y\s+a\s+(?P<n>\d|un|deux|trois|quatre)\s+week-?ends?(?!\w)", re.IGNORECASE),
    "it": re.compile(r"(?<!\w)(?P<n>\d|un|due|tre|quattro)\s+(?:fine\s+settimana|week-?end)\s+fa(?!\w)", re.IGNORECASE),
    "pt": re.compile(r"(?<!\w)(?:há|faz)\s+(?P<n>\d|um|dois|três|quatro)\s+fins?\s+de\s+semana(?!\w)", re.IGNORECASE),
    "nl": re.compile(r"(?<!\w)(?P<n>\d|een|twee|drie|vier)\s+weekend(?:en|s)?\s+geleden(?!\w)", re.IGNORECASE),
}
WEEKEND_COUNTS = {
    "einem": 1, "zwei": 2, "drei": 3, "vier": 4, "un": 1, "dos": 2, "tres": 3, "cuatro": 4, "deux": 2, "trois": 3,
    "quatre": 4, "due": 2, "tre": 3, "quattro": 4, "um": 1, "dois": 2, "três": 3, "een": 1, "twee": 2, "drie": 3,
}  # fmt: skip


def relative_day_language(text: str) -> str | None:
    """The language of a :data:`RELATIVE_DAY` word or :data:`WEEKENDS_BACK` count in ``text`` of
    the Latin alphabet (a text too short to show its language: "Dopodomani ho l'esame."), else None."""
    for language, pattern in (*RELATIVE_DAY.items(), *WEEKENDS_BACK.items()):
        if language not in _UNSPACED_LANGUAGES and pattern.search(text):
            return language
    return None


ANAPHORA = re.compile(
    r"\b(?:(?:the|that) (?:day|night|morning|evening|week|weekend|month|year|summer|winter|"
    r"spring|fall) (?:before|after|prior)"
    r"|the (?:next|following|previous|prior) (?:day|night|morning|week|weekend|month|year)"
    r"|that (?:day|night|morning|evening|afternoon|week|weekend|month|year|summer|time))\b",
    re.IGNORECASE,
)
# "between 4 and 9 April": Duckling reads it from 4 am today; "between April 3 and April 7" it reads
DAY_RANGE = re.compile(
    r"\bbetween (?:the )?(?P<a>[1-9]|[12]\d|3[01])(?:st|nd|rd|th)? and (?:the )?"
    r"(?P<b>[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?(?: of)? (?P<month>" + MONTH_RE + r")\b"
    r"(?:,? (?P<year>(?:19|20)\d\d)\b)?",
    re.IGNORECASE,
)
# "in '18", "the class of '99": a year in two digits after an apostrophe ("the '90s" is a decade)
SHORT_YEAR = re.compile(r"(?:(?<=\s)|^)['’](?P<yy>\d\d)\b(?!['’]?s\b)")
# "Q4", "the Q1 numbers", "Q3 2022": a quarter of the calendar (a business year is its own)
QUARTER = re.compile(r"\bQ(?P<q>[1-4])\b(?:\s+(?:of\s+)?(?P<year>(?:19|20)\d\d)\b)?")
#: a quarter named by its ordinal in German and Dutch ("im dritten Quartal", "Ende des 3.
#: Quartals 2023", "het derde kwartaal"): as "Q3" (Duckling's German reads "dritten" as a day)
NAMED_QUARTER = re.compile(
    r"(?<![\w.])(?P<nth>erste[nmrs]?|zweite[nmrs]?|dritte[nmrs]?|vierte[nmrs]?|eerste|tweede|derde|vierde|[1-4]\.|[1-4]e)"
    r"\s+(?:quartal(?:s|es)?|kwartaal)\b(?:\s+(?:van\s+)?(?P<year>(?:19|20)\d\d)\b)?",
    re.IGNORECASE,
)
_QUARTER_ORDINALS = {"erst": 1, "zweit": 2, "dritt": 3, "viert": 4, "eerste": 1, "tweede": 2, "derde": 3, "vierde": 4}


def quarter_number(nth: str) -> int:
    """The number of a :data:`NAMED_QUARTER`'s ordinal: "3." and "3e" 3, "dritten" (any German
    ending) 3, "derde" 3."""
    if nth[0].isdigit():
        return int(nth[0])
    nth = nth.lower()
    return _QUARTER_ORDINALS.get(nth) or _QUARTER_ORDINALS[re.sub(r"e[nmrs]?$", "", nth)]
# "two days later", "a week earlier", "three days after that": a count of units from the time
# named before ("two days before the wedding" counts from an event: not this)
COUNTED_ANAPHORA = re.compile(
    r"\b(?:(?P<n>" + NUMBER_RE + r")|a few|a couple of|several) (?P<unit>day|night|week|month|year)s? "
    r"(?P<way>later|earlier|afterwards|after that|before that"
    # "ten days after.", "two days after it ended", "eight weeks after she was born": after the
    # event named before (not "two days before the wedding", an event of its own)
    r"|(?:after|before)(?=\s*(?:$|[,.;:!?)])|\s+(?:it|this|then|he|she|they|we|i|you|my|his|her|our|their)\b))\b",
    re.IGNORECASE,
)
#: a weekday counted from the time named before it: "the Saturday before", "the Monday after
#: that", "the following Tuesday", "the Friday of that week"
WEEKDAY_ANAPHORA = re.compile(
    r"\b(?:the (?:(?P<step>following|previous) (?P<a>" + WEEKDAYS + r")|(?P<b>" + WEEKDAYS
    + r") (?P<way>before|after)(?: (?:that|it))?|(?P<c>" + WEEKDAYS + r") of that week)"
    + r"|that (?P<d>" + WEEKDAYS + r"))\b",  # "the 29th, so I'll take that Wednesday off": its week's
    re.IGNORECASE,
)
VAGUE = re.compile(
    r"\b(?:recently|lately|the other day|a while (?:ago|back)|some time ago|long ago|"
    r"a long time ago|back then|these days|nowadays)\b",
    re.IGNORECASE,
)
DAY_BEFORE = re.compile(r"\b\d{1,2}(?:st|nd|rd|th|\.)?(?: of)? ?$", re.IGNORECASE)  # "1. April 2023"
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
#: a day of the month by its ordinal ("on the 14th")
ORDINAL_DAY = r"on the (?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)"
DAY_ANCHOR = re.compile(
    r"\b(?:today|tonight|yesterday|tomorrow|morning|afternoon|evening|night|noon|midnight|ago|"
    + WEEKDAYS
    + "|"
    + MONTH_RE
    + r")\b|\d+/\d+|\b" + ORDINAL_DAY + r"\b",
    re.IGNORECASE,
)
NOT_PAST_WORDS = """need indeed speed feed seed bleed breed proceed succeed exceed embed bed red
    shed weed wed greed deed"""
NOT_PAST = frozenset(NOT_PAST_WORDS.split())  # -ed words that are no past tense
#: the simple past of English irregular verbs where it differs from the verb's base form and is
#: no common noun, adjective or abbreviation of its own (not "bit", "shot", "broke", "stuck",
#: "fed up", "meant to", "sat" for Saturday, "ground", "lay", "rose", "wound"): a closed class
IRREGULAR_PAST = """was were went did had got made took saw came met gave found felt thought told
    bought brought left ran won began wrote sang ate spent kept heard said paid sold sent lent
    built lost knew grew drew drank drove rode flew threw swam stood understood taught caught
    fought sought held led fell slept woke wore tore swore stole spoke chose froze forgot forgave
    became hid shook sank slid swept swung wept blew arose awoke bent bled clung crept dug fled
    flung knelt leapt sprang stung strode struck withdrew dealt"""
#: the auxiliaries of a passive ("is closed", "gets connected", "can be prepared"): the
#: participle after them tells no tense, the auxiliary does ("was closed": "was")
PASSIVE_AUXILIARY = re.compile(
    r"(?:\b(?:be|is|are|am|being|get|gets|getting|isn['’]t|aren['’]t)|['’](?:s|re|m))"
    r"(?:\s+(?:\w+ly|not|just|still|already|also|all))?\s+$",
    re.IGNORECASE,
)
PAST = re.compile(
    r"\b(?:" + "|".join(IRREGULAR_PAST.split()) + r"|ago|been|(\w{2,}ed))\b",
    re.IGNORECASE,
)
#: the attitudinal past: "I was thinking of making lunch on Thursday", "we were hoping to" ask or
#: plan politely now; no past tense
POLITE_PAST = re.compile(
    r"\b(?:was|were) (?:thinking (?:of|about) \w+ing|wondering (?:if|whether)|hoping (?:to|that)|"
    r"planning (?:to|on)|going to|meaning to|wanting to)\b",
    re.IGNORECASE,
)
#: "I've got an interview", "she's got a recital": a present possession, no past tense
HAVE_GOT = re.compile(r"\b(?:have|has|'ve|’ve|'s|’s)\s+got\b", re.IGNORECASE)
FUTURE = re.compile(  # not "the next day": the story's next day
    r"\b(?:will|shall|gonna|going|plan|planning|plans|(?<!\bthe )next|upcoming|tomorrow|soon|"
    r"(?:am|'m|’m|are|'re|’re|is) \w+ing|"
    r"can['’]t wait|can\s?not wait|looking forward|hope to|hoping to|want to|wants to|would like|'ll)\b|’ll",
    re.IGNORECASE,
)


#: "by Friday", "until the 20th", "from the 2nd" (no "to" after it): a deadline, an end or an
#: onset names its time; Duckling reads the span up to it ("by Friday": until Thursday night)
_BOUND = re.compile(
    r"\b(?P<word>by|until|till|til|from)\s+(?=(?:the\s+)?(?:\d|(?:" + WEEKDAYS + "|" + MONTH_RE
    + r"|tomorrow|tonight|next|this|end|christmas|easter|halloween|thanksgiving|new year)\b))",
    re.IGNORECASE,
)
#: what makes "from" the start of a range of its own, within three words of it ("from 3 to 7
#: April", "from Dec 24 until Jan 2", "from Monday-Friday"; not "from the 8th and my iron ...")
_RANGE_AHEAD = re.compile(r"^(?:\S+\s+){0,2}?\S*?(?:\s+(?:to|until|till|through|thru)\b|\s*[-–])", re.IGNORECASE)
#: a "from" just before: the "until" or "by" after it ends its range ("from Dec 24 until Jan 2")
_FROM_BEFORE = re.compile(r"\bfrom\s+(?:\S+\s+){0,2}$", re.IGNORECASE)


#: "for the first time", "the last time I saw her": an ordinal of occasions, no day
_ORDINAL_TIME = re.compile(r"\bthe (?:first|second|third|last|next) (?:time|one)\b", re.IGNORECASE)


def bare_bounds(text: str) -> tuple[str, list[tuple[int, int]]]:
    """``text`` with the "by", "until" or "from" before a time read as "on" (right-aligned in the
    word's place, so every offset holds) and the places of those words: the time is read as what
    it names (:data:`_BOUND`); "from" that starts a range keeps it ("from 3 to 7 April"). An
    ordinal of occasions ("for the first time") is blanked out."""
    out = list(text)
    places = []
    for m in _BOUND.finditer(text):
        word = m.group("word").lower()
        if word == "from" and _RANGE_AHEAD.match(text[m.end() : m.end() + 40]):
            continue
        if word != "from" and _FROM_BEFORE.search(text, max(0, m.start() - 30), m.start()):
            continue
        start, end = m.start("word"), m.end("word")
        out[start:end] = " " * (end - start - 2) + "on"
        places.append((start, end))
    for m in _ORDINAL_TIME.finditer(text):  # blanked: "this year for the first time" is this year
        out[m.start() : m.end()] = " " * (m.end() - m.start())
    return "".join(out), places


#: "at the start of the year": Duckling reads "the beginning of" only
START_OF = re.compile(r"\b(?P<start>start) of (?=the |this |last |next |(?:" + MONTH_RE + r")\b)", re.IGNORECASE)


#: the words of the days that a typo must not hide: one letter wrong, added, dropped or two
#: swapped in a word of seven letters or more ("tomorow", "Yesturday", "wedensday"); shorter
#: words are too near other words ("sundae")
DAY_WORDS = ("yesterday", "tomorrow", *WEEKDAYS.split("|"))
_LONG_WORD = re.compile(r"\b[A-Za-z]{7,}\b")


def _one_edit(word: str, target: str) -> bool:
    """Whether ``word`` is ``target`` with one letter changed, added, dropped, or two swapped."""
    if word == target or abs(len(word) - len(target)) > 1:
        return False
    if len(word) == len(target):
        wrong = [i for i, (a, b) in enumerate(zip(word, target, strict=True)) if a != b]
        return len(wrong) == 1 or (
            len(wrong) == 2 and wrong[1] == wrong[0] + 1
            and word[wrong[0]] == target[wrong[1]] and word[wrong[1]] == target[wrong[0]]
        )
    short, long_ = (word, target) if len(word) < len(target) else (target, word)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


#: one edit leaves a day word its first two letters or its last two ("ruesday", "tomorow")
_DAY_HEADS = frozenset(d[:2] for d in DAY_WORDS)
_DAY_TAILS = frozenset(d[-2:] for d in DAY_WORDS)


def mistyped_days(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, word)`` of each day word of ``text`` typed with one edit (:data:`DAY_WORDS`)."""
    found = []
    for m in _LONG_WORD.finditer(text):
        word = m.group().lower()
        if (word[:2] not in _DAY_HEADS and word[-2:] not in _DAY_TAILS) or len(word) > 10:
            continue
        if word.endswith("s") and word[:-1] in DAY_WORDS:
            continue  # "Mondays": a habit, read as such
        right = next((d for d in DAY_WORDS if _one_edit(word, d)), None)
        if right is not None:
            found.append((m.start(), m.end(), right))
    return found


def expand_weekdays(text: str) -> tuple[str, list[tuple[int, int, int, int]]]:
    """``text`` with "last Wed" spelled "last wednesday" (Duckling reads only full names), a day
    word typed with one edit spelled right ("tomorow"), "the start of" spelled "the beginning
    of", and the replacements as ``(new_start, new_end, old_start, old_end)``."""
    parts: list[str] = []
    moves: list[tuple[int, int, int, int]] = []
    last = 0
    size = 0
    spelled = [(m.start("day"), m.end(), FULL_WEEKDAY[m.group("day").lower()]) for m in SHORT_WEEKDAY.finditer(text)]
    spelled += mistyped_days(text)
    spelled += [(m.start("start"), m.end("start"), "beginning") for m in START_OF.finditer(text)]
    for start, end, full in sorted(spelled):
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


def count_of(word: str) -> int:
    word = word.lower()
    return int(word) if word.isdigit() else NUMBERS[word]


#: how far a clause reaches either side of a phrase: tense and context are read nearby, and a
#: bounded look keeps a text with thousands of phrases and no full stop linear
CLAUSE_REACH = 300


#: the marks that end a sentence, in the Latin alphabet and in Chinese and Japanese
_CLAUSE_ENDS = ".!?\n。！？"


def clause_of(text: str, start: int, end: int) -> str:
    """The sentence around ``text[start:end]``, at most :data:`CLAUSE_REACH` characters either side."""
    floor, ceiling = max(0, start - CLAUSE_REACH), min(len(text), end + CLAUSE_REACH)
    left = max(max(text.rfind(c, floor, start) for c in _CLAUSE_ENDS) + 1, floor)
    rights = [i for i in (text.find(c, end, ceiling) for c in _CLAUSE_ENDS) if i != -1]
    return text[left : min(rights) if rights else ceiling]


#: where a sentence's coordinate clauses meet: a comma, a semicolon or a dash (in the Latin
#: alphabet and in Chinese and Japanese), or "and", "but", "so" before a subject pronoun
_CLAUSE_BREAK = re.compile(
    r"[;,，、；]|\s[—–-]\s|\s(?=(?:and|but|so)\s+(?:I|we|you|he|she|they)\b)"
    r"|\s(?=so\s+(?:the|my|our|his|her|their|this|it)\b)", re.IGNORECASE
)
#: the words that make a piece of an English sentence a clause of its own: a subject pronoun, or
#: a form of "be", "have", "do" or a modal (its tense may be the present, which no mark shows)
_OWN_CLAUSE = re.compile(
    r"\b(?:I|we|you|he|she|they|is|are|am|was|were|has|have|had|do|does|did|will|would|can|could|"
    r"should|must|may|might|isn't|aren't|wasn't|don't|doesn't|didn't|can't|won't)\b|['’](?:m|re|s|ve|ll|d)\b",
    re.IGNORECASE,
)


#: a verb of saying: what it reports is a clause with its own tense ("the nurse said the results
#: will be back by Friday"), after "that" when one follows within a few words ("Mark told me on
#: Thursday that he's moving"); a closed class
_REPORTING = re.compile(
    r"\b(?:said|says|say|told|tells|tell|mentioned|mentions|explained|promised|confirmed|announced|"
    r"warned|texted|emailed|wrote|reckons|reckoned|thinks|thought|hopes|hoped|hears|heard)\b"
    r"(?:(?P<that>[^.;!?]{0,30}?\bthat\b)|(?:\s+(?:me|us|him|her|them))?(?=\s+(?:he|she|they|we|i|you|it|the|my|his|her|our|their|its)\b))",
    re.IGNORECASE,
)


def _clause_marks(sentence: str, subordinate: re.Pattern[str] | None = None) -> list[tuple[int, int, bool]]:
    """Where the sentence's clauses meet: ``(start, end, hard)``; a semicolon and the start of
    what a verb of saying reports begin a clause of its own whatever it holds (``hard``), and so
    does each match of ``subordinate`` (another language's complementizer: "que", "dass")."""
    marks = [(m.start(), m.end(), m.group() in ";；") for m in _CLAUSE_BREAK.finditer(sentence)]
    if subordinate is None:
        marks += [(m.end(), m.end(), True) for m in _REPORTING.finditer(sentence)]
    else:
        marks += [(m.start(), m.start(), True) for m in subordinate.finditer(sentence)]
    return sorted(marks)


#: the complementizers of French, Spanish, Portuguese, Italian, German and Dutch: each starts a
#: clause with a verb and a tense of its own ("dijo ayer que mi tía llega el jueves"); a closed class
COMPLEMENTIZER = re.compile(r"(?<![\w'’])(?:(?:que|dass|daß|che|dat)(?![\w'’])|qu['’](?=\w))", re.IGNORECASE)


def tense_clause(
    text: str, start: int, end: int, own: Callable[[str], bool] | None = None,
    subordinate: re.Pattern[str] | None = None,
) -> str:
    """The words whose tense tells the time at ``text[start:end]``: its coordinate clause (the
    piece of its sentence between :func:`_clause_marks`) when that piece is a clause of its own
    (``own``: by default an English subject pronoun or auxiliary, :data:`_OWN_CLAUSE`; always
    after a semicolon or for what a verb of saying reports), else that piece with the clause
    before it, or after it at the start of the sentence ("On Friday, we went to the zoo": "On
    Friday" tells no tense; "The wedding will be next year, probably in June": "probably in
    June" is the wedding's). Another language's ``subordinate`` clauses start at its
    complementizers (:data:`COMPLEMENTIZER`), as English reported speech does after its verb. Each clause has its tense: "My exam is on Thursday, and I studied
    all weekend" tells of the coming Thursday; "Mark told me on Thursday that he's moving in
    September", of the September ahead."""
    sentence = clause_of(text, start, end)
    offset = text.find(sentence, max(0, start - len(sentence)))
    if offset < 0 or not offset <= start <= offset + len(sentence):
        return sentence
    is_own = own if own is not None else (
        lambda piece: _OWN_CLAUSE.search(piece) is not None or _tenses(piece) != (False, False)
    )
    bounds = [(0, 0, True), *_clause_marks(sentence, subordinate), (len(sentence), len(sentence), True)]
    pieces = [(bounds[i][1], bounds[i + 1][0], bounds[i][2]) for i in range(len(bounds) - 1)]
    at = next((i for i, (b, f, _) in enumerate(pieces) if b <= start - offset < max(f, b + 1)), None)
    if at is None:
        return sentence
    begin, finish, hard = pieces[at]
    piece = sentence[begin:finish]
    if hard and at > 0 or is_own(piece):
        return piece
    near = at - 1 if at > 0 else at + 1  # a piece with no verb belongs to the clause before it
    if 0 <= near < len(pieces):
        first, last = min(begin, pieces[near][0]), max(finish, pieces[near][1])
        if is_own(sentence[first:last]):
            return sentence[first:last]
    return sentence


#: a time an arrangement is made for ("booked the vet for the 11th", "moved my check-up to June
#: 2nd", "rescheduled it for Monday"): the time of the arrangement, ahead of the making; verbs of
#: arranging a time, a closed class
_ARRANGED = re.compile(
    r"\b(?:book(?:s|ed|ing)?|(?:re)?schedul(?:e|es|ed|ing)|mov(?:e|es|ed|ing)|postpon(?:e|es|ed|ing)|plann?(?:s|ed|ing)?|"
    r"arrang(?:e|es|ed|ing)|fix(?:es|ed|ing)?|set(?:s|ting)?|push(?:es|ed|ing)? (?:\w+ ){0,3}back|"
    r"(?:bring(?:s|ing)?|brought) (?:\w+ ){0,3}forward)"
    r"\b[^.;!?]{0,40}?\b(?:for|to)\s+(?:the\s+)?$",
    re.IGNORECASE,
)


def arranged_for(text: str, start: int) -> bool:
    """Whether the time at ``start`` is what an arrangement was made for (:data:`_ARRANGED`)."""
    return _ARRANGED.search(text, max(0, start - 60), start) is not None


def phrase_tense(text: str, start: int, end: int, *, mixed: bool = True) -> str:
    """The tense that tells the time at ``text[start:end]``: "future" for a time an arrangement
    was made for, else its own clause's (:func:`tense_clause`; :func:`tense_or_mixed` with
    ``mixed``, :func:`tense_of` without)."""
    if arranged_for(text, start):
        return "future"
    clause = tense_clause(text, start, end)
    return tense_or_mixed(clause) if mixed else tense_of(clause)


def before(text: str, position: int, reach: int = 40) -> tuple[int, int]:
    """``(start, end)`` bounds for a regex search of the ``reach`` characters before ``position``."""
    return max(0, position - reach), position


def tense_of(clause: str) -> str:
    """"past", "future" or "" (both, or neither) by the clause's verbs and time words."""
    past, future = _tenses(clause)
    return "past" if past and not future else "future" if future and not past else ""


def tense_or_mixed(clause: str) -> str:
    """:func:`tense_of`, but "mixed" for a clause that holds both a past and a future ("I want
    to use up what I bought on Wednesday"), where "" is a clause with neither."""
    past, future = _tenses(clause)
    return "mixed" if past and future else "past" if past else "future" if future else ""


#: an auxiliary with the negation "n't" cliticised to it ("didn't", "wasn't", "won't"; written
#: without the apostrophe too: "didnt"): a closed class; "will", "can" and "shall" change their
#: stem ("wo", "ca", "sha")
_NEGATIVE_CLITIC = re.compile(
    r"\b(did|does|do|was|were|had|has|have|is|are|could|would|should|must|might|need|wo|ca|sha)n['’]?t\b",
    re.IGNORECASE,
)
_CHANGED_STEM = {"wo": "will", "ca": "can", "sha": "shall"}


def _uncontracted(clause: str) -> str:
    """``clause`` with each auxiliary's "n't" written out ("didn't": "did not", "won't": "will
    not"): the auxiliary carries its tense either way."""
    return _NEGATIVE_CLITIC.sub(lambda m: f"{_CHANGED_STEM.get(m.group(1).lower(), m.group(1))} not", clause)


def _tenses(clause: str) -> tuple[bool, bool]:
    """Whether the clause holds a past (a past tense, or a word of the past: "ago") and a future;
    a present possession ("I've got") and the attitudinal past ("I was wondering if") are read as
    the present and the plan they are, and a contracted negation as written out (:func:`_uncontracted`)."""
    clause = POLITE_PAST.sub(" am planning ", HAVE_GOT.sub(" have ", _uncontracted(clause)))
    past = any(
        m.group().lower() == "ago"
        or (
            (m.group(1) is None or m.group(1).lower() not in NOT_PAST)
            and not PASSIVE_AUXILIARY.search(clause, 0, m.start())  # "isn't made": a participle
        )
        for m in PAST.finditer(clause)
    )
    return past, bool(FUTURE.search(clause))
