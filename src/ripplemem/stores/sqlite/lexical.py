"""The SQLite store's lexical index: namespace-first postings searched with bounded BM25.

Three tables (schema migration 3): ``lexical_posting`` (namespace, term, seq) -> tf and the
unit's length, ``lexical_term`` (namespace, term) -> df, ``lexical_namespace`` -> units and
total length. They replace an FTS5 table whose ``bm25()`` used whole-table statistics and,
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

__all__ = ["index_terms", "rebuild", "search", "unindex_terms"]

_CHUNK = 500  # ids per IN (...) list
# term_weight(idf, tf, length, average) of ripplemem.stores.lexical, same order, same constants
_WEIGHT = "{idf} * p.tf * ? / (p.tf + ? * (? + ? * p.length / ?))"
_INSERT_POSTING = (
    "INSERT INTO lexical_posting (namespace, term, seq, tf, length) VALUES (?, ?, ?, ?, ?)"
)
_COUNT_TERM = (
    "INSERT INTO lexical_term (namespace, term, df) VALUES (?, ?, 1) "
    "ON CONFLICT (namespace, term) DO UPDATE SET df = df + 1"
)
_COUNT_UNIT = (
    "INSERT INTO lexical_namespace (namespace, documents, tokens) VALUES (?, 1, ?) "
    "ON CONFLICT (namespace) DO UPDATE SET documents = documents + 1, tokens = tokens + ?"
)


def index_terms(db: sqlite3.Connection, namespace: str, seq: int, terms: Sequence[str]) -> None:
    """Add the postings of unit ``seq`` (its document terms, with repeats) and count it."""
    counts = Counter(terms)
    length = len(terms)
    db.executemany(
        _INSERT_POSTING, [(namespace, term, seq, tf, length) for term, tf in counts.items()]
    )
    db.executemany(_COUNT_TERM, [(namespace, term) for term in counts])
    db.execute(_COUNT_UNIT, (namespace, length, length))


def unindex_terms(db: sqlite3.Connection, namespace: str, seq: int, terms: Sequence[str]) -> None:
    """Inverse of :func:`index_terms`: the postings go, the counts go down (rows at 0 go)."""
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
    """Index ``(namespace, seq, terms)`` rows into the empty tables (a migration's backfill).

    Postings are staged in a temporary table and copied in key order, so the index is written
    page after page and memory stays flat whatever the store's size.
    """
    db.execute("CREATE TEMP TABLE lexical_staging (namespace, term, seq, tf, length)")
    totals: dict[str, list[int]] = {}
    batch: list[tuple[str, str, int, int, int]] = []
    for namespace, seq, terms in documents:
        entry = totals.setdefault(namespace, [0, 0])
        entry[0] += 1
        entry[1] += len(terms)
        batch += [(namespace, term, seq, tf, len(terms)) for term, tf in Counter(terms).items()]
        if len(batch) >= 50_000:
            db.executemany("INSERT INTO temp.lexical_staging VALUES (?, ?, ?, ?, ?)", batch)
            batch = []
    db.executemany("INSERT INTO temp.lexical_staging VALUES (?, ?, ?, ?, ?)", batch)
    db.execute(
        "INSERT INTO lexical_posting (namespace, term, seq, tf, length) "
        "SELECT namespace, term, seq, tf, length FROM temp.lexical_staging "
        "ORDER BY namespace, term, seq"
    )
    db.execute("DROP TABLE temp.lexical_staging")
    db.execute(
        "INSERT INTO lexical_term (namespace, term, df) "
        "SELECT namespace, term, count(*) FROM lexical_posting GROUP BY namespace, term"
    )
    db.executemany(
        "INSERT INTO lexical_namespace (namespace, documents, tokens) VALUES (?, ?, ?)",
        [(namespace, n, tokens) for namespace, (n, tokens) in totals.items()],
    )


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
