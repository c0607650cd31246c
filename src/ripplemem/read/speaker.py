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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ripplemem.records import Cues, Evidence, ScoreTerms
from ripplemem.records.unit import normalise_cue


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
    out: list[Evidence] = []
    for item in items:
        said = {normalise_cue(s) for s in item.unit.speakers}
        if not said or speaker in said:
            out.append(item)
            continue
        terms = item.terms or ScoreTerms(alignment=0.0, provenance=0.0, anchor=0.0, total=item.score)
        score = item.score - penalty
        extra = {**terms.extra, "speaker": -penalty}
        out.append(replace(item, score=score, terms=replace(terms, extra=extra, total=score)))
    out.sort(key=lambda e: (-e.score, -(e.terms.provenance if e.terms else 0.0), e.unit.id))
    return out, speaker
