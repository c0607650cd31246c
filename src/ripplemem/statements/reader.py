"""The clauses of memory units, parsed once per process and kept in a bounded cache.

A restatement holds the words of its first participant unless a ``"<Name> said:"`` (``asked``,
``answered``) prefix gives another speaker; each speaker's words are parsed apart, so "Tom asked:
... Maya said: ..." gives Tom's clauses and Maya's.

A restatement names its speaker where they said "I" ("Raj drives a 2012 Ford Focus"), and a
tagger reads a name it has not seen by its context: "Raj drives ..." comes out as an adverb before
a verb, "Rory lives in Galway" as an adjective before the noun "lives", and the clause loses its
subject. The participants' names are therefore parsed as names the tagger knows (:data:`STAND_INS`,
one per participant, none that the words already hold) and read back as the participants'.

The parse is English (spaCy's ``en_core_web_sm``): the words of a speaker in another language
(:func:`~ripplemem.language.language_of`: "J'ai un chat qui s'appelle Minou.", "我养了一只猫")
are not parsed and state nothing, as the restatement keeps them as said. Read with English
grammar they gave clauses all the same ("J'ai" a subject, "Minou" a value), which made units of
different things one speaker's values of one thing to order by when they were said.

A speaker's words that open with a verbless heading ("Correction: my flight is on Saturday",
"Sorry, typo earlier - my brother is called John") are read from the parse of the clause after
it (:func:`heading`): parsed whole, the parse may take the heading for the subject.

The write path and the read path share one reader (:class:`~ripplemem.components.Components`),
so a unit parsed as a new memory is not parsed again when a search reads it.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

import numpy as np

from ripplemem.language import language_of
from ripplemem.records import MemoryUnit, normalise_cue
from ripplemem.statements.answers import affirms, declarative, fragment
from ripplemem.statements.clauses import Clause, Parse, clauses_of
from ripplemem.statements.kept import KeptParses

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")

_PREFIX = re.compile(r"(?:^|(?<=[.!?] ))([A-Z][\w'’-]*(?: [A-Z][\w'’-]*)?) (?:said|asked|answered):\s*")


#: names the tagger knows as names, parsed in place of the participants' (see the module doc)
STAND_INS = ("John", "Mary", "David", "Sarah", "Peter", "Emma", "James", "Anna")


def stand_ins(text: str, people: Sequence[str]) -> dict[str, str]:
    """A stand-in for each participant of ``people`` that ``text`` names (one word, letters
    only), none of them a word of ``text``."""
    taken = {w.casefold() for w in re.findall(r"[\w'’-]+", text)}
    free = [n for n in STAND_INS if n.casefold() not in taken]
    found: dict[str, str] = {}
    for person in dict.fromkeys(people):
        if not free:
            break
        if person.isalpha() and person.casefold() in taken and person[:1].isupper():
            found[person] = free.pop(0)
    return found


def _swap(text: str, names: dict[str, str]) -> str:
    for name, other in names.items():
        text = re.sub(rf"(?<![\w'’-]){re.escape(name)}(?![\w-])", other, text)
    return text


def _back(clause: Clause, names: dict[str, str]) -> Clause:
    """``clause`` read from a text with stand-ins, with the participants' names again."""
    folded = {normalise_cue(other): normalise_cue(name) for name, other in names.items()}

    def words(found: frozenset[str]) -> frozenset[str]:
        return frozenset(folded.get(w, w) for w in found)

    return replace(
        clause,
        subject=folded.get(clause.subject, clause.subject),
        subject_words=words(clause.subject_words),
        object_words=words(clause.object_words),
        places=tuple((place, words(found)) for place, found in clause.places),
        named=words(clause.named),
        text=_swap(clause.text, {other: name for name, other in names.items()}),
    )


def speaker_parts(text: str, speaker: str) -> list[tuple[str, str]]:
    """``(speaker, words)`` pieces of a restatement; unprefixed words are ``speaker``'s."""
    parts: list[tuple[str, str]] = []
    current, start = speaker, 0
    for match in _PREFIX.finditer(text):
        if match.start() > start:
            parts.append((current, text[start : match.start()]))
        current, start = match.group(1), match.end()
    parts.append((current, text[start:]))
    return [(who, words.strip()) for who, words in parts if words.strip()]


class StatementReader:
    """``clauses(units)``: each unit's clauses, with one call of ``parse`` for the units not
    cached yet and not parsed before (``kept``: the parses the store keeps,
    :mod:`ripplemem.statements.kept`); ``parses(units)``: the kept form of each unit's parse,
    for the write path to store; ``vectors(texts, embed)``: the vectors of clause words, with
    one call of ``embed`` for the texts not cached yet. Thread-safe; each cache keeps the last
    ``cache_size`` entries."""

    def __init__(self, parse: Parse, *, cache_size: int = 20_000, kept: KeptParses | None = None) -> None:
        self.parse = parse
        self.kept = kept
        self.cache_size = cache_size
        self.parsed = 0  # texts sent to the parser (a measure of the work done)
        self._cache: OrderedDict[tuple[str, str, str], list[Clause]] = OrderedDict()
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def vectors(self, texts: Sequence[str], embed: Callable[[list[str]], np.ndarray]) -> list[np.ndarray]:
        return self._through(self._vectors, list(texts), {t: t for t in texts}, lambda todo: list(embed(todo)))

    def clauses(self, units: Sequence[MemoryUnit]) -> list[list[Clause]]:
        keys = [(u.namespace, u.id, u.restatement) for u in units]
        return self._through(self._cache, keys, dict(zip(keys, units, strict=True)), self._read_kept)

    def parses(self, units: Sequence[MemoryUnit]) -> dict[str, bytes]:
        """Each unit's parse as the store keeps it (none without ``kept``), parsing the units
        (their clauses are cached as :meth:`clauses` caches them)."""
        if self.kept is None or not units:
            return {}
        docs: list[dict[str, Any]] = [{} for _ in units]
        read = self._read(units, [{} for _ in units], docs)
        with self._lock:
            self._keep(self._cache, {(u.namespace, u.id, u.restatement): c for u, c in zip(units, read, strict=True)})
        return {unit.id: self.kept.encode(found) for unit, found in zip(units, docs, strict=True)}

    def _through(self, cache: OrderedDict[K, V], keys: list[K], items: dict[K, T],
                 make: Callable[[list[T]], list[V]]) -> list[V]:
        """The cached values of ``keys``, made with one call of ``make`` for those not cached
        (``items``: what each key's value is made from); the cache keeps its last entries."""
        with self._lock:
            todo = {k: items[k] for k in keys if k not in cache}
        made = make(list(todo.values())) if todo else []
        with self._lock:
            self._keep(cache, dict(zip(todo, made, strict=True)))
            found = []
            for key in keys:
                cache.move_to_end(key)
                found.append(cache[key])
            self._keep(cache, {})
        return found

    def _keep(self, cache: OrderedDict[K, V], new: dict[K, V]) -> None:
        """``new`` into ``cache`` as its latest entries, the oldest dropped past ``cache_size``
        (the caller holds the lock)."""
        for key, value in new.items():
            cache[key] = value
            cache.move_to_end(key)
        while len(cache) > self.cache_size:
            cache.popitem(last=False)

    def _read_kept(self, units: Sequence[MemoryUnit]) -> list[list[Clause]]:
        """The clauses of ``units``, read from their kept parses where the store has them."""
        kept: dict[tuple[str, str], dict[str, Any]] = {}
        if self.kept is not None:
            spaces: dict[str, list[str]] = {}
            for unit in units:
                spaces.setdefault(unit.namespace, []).append(unit.id)
            for namespace, ids in spaces.items():
                for unit_id, docs in self.kept.docs(namespace, ids).items():
                    kept[(namespace, unit_id)] = docs
        return self._read(units, [kept.get((u.namespace, u.id), {}) for u in units])

    def _docs(self, texts: Sequence[str], owners: Sequence[int], kept: Sequence[dict[str, Any]],
              made: list[dict[str, Any]] | None) -> list[Any]:
        """The docs of ``texts`` (``owners``: the unit each is of): its unit's kept doc of that
        text, else parsed (one call); ``made`` collects each unit's docs."""
        docs: list[Any] = [kept[o].get(t) for t, o in zip(texts, owners, strict=True)]
        todo = [i for i, doc in enumerate(docs) if doc is None]
        if todo:
            for i, doc in zip(todo, self.parse([texts[i] for i in todo]), strict=True):
                docs[i] = doc
            self.parsed += len(todo)
        if made is not None:
            for text, owner, doc in zip(texts, owners, docs, strict=True):
                made[owner][text] = doc
        return docs

    def _headings_off(self, texts: Sequence[str], docs: list[Any], owners: Sequence[int],
                      kept: Sequence[dict[str, Any]], made: list[dict[str, Any]] | None) -> None:
        """Each of ``docs`` whose text opens with a verbless heading (:func:`heading`:
        "Correction: my flight is on Saturday", "Sorry, typo earlier - my brother is called
        John") replaced by the parse of the words after it, when those are a clause with a
        subject of its own: the heading says how to take the sentence, not what it states, and
        parsed with it the parse may take the heading for the subject ("Correction ... is")."""
        found = [(n, split) for n, text in enumerate(texts) if (split := heading(text)) is not None]
        if not found:
            return
        parsed = self._docs(
            [part for _, split in found for part in split], [owners[n] for n, _ in found for _ in (0, 1)], kept, made
        )
        for (n, _), head, rest in zip(found, parsed[0::2], parsed[1::2], strict=True):
            if verbless(head) and has_subject(rest):
                docs[n] = rest

    def _read(self, units: Sequence[MemoryUnit], kept: Sequence[dict[str, Any]],
              made: list[dict[str, Any]] | None = None) -> list[list[Clause]]:
        pieces: list[tuple[int, str, str, tuple[str, ...]]] = []
        for index, unit in enumerate(units):
            speaker = unit.participants[0] if unit.participants else ""
            for who, words in speaker_parts(unit.restatement, speaker):
                if language_of(words) == "en":  # the parse is English: another language's
                    pieces.append((index, who, words, unit.participants))  # words state nothing
        names = [stand_ins(words, (who, *people)) for _, who, words, people in pieces]
        texts = [_swap(words, n) for (_, _, words, _), n in zip(pieces, names, strict=True)]
        docs = self._docs(texts, [p[0] for p in pieces], kept, made) if pieces else []
        self._headings_off(texts, docs, [p[0] for p in pieces], kept, made)
        out: list[list[Clause]] = [[] for _ in units]
        for (index, who, _, people), doc, n in zip(pieces, docs, names, strict=True):
            out[index].extend(_read_as(doc, who, people, n))
        # a short answer with its question: what the answerer asserts (statements.answers)
        said: list[tuple[int, str, str, tuple[str, ...]]] = []
        for (index, asker, asked, people), (after, who, reply, _), question, answer, n in zip(
            pieces, pieces[1:], docs, docs[1:], names, strict=False
        ):
            if after != index or who == asker or not asked.rstrip().endswith("?"):
                continue
            if affirms(reply):  # "Yes, since May.": the question as asked
                text = declarative(question)
            else:  # "At the Guardian now.": in the place of the question word
                text = declarative(question, reply) if fragment(answer) else None
            if text:  # in the names the question was said with
                said.append((index, who, _swap(text, {o: name for name, o in n.items()}), people))
        if said:
            names = [stand_ins(t, (who, *people)) for _, who, t, people in said]
            texts = [_swap(t, n) for (_, _, t, _), n in zip(said, names, strict=True)]
            docs = self._docs(texts, [s[0] for s in said], kept, made)
            for (index, who, _, people), doc, n in zip(said, docs, names, strict=True):
                out[index].extend(_read_as(doc, who, people, n))
        return out


#: words that may head a sentence, ended by a colon (not a time's, "3:30") or a spaced dash
_HEADING = re.compile(r"^(?P<head>[^:;.!?\n]{1,60}?)\s*(?::(?!\d)|\s[-–—]\s)\s*(?=\S)")
#: the most words a heading has
_HEADING_WORDS = 6


def heading(text: str) -> tuple[str, str] | None:
    """``text`` as (the words that may head it, the rest): words of at most
    :data:`_HEADING_WORDS` ended by a colon or a spaced dash ("Correction:", "Sorry, typo
    earlier -"), then more words; None without."""
    match = _HEADING.match(text)
    if match is None or len(match.group("head").split()) > _HEADING_WORDS:
        return None
    rest = text[match.end():].strip()
    return (match.group("head"), rest) if rest else None


def verbless(doc: Any) -> bool:
    """A heading: its root is no verb ("Correction", "Big news", "Sorry, typo earlier",
    "Correction to what I said"; not "I have one rule", "Here's the thing")."""
    return all(sentence.root.pos_ not in ("VERB", "AUX") for sentence in doc.sents)


def has_subject(doc: Any) -> bool:
    """A clause with a subject of its own: its first sentence's root has one ("my flight is on
    Saturday"; not "move to Leeds next year", whose heading, "My plan", says what it is)."""
    root = next(iter(doc.sents)).root
    return any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in root.children)


def _read_as(doc: Any, who: str, people: Sequence[str], names: dict[str, str]) -> list[Clause]:
    """The clauses of ``doc`` (parsed with ``names``' stand-ins) as ``who``'s, names restored."""
    if not names:
        return clauses_of(doc, who, people)
    found = clauses_of(doc, names.get(who, who), [names.get(p, p) for p in people])
    mine = normalise_cue(who)
    return [replace(_back(c, names), speaker=mine) for c in found]
