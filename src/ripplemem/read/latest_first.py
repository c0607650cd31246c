"""The holder's asserted answers in the order the question asks for, what they did not assert below.

Among the units that *answer* a question (see :mod:`ripplemem.read.supersession`), each plays one
role (:func:`roles`), read from its clauses (:mod:`ripplemem.statements`):

* ``stated``: an asserted statement of the holder — a clause that is not negated, modal,
  conditional, subordinate or conceded, whose subject is the holder ("I", "we", "Emily and I",
  their name; anybody's clause naming them when the holder is not a speaker), or a thing of
  theirs (or nobody's particular thing) that the question names ("my team", "the wedding"),
  that gives a value of its own (content words as its object, complement or prepositional
  phrase: "Omar is planning to buy a car" gives none, its value is the unasserted plan; nor does
  "Rosa said no to it"), and that is not of bounded length ("for two weeks", "while ...");
* ``aside``: answers, but the holder asserts nothing in it: someone else's words, a clause
  about another person ("my cousin moved", "Laura's friend ..."), a hypothetical, a plan, a
  wish, an offer declined, a denial, a question, a stay of bounded length;
* ``other``: the holder's own asserted words about something the question does not name ("our
  rabbit Clover is doing well" for "what pet does Bella have?"): neither lifted nor demoted.

:func:`order` puts the stated units latest said first (earliest first for a question about an
earlier value), the leading one up past every unit that answers less well (is less relevant),
and every aside below the holder's first asserted words (stated, else ``other``, which rises
past less relevant units only as far as the asides above it). A stated unit leads an older one
only when the two are *alike* — they speak of the same thing: one is among the other's
:data:`NEAREST` nearest units of the ranking's lead (by the cosine of their vectors). "I've been
vegetarian since the spring" leads "I eat pretty much anything", "I love a long walk on
Sundays" does not lead "I work as a nurse". Two statements of one fact in different words are
each other's nearest in 20 of the 22 current-value questions of the development update suite
whose two statements are both in the lead, and one is the other's nearest in all 22; chit-chat
and one of them, in 7 of 156 pairs. It is never harmful: a unit moves up only past units that answer less well — units
that do not answer, asides, alike stated units it must lead, and any other unit less relevant
than itself — and an aside moves down only past answering units, never below a unit that does not
answer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from ripplemem.records import MemoryUnit, normalise_cue, said_order
from ripplemem.statements import Clause

Role = Literal["stated", "aside", "other"]
#: two units speak of the same thing when one is among the other's NEAREST nearest of the lead
NEAREST = 2


@dataclass(frozen=True, slots=True)
class Holder:
    """Whose fact the question asks about, and the words it names (case-folded)."""

    name: str  # normalised
    words: frozenset[str]


def speaker_of(unit: MemoryUnit) -> str:
    return normalise_cue(unit.participants[0]) if unit.participants else ""


def holder_of(
    named: str | None, words: frozenset[str], units: Sequence[MemoryUnit], read: Sequence[Sequence[Clause]]
) -> Holder | None:
    """The person the question names, or else the speaker of the first of ``units`` (most
    relevant first) with an asserted clause about themself ("What is my 5K time?": the user)."""
    if named is not None:
        return Holder(named, words)
    for clauses in read:
        for clause in clauses:
            if clause.asserted and clause.kind == "speaker":
                return Holder(clause.speaker, words)
    return None


def _about_holder(clause: Clause, holder: Holder) -> bool:
    """The clause's subject is the holder, or a thing of theirs or nobody's that the question
    names; or it names the holder as its subject when someone else says it."""
    if holder.name in clause.subject_words and clause.kind in ("person", "thing"):
        return True  # "my sister Priya lives in Porto" for a question about Priya
    if clause.speaker != holder.name:
        return False
    if clause.kind == "speaker":
        return True
    if clause.kind != "thing" or clause.owner == "other":
        return False
    named = bool(clause.subject_words & holder.words) and (clause.owner == "speaker" or clause.definite)
    return named or bool(clause.object_words & holder.words)  # "the clinic moved my check-up"


def _someone_else(clause: Clause, holder: Holder) -> bool:
    """A clause about another person: a name or "he"/"she", or somebody else's thing."""
    if holder.name in clause.subject_words:
        return False
    return clause.kind == "person" or (clause.kind == "thing" and clause.owner == "other")


def role(clauses: Sequence[Clause], holder: Holder) -> Role:
    """The role of a unit that answers, from its clauses (see the module doc)."""
    about = [c for c in clauses if _about_holder(c, holder)]
    if any(c.asserted and not c.bounded and (c.value or c.named) for c in about):
        return "stated"
    said = [c for c in clauses if c.speaker == holder.name]
    if about or not said:
        return "aside"  # only unasserted or bounded statements of the holder, or others' words
    asserted = [c for c in said if c.asserted and not c.bounded and not _someone_else(c, holder)]
    return "other" if asserted else "aside"


def roles(
    units: Sequence[MemoryUnit], read: Sequence[Sequence[Clause]], holder: Holder
) -> dict[str, Role]:
    return {u.id: role(clauses, holder) for u, clauses in zip(units, read, strict=True)}


def order(
    ids: Sequence[str],
    units: Mapping[str, MemoryUnit],
    answering: Mapping[str, Role],
    relevance: Mapping[str, float],
    alike: Callable[[str, str], bool],
    *,
    latest: bool = True,
) -> tuple[list[str], set[str]]:
    """``ids`` (ranked) in the order of the module doc, and the ids that moved."""
    ranked = list(ids)
    moved: set[str] = set()

    def rel(unit_id: str) -> float:
        return relevance.get(unit_id, 0.0)

    def leads(first: str, other: str) -> bool:
        """``first`` must come before ``other``: an aside, or an alike stated unit said before
        it (after it, for an earlier value)."""
        if answering.get(other) == "aside":
            return True
        if answering.get(first) != "stated" or answering.get(other) != "stated" or not alike(first, other):
            return False
        before = said_order(units[other]) < said_order(units[first])
        return before if latest else not before

    def rise(unit_id: str, reach: float, stop: int = 0) -> None:
        """Up to the highest unit it leads, past the units it leads or less relevant than
        ``reach``; with ``stop`` > 0 no higher than that place."""
        here = ranked.index(unit_id)
        targets = [p for p in range(stop, here) if leads(unit_id, ranked[p])]
        top = stop if stop or not targets else min(targets)
        place = here
        while place > top and (leads(unit_id, ranked[place - 1]) or rel(ranked[place - 1]) < reach):
            place -= 1
        if place < here:
            ranked.insert(place, ranked.pop(here))
            moved.add(unit_id)

    stated = sorted(
        (i for i in ranked if answering.get(i) == "stated"), key=lambda i: said_order(units[i]),
        reverse=latest,
    )
    for unit_id in stated:  # the stated units in order, each above the older values it leads
        here = ranked.index(unit_id)
        if any(leads(unit_id, ranked[p]) for p in range(here)):
            rise(unit_id, rel(unit_id), stop=min(p for p in range(here) if leads(unit_id, ranked[p])))
    asserted = [i for i in ranked if answering.get(i) in ("stated", "other")]
    if not asserted:
        return ranked, moved
    best = max(asserted, key=rel)  # the holder's best answer, and its latest value
    family = [i for i in stated if i == best or alike(i, best)]
    leader = family[0] if answering[best] == "stated" and family else best
    rise(leader, rel(best))
    top = ranked.index(leader)
    for unit_id in [i for i in ranked[:top] if answering.get(i) == "aside"]:
        here, top = ranked.index(unit_id), ranked.index(leader)
        if all(ranked[p] in answering for p in range(here + 1, top + 1)):
            ranked.insert(top, ranked.pop(here))  # right below the holder's answer
            moved.add(unit_id)
    return ranked, moved
