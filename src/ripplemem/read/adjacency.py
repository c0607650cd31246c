"""Stage: the answer takes its question's place.

A question one person asks another ("Sam asked: Still doing jiu-jitsu then?") shares the
words of a question about the same thing and often ranks near the top, yet it answers nothing:
the answer is the other person's next turn (a question and its answer are an adjacency pair of
conversation analysis, Schegloff & Sacks 1973), worded unlike the question and ranked far below.
:func:`answers_follow` puts, for each unit among the first ``depth`` of the ranking that only
asks, about something the query asks about too (a word they share other than a name), the unit
of the next turn of the same session said by someone else in the question's place, the question
right after it, when that turn ranks lower (or not at all): the answer holds what was said, the
question is its context. Only people's answers come up: an assistant's reply to a person's
request is not a memory of the person. The budget is kept (a unit pulled in pushes the
last one out), and every moved unit takes the score of its place
(:func:`~ripplemem.read.rank.rescore`, term ``answer``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ripplemem.read.focus import users_statement
from ripplemem.read.rank import rescore
from ripplemem.records import Evidence, ExpansionPath, Hit, MemoryUnit
from ripplemem.stores.base import MemoryStore
from ripplemem.stores.text import terms

#: a word written with a capital inside a sentence: a name
_NAME = re.compile(r"(?<=[\w,;:'’\"] )[A-Z][\w'’-]*")


def asks_about(query: str, unit: MemoryUnit) -> bool:
    """The unit shares a word of the query's other than a name (a word the query capitalises
    inside it): "Sam asked: Still doing jiu-jitsu then?" asks about what "Which gym does Leo
    train jiu-jitsu at?" asks; "How's Pickle? Still terrorising the postman?" shares only the
    name with "How has Pickle's food changed?" (every memory of Pickle names him)."""
    names = {t for word in _NAME.findall(query) for t in terms(word)}
    return bool((set(terms(query)) - names) & set(terms(unit.restatement)))


def only_asks(unit: MemoryUnit) -> bool:
    """A unit that only asks another speaker something ("Tom asked: Any news?")."""
    text = unit.restatement.rstrip()
    return text.endswith("?") and " asked: " in f" {text}" and " answered: " not in text


def _answer(question: MemoryUnit, units: Sequence[MemoryUnit], rank: dict[str, int]) -> MemoryUnit | None:
    """The unit of the turn right after ``question`` in its session, said by a person other than
    the one who asks (its best-ranked piece, else its first)."""
    at = question.extra.get("turn_index")
    if at is None:
        return None
    asker = set(question.speakers)
    found = [
        u for u in units
        if u.episode_id == question.episode_id and u.extra.get("turn_index") == at + 1
        and users_statement(u) and u.speakers and not set(u.speakers) & asker
    ]
    if not found:
        return None
    return min(found, key=lambda u: (rank.get(u.id, len(rank)), u.created_at, u.id))


def answers_follow(
    evidence: Sequence[Evidence], *, query: str, store: MemoryStore, namespace: str, depth: int
) -> tuple[list[Evidence], int]:
    """``evidence`` with the answer of each question of its first ``depth`` that asks about what
    ``query`` asks (:func:`asks_about`) in that question's place, the question right after it
    (see the module doc), and how many answers moved."""
    items = list(evidence)
    asking = [e.unit for e in items[:depth] if only_asks(e.unit) and asks_about(query, e.unit)]
    if not asking:
        return items, 0
    linked = store.neighbours(namespace, [u.id for u in asking], "structural")
    wanted = sorted({n for u in asking for n, _ in linked.get(u.id, ())})
    if not wanted:
        return items, 0
    units = store.get_units(namespace, wanted)
    moved: set[str] = set()
    for question in asking:
        rank = {e.unit.id: n for n, e in enumerate(items)}
        answer = _answer(question, [u for u in units if u.id in {n for n, _ in linked.get(question.id, ())}], rank)
        if answer is None or answer.id in moved:
            continue
        here = rank[question.id]
        if answer.id in rank:
            if rank[answer.id] < here:
                continue
            entry = items.pop(rank[answer.id])
        else:
            weight = next((w for n, w in linked.get(question.id, ()) if n == answer.id), 0.0)
            path = ExpansionPath(question.id, "structural", (question.id, answer.id), float(weight), 0.0)
            entry = Evidence(answer, items[here].score, (Hit("context", 0, float(weight)),), paths=(path,))
        items.insert(here, entry)  # the question follows its answer
        moved.add(answer.id)
    if not moved:
        return items, 0
    return rescore(items[: len(evidence)], moved, "answer"), len(moved)
