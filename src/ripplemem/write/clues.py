"""Stage: build the AssoMem clue–utterance graph for freshly stored units (reference §2).

Per session of the new units: the session keeps the clue it already has; else its clue text is
written (an LLM's one-sentence topic summary with :class:`LLMClues`, the session's salient
keyphrases with :class:`KeyphraseClues`), embedded, and merged into the nearest existing clue when
their cosine is >= ``clue_merge_threshold`` (δ = 0.65, greedy: the older clue keeps its text and
vector), else stored as a new clue. Each unit (utterance node) is attached to its session's clue
with weight ``max(cos(unit, clue), MIN_MEMBER_WEIGHT)``.

Utterance–utterance links: for each new unit, its ``utterance_link_neighbours`` nearest units
(``store.search_dense_many``: bounded kNN, never all pairs) with cosine >=
``utterance_link_threshold`` (γ = 0.75); in the write pipeline that search is the one the linker
makes too (:mod:`ripplemem.write.near`). Per added session the work is one clue embedding, one
clue search and one kNN search per unit — it does not grow with the number of sessions already
stored (beyond the store's own dense search, which is HNSW above its ANN threshold).
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ripplemem.errors import InvalidModelOutputError
from ripplemem.providers.base import ChatModel, Embedder
from ripplemem.providers.structured import complete_structured
from ripplemem.records import Clue, ClueSource, Membership, MemoryUnit
from ripplemem.settings import WriteSettings
from ripplemem.stores.base import MemoryStore
from ripplemem.stores.clues_base import ClueStore, Link
from ripplemem.stores.text import STOPWORDS
from ripplemem.write.near import NearNeighbours, near_neighbours
from ripplemem.write.prompts.clue import ClueResponse, clue_messages

MIN_MEMBER_WEIGHT = 0.05
KEYPHRASES = 8
_WORD = re.compile(r"[^\W\d_][^\W_]*(?:['’][^\W_]+)?")
_GENERIC = frozenset(
    """
    said says told asked thinks think thought really also just like going get got make made
    feel felt want wanted know knew lot lots things thing something time times good great
    went go goes try tried loved love liked ago yes yeah nice cool wow
    today yesterday tomorrow week weeks weekend weekends month months year years day days
    """.split()  # noqa: SIM905
)


class ClueWriter(Protocol):
    """Writes one session's clue text from the session's units."""

    @property
    def source(self) -> ClueSource: ...
    @property
    def tokens_used(self) -> int: ...  # LLM tokens spent so far (0 without a model)

    def clue_text(self, units: Sequence[MemoryUnit]) -> str: ...


class KeyphraseClues:
    """The deterministic clue: the session's most salient keyphrases, most frequent first.

    Salience: the units' extracted keywords count twice, locations once, and content words of
    the restatements once; ties keep first-seen order. People's names are left out: the same
    speakers talk in every session of a conversation, so names would make every clue alike
    (and merge them all at δ)."""

    source: ClueSource = "keyphrases"
    tokens_used: int = 0

    def __init__(self, limit: int = KEYPHRASES) -> None:
        self.limit = limit

    def clue_text(self, units: Sequence[MemoryUnit]) -> str:
        counts: Counter[str] = Counter()
        names = {_phrase(p) for u in units for p in u.participants}
        names |= {part for name in list(names) for part in name.split()}
        for unit in units:
            for keyword in map(_phrase, unit.keywords):
                if keyword not in _GENERIC and keyword not in STOPWORDS:
                    counts[keyword] += 2
            for place in unit.locations:
                counts[_phrase(place)] += 1
            for word in _WORD.findall(unit.restatement):
                folded = re.split(r"['’]", word.casefold(), maxsplit=1)[0]
                if len(folded) > 2 and folded not in STOPWORDS and folded not in _GENERIC:
                    counts[folded] += 1
        for name in (*names, ""):
            counts.pop(name, None)
        ranked = sorted(counts, key=lambda p: -counts[p])  # stable: first seen wins ties
        return ", ".join(ranked[: self.limit]) or (units[0].restatement if units else "")


class LLMClues:
    """The paper's clue: one LLM call per new session through structured output.

    A reply that never validates falls back to :class:`KeyphraseClues` for that session (counted
    in ``fallbacks``); provider errors propagate."""

    source: ClueSource = "llm"

    def __init__(self, chat: ChatModel, *, max_repairs: int = 1) -> None:
        self.chat, self.max_repairs = chat, max_repairs
        self.fallback = KeyphraseClues()
        self.tokens_used = 0
        self.fallbacks = 0

    def clue_text(self, units: Sequence[MemoryUnit]) -> str:
        when = next((u.session_time for u in units if u.session_time), None)
        messages = clue_messages([u.restatement for u in units], when)
        try:
            reply = complete_structured(
                self.chat, messages, ClueResponse, max_repairs=self.max_repairs
            )
        except InvalidModelOutputError:
            self.fallbacks += 1
            return self.fallback.clue_text(units)
        self.tokens_used += reply.tokens
        return reply.value.clue


@dataclass(slots=True)
class ClueReport:
    clues: int = 0  # new clue nodes
    merged: int = 0  # sessions merged into an existing clue
    members: int = 0
    links: int = 0


#: The clue text and vector of each (namespace, episode) that had no clue when its units were
#: prepared: written before the add's write block, so no model call waits inside it.
PreparedClues = dict[tuple[str, str], tuple[str, np.ndarray]]


def clue_id(namespace: str, episode_id: str) -> str:
    return "c" + hashlib.sha1(f"{namespace}\x00{episode_id}".encode()).hexdigest()[:15]


class ClueGraphBuilder:
    """Stage: ``build(units) -> ClueReport`` for units already in the store."""

    def __init__(
        self,
        store: MemoryStore,
        clues: ClueStore,
        embedder: Embedder,
        writer: ClueWriter,
        settings: WriteSettings | None = None,
    ) -> None:
        self.store, self.clues, self.embedder, self.writer = store, clues, embedder, writer
        self.settings = settings or WriteSettings()

    def prepare(
        self, units: Sequence[MemoryUnit], *, skip: set[tuple[str, str]] | frozenset = frozenset()
    ) -> PreparedClues:
        """The clue text and vector of each session of ``units`` that has no clue yet (and is
        not in ``skip``): the model work of :meth:`build`, done before any write."""
        prepared: PreparedClues = {}
        for (namespace, episode), members in _sessions(units).items():
            if (namespace, episode) in skip:
                continue
            if self.clues.clue_for_session(namespace, episode) is not None:
                continue
            text = self.writer.clue_text(members)
            prepared[(namespace, episode)] = (text, self._embed(text))
        return prepared

    def build(
        self,
        units: Sequence[MemoryUnit],
        near: NearNeighbours | None = None,
        prepared: PreparedClues | None = None,
    ) -> ClueReport:
        """Clues, memberships and utterance links of ``units`` (already stored); ``near``: their
        dense search, if already made; ``prepared``: clue texts written by :meth:`prepare`."""
        report = ClueReport()
        units = [u for u in units if u.vector is not None]
        for (namespace, episode), members in _sessions(units).items():
            written = (prepared or {}).get((namespace, episode))
            clue = self._session_clue(namespace, episode, members, report, written)
            attached = [
                Membership(
                    u.id,
                    clue.id,
                    max(float(np.dot(u.vector, clue.vector)), MIN_MEMBER_WEIGHT),  # type: ignore[arg-type]
                )
                for u in members
            ]
            self.clues.attach(namespace, attached)
            report.members += len(attached)
        for namespace in dict.fromkeys(u.namespace for u in units):
            links = self._links([u for u in units if u.namespace == namespace], near)
            self.clues.add_links(namespace, links)
            report.links += len(links)
        return report

    def _session_clue(
        self,
        namespace: str,
        episode: str,
        members: list[MemoryUnit],
        report: ClueReport,
        written: tuple[str, np.ndarray] | None,
    ) -> Clue:
        known = self.clues.clue_for_session(namespace, episode)
        if known is not None:
            found = self.clues.get_clues(namespace, [known])
            if found:
                return found[0]
        if written is None:
            text = self.writer.clue_text(members)
            written = (text, self._embed(text))
        text, vector = written
        nearest = self.clues.search_clues(namespace, vector, 1)
        if nearest and nearest[0][1] >= self.settings.clue_merge_threshold:
            self.clues.merge_session(namespace, nearest[0][0], episode)
            report.merged += 1
            return self.clues.get_clues(namespace, [nearest[0][0]])[0]
        clue = Clue(clue_id(namespace, episode), namespace, text, vector, self.writer.source)
        self.clues.add_clue(clue, episode)
        report.clues += 1
        return self.clues.get_clues(namespace, [clue.id])[0]

    def _embed(self, text: str) -> np.ndarray:
        return self.embedder.embed([text], input_type="document")[0]

    @property
    def near_query(self) -> tuple[int, float]:
        """The dense search the utterance links need per unit: (hits, itself included; min score)."""
        return self.settings.utterance_link_neighbours + 1, self.settings.utterance_link_threshold

    def _links(self, units: Sequence[MemoryUnit], near: NearNeighbours | None) -> list[Link]:
        """Utterance links from one batched kNN search (never all pairs)."""
        k, threshold = self.near_query
        if near is None:
            near = near_neighbours(self.store, units, k, threshold)
        found: dict[tuple[str, str], float] = {}
        for unit in units:
            for other, score in near.within(unit.id, k, threshold):
                found[(min(unit.id, other), max(unit.id, other))] = score
        return [(a, b, w) for (a, b), w in found.items()]


def _sessions(units: Sequence[MemoryUnit]) -> dict[tuple[str, str], list[MemoryUnit]]:
    """The units of each (namespace, episode), in order."""
    sessions: dict[tuple[str, str], list[MemoryUnit]] = {}
    for unit in units:
        sessions.setdefault((unit.namespace, unit.episode_id), []).append(unit)
    return sessions


def _phrase(text: str) -> str:
    return " ".join(text.casefold().split())
