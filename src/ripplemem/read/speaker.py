"""Stage: the speaker a question is about — their own words before what others said to them.

A question about one person ("When did Caroline go to the support group?") is answered by what
that person said: in a conversation between two people the partner's reply ("that's great that
you went!") shares the question's words and often outranks the statement itself, and each such
reply takes a slot of the head of the list. On LoCoMo dev nearly every gold turn of a question
that names one of the two speakers is said by that speaker, while about one in six of the other
units of the first ten is said by the partner.

:func:`prefer_speaker` finds the one speaker of the candidates the question names (its person
cues, matched case- and space-folded against the units' speakers; nothing happens when it names
none of them or several) and lowers the score of every unit none of whose speakers is that person
by ``penalty`` (the term ``speaker`` of its :class:`~ripplemem.records.ScoreTerms`), then sorts
again. Units without speakers keep their score. It only reorders: the candidates are the same.

In a chat between a person and an assistant the question names nobody: "What dose of sertraline
am I on?", "Where do I do my strength workouts these days?". Asked in the first person, it is
about the person, whose life the memory holds; the assistant's replies share the topic's words
(one reply is cut into many units, each close to the question) but say what the assistant
advised, not what the person did or has. :func:`prefer_asker` lowers by ``penalty`` (the term
``asker``) every unit said only by the assistant or system role when the question speaks in the
first person and not to the other side ("What did you suggest for my knee?" is about the
assistant's words and keeps the order), and only when the candidates hold the words of both.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ripplemem.read.focus import users_statement
from ripplemem.read.rank import lower
from ripplemem.records import Cues, Evidence
from ripplemem.records.unit import normalise_cue

#: the score terms of the two stages: units lowered as not the asked person's words
SPEAKER_TERM = "speaker"
ASKER_TERM = "asker"
#: the pronouns of the one who asks, and of the side they talk to
_FIRST_PERSON = re.compile(r"\b(?:I|me|my|mine|myself|we|us|our|ours|ourselves)\b", re.IGNORECASE)
_SECOND_PERSON = re.compile(r"\b(?:you|your|yours|yourself|yourselves)\b", re.IGNORECASE)


def named_speaker(cues: Cues, ranked: Sequence[Evidence]) -> str | None:
    """The normalised name of the one speaker of ``ranked`` the question's person cues name."""
    asked = {normalise_cue(p) for p in cues.participants}
    if not asked:
        return None
    spoken = {normalise_cue(s) for e in ranked for s in e.unit.speakers}
    named = asked & spoken
    return next(iter(named)) if len(named) == 1 else None


def prefer_speaker(ranked: Sequence[Evidence], cues: Cues, penalty: float) -> tuple[list[Evidence], str | None]:
    """``ranked`` with the units not said by the question's one named speaker ``penalty`` lower,
    best first; and that speaker (None: the order as is)."""
    items = list(ranked)
    speaker = named_speaker(cues, items) if penalty > 0 else None
    if speaker is None:
        return items, None
    def not_theirs(item: Evidence) -> bool:
        said = {normalise_cue(s) for s in item.unit.speakers}
        return bool(said) and speaker not in said

    out = lower(items, not_theirs, penalty, SPEAKER_TERM)
    return out, speaker


def asks_about_the_asker(query: str, ranked: Sequence[Evidence]) -> bool:
    """Whether ``query`` asks about the person of a person–assistant chat: in the first person,
    not to the other side, over candidates holding both the person's and the assistant's words."""
    if not _FIRST_PERSON.search(query) or _SECOND_PERSON.search(query):
        return False
    said = [users_statement(e.unit) for e in ranked if e.unit.speakers]
    return any(said) and not all(said)


def prefer_asker(ranked: Sequence[Evidence], query: str, penalty: float) -> tuple[list[Evidence], bool]:
    """``ranked`` with the assistant's units ``penalty`` lower when ``query`` asks about the
    person (:func:`asks_about_the_asker`), best first; and whether it did."""
    items = list(ranked)
    if penalty <= 0 or not asks_about_the_asker(query, items):
        return items, False
    out = lower(items, lambda item: not users_statement(item.unit), penalty, ASKER_TERM)
    return out, True
