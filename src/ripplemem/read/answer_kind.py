"""Stage: the kind of answer a question asks for — memories that hold one before those that don't.

A question's first words can say what kind of value answers it: "When did Caroline go to the
support group?" asks for a time, "How much is my rent now?" for an amount. The memory that
answers holds a value of that kind ("Caroline went to the support group yesterday", grounded to
a day; "the rent went up to £950"), while the memories that share the question's words without
answering it often hold none ("the support group was wonderful"). This is the expected answer
type of question answering systems, read from what the write path already keeps: on LoCoMo dev,
70 % of the gold units among the first thirty of `ripple` (without this stage) for a question
that asks for a time name one, against 14 % of the other units.

:func:`asked_kind` reads the kind from the question's opening words ("When ...", "In which month
...", "What year ...", "How long ago ..."; "How much ...", but not for a degree: "How much do I
like jazz?"); a time also by "when" in the languages whose times the write path reads ("Wann
...", "Quand ...", "¿Cuándo ...", "Когда ...", "...什么时候...", "いつ...", "언제..."). A question
that opens otherwise asks for none and keeps its order. :func:`holds` says
whether a unit holds a value of it: a time the unit names (its grounded ``time_span``, or a day
of the week, a habit or a clock time its restatement names, "every Monday", "at 5:30", which no
day of the calendar grounds; the day it was said is every unit's, so it tells nothing), a number
(digits, a currency sign or an English number word in its restatement). :func:`prefer_the_kind`
lowers by ``penalty`` (the term ``kind`` of its :class:`~ripplemem.records.ScoreTerms`) every
unit that holds none, only when some candidates hold one and some do not, then sorts again. It
only reorders: the candidates are the same.

Not kinds here, each for a reason of its own: "how many" (a count is more often gathered over
memories, "How many plants did I buy?", than held by one, and "how many days passed between"
asks for a time computed from two memories that need not name one); "who" (whoever said a memory
is a person too, and is often the answer: "Who cooked the risotto?"; a person named by a common
noun, "a woman called Priti", is often no name the write path keeps); "where" (a place answers it
as often in common words, "from home", "in the garage", as by a name the write path keeps in
``locations``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Literal

from ripplemem.grounding.time_patterns import WEEKDAYS
from ripplemem.read.rank import lower
from ripplemem.records import Evidence, MemoryUnit
from ripplemem.statements.clauses import NUMBER_WORDS

AnswerKind = Literal["time", "number"]

#: the score term of the stage: units lowered as holding no value of the kind asked for
KIND_TERM = "kind"

#: words a question may open with before its question word ("And when ...", "Remind me when ...")
_LEAD = r"(?:(?:and|so|but|then|ok|okay|also|now|hey|remind me|tell me|do you (?:know|remember)|can you (?:tell|remind) me|could you (?:tell|remind) me)[\s,]+)*"
#: "when" in the languages whose times the write path reads (:mod:`ripplemem.language`), at the
#: opening of a question; Chinese, Japanese and Korean put it where the answer would stand
_WHEN = r"wann|quand|cu[aá]ndo|quando|wanneer|n[aä]r|hvorn[aå]r|når|kiedy|когда|коли"
_WHEN_IN_PLACE = re.compile(r"什么时候|什麼時候|何时|何時|几时|いつ|언제")
_KINDS: tuple[tuple[AnswerKind, re.Pattern[str]], ...] = (
    (
        "time",
        re.compile(
            _LEAD + r"(?:(?:when|" + _WHEN + r")\b|(?:(?:in|on|at|by|since|from|until) )?(?:what|which) "
            r"(?:years?|dates?|months?|days?|times?|weeks?|weekends?|seasons?|decades?)\b|how long ago\b)",
            re.IGNORECASE,
        ),
    ),
    # "How much do I pay?" asks for an amount, "How much do I like jazz?" for a degree
    ("number", re.compile(
        _LEAD + r"how much\b(?![^?]*\b(?:like|love|enjoy|hate|care|miss|want|mind|trust|know|"
        r"remember|prefer|appreciate|dislike)s?\b)", re.IGNORECASE,
    )),
)
#: a time of the week, day or year the calendar grounding leaves out (a habit, a clock time)
_RECURRING = re.compile(
    r"\b(?:(?:" + WEEKDAYS + r")s?|weekends?|"
    r"daily|weekly|fortnightly|monthly|yearly|annually|"
    r"every (?:day|night|morning|evening|week|month|year|other|\w+day)|"
    r"\d{1,2}(?::\d\d)? ?(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d\d)\b",
    re.IGNORECASE,
)
#: a number: digits, a currency sign, a number word, or a word that counts ("twice", "half")
_NUMBER = re.compile(
    r"\d|[£$€¥]|\b(?:" + NUMBER_WORDS + r"|dozens|once|twice|half|couple|single|double|triple)\b",
    re.IGNORECASE,
)
#: what a text in ASCII holds wherever :data:`_RECURRING` matches it (in lower case): a word of
#: its alternatives, or a digit and one of a clock time's marks
_RECURRING_WORDS = (
    *WEEKDAYS.split("|"), "weekend", "daily", "weekly", "fortnightly", "monthly", "yearly",
    "annually", "every ",
)
_CLOCK_MARKS = (":", "am", "pm", "a.m.", "p.m.")
#: the words :data:`_NUMBER` matches as whole words (runs of word characters)
_NUMBER_WORDS = frozenset(
    (*NUMBER_WORDS.split("|"), "dozens", "once", "twice", "half", "couple", "single", "double", "triple")
)
_DIGIT = re.compile(r"\d")
#: a run of word characters in a text in ASCII, in lower case (``\w`` there)
_ASCII_RUN = re.compile(r"[a-z0-9_]+")


def asked_kind(question: str) -> AnswerKind | None:
    """The kind of value ``question`` asks for by its opening words, or None."""
    text = question.strip().lstrip("\"'“‘(¿¡").strip()
    for kind, pattern in _KINDS:
        if pattern.match(text):
            return kind
    return "time" if _WHEN_IN_PLACE.search(text) else None


def holds(unit: MemoryUnit, kind: AnswerKind) -> bool:
    """Whether ``unit`` holds a value of ``kind``: a time it names, a number."""
    if kind == "time":
        return unit.time_span is not None or _names(unit.restatement, "time")
    return _names(unit.restatement, kind)


@lru_cache(maxsize=65536)  # a unit's text is read again by every ranking of every recall it is in
def _names(text: str, kind: AnswerKind) -> bool:
    """Whether ``text`` names a value of ``kind`` in its words: a recurring time, a number.

    The patterns try each of their words at every character (6-16 us a unit's text), so a text
    in ASCII is read without them where it can be: a number is a digit, a dollar sign or a run of
    word characters that is one of the number words (what ``\\b(?:...)\\b`` matches there), and
    a time is looked for only in a text that holds one of its words or a clock's digit and mark.
    """
    if text.isascii():
        folded = text.lower()
        digit = _DIGIT.search(text) is not None
        if kind == "number":
            return digit or "$" in text or not _NUMBER_WORDS.isdisjoint(_ASCII_RUN.findall(folded))
        if not (digit and any(mark in folded for mark in _CLOCK_MARKS)) and not any(
            word in folded for word in _RECURRING_WORDS
        ):
            return False
    return (_RECURRING if kind == "time" else _NUMBER).search(text) is not None


def prefer_the_kind(
    ranked: Sequence[Evidence], question: str, penalty: float
) -> tuple[list[Evidence], AnswerKind | None]:
    """``ranked`` with the units holding no value of the kind ``question`` asks for ``penalty``
    lower, best first; and that kind (None: the order as is, as when every candidate or none
    holds one)."""
    items = list(ranked)
    kind = asked_kind(question) if penalty > 0 else None
    if kind is None:
        return items, None
    without = {item.unit.id for item in items if not holds(item.unit, kind)}
    if not without or len(without) == len(items):
        return items, None
    return lower(items, lambda item: item.unit.id in without, penalty, KIND_TERM), kind
