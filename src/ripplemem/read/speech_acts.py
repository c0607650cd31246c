"""Stage: what a person reported before what they asked for.

A question about one's own past ("How many tanks do I have?") is answered by a report: a
statement of what happened or what is ("I set up a 1-gallon tank for my friend's kid", "I got my
engagement ring a month ago"). The same chat also holds the person's asks: requests, questions
and plans addressed to the other side ("Can you suggest plants for a small tank?", "I'm thinking
of setting up a quarantine tank"). An ask names the topic the person brought up, so it shares the
question's words and often outranks the report said in passing in the same message or session,
yet it only says what the person wanted, not what they did or have.

Speech-act theory (Austin 1962; Searle 1976) separates directives (requests, questions) and
commissives (plans, intentions) from assertives (reports). :func:`speech_act` reads a unit's
text with a few surface forms of each: a question mark (not one that closes a word or two echoed
at its start, "Bus? Not anymore, ..."), a request verb addressed to the other
side, a wish or plan ("wants to", "is thinking of", "will"), against a report verb in the past
or perfect. A unit with both (a request that also reports something) counts as a report.

:func:`prefer_reports` lowers the score of every unit said by a person (not the assistant or
system role) whose text asks and reports nothing by ``penalty`` (the term ``ask`` of its
:class:`~ripplemem.records.ScoreTerms`), then sorts again. The candidates are the same; a unit
that reports something, the assistant's words and units without an ask keep their score.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Literal

from ripplemem.read.focus import users_statement
from ripplemem.read.rank import lower
from ripplemem.records import Evidence

SpeechAct = Literal["ask", "report", "other"]

#: the other side, addressed by a modal or "do"/"is" ("can you", "is assistant")
_ADDRESSED = ("you", "assistant")
#: what a speaker is after, said with "be" ("I'm looking for", "we were thinking of")
_SEEKING = ("looking", "wondering", "thinking", "planning", "trying", "hoping", "considering", "interested",
            "curious", "going to")
#: a question, a request to the other side, a wish, a search or a plan (directives, commissives):
#: each form with the words one of its matches starts with (lower case; the modal's as written),
#: and, for a form that starts with words found in most texts ("is", "do", "are" in "share"),
#: the words one of which each of its matches holds further on (lower case)
_ASK_FORMS: tuple[tuple[tuple[str, ...], bool, tuple[str, ...], str], ...] = (
    (("?",), False, (), r"\?"),
    (("asked",), False, (), r"\basked\b"),
    (("can", "could", "would", "will", "does", "do", "is"), False, _ADDRESSED,
     rf"\b(?:can|could|would|will|does|do|is)\s+(?:{'|'.join(_ADDRESSED)})\b"),
    (("recommend", "suggest", "advise"), False, (), r"\b(?:recommend|suggest|advise)\b"),
    (("help ",), False, (), r"\bhelp (?:me|user|him|her|them)\b"),
    (("is", "was", "am", "are", "were", "been"), False, _SEEKING,
     rf"\b(?:is|was|am|are|were|been)\s+(?:\w+ly\s+)?(?:{'|'.join(_SEEKING)})\b"),
    (("want", "would like", "'d like", "need", "plan", "hope", "intend"), False, (),
     r"\b(?:wants?|would like|'d like|needs?|plans?|hopes?|intends?)\s+to\b"),
    (("will", "might", "may", "should"), True, (),
     r"\b(?-i:will|might|may|should)\s+(?!have\b|be\b)\w+"),  # lower case: not the month May
    (("any ",), False, (), r"\bany (?:tips|suggestions|recommendations|advice|ideas)\b"),
)
_ASK = re.compile("|".join(form for _, _, _, form in _ASK_FORMS), re.IGNORECASE)
#: each form alone, searched from the first of its words in the text (a text in ASCII: its
#: lower case is where the case-blind forms match)
_ASK_EACH = tuple(
    (words, as_written, holds, re.compile(form, re.IGNORECASE))
    for words, as_written, holds, form in _ASK_FORMS
)
#: irregular past forms (and the perfect's auxiliaries) that report something done or had
_PAST = (
    "got|went|bought|took|made|spent|saw|met|ran|won|lost|left|began|gave|found|came|did|wrote|"
    "read|sold|paid|caught|heard|felt|kept|brought|built|chose|hit|drove|flew|grew|ate|drank|"
    "sang|swam|taught|told|wore|sent|became|had|has|was|were"
)
#: a subject-like word, at most a few adverbs, then a past or perfect verb
_REPORT = re.compile(
    r"\b(?!Assistant\b|System\b)[A-Z][\w']*\s+(?:(?:just|recently|also|actually|already|finally|first|once|then|even|"
    r"really|\w+ly)\s+)*(?:(?!asked\b|wondered\b)[a-z]\w*ed|" + _PAST + r")\b(?!\s+been\s+(?:looking|wondering|thinking|planning|trying|hoping|considering)\b)"
)


#: a word or two echoed as a question at the start of a text that goes on (after the "<Speaker>
#: said:" of a restatement): "Bus? Not anymore, now it's the e-bike." The writer restates a
#: question with a verb as "<Speaker> asked:", so what opens a text this way has none
_ECHO = re.compile(
    r"^((?:[^\W\d_][\w'’.-]*\s+){1,3}said:\s+)?[^\W\d_][\w'’-]*(?:\s+[^\W\d_][\w'’-]*)?\?\s+(?=\S)"
)


@lru_cache(maxsize=65536)  # a unit's text is read again by every recall that ranks it
def speech_act(text: str) -> SpeechAct:
    """``"report"`` when ``text`` reports something done or had (even while asking), ``"ask"``
    when it only asks, wishes or plans, ``"other"`` otherwise. A word or two echoed as a
    question at its start ("Bus? Not anymore, ...") asks nothing: what follows it decides."""
    text = _ECHO.sub(r"\1", text, count=1)
    if _REPORT.search(text):
        return "report"
    if _asks(text):
        return "ask"
    return "other"


def _asks(text: str) -> bool:
    """Whether :data:`_ASK` matches ``text``: for a text in ASCII each form is searched from
    the first place one of its words occurs (a match starts with one), and not at all without
    one, nor without one of the words each of its matches holds further on (the one pattern
    tries every form at every character, the larger part of a recall's reading of speech
    acts; a form that starts with "is" or "do" is otherwise searched through most texts)."""
    if not text.isascii():
        return _ASK.search(text) is not None
    folded = text.lower()
    for words, as_written, holds, form in _ASK_EACH:
        if holds and not any(word in folded for word in holds):
            continue
        where = text if as_written else folded
        starts = [at for at in (where.find(word) for word in words) if at >= 0]
        if starts and form.search(text, min(starts)) is not None:
            return True
    return False


def prefer_reports(ranked: Sequence[Evidence], penalty: float) -> tuple[list[Evidence], int]:
    """``ranked`` with the people's asks that report nothing ``penalty`` lower, best first; and
    how many units were lowered."""
    items = list(ranked)
    if penalty <= 0:
        return items, 0
    asking = {
        item.unit.id for item in items
        if users_statement(item.unit) and speech_act(item.unit.restatement) == "ask"
    }
    if not asking:
        return items, 0
    return lower(items, lambda item: item.unit.id in asking, penalty, "ask"), len(asking)
