"""Stage: query -> :class:`Cues` (reference §1, read path step 1).

``derive_cues`` grounds what a query asks for, and never invents:

* keywords: the query's content terms (the store's own tokeniser, minus question and function
  words), in query order;
* participants: names of the namespace's participant vocabulary mentioned in the query (matched
  case-insensitively on word boundaries, so "Caroline's" matches "caroline" and "Sam" does not
  match "Samantha"), plus the recogniser's PERSON hits;
* locations: vocabulary places mentioned in the query plus the recogniser's place hits;
* time span: the hull of the spans time grounding finds in the query. With no
  ``reference_time`` only *absolute* expressions ground ("in May 2023"), so "yesterday" is never
  grounded against the wall clock of the machine.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Protocol

from ripplemem.records import Cues, TimeSpan, normalise_cue

# Words that shape a question but say nothing about the memory being looked for: function
# words, and light verbs / quantifiers ("go", "take", "many times") whose content is elsewhere.
QUESTION_WORDS = frozenset(
    """
    a about above after again against all also am an and any are as at be because been before
    being between both but by can could did do does doing done during each either ever few for
    from further had has have having he her here hers herself him himself his how i if in into is
    it its itself just me might more most must my myself no nor not now of off on once only or
    other ought our ours ourselves out over own please same shall she should so some such tell
    than that the their theirs them themselves then there these they this those through to too
    under until up us very was we were what whatever when whenever where whether which while who
    whom whose why will with would you your yours yourself yourselves
    kind sort type think likely maybe perhaps probably thing things something anything someone
    anyone ever usually often many much times time given
    go goes went going gone get gets got getting make makes made making take takes took taking
    taken want wants wanted like likes liked know knows knew feel felt say says said
    """.split()  # noqa: SIM905
)
_MIN_NAME_CHARS = 2
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


class Recogniser(Protocol):
    """What :class:`ripplemem.write.entities.EntityRecognizer` offers the read path."""

    def find(
        self, texts: Sequence[str], *, people: Sequence[str] = ..., learn: bool = ...
    ) -> list: ...


def content_keywords(text: str, *, skip: Sequence[str] = ()) -> tuple[str, ...]:
    """The query's content words, case-folded, deduplicated, in order.

    A word is kept when the store's tokeniser keeps it (not a stopword) and it is not a question
    word; possessives are cut ("Caroline's" -> "caroline"). Surface forms are kept (readable in
    traces and goal sentences); compare them with :func:`ripplemem.stores.text.terms`. Words of
    the ``skip`` phrases (the time expressions, which become the time cue) are left out."""
    from ripplemem.stores.text import terms

    skipped = {w.casefold() for phrase in skip for w in _WORD.findall(phrase)}
    seen: dict[str, None] = {}
    for token in _WORD.findall(text):
        word = re.split(r"['’]", token.casefold(), maxsplit=1)[0]
        if len(word) > 1 and word not in QUESTION_WORDS and word not in skipped and terms(word):
            seen.setdefault(word, None)
    return tuple(seen)


def mentioned(query: str, vocabulary: Iterable[str]) -> list[str]:
    """Vocabulary values the query mentions, in the query's spelling, longest match first.

    A value matches on word boundaries only; a match inside a longer match is dropped
    ("harbor" inside "harbor grill")."""
    folded = normalise_cue(query)
    spans: list[tuple[int, int, str]] = []
    for value in vocabulary:
        norm = normalise_cue(value)
        if len(norm) < _MIN_NAME_CHARS or norm not in folded:  # cheap filter first
            continue
        pattern = r"(?<!\w)" + r"\s+".join(re.escape(p) for p in norm.split()) + r"(?!\w)"
        for match in re.finditer(pattern, query, flags=re.IGNORECASE):
            spans.append((match.start(), match.end(), match.group(0)))
    spans.sort(key=lambda s: (-(s[1] - s[0]), s[0]))
    kept: list[tuple[int, int, str]] = []
    for start, end, text in spans:
        if all(end <= k_start or start >= k_end for k_start, k_end, _ in kept):
            kept.append((start, end, text))
    kept.sort()
    return _unique(text for _, _, text in kept)


def query_time(
    query: str, reference_time: datetime | None, *, day_first: bool = False
) -> tuple[TimeSpan | None, list[str]]:
    """The hull of the query's grounded time expressions (or None), and every time phrase found.

    With ``reference_time=None`` time grounding grounds absolute expressions only; ``day_first``:
    ``Settings.date_order``."""
    return _hull(*question_times(query, reference_time, day_first=day_first))


def question_times(
    query: str, reference_time: datetime | None, *, day_first: bool = False
) -> tuple[list[tuple[str, TimeSpan]], list[str]]:
    """Each grounded time expression of the query that is not a bound of the time it asks
    about, as (phrase, span), and every time phrase found (see :func:`query_time`)."""
    from ripplemem.grounding.ground_time import query_grounder

    found = query_grounder().ground(query, reference_time, day_first=day_first)
    times = [(g.phrase, g.span) for g in found if g.span is not None and not _boundary(query, g.phrase)]
    return times, [g.phrase for g in found]


def _hull(times: Sequence[tuple[str, TimeSpan]], phrases: list[str]) -> tuple[TimeSpan | None, list[str]]:
    """The hull of ``times`` (None without one), and the phrases as they are."""
    if not times:
        return None, phrases
    return TimeSpan(min(s.start for _, s in times), max(s.end for _, s in times)), phrases


#: words that make the time after them a boundary of the time asked about, not that time
_BOUNDS = re.compile(r"\b(?:before|after|since|until|till|prior to)\s+(?:(?:the|my|our|that)\s+)?$", re.IGNORECASE)


def _boundary(query: str, phrase: str) -> bool:
    """The phrase bounds the time the question asks about ("the earlier trip before the 7/22
    trip", where the grounder reads "7/22" alone): that time lies on one side of it, so it is
    not the question's time. A phrase that holds its boundary word ("since May") is the
    grounder's own interval."""
    found = re.search(re.escape(phrase), query, re.IGNORECASE)
    return found is not None and _BOUNDS.search(query[: found.start()]) is not None


def derive_cues(
    query: str,
    *,
    reference_time: datetime | None,
    people_vocabulary: Sequence[str],
    place_vocabulary: Sequence[str],
    recognizer: Recogniser | None = None,
    day_first: bool = False,
    times: tuple[Sequence[tuple[str, TimeSpan]], list[str]] | None = None,
) -> Cues:
    """Ground the query's who / where / when / what. Empty fields mean "not asked for".
    ``times``: the query's :func:`question_times` when the caller has them already."""
    time_span, time_phrases = (
        _hull(*times) if times is not None else query_time(query, reference_time, day_first=day_first)
    )
    participants = mentioned(query, people_vocabulary)
    locations = mentioned(query, place_vocabulary)
    if recognizer is not None and query.strip():
        # A query teaches the recogniser nothing: later extraction must not depend on what was
        # asked. The vocabulary names it mentions, as the query spells them (the vocabulary is
        # case-folded), are not to be taken for places.
        known = [name for name in participants if name != name.casefold()]
        (entities,) = recognizer.find([query], people=known, learn=False)
        participants += [_bare(name) for name in getattr(entities, "people", ()) or ()]
        locations += [_bare(place) for place in getattr(entities, "places", ()) or ()]
    return Cues(
        text=query,
        keywords=content_keywords(query, skip=time_phrases),
        participants=tuple(_unique(participants)),
        locations=tuple(_unique(locations)),
        time_span=time_span,
    )


def _bare(name: str) -> str:
    """A recognised name without a trailing possessive ("Caroline's" -> "Caroline")."""
    return re.sub(r"['’]s?$", "", name.strip())


def _unique(values: Iterable[str]) -> list[str]:
    """Deduplicate by normalised form, keeping the first spelling."""
    seen: dict[str, str] = {}
    for value in values:
        key = normalise_cue(value)
        if key and key not in seen:
            seen[key] = " ".join(value.split())
    return list(seen.values())
