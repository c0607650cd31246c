"""The in-memory inverted index of one namespace, searched with the bounded BM25 of
:mod:`ripplemem.stores.lexical` (the InMemoryStore's lexical view)."""

from __future__ import annotations

import heapq
import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet

from ripplemem.stores.lexical import (
    LEXICAL_POSTING_BUDGET,
    LEXICAL_RERANK_DEPTH,
    Candidate,
    LexicalPlan,
    finish,
    plan_query,
    term_weight,
)

__all__ = ["Postings"]


class Postings:
    """term -> {unit id: tf}, each unit's length and insertion order; not thread-safe."""

    def __init__(self) -> None:
        # each term's dict keeps its units in insertion order (= seq order): the latest are last
        self._postings: dict[str, dict[str, int]] = {}
        self._lengths: dict[str, int] = {}
        self._seqs: dict[str, int] = {}
        self._tokens = 0

    def add(self, unit_id: str, seq: int, terms: Sequence[str]) -> None:
        counts = Counter(terms)
        for term, tf in counts.items():
            self._postings.setdefault(term, {})[unit_id] = tf
        self._lengths[unit_id] = len(terms)
        self._seqs[unit_id] = seq
        self._tokens += len(terms)

    def remove(self, unit_id: str, terms: Sequence[str]) -> None:
        """Forget a unit indexed under ``terms``."""
        for term in set(terms):
            posting = self._postings[term]
            del posting[unit_id]
            if not posting:
                del self._postings[term]
        self._tokens -= self._lengths.pop(unit_id)
        del self._seqs[unit_id]

    def search(
        self,
        query: Sequence[str],
        k: int,
        *,
        budget: int = LEXICAL_POSTING_BUDGET,
        rerank_depth: int = LEXICAL_RERANK_DEPTH,
        allowed: AbstractSet[str] | None = None,
    ) -> list[tuple[str, float]]:
        """``allowed``: only these units are candidates (the statistics stay the namespace's)."""
        frequencies = {t: len(self._postings[t]) for t in query if t in self._postings}
        plan = plan_query(
            query, frequencies, len(self._lengths), self._tokens, k,
            budget=budget, rerank_depth=rerank_depth,
        )  # fmt: skip
        if plan is None:
            return []
        return finish(plan, self._candidates(plan, allowed), self._lookup, k)

    def _candidates(
        self, plan: LexicalPlan, allowed: AbstractSet[str] | None = None
    ) -> list[Candidate[str]]:
        """Units holding a retrieving term, best partial score first (ties: earliest added)."""
        scores: dict[str, float] = {}
        for query_term in plan.retrieving:
            posting = self._postings[query_term.term]
            items: Iterable[tuple[str, int]] = posting.items()
            if allowed is not None:
                items = [(i, tf) for i, tf in posting.items() if i in allowed]
            entries = (
                itertools.islice(reversed(list(items)), plan.budget) if plan.truncated else items
            )
            for unit_id, tf in entries:
                length = self._lengths[unit_id]
                weight = term_weight(query_term.idf, tf, length, plan.average_length)
                scores[unit_id] = scores.get(unit_id, 0.0) + weight
        seqs = self._seqs
        best = heapq.nsmallest(plan.depth, scores.items(), key=lambda i: (-i[1], seqs[i[0]]))
        return [Candidate(i, seqs[i], self._lengths[i], score) for i, score in best]

    def _lookup(self, term: str, ids: list[str]) -> dict[str, int]:
        posting = self._postings.get(term, {})
        return {i: posting[i] for i in ids if i in posting}
