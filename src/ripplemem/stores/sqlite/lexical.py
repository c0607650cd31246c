"""The SQLite store's lexical index: namespace-first postings searched with bounded BM25.

Three tables (schema migration 3): ``lexical_posting`` (namespace, term, seq) -> tf and the
unit's length, ``lexical_term`` (namespace, term) -> df, ``lexical_namespace`` -> units (also
what ``SQLiteStore.count`` answers) and total length. They replace an FTS5 table whose ``bm25()`` used whole-table statistics and,
to compute them, read the posting list of every query term and of the namespace marker on every
query: a cost that grew with the store, however rare the terms. Here a query reads the
statistics of its own terms (a few index lookups), then only the postings its plan allows
(:mod:`ripplemem.stores.lexical`); the BM25 sum over them runs inside SQLite.

A unit's terms are not stored: deleting it re-derives them with
:func:`~ripplemem.stores.text.document_terms` from its restatement and keywords (the tokeniser is
part of the file format; changing it needs a migration that rebuilds these tables).
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterable, Sequence

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

__all__ = ["index_units", "rebuild", "search", "unindex_terms", "unit_count"]

_CHUNK = 500  # ids per IN (...) list
# term_weight(idf, tf, length, average) of ripplemem.stores.lexical, same order, same constants
_WEIGHT = "{idf} * p.tf * ? / (p.tf + ? * (? + ? * p.length / ?))"
_INSERT_POSTING = (
    "INSERT INTO lexical_posting (namespace, term, seq, tf, length) VALUES (?, ?, ?, ?, ?)"
)
_COUNT_TERMS = (
    "INSERT INTO lexical_term (namespace, term, df) VALUES (?, ?, ?) "
    "ON CONFLICT (namespace, term) DO UPDATE SET df = df + excluded.df"
)
_COUNT_UNITS = (
    "INSERT INTO lexical_namespace (namespace, documents, tokens) VALUES (?, ?, ?) "
    "ON CONFLICT (namespace) DO UPDATE SET documents = documents + excluded.documents, "
    "tokens = tokens + excluded.tokens"
)
_REBUILD_CHUNK = 20_000  # units indexed per statement batch while a migration rebuilds


def index_units(
    db: sqlite3.Connection, documents: Sequence[tuple[str, int, Sequence[str]]]
) -> None:
    """Add the postings of ``(namespace, seq, document terms)`` units and count them.

    One statement per table for the whole batch, postings in key order and one count update per
    distinct term: a batch of 50 units touches each term's rows once, not once per unit.
    """
    postings = sorted(
        (namespace, term, seq, tf, len(terms))
        for namespace, seq, terms in documents
        for term, tf in Counter(terms).items()
    )
    db.executemany(_INSERT_POSTING, postings)
    frequencies = Counter((namespace, term) for namespace, term, *_ in postings)
    db.executemany(_COUNT_TERMS, [(ns, term, n) for (ns, term), n in frequencies.items()])
    totals: dict[str, list[int]] = {}
    for namespace, _, terms in documents:
        entry = totals.setdefault(namespace, [0, 0])
        entry[0] += 1
        entry[1] += len(terms)
    db.executemany(_COUNT_UNITS, [(ns, n, tokens) for ns, (n, tokens) in totals.items()])


def unindex_terms(db: sqlite3.Connection, namespace: str, seq: int, terms: Sequence[str]) -> None:
    """Undo one unit of :func:`index_units`: its postings go, the counts go down (0s go)."""
    distinct = list(dict.fromkeys(terms))
    db.executemany(
        "DELETE FROM lexical_posting WHERE namespace = ? AND term = ? AND seq = ?",
        [(namespace, term, seq) for term in distinct],
    )
    db.executemany(
        "UPDATE lexical_term SET df = df - 1 WHERE namespace = ? AND term = ?",
        [(namespace, term) for term in distinct],
    )
    db.executemany(
        "DELETE FROM lexical_term WHERE namespace = ? AND term = ? AND df <= 0",
        [(namespace, term) for term in distinct],
    )
    db.execute(
        "UPDATE lexical_namespace SET documents = documents - 1, tokens = tokens - ? "
        "WHERE namespace = ?",
        (len(terms), namespace),
    )
    db.execute("DELETE FROM lexical_namespace WHERE namespace = ? AND documents <= 0", (namespace,))


def rebuild(db: sqlite3.Connection, documents: Iterable[tuple[str, int, Sequence[str]]]) -> None:
    """Index ``(namespace, seq, terms)`` rows into the empty tables (a migration's backfill)."""
    chunk: list[tuple[str, int, Sequence[str]]] = []
    for document in documents:
        chunk.append(document)
        if len(chunk) == _REBUILD_CHUNK:
            index_units(db, chunk)
            chunk = []
    index_units(db, chunk)


def unit_count(db: sqlite3.Connection, namespace: str) -> int:
    """The namespace's units, kept with BM25's N (every unit counts, even one with no terms)."""
    row = db.execute(
        "SELECT documents FROM lexical_namespace WHERE namespace = ?", (namespace,)
    ).fetchone()
    return 0 if row is None else int(row[0])


def search(
    db: sqlite3.Connection,
    namespace: str,
    query: Sequence[str],
    k: int,
    *,
    budget: int = LEXICAL_POSTING_BUDGET,
    rerank_depth: int = LEXICAL_RERANK_DEPTH,
) -> list[tuple[str, float]]:
    """Bounded BM25 over the namespace's postings (see :mod:`ripplemem.stores.lexical`)."""
    stats = db.execute(
        "SELECT documents, tokens FROM lexical_namespace WHERE namespace = ?", (namespace,)
    ).fetchone()
    distinct = list(dict.fromkeys(query))
    if stats is None or not distinct or k <= 0:
        return []
    marks = ", ".join("?" * len(distinct))
    frequencies = dict(
        db.execute(
            f"SELECT term, df FROM lexical_term WHERE namespace = ? AND term IN ({marks})",
            (namespace, *distinct),
        ).fetchall()
    )
    plan = plan_query(
        distinct, frequencies, stats[0], stats[1], k, budget=budget, rerank_depth=rerank_depth
    )
    if plan is None:
        return []
    candidates = _candidates(db, namespace, plan)

    def lookup(term: str, seqs: list[int]) -> dict[int, int]:
        found: dict[int, int] = {}
        for start in range(0, len(seqs), _CHUNK):
            chunk = seqs[start : start + _CHUNK]
            found.update(
                db.execute(
                    "SELECT seq, tf FROM lexical_posting WHERE namespace = ? AND term = ? "
                    f"AND seq IN ({', '.join('?' * len(chunk))})",
                    (namespace, term, *chunk),
                )
            )
        return found

    ranked = finish(plan, candidates, lookup, k)
    ids = _unit_ids(db, [seq for seq, _ in ranked])
    return [(ids[seq], score) for seq, score in ranked if seq in ids]


def _candidates(db: sqlite3.Connection, namespace: str, plan: LexicalPlan) -> list[Candidate[int]]:
    """The plan's candidates, best partial score first (ties: earliest added), ``depth`` of them."""
    constants = (K1_PLUS_ONE, BM25_K1, ONE_MINUS_B, BM25_B, plan.average_length)
    if plan.truncated:  # one term over budget: its `budget` latest postings
        (only,) = plan.retrieving
        sql = f"""
            SELECT p.seq, p.length, {_WEIGHT.format(idf="?")} AS score FROM (
                SELECT seq, tf, length FROM lexical_posting
                WHERE namespace = ? AND term = ? ORDER BY seq DESC LIMIT ?
            ) AS p ORDER BY score DESC, p.seq LIMIT ?"""
        params: tuple = (only.idf, *constants, namespace, only.term, plan.budget, plan.depth)
    else:
        values = ", ".join("(?, ?)" for _ in plan.retrieving)
        sql = f"""
            WITH wanted (term, idf) AS (VALUES {values})
            SELECT p.seq, p.length, sum({_WEIGHT.format(idf="wanted.idf")}) AS score
            FROM wanted CROSS JOIN lexical_posting AS p
                ON p.namespace = ? AND p.term = wanted.term
            GROUP BY p.seq ORDER BY score DESC, p.seq LIMIT ?"""
        pairs = tuple(value for q in plan.retrieving for value in (q.term, q.idf))
        params = (*pairs, *constants, namespace, plan.depth)
    return [
        Candidate(seq, seq, length, float(score)) for seq, length, score in db.execute(sql, params)
    ]


def _unit_ids(db: sqlite3.Connection, seqs: list[int]) -> dict[int, str]:
    if not seqs:
        return {}
    marks = ", ".join("?" * len(seqs))
    return dict(db.execute(f"SELECT seq, id FROM unit WHERE seq IN ({marks})", seqs).fetchall())
