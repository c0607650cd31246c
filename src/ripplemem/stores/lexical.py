"""BM25 with a bounded cost: the lexical ranking every store serves from ``search_lexical``.

**Scoring** (identical in every backend). Okapi BM25 with k1 1.2, b 0.75 and the idf FTS5 uses,
``log((N - df + 0.5) / (df + 0.5))`` floored at 1e-6, over the terms of
:func:`~ripplemem.stores.text.document_terms`. N (units), df (units holding the term) and the
average length are those of the *namespace*: one user's memories never change another's term
weights, and a backend that keeps many namespaces in one table ranks exactly like one that does not.

**The bound.** Reading a term's postings costs time in proportion to its document frequency, and
in a large namespace a few query terms (a frequent name, "think", "go") each hold a fixed share of
all units: at 780k units an OR of every query term scored ~100k rows per query (~130 ms). Those
terms are also the ones BM25 weighs least (idf falls as df grows). So a query is *planned*:

1. Its terms are taken rarest first while the sum of their document frequencies fits in
   ``budget`` postings (:data:`LEXICAL_POSTING_BUDGET`). These *retrieving* terms find the
   candidates and give each its partial score. If even the rarest term has more than ``budget``
   postings, it alone retrieves, from its ``budget`` most recently added units.
2. The remaining, frequent terms only *re-rank*: the best ``rerank_depth`` candidates by partial
   score (:data:`LEXICAL_RERANK_DEPTH`) get their full score (each frequent term looked up per
   candidate), and the best ``k`` of those are returned with it.

When every query term fits the budget nothing is left out and the result is exact BM25. That is
always so in a namespace of fewer than ``budget / query terms`` units, and in practice in any
namespace of a few thousand units (a LoCoMo conversation has ~700): the bound only changes results
where an exact answer would cost tens of milliseconds. Left out are then only units holding
frequent query terms and none of the rarer ones; a unit holding none of the retrieving terms
scores at most ``sum(idf * (k1 + 1))`` over the re-ranking terms.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, NamedTuple, TypeVar

__all__ = [
    "BM25_B",
    "BM25_K1",
    "LEXICAL_POSTING_BUDGET",
    "LEXICAL_RERANK_DEPTH",
    "Candidate",
    "LexicalPlan",
    "QueryTerm",
    "finish",
    "idf",
    "plan_query",
    "term_weight",
]

BM25_K1 = 1.2
BM25_B = 0.75
#: Postings the retrieving terms of one query may hold (see the module docstring). SQLite sums
#: BM25 over ~2-3 postings per microsecond on the 2-core reference machine (0.3-0.5 us each,
#: measured at 200k units), so a query reads at most ~10 ms of postings. A namespace below
#: 20,000 / (query terms) units can never reach it; a few thousand units reach it only if the
#: query's terms together sit in ~all of them several times over.
LEXICAL_POSTING_BUDGET = 20_000
#: Candidates (best by partial score) re-ranked with the frequent terms when the budget binds:
#: at most this many point lookups per frequent term (~0.5 us each), far deeper than any view
#: asks for (K = 30, hybrid 100).
LEXICAL_RERANK_DEPTH = 1_000

# the constants of term_weight, computed once so every backend uses the same doubles
K1_PLUS_ONE = BM25_K1 + 1.0
ONE_MINUS_B = 1.0 - BM25_B
_IDF_FLOOR = 1e-6

Key = TypeVar("Key")


def idf(documents: int, frequency: int) -> float:
    """The FTS5 idf of a term held by ``frequency`` of ``documents`` units (never <= 0)."""
    value = math.log((documents - frequency + 0.5) / (frequency + 0.5))
    return value if value > 0 else _IDF_FLOOR


def term_weight(term_idf: float, tf: int, length: int, average_length: float) -> float:
    """One term's BM25 contribution to a unit of ``length`` terms holding it ``tf`` times.

    SQL backends evaluate the same expression in the same order with the same constants.
    """
    return (
        term_idf
        * tf
        * K1_PLUS_ONE
        / (tf + BM25_K1 * (ONE_MINUS_B + BM25_B * length / average_length))
    )


@dataclass(frozen=True, slots=True)
class QueryTerm:
    term: str
    df: int
    idf: float


@dataclass(frozen=True, slots=True)
class LexicalPlan:
    """How one query is answered: which terms retrieve, which only re-rank, how deep."""

    retrieving: tuple[QueryTerm, ...]  # rarest first; their postings fit the budget
    reranking: tuple[QueryTerm, ...]  # the frequent rest, rarest first
    average_length: float
    truncated: bool  # the rarest term alone was over budget: its `budget` latest postings only
    budget: int
    depth: int  # candidates to fetch, best partial score first (ties: earliest added)


class Candidate(NamedTuple, Generic[Key]):  # a tuple: a query may make a thousand of them
    key: Key  # what the backend looks units up by (unit id, row id)
    seq: int  # insertion order: ties go to the earlier unit
    length: int
    score: float  # partial score: the retrieving terms only


def plan_query(
    query_terms: Sequence[str],
    frequencies: Mapping[str, int],
    documents: int,
    tokens: int,
    k: int,
    *,
    budget: int = LEXICAL_POSTING_BUDGET,
    rerank_depth: int = LEXICAL_RERANK_DEPTH,
) -> LexicalPlan | None:
    """Plan a query from the namespace's statistics; None when no term can match."""
    present = [t for t in dict.fromkeys(query_terms) if frequencies.get(t, 0) > 0]
    if k <= 0 or documents <= 0 or tokens <= 0 or not present:
        return None
    ranked = sorted(
        (QueryTerm(t, frequencies[t], idf(documents, frequencies[t])) for t in present),
        key=lambda q: (q.df, q.term),
    )
    taken, volume = 0, 0
    while taken < len(ranked) and volume + ranked[taken].df <= budget:
        volume += ranked[taken].df
        taken += 1
    truncated = taken == 0
    taken = max(taken, 1)
    retrieving, reranking = tuple(ranked[:taken]), tuple(ranked[taken:])
    depth = max(k, rerank_depth) if reranking else k
    return LexicalPlan(retrieving, reranking, tokens / documents, truncated, budget, depth)


def finish(
    plan: LexicalPlan,
    candidates: Sequence[Candidate[Key]],
    lookup: Callable[[str, list[Key]], Mapping[Key, int]],
    k: int,
) -> list[tuple[Key, float]]:
    """The top ``k`` of ``candidates`` (best partial score first) by full score, best first.

    ``lookup(term, keys)`` gives the term frequency of ``term`` in those of ``keys`` holding it.
    """
    if not plan.reranking:
        return [(c.key, c.score) for c in candidates[:k]]
    keys = [c.key for c in candidates]
    scores = {c.key: c.score for c in candidates}
    lengths = {c.key: c.length for c in candidates}
    for query_term in plan.reranking:
        for key, tf in lookup(query_term.term, keys).items():
            scores[key] += term_weight(query_term.idf, tf, lengths[key], plan.average_length)
    best = sorted(candidates, key=lambda c: (-scores[c.key], c.seq))[:k]
    return [(c.key, scores[c.key]) for c in best]
