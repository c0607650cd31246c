"""Stage: the answer takes its question's place.

A question one person asks another ("Sam asked: Still doing jiu-jitsu then?", or a turn that
ends or goes on after one: "We're going camping next month. Any fun plans for the summer?")
shares the words of a question about the same thing and often ranks near the top, yet it
answers nothing: the answer is the other person's next turn (a question and its answer are an
adjacency pair of conversation analysis, Schegloff & Sacks 1973), worded unlike the question
and ranked far below. :func:`answers_follow` puts, for each unit among the first ``depth`` of
the ranking that asks (:func:`asks`), about something the query asks about too (a word they
share other than a name), the unit of the next turn of the same session said by someone else in
the question's place, the question right after it, when that turn ranks lower (or not at all):
the answer holds what was said, the question is its context. Only people's answers come up: an assistant's reply to a person's
request is not a memory of the person. The budget is kept (a unit pulled in pushes the
last one out), and every moved unit takes the score of its place
(:func:`~ripplemem.read.rank.rescore`, term ``answer``).

An offer, an invitation or a request is a first pair part too (offer and acceptance or refusal,
request and grant or refusal): put to the speaker and told by them ("Ines's firm offered Ines a
transfer to Zurich", "Yara got an offer from a fintech", "the landlord asked if we'd renew at
1200"), or put by the speaker to the other ("You could take our spare room in Camden", "Luca could
get you a few lessons cheap"). It names the value on offer, which the question may name, and
asserts that someone offered, not that the value came to be; what came of it is the offeree's
next turn ("I said no, Lisbon is home", "Signed the contract this morning"), whether it takes
or refuses. :func:`offered` tells the two by their grammar: the speaker as the object of a verb
of offering, inviting or asking, or as the one who got or was given an offer or an invitation;
"you" (or another participant) as the subject of a modal of proposal or advice ("you could",
"you should") or as the one a modal offer gives to ("could get you"). For such a unit among the
first ``depth`` that weighs what the query asks about, :func:`answers_follow` puts the offeree's
next turn of the session in the place of the offer or the reaction between them (the speaker's
own next turn, after the other's reaction or straight after; the other's reply), as it does for
a question of what to do.

A short answer the write path keeps with its question ("Sam asked: Where does Maya live these
days? Maya answered: In Leeds, near the station.") is a unit of its own beside the unit of the
bare question ("Sam asked: Where does Maya live these days?"), which shares the query's words
as well or better and asserts nothing. :func:`exchanges_follow` (run first) puts, for every
question in the evidence that only asks (:func:`only_asks`), the unit of the same exchange that
holds its answer (:func:`holds_answer`) in the question's place when it ranks lower or not at
all, at any depth and whatever the query: the exchange holds the question's own words, so no
query can want the question and not its answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Literal

from ripplemem.read.focus import users_statement
from ripplemem.read.rank import rescore
from ripplemem.read.speech_acts import speech_act
from ripplemem.records import Evidence, ExpansionPath, Hit, MemoryUnit
from ripplemem.statements.clauses import NON_FACTUAL_FORMS
from ripplemem.stores.base import MemoryStore
from ripplemem.stores.text import terms

#: a word written with a capital inside a sentence: a name
_NAME = re.compile(r"(?<=[\w,;:'’\"] )[A-Z][\w'’-]*")
#: a word written in lower case
_LOWER = re.compile(r"(?<![\w'’-])[a-z][\w'’-]*")


def asks_about(query: str, unit: MemoryUnit) -> bool:
    """The unit shares a word of the query's other than a name (a word the query capitalises
    inside it and the unit does not write in lower case): "Sam asked: Still doing jiu-jitsu
    then?" asks about what "Which gym does Leo train jiu-jitsu at?" asks; "How's Pickle? Still
    terrorising the postman?" shares only the name with "How has Pickle's food changed?" (every
    memory of Pickle names him); "Did you hear back about the marathon?" shares a word with "Did
    Hamid run the London Marathon?" (a title's word the unit says as a common one)."""
    common = {t for word in _LOWER.findall(unit.restatement) for t in terms(word)}
    return _shares(query, unit, {t for word in _NAME.findall(query) for t in terms(word)} - common)


def weighs(query: str, unit: MemoryUnit) -> bool:
    """A question of what to do weighs what the query asks about: they share a word other than
    the name of one who speaks in it, a name included ("Should we move to Leeds?" for "Does Tess
    live in Leeds?": the value weighed is the question's topic)."""
    return _shares(query, unit, {t for name in unit.speakers for t in terms(name)})


def _shares(query: str, unit: MemoryUnit, besides: set[str]) -> bool:
    """The unit's words hold a term of the query's other than ``besides``."""
    return bool((set(terms(query)) - besides) & set(terms(unit.restatement)))


def only_asks(unit: MemoryUnit) -> bool:
    """A unit that only asks another speaker something ("Tom asked: Any news?")."""
    text = unit.restatement.rstrip()
    return text.endswith("?") and " asked: " in f" {text}" and " answered: " not in text


#: a sentence's end: after it, the next sentence
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def asks(unit: MemoryUnit) -> bool:
    """A person's words that ask the other speaker something, whatever else they say: a
    question of its own ("Tom asked: Any news?") or a sentence of the turn that is one ("We're
    going camping next month. Any fun plans for the summer?"; "Cool that you paint. Got any
    paintings to show? I'd love to see them."); not a question kept with its answer."""
    if only_asks(unit):
        return True
    text = unit.restatement
    return (
        "?" in text and " answered: " not in text and users_statement(unit)
        and any(sentence.rstrip().endswith("?") for sentence in SENTENCE_END.split(text))
    )


#: a sentence (or a clause after a colon) that opens with "should": a yes-or-no question of
#: what to do; the words after it, up to the question mark
_SHOULD = re.compile(r"(?:^|[.!?:;]\s+)(?:\w+,\s+)?should\s+([^.!?]*)\?", re.IGNORECASE)


def deliberates(unit: MemoryUnit) -> bool:
    """A person's question whether they should do something, in words that report nothing:
    "Should Omar try getting up at 5 instead?", "Quick question first: should Daniel ask about
    going up to 150mg?" (the asker, or "we", right after "should"); not "Ron has just been
    diagnosed. Should we move him?" (a report holds a value of its own:
    :func:`~ripplemem.read.speech_acts.speech_act`) nor "festivals that I should check out?"."""
    text = unit.restatement
    if "?" not in text or not users_statement(unit):
        return False
    askers = {s.casefold() for s in unit.speakers} | {"we", "i"}
    doing = [m.group(1).split(maxsplit=1) for m in _SHOULD.finditer(text)]
    return any(words and words[0].casefold() in askers for words in doing) and speech_act(text) != "report"


Offered = Literal["to speaker", "to other"]

#: a verb of offering, inviting or asking with its object right after it ("offered Ines",
#: "asked Ben to"), "me" restated as the speaker's name
_OFFERING = r"(?:offer(?:s|ed)?|invit(?:es|ed)|ask(?:s|ed)|want(?:s|ed)|urg(?:es|ed)|beg(?:s|ged)|press(?:es|ed))"
#: a noun of offer or invitation got or had ("got an offer", "had a job offer", "received an invitation")
_GOT = r"(?:got|gets|had|has|have|received|'s\s+had|has\s+had)\s+(?:an?\s+|the\s+|another\s+)?(?:[\w-]+\s+){0,2}?(?:offer|invitation|invite)s?\b"
#: a passive of offering, inviting or asking ("was offered", "'s been asked")
_GIVEN = r"(?:was|were|is|are|got|been|'s\s+been|has\s+been|have\s+been)\s+(?:\w+ly\s+)?(?:offered|invited|asked)\b"
#: a modal of proposal or advice with the addressee as subject ("you could", "you should")
_PROPOSAL = r"(?:could|can|should|might|ought\s+to|must|'d\s+better)"
#: a modal offer that gives to the addressee ("could get you", "can lend Olu")
_GIVING = r"(?:could|can|would|will|'ll|'d)\s+(?:\w+\s+)?(?:give|get|lend|sell|offer|teach|show|find|send|bring|sort)"


#: a verb of wishing or hoping before a modal in its sentence (the statement reader's
#: non-factual verbs, in any form): what follows is wished, not offered ("Evan wishes Evan could
#: bring Sam along")
_WISHED = re.compile(r"\b(?:" + "|".join(sorted(NON_FACTUAL_FORMS)) + r")\b", re.IGNORECASE)


@lru_cache(maxsize=4096)
def _offer_forms(speaker: str, others: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The forms of an offer put to ``speaker`` and of one put by them to the addressee ("you"
    or one of ``others``, as the restatement names them)."""
    me = re.escape(speaker)
    you = "|".join(["you", *(re.escape(o) for o in others)])
    to_speaker = re.compile(
        rf"\b{_OFFERING}\s+{me}\b(?!['’]s\b)|\b{me}\s+(?:(?:just|finally|also|even|actually)\s+)?(?:{_GOT}|{_GIVEN})"
        rf"|\basked\s+(?:if|whether)\s+(?:{me}|we)\b",
        re.IGNORECASE,
    )
    to_other = re.compile(
        rf"\b(?:{you})\s+{_PROPOSAL}\s+\w|\b{_GIVING}\s+(?:{you})\b|\b(?:offer(?:s|ed)?|invit(?:e|es|ed))\s+(?:{you})\b",
        re.IGNORECASE,
    )
    return to_speaker, to_other


def offered(unit: MemoryUnit) -> Offered | None:
    """Whether a person's unit of one speaker puts an offer, an invitation or a request to that
    speaker ("Ines's firm offered Ines a transfer", "Yara got an offer from a fintech", "the
    landlord asked if we'd renew") or from them to the other ("You could take our spare room",
    "Luca could get you a few lessons cheap"), in a statement (a question is one already: :func:`asks`)."""
    if len(unit.speakers) != 1 or not users_statement(unit) or unit.restatement.rstrip().endswith("?"):
        return None
    speaker = unit.speakers[0]
    others = tuple(sorted(p for p in unit.participants if p.casefold() != speaker.casefold() and p[:1].isupper()))
    to_speaker, to_other = _offer_forms(speaker, others)
    said = unit.restatement.split(" said: ", 1)[-1]
    if to_speaker.search(said):
        return "to speaker"
    found = to_other.search(said)
    if found is not None and not _WISHED.search(said[: found.start()].rsplit(".", 1)[-1]):
        return "to other"
    return None


def _turn(question: MemoryUnit, units: Sequence[MemoryUnit], offset: int) -> list[MemoryUnit]:
    at = question.extra.get("turn_index")
    if at is None:
        return []
    return [u for u in units if u.episode_id == question.episode_id and u.extra.get("turn_index") == at + offset]


def _best(found: Sequence[MemoryUnit], rank: dict[str, int]) -> MemoryUnit | None:
    """The best-ranked of ``found``, else its first said."""
    return min(found, key=lambda u: (rank.get(u.id, len(rank)), u.created_at, u.id)) if found else None


def _answer(question: MemoryUnit, units: Sequence[MemoryUnit], rank: dict[str, int]) -> MemoryUnit | None:
    """The unit of the turn right after ``question`` in its session, said by a person other than
    the one who asks (its best-ranked piece, else its first)."""
    asker = set(question.speakers)
    return _best(
        [u for u in _turn(question, units, 1) if users_statement(u) and u.speakers and not set(u.speakers) & asker],
        rank,
    )


def _uptake(
    question: MemoryUnit, units: Sequence[MemoryUnit], rank: dict[str, int]
) -> tuple[MemoryUnit | None, list[MemoryUnit]]:
    """For a question of what to do: the asker's own turn after the reply (the third position:
    what they decided, whoever advised), else the other person's reply (a proposal put to
    them); and the reply."""
    reply = _turn(question, units, 1)
    asker = set(question.speakers)
    if reply and not any(asker & set(u.speakers) for u in reply):
        decided = _best([u for u in _turn(question, units, 2) if asker & set(u.speakers)], rank)
        if decided is not None:
            return decided, reply
    return _answer(question, units, rank), []


def _taken_up(
    offer: MemoryUnit, units: Sequence[MemoryUnit], rank: dict[str, int], kind: Offered
) -> tuple[MemoryUnit | None, list[MemoryUnit]]:
    """What the offeree said next: for an offer put to the speaker, their own next turn (straight
    after, or after the other's reaction: then that reaction too); for one put by the speaker,
    the other's reply."""
    if kind == "to other":
        return _answer(offer, units, rank), []
    speaker = set(offer.speakers)
    following = [u for u in _turn(offer, units, 1) if users_statement(u)]
    own = [u for u in following if speaker & set(u.speakers)]
    if own:
        return _best(own, rank), []
    if following:
        return _best([u for u in _turn(offer, units, 2) if users_statement(u) and speaker & set(u.speakers)], rank), following
    return None, []


def _asked(text: str) -> str:
    """The words a question unit restates after its asker ("Where does Maya live?" of "Sam asked:
    Where does Maya live?"), its last sentence."""
    said = text.split(" asked: ", 1)[-1].strip()
    return SENTENCE_END.split(said)[-1]


def holds_answer(unit: MemoryUnit, question: MemoryUnit) -> bool:
    """``unit`` is the exchange ``question`` opens, kept with the answer it got: the same
    session, the question's turns and a later one, the question's last sentence before the
    answer ("Sam asked: Where does Maya live these days? Maya answered: In Leeds." for "Sam
    asked: Where does Maya live these days?")."""
    if unit.id == question.id or unit.episode_id != question.episode_id or " answered: " not in unit.restatement:
        return False
    turns = set(question.turn_ids)
    if not turns or not turns < set(unit.turn_ids):
        return False
    asked = _asked(question.restatement)
    return bool(asked) and asked in unit.restatement.split(" answered: ", 1)[0]


def exchanges_follow(
    evidence: Sequence[Evidence], *, store: MemoryStore, namespace: str
) -> tuple[list[Evidence], set[str], int]:
    """``evidence`` with, for each unit that only asks (:func:`only_asks`), the unit of its
    exchange that holds the answer (:func:`holds_answer`: one of the evidence or of the
    question's structural neighbours) in the question's place, the question right after it, when
    the exchange ranks lower or not at all; the budget is kept. Also the ids of the questions
    whose exchange now ranks above them, and how many exchanges moved."""
    items = list(evidence)
    asking = [e.unit for e in items if only_asks(e.unit)]
    if not asking:
        return items, set(), 0
    present = {e.unit.id: e.unit for e in items}
    linked = store.neighbours(namespace, [u.id for u in asking], "structural")
    wanted = sorted({n for u in asking for n, _ in linked.get(u.id, ())} - set(present))
    units = [*present.values(), *(store.get_units(namespace, wanted) if wanted else ())]
    moved: set[str] = set()
    answered: set[str] = set()
    for question in asking:
        rank = {e.unit.id: n for n, e in enumerate(items)}
        exchange = _best([u for u in units if holds_answer(u, question)], rank)
        if exchange is None:
            continue
        here = rank[question.id]
        if exchange.id in rank and rank[exchange.id] < here:
            answered.add(question.id)  # already above its question
            continue
        if exchange.id in moved:
            continue
        if exchange.id in rank:
            entry = items.pop(rank[exchange.id])
        else:
            weight = next((w for n, w in linked.get(question.id, ()) if n == exchange.id), 1.0)
            path = ExpansionPath(question.id, "structural", (question.id, exchange.id), float(weight), 0.0)
            entry = Evidence(exchange, items[here].score, (Hit("context", 0, float(weight)),), paths=(path,))
        items.insert(here, entry)  # the question follows the exchange that answers it
        moved.add(exchange.id)
        answered.add(question.id)
    if not moved:
        return items, answered, 0
    return rescore(items[: len(evidence)], moved, "answer"), answered, len(moved)


def answers_follow(
    evidence: Sequence[Evidence], *, query: str, store: MemoryStore, namespace: str, depth: int
) -> tuple[list[Evidence], int]:
    """``evidence`` with the answer of each question of its first ``depth`` that asks about what
    ``query`` asks (:func:`asks_about`) in that question's place, the question right after it
    (see the module doc), and how many answers moved. First the exchange that holds a question's
    answer takes the place of that question, wherever it ranks (:func:`exchanges_follow`)."""
    items, held, exchanged = exchanges_follow(evidence, store=store, namespace=namespace)
    weighing = {e.unit.id for e in items[:depth] if deliberates(e.unit) and weighs(query, e.unit)}
    offers = {
        e.unit.id: kind for e in items[:depth]
        if e.unit.id not in held and e.unit.id not in weighing and (kind := offered(e.unit)) is not None
        and weighs(query, e.unit)
    }
    asking = [
        e.unit for e in items[:depth]
        if e.unit.id not in held and (
            e.unit.id in weighing or e.unit.id in offers or (asks(e.unit) and asks_about(query, e.unit))
        )
    ]
    if not asking:
        return items, exchanged
    linked = store.neighbours(namespace, [u.id for u in asking], "structural")
    near = {u.id: {n for n, _ in linked.get(u.id, ())} for u in asking}
    wanted = sorted(set().union(*near.values()))
    if not wanted:
        return items, exchanged
    units = store.get_units(namespace, wanted)
    deliberate = [u for u in asking if u.id in weighing or offers.get(u.id) == "to speaker"]
    if deliberate:  # the asker's (offeree's) turn after the reply: two dialogue steps away
        steps = {u.id for u in units if any(u in _turn(q, units, 1) for q in deliberate)}
        further = store.neighbours(namespace, sorted(steps), "structural")
        for question in deliberate:
            near[question.id] |= {n for s in steps for n, _ in further.get(s, ()) if s in near[question.id]}
        more = sorted(set().union(*near.values()) - set(wanted))
        units = [*units, *store.get_units(namespace, more)] if more else units
    moved: set[str] = set()
    for question in asking:
        rank = {e.unit.id: n for n, e in enumerate(items)}
        around = [u for u in units if u.id in near[question.id]]
        if question.id in offers:
            answer, advice = _taken_up(question, around, rank, offers[question.id])
        elif question.id in weighing:
            answer, advice = _uptake(question, around, rank)
        else:
            answer, advice = _answer(question, around, rank), []
        if answer is None or answer.id in moved:
            continue
        # the outcome takes the place of the sequence's best-ranked unit: the question or its advice
        here = min(rank[u.id] for u in [question, *advice] if u.id in rank)
        if answer.id in rank:
            if rank[answer.id] < here:
                continue
            entry = items.pop(rank[answer.id])
        else:
            # the answer's dialogue edge from the question, or through the advice (each 1.0)
            weight = next((w for n, w in linked.get(question.id, ()) if n == answer.id), 1.0)
            via = tuple(u.id for u in advice[:1] if answer.id not in {n for n, _ in linked.get(question.id, ())})
            path = ExpansionPath(question.id, "structural", (question.id, *via, answer.id), float(weight), 0.0)
            entry = Evidence(answer, items[here].score, (Hit("context", 0, float(weight)),), paths=(path,))
        items.insert(here, entry)  # the question follows its answer
        moved.add(answer.id)
    if not moved:
        return items, exchanged
    return rescore(items[: len(evidence)], moved, "answer"), exchanged + len(moved)
