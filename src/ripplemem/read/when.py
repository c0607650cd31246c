"""Stage: the time a question names — what happened then before what happened at other times.

A question that names a time of its own ("What did Maya do on 3 May?", "Where was I in April?",
"What did we do last weekend?") asks about what happened then. Its words also match memories of
other times ("I was in Rome from 3 to 7 April" shares "3" and a month with the first), and the
dense and lexical views cannot tell the dates apart, while the cue view, which can, is one view
among three. :func:`prefer_the_time` lowers by ``penalty`` (the term ``time`` of its
:class:`~ripplemem.records.ScoreTerms`) every unit whose time — its grounded span, else the day
it was said (:func:`~ripplemem.structure.structural_time`; each of the times it names, when they
lie too far apart for one span: :func:`~ripplemem.structure.times_of`) — lies wholly outside the
question's span, then sorts again (by the larger ``day_penalty`` when the question's time is a single day).
A unit without a time keeps its score, so does one whose time overlaps; the candidates are the
same.

A penalty weighs against the alignment of the words, and a memory of another time that shares
more of them stays first. When the question's own clause names a definite time
(:func:`asked_time`: "What did I do between May 6 and May 12?", "Where was I in the first week
of May?", "What did I do last week?"), :func:`time_first` then puts every unit of another time
below the units of that time that answer the question: the time asked about is part of what is
asked, not a preference among answers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from ripplemem.language import ANY_EVENT, ANY_EVENT_MARKS, QUERY_STOPWORDS, UNSPACED
from ripplemem.read.rank import lower, rescore
from ripplemem.read.supersession import last_question
from ripplemem.records import Cues, Evidence, TimeSpan, named_times
from ripplemem.statements import Parse
from ripplemem.structure import said_day, times_of


def another_time(item: Evidence, span: TimeSpan) -> bool:
    """Whether each of the unit's times lies wholly before or after ``span`` (False without a
    time): a memory that names several times far apart is of each of them
    (:func:`~ripplemem.structure.times_of`)."""
    times = times_of(item.unit)
    return bool(times) and all(t.end < span.start or t.start > span.end for t in times)


def prefer_the_time(
    ranked: Sequence[Evidence], span: TimeSpan | None, penalty: float, day_penalty: float | None = None
) -> tuple[list[Evidence], int]:
    """``ranked`` with the units of another time than ``span`` ``penalty`` lower, best first;
    and how many were lowered (the order as is without a span). For a span of one day or less
    ("on 1 May, 2022", "yesterday") they are ``day_penalty`` lower when it is given: the
    narrower the time asked about, the less a memory of another time answers it."""
    items = list(ranked)
    if span is None or penalty <= 0:
        return items, 0
    outside = {item.unit.id for item in items if another_time(item, span)}
    if not outside:
        return items, 0
    if day_penalty is not None and span.end - span.start <= _DAY:
        penalty = day_penalty
    return lower(items, lambda item: item.unit.id in outside, penalty, "time"), len(outside)


#: a time asked about that lasts no longer than this is a day
_DAY = timedelta(days=1)


# -- the question's own time: what happened then, before what happened at another time ---------
#
# A time adverbial locates the event of the clause it stands in (Reichenbach's event time). The
# question asks about the event of the clause its question word stands in (the main clause of
# "What did I do between May 6 and May 12?", the content clause of "Tell me what I did from 6
# to 12 May"; the main clause of a yes-or-no question). A time in that clause is the time of
# what is asked about, and a memory of another time does not answer it. A time in another
# clause — a relative clause ("the trip I took in March"), an adverbial one ("as mentioned on
# 6 November", "after we moved in March"), a preposition's clause ("after moving in March") —
# locates that clause's event, and a bound ("before", "after", "since", "until", "by", "as of")
# says on which side of it the time asked about lies: neither is the time asked about. Nor is
# a distance from now counted in weeks or more ("two weeks ago", "one year ago", "a few years
# back"): it is said in round numbers, so the calendar unit it is read as is one guess among
# its neighbours; a count of days, a date, a named unit ("last week", "in March") are definite.
# Two times of that clause that do not overlap cannot both be the time of one event ("last
# Friday on 23 January"): the question's time is not definite then. When the event asked about
# is a saying ("What did Tim say about his injury on 16 November?"), its time is the day the
# memory was said.
#
# A memory is of the time asked about when one of its times — the times it names, else the day
# it was said; for a saying, that day too — overlaps it, and of another time when none does. A
# memory with no time is neither.


@dataclass(frozen=True, slots=True)
class AskedTime:
    """The time the question's own clause names (the hull of its times), and whether the event
    asked about is a saying (then a memory said in it is of that time too)."""

    span: TimeSpan
    said: bool = False


def asked_time(query: str, times: Sequence[tuple[str, TimeSpan]], parse: Parse | None) -> AskedTime | None:
    """The question's own definite time from its grounded ``times`` (phrase, span), read in its
    parse (see above); None when it names none. Without a parse every time not said as a bound
    or a distance is its own, and no event is read as a saying."""
    text = last_question(query)
    own: list[TimeSpan] = []
    said = False
    doc: Any = None  # parsed for the first time it reads
    for phrase, span in times:
        where = text.find(phrase)
        if where < 0 or _bound(text, where, phrase) or _DISTANCE.search(phrase):
            continue
        if parse is None:
            own.append(span)
            continue
        if doc is None:
            (doc,) = parse([text])
        located = _clause_of_time(doc, where, where + len(phrase))
        asked = _asked_clause(doc, located)
        if located is None or asked is None or located.i != asked.i:
            continue
        own.append(span)
        said = said or asked.lemma_.casefold() in _SAYING
    if not own or max(s.start for s in own) > min(s.end for s in own):
        return None
    return AskedTime(TimeSpan(min(s.start for s in own), max(s.end for s in own)), said)


def possible_asked_times(
    query: str, times: Sequence[tuple[str, TimeSpan]], *, most: int = 4
) -> list[AskedTime] | None:
    """Every value but None that :func:`asked_time` can take with a parse, read without one:
    each set of the question's own-time candidates (the times it does not say as a bound or a
    distance) whose spans overlap, said or not; None when more than ``most`` times are
    candidates (the sets are then too many to try). A caller that finds :func:`time_first`
    moving nothing for each of them needs no parse: asked_time's value then changes nothing."""
    text = last_question(query)
    spans = [
        span for phrase, span in times
        if (where := text.find(phrase)) >= 0 and not _bound(text, where, phrase) and not _DISTANCE.search(phrase)
    ]
    if len(spans) > most:
        return None
    found: list[AskedTime] = []
    for mask in range(1, 1 << len(spans)):
        own = [span for bit, span in enumerate(spans) if mask >> bit & 1]
        if max(s.start for s in own) > min(s.end for s in own):
            continue
        hull = TimeSpan(min(s.start for s in own), max(s.end for s in own))
        found += [AskedTime(hull, False), AskedTime(hull, True)]
    return found


def time_first_when_read(
    ranked: Sequence[Evidence],
    asked: Callable[[], AskedTime | None],
    possible: Sequence[AskedTime] | None,
    *,
    answers: float,
    content: bool,
) -> tuple[list[Evidence], int]:
    """:func:`time_first` with the time the question's own clause names read (``asked``, from
    the question's parse) only when the order depends on it: not when none of the ``possible``
    values (:func:`possible_asked_times`; None: not known) moves a unit, whatever the parse
    reads then (None moves nothing either)."""
    if possible is not None and not any(
        time_first(ranked, value, answers=answers, content=content)[1] for value in possible
    ):
        return list(ranked), 0
    return time_first(ranked, asked(), answers=answers, content=content)


def asks_more_in(query: str, language: str, names: Sequence[str], phrases: Sequence[str]) -> bool:
    """:func:`asks_more_than_its_time` for a question in another ``language`` than English: a
    word of it besides its time ``phrases``, the people's ``names`` and its language's closed
    classes (:data:`~ripplemem.language.QUERY_STOPWORDS`) and words that ask for any event
    (:data:`~ripplemem.language.ANY_EVENT`); in a script written without spaces, a character
    besides kana, digits and :data:`~ripplemem.language.ANY_EVENT_MARKS`."""
    text = query
    for phrase in (*phrases, *names):
        if phrase:
            text = text.replace(phrase, " ")
    marks = ANY_EVENT_MARKS.get(language)
    if marks is not None or language in UNSPACED:
        return any(
            c.isalpha() and not ("\u3040" <= c <= "\u30ff") and c not in (marks or "") for c in text
        )
    closed = QUERY_STOPWORDS.get(language, frozenset()) | ANY_EVENT.get(language, frozenset())
    # a letter alone is an elided article or pronoun ("j'ai", "l'anno")
    return any(len(w) > 1 and w.casefold() not in closed for w in _WORD.findall(text))


_WORD = re.compile(r"[^\W\d_]+")


def asks_more_than_its_time(cues: Cues) -> bool:
    """Whether the question asks for something besides its time and its people: a content word
    other than their names and the verbs that ask for any event ("What did I do last week?",
    "What happened on 7 May?": every memory of that time answers them)."""
    names = {word.casefold() for name in cues.participants for word in name.split()}
    return any(word not in names and word not in _ANY_EVENT for word in cues.keywords)


def time_first(
    ranked: Sequence[Evidence], asked: AskedTime | None, *, answers: float, content: bool
) -> tuple[list[Evidence], int]:
    """``ranked`` with every unit of another time than ``asked`` below the units of that time
    that answer, and how many moved (see above for which time a unit is of). A unit of that
    time *answers* when the question asks for nothing but its time (``content`` False) or its
    alignment with the question is at least ``answers`` times the best candidate's (a memory
    that shares nothing else with the question is not an answer for being of its time). The
    units of another time that ranked above the last answering unit of the time go right below
    it, in their order, with the scores of their places (the term ``time``); every other unit
    keeps its place and score."""
    items = list(ranked)
    if asked is None or not items:
        return items, 0
    best = max((e.terms.alignment for e in items if e.terms is not None), default=0.0)

    def answering(item: Evidence) -> bool:
        return not content or (item.terms is not None and item.terms.alignment >= answers * best)

    last = max((i for i, e in enumerate(items) if _of_the_time(e, asked) and answering(e)), default=0)
    above = [e for e in items[:last] if _of_another_time(e, asked)]  # none when the first answers
    if not above:
        return items, 0
    moved = {e.unit.id for e in above}
    ordered = [e for e in items[: last + 1] if e.unit.id not in moved] + above + items[last + 1 :]
    return rescore(ordered, moved, "time"), len(above)


def _said_day(item: Evidence) -> TimeSpan | None:
    return said_day(item.unit)


def _named(item: Evidence) -> tuple[TimeSpan, ...]:
    """The times a unit names (none when it names none: not the day it was said)."""
    unit = item.unit
    return named_times(unit.extra) or ((unit.time_span,) if unit.time_span is not None else ())


def _of_the_time(item: Evidence, asked: AskedTime) -> bool:
    named = _named(item)
    if named and not asked.said:
        return any(_names(t, asked.span) for t in named)
    said = _said_day(item)
    return any(_names(t, asked.span) for t in named) or (said is not None and said.overlaps(asked.span))


def _names(time: TimeSpan, asked: TimeSpan) -> bool:
    """Whether a time a unit names is of the time asked about: it overlaps it; one open towards
    the future ("from July we'll be paying 1350") tells of a change at its start, so when the
    start lies in it (not every later time a question asks about)."""
    if time.open_ended:
        return asked.start <= time.start <= asked.end
    return time.overlaps(asked)


def _of_another_time(item: Evidence, asked: AskedTime) -> bool:
    return bool(_named(item) or _said_day(item)) and not _of_the_time(item, asked)


#: words before a time (or opening its phrase) that make it a bound of the time asked about
_BOUND_BEFORE = re.compile(
    r"\b(?:before|after|since|until|till|by|prior\s+to|up\s+to|as\s+of)\s+(?:(?:the|my|our|that)\s+)?$",
    re.IGNORECASE,
)
_BOUND_OPENING = re.compile(r"^(?:before|after|since|until|till|by|up\s+to|of)\s+", re.IGNORECASE)
#: a distance from now counted in weeks or more, or in a vague number
_DISTANCE = re.compile(
    r"\b(?:weeks?|weekends?|months?|years?|decades?)\s+(?:ago|back|from\s+now|before|earlier|later)\b"
    r"|\b(?:a\s+few|several|a\s+couple\s+of|some)\s+\w+\s+(?:ago|back)\b",
    re.IGNORECASE,
)


def _bound(text: str, start: int, phrase: str) -> bool:
    """The time bounds the time asked about ("before 12 May", "as of December 2023", whose
    phrase the grounder reads as "of December 2023"; "since May", "until Friday")."""
    opening = _BOUND_OPENING.match(phrase)
    before = text[:start] + (opening.group(0) if opening else "")
    if opening and opening.group(0).casefold().startswith("of"):
        return _BOUND_BEFORE.search(before) is not None  # "of" bounds only after "as"
    return opening is not None or _BOUND_BEFORE.search(before) is not None


#: the dependencies that open a clause of its own below another (a relative, adverbial,
#: content or subject clause, a preposition's clause, a clause set beside it); an infinitive or
#: participle complement ("go hiking", "started learning") and a conjoined verb share their
#: clause's time and are not among them
_CLAUSES = frozenset({"relcl", "acl", "advcl", "ccomp", "csubj", "csubjpass", "pcomp", "parataxis"})
_WH_TAGS = frozenset({"WDT", "WP", "WP$", "WRB"})
#: verbs of saying: the time of a saying is the day a memory was said
_SAYING = frozenset({
    "say", "tell", "mention", "talk", "discuss", "share", "ask", "chat", "speak", "write", "text",
    "message", "recommend", "suggest", "explain", "describe", "announce", "report", "promise",
    "reply", "answer", "complain", "request",
})
#: the content words that ask for any event (the light verbs "do", "go", "get" are question
#: words of the cues already)
_ANY_EVENT = frozenset("happen happens happened happening occur occurs occurred occurring".split())  # noqa: SIM905


def _clause(token: Any) -> Any:
    """The head of the clause ``token`` stands in."""
    node = token
    for _ in range(32):
        if node.dep_ in _CLAUSES or node.head is node:
            return node
        node = node.head
    return node


def _clause_of_time(doc: Any, start: int, end: int) -> Any | None:
    """The head of the clause the time at characters [start, end) stands in."""
    inside = [t for t in doc if start <= t.idx < end]
    if not inside:
        return None
    head = next((t for t in inside if not start <= t.head.idx < end or t.head is t), inside[0])
    return _clause(head)


def _asked_clause(doc: Any, located: Any | None) -> Any | None:
    """The head of the clause the question asks in: its question word's, else (a yes-or-no
    question) the main clause of the sentence the time is in."""
    wh = next((t for t in doc if t.tag_ in _WH_TAGS), None)
    if wh is not None:
        return _clause(wh)
    return located.sent.root if located is not None else None
