"""The PostgreSQL store's lexical index: namespace-first postings searched with bounded BM25.

``lexical_posting`` (namespace, term, seq) -> tf and the unit's length; ``lexical_term``
(namespace, term) -> df; the namespace's units and total length are in ``namespace_state``.
Queries are planned and finished by :mod:`ripplemem.stores.lexical` (the same plan, the same
BM25 expression in the same order, as the SQLite store); the sum over postings runs in SQL, term
by term in the plan's order, as SQLite sums them, so both stores give the same doubles.
A unit's terms are not stored: deleting it re-derives them from its restatement and keywords.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from collections.abc import Set as AbstractSet

import psycopg

from ripplemem.stores.lexical import (
    BM25_B,
    BM25_K1,
    K1_PLUS_ONE,
    LEXICAL_POSTING_BUDGET,
    LEXICAL_RERANK_DEPTH,
    ONE_MINUS_B,
    Candidate,
    LexicalPlan,
    finish,
    plan_query,
)

__all__ = ["index_units", "search", "unindex_terms"]

# term_weight(idf, tf, length, average) of ripplemem.stores.lexical: same order, same constants
_WEIGHT = (
    "{idf} * p.tf * %(k1p1)s::float8 / (p.tf + %(k1)s::float8 * "
    "(%(omb)s::float8 + %(b)s::float8 * p.length / %(avg)s::float8))"
)
_CANDIDATES = f"""
    SELECT p.seq, p.length, sum({_WEIGHT.format(idf="w.idf")} ORDER BY w.n) AS score
    FROM unnest(%(terms)s::text[], %(idfs)s::float8[]) WITH ORDINALITY AS w (term, idf, n)
    JOIN LATERAL (
        SELECT seq, tf, length FROM lexical_posting
        WHERE namespace = %(ns)s AND term = w.term{{only}}
    ) AS p ON true
    GROUP BY p.seq, p.length ORDER BY score DESC, p.seq LIMIT %(depth)s"""
_CANDIDATES = f"""
    SELECT c.seq, c.length, c.score, u.id FROM ({_CANDIDATES}) AS c
    JOIN unit AS u ON u.namespace = %(ns)s AND u.seq = c.seq ORDER BY c.score DESC, c.seq"""
_LATEST = f"""
    SELECT p.seq, p.length, {_WEIGHT.format(idf="%(idf)s::float8")} AS score FROM (
        SELECT seq, tf, length FROM lexical_posting
        WHERE namespace = %(ns)s AND term = %(term)s{{only}} ORDER BY seq DESC LIMIT %(budget)s
    ) AS p ORDER BY score DESC, p.seq LIMIT %(depth)s"""
_LATEST = f"""
    SELECT c.seq, c.length, c.score, u.id FROM ({_LATEST}) AS c
    JOIN unit AS u ON u.namespace = %(ns)s AND u.seq = c.seq ORDER BY c.score DESC, c.seq"""


#: candidates restricted to a search filter's units (before the cut), or not
_ONLY = {
    False: "",
    True: " AND seq IN (SELECT seq FROM unit WHERE namespace = %(ns)s AND id = ANY(%(allowed)s))",
}


def index_units(
    db: psycopg.Connection, documents: Sequence[tuple[str, int, Sequence[str]]]
) -> None:
    """Add the postings of ``(namespace, seq, document terms)`` units and count their terms
    (the unit and token counts are the caller's: ``namespace_state``)."""
    postings = sorted(
        (namespace, term, seq, tf, len(terms))
        for namespace, seq, terms in documents
        for term, tf in Counter(terms).items()
    )
    if not postings:
        return
    columns = list(zip(*postings, strict=True))
    db.execute(
        "INSERT INTO lexical_posting (namespace, term, seq, tf, length) "
        "SELECT * FROM unnest(%s::text[], %s::text[], %s::int8[], %s::int4[], %s::int4[])",
        [list(column) for column in columns],
    )
    frequencies = Counter((namespace, term) for namespace, term, *_ in postings)
    keys = sorted(frequencies)
    db.execute(
        "INSERT INTO lexical_term (namespace, term, df) "
        "SELECT * FROM unnest(%s::text[], %s::text[], %s::int4[]) "
        "ON CONFLICT (namespace, term) DO UPDATE SET df = lexical_term.df + excluded.df",
        [[ns for ns, _ in keys], [term for _, term in keys], [frequencies[key] for key in keys]],
    )


def unindex_terms(db: psycopg.Connection, namespace: str, seq: int, terms: Sequence[str]) -> None:
    """Undo :func:`index_units` for one unit: its postings go, the counts go down (0s go)."""
    distinct = list(dict.fromkeys(terms))
    if not distinct:
        return
    db.execute(
        "DELETE FROM lexical_posting WHERE namespace = %s AND term = ANY(%s) AND seq = %s",
        (namespace, distinct, seq),
    )
    db.execute(
        "UPDATE lexical_term SET df = df - 1 WHERE namespace = %s AND term = ANY(%s)",
        (namespace, distinct),
    )
    db.execute(
        "DELETE FROM lexical_term WHERE namespace = %s AND term = ANY(%s) AND df <= 0",
        (namespace, distinct),
    )


def search(
    db: psycopg.Connection,
    namespace: str,
    query: Sequence[str],
    k: int,
    *,
    budget: int = LEXICAL_POSTING_BUDGET,
    rerank_depth: int = LEXICAL_RERANK_DEPTH,
    allowed: AbstractSet[str] | None = None,
) -> list[tuple[str, float]]:
    """Bounded BM25 over the namespace's postings (see :mod:`ripplemem.stores.lexical`);
    ``allowed``: the ids of the only units that may be candidates (a search filter's)."""
    distinct = list(dict.fromkeys(query))
    if not distinct or k <= 0:
        return []
    # the counts and the term frequencies in one statement: one snapshot, so a writer committing
    # meanwhile never pairs new frequencies with old counts
    rows = db.execute(
        "SELECT s.units, s.tokens, t.term, t.df FROM namespace_state AS s "
        "LEFT JOIN lexical_term AS t ON t.namespace = s.namespace AND t.term = ANY(%s) "
        "WHERE s.namespace = %s",
        (distinct, namespace),
    ).fetchall()
    if not rows:
        return []
    units, tokens = rows[0][0], rows[0][1]
    frequencies: dict[str, int] = {term: df for _, _, term, df in rows if term is not None}
    plan = plan_query(
        distinct, frequencies, units, tokens, k, budget=budget, rerank_depth=rerank_depth
    )
    if plan is None:
        return []
    candidates, ids = _candidates(db, namespace, plan, allowed)
    # the frequent terms' frequencies in the candidates, every term in one round trip
    in_candidates: dict[str, dict[int, int]] = {q.term: {} for q in plan.reranking}
    if plan.reranking and candidates:
        found = db.execute(
            "SELECT term, seq, tf FROM lexical_posting WHERE namespace = %s AND term = ANY(%s) "
            "AND seq = ANY(%s)",
            (namespace, list(in_candidates), [c.key for c in candidates]),
        )
        for term, seq, tf in found:
            in_candidates[term][seq] = tf

    def lookup(term: str, seqs: list[int]) -> dict[int, int]:
        return in_candidates[term]

    ranked = finish(plan, candidates, lookup, k)
    return [(ids[seq], score) for seq, score in ranked if seq in ids]


def _candidates(
    db: psycopg.Connection, namespace: str, plan: LexicalPlan, allowed: AbstractSet[str] | None = None
) -> tuple[list[Candidate[int]], dict[int, str]]:
    """The plan's candidates, best partial score first (ties: earliest added), ``depth`` of them,
    and their unit ids by sequence number."""
    constants = {
        "k1p1": K1_PLUS_ONE,
        "k1": BM25_K1,
        "omb": ONE_MINUS_B,
        "b": BM25_B,
        "avg": plan.average_length,
        "ns": namespace,
        "depth": plan.depth,
        "allowed": list(allowed or ()),
    }
    restrict = _ONLY[allowed is not None]
    if plan.truncated:  # one term over budget: its `budget` latest postings
        (only,) = plan.retrieving
        params = {**constants, "idf": only.idf, "term": only.term, "budget": plan.budget}
        rows = db.execute(_LATEST.replace("{only}", restrict), params).fetchall()
    else:
        params = {
            **constants,
            "terms": [q.term for q in plan.retrieving],
            "idfs": [q.idf for q in plan.retrieving],
        }
        rows = db.execute(_CANDIDATES.replace("{only}", restrict), params).fetchall()
    candidates = [Candidate(seq, seq, length, float(score)) for seq, length, score, _ in rows]
    return candidates, {seq: unit_id for seq, _, _, unit_id in rows}
