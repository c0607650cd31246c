"""The clauses of memory units, parsed once per process and kept in a bounded cache.

A restatement holds the words of its first participant unless a ``"<Name> said:"`` (``asked``,
``answered``) prefix gives another speaker; each speaker's words are parsed apart, so "Tom asked:
... Maya said: ..." gives Tom's clauses and Maya's. The write path and the read path share one
reader (:class:`~ripplemem.components.Components`), so a unit parsed as a new memory is not
parsed again when a search reads it.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

import numpy as np

from ripplemem.records import MemoryUnit
from ripplemem.statements.clauses import Clause, Parse, clauses_of

_PREFIX = re.compile(r"(?:^|(?<=[.!?] ))([A-Z][\w'’-]*(?: [A-Z][\w'’-]*)?) (?:said|asked|answered):\s*")


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
    cached yet; ``vectors(texts, embed)``: the vectors of clause words, with one call of
    ``embed`` for the texts not cached yet. Thread-safe; each cache keeps the last
    ``cache_size`` entries."""

    def __init__(self, parse: Parse, *, cache_size: int = 20_000) -> None:
        self.parse = parse
        self.cache_size = cache_size
        self.parsed = 0  # texts sent to the parser (a measure of the work done)
        self._cache: OrderedDict[tuple[str, str, str], list[Clause]] = OrderedDict()
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def vectors(self, texts: Sequence[str], embed: Callable[[list[str]], np.ndarray]) -> list[np.ndarray]:
        with self._lock:
            todo = list(dict.fromkeys(t for t in texts if t not in self._vectors))
        made = list(embed(todo)) if todo else []
        with self._lock:
            for text, vector in zip(todo, made, strict=True):
                self._vectors[text] = vector
            found = []
            for text in texts:
                self._vectors.move_to_end(text)
                found.append(self._vectors[text])
            while len(self._vectors) > self.cache_size:
                self._vectors.popitem(last=False)
        return found

    def clauses(self, units: Sequence[MemoryUnit]) -> list[list[Clause]]:
        keys = [(u.namespace, u.id, u.restatement) for u in units]
        with self._lock:
            todo = {k: u for k, u in zip(keys, units, strict=True) if k not in self._cache}
        read = self._read(list(todo.values())) if todo else []
        with self._lock:
            for key, clauses in zip(todo, read, strict=True):
                self._cache[key] = clauses
            found = []
            for key in keys:
                self._cache.move_to_end(key)
                found.append(self._cache[key])
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return found

    def _read(self, units: Sequence[MemoryUnit]) -> list[list[Clause]]:
        pieces: list[tuple[int, str, str, tuple[str, ...]]] = []
        for index, unit in enumerate(units):
            speaker = unit.participants[0] if unit.participants else ""
            for who, words in speaker_parts(unit.restatement, speaker):
                pieces.append((index, who, words, unit.participants))
        docs = self.parse([words for _, _, words, _ in pieces]) if pieces else []
        self.parsed += len(pieces)
        out: list[list[Clause]] = [[] for _ in units]
        for (index, who, _, people), doc in zip(pieces, docs, strict=True):
            out[index].extend(clauses_of(doc, who, people))
        return out
