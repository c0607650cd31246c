"""The SQLite store's lexical index: namespace-first postings searched with bounded BM25.

Three tables (schema migration 3): ``lexical_posting`` (namespace, term, seq) -> tf and the
unit's length, ``lexical_term`` (namespace, term) -> df, ``lexical_namespace`` -> units (also
what ``SQLiteStore.count`` answers) and total length.

**Staged postings** (schema 5). A new unit's postings first go to ``lexical_recent`` (same
columns), a small table; once a namespace holds :data:`RECENT_POSTINGS` staged postings they
move to ``lexical_posting`` in one sorted insert. A posting list is kept in ``(term, seq)``
order, so a unit's ~10 terms land on ~10 different pages, the tail page of each term's list:
written straight into ``lexical_posting``, an insert batch of 50 units dirtied ~300 such pages
in a 100k-unit store (6.5 pages written to the WAL per unit), and every commit writes each dirty
page out again. Staged, a batch dirties the few pages of the small table, and each tail page is
written once per merge (every ~500 units) instead of once per batch. A unit's postings are always
all in one of the two tables (they are inserted and moved together), so a search runs each of
its reads on both tables and merges the answers; it reads in one transaction, so a merge by
another connection cannot move postings between its reads. They replace an FTS5 table whose ``bm25()`` used whole-table statistics and,
to compute them, read the posting list of every query term and of the namespace marker on every
query: a cost that grew with the store, however rare the terms. Here a query reads the
statistics of its own terms (a few index lookups), then only the postings its plan allows
(:mod:`ripplemem.stores.lexical`); the BM25 sum over them runs inside SQLite.

A unit's terms are not stored: deleting it re-derives them with
:func:`~ripplemem.stores.text.document_terms` from its restatement and keywords (the tokeniser is
part of the file format; changing it needs a migration that rebuilds these tables).
"""

from __future__ import annotations

import itertools
import sqlite3
from collections import Counter
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet

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

__all__ = ["RECENT_POSTINGS", "index_units", "rebuild", "search", "unindex_terms", "unit_count"]

#: Staged postings per namespace before they move to ``lexical_posting`` (~500 units). The
#: staging table's pages are dirtied by every batch and each term's tail page once per merge:
#: ~10,000 postings (~75 pages) measured best (5k-40k tried at 100k units).
RECENT_POSTINGS = 10_000
_TABLES = ("lexical_posting", "lexical_recent")
_CHUNK = 500  # ids per IN (...) list
# term_weight(idf, tf, length, average) of ripplemem.stores.lexical, same order, same constants
_WEIGHT = "{idf} * p.tf * ? / (p.tf + ? * (? + ? * p.length / ?))"
_INSERT_POSTING = "INSERT INTO {table} (namespace, term, seq, tf, length) VALUES (?, ?, ?, ?, ?)"
_COUNT_TERMS = (
    "INSERT INTO lexical_term (namespace, term, df) VALUES (?, ?, ?) "
    "ON CONFLICT (namespace, term) DO UPDATE SET df = df + excluded.df"
)
_COUNT_UNITS = (
    "INSERT INTO lexical_namespace (namespace, documents, tokens) VALUES (?, ?, ?) "
    "ON CONFLICT (namespace) DO UPDATE SET documents = documents + excluded.documents, "
    "tokens = tokens + excluded.tokens"
)
_COUNT_STAGED = "UPDATE lexical_namespace SET recent = recent + ? WHERE namespace = ?"
_REBUILD_CHUNK = 20_000  # units indexed per statement batch while a migration rebuilds


def index_units(
    db: sqlite3.Connection,
    documents: Sequence[tuple[str, int, Sequence[str]]],
    *,
    staged: int | None = RECENT_POSTINGS,
) -> None:
    """Add the postings of ``(namespace, seq, document terms)`` units and count them.

    One statement per table for the whole batch, postings in key order and one count update per
    distinct term. The postings are staged in ``lexical_recent``, and a namespace's staged
    postings move to ``lexical_posting`` once there are ``staged`` of them; ``None`` writes them
    to ``lexical_posting`` at once (a migration's backfill).
    """
    postings = sorted(
        (namespace, term, seq, tf, len(terms))
        for namespace, seq, terms in documents
        for term, tf in Counter(terms).items()
    )
    table = "lexical_posting" if staged is None else "lexical_recent"
    db.executemany(_INSERT_POSTING.format(table=table), postings)
    frequencies = Counter((namespace, term) for namespace, term, *_ in postings)
    db.executemany(_COUNT_TERMS, [(ns, term, n) for (ns, term), n in frequencies.items()])
    totals: dict[str, list[int]] = {}
    for namespace, _, terms in documents:
        entry = totals.setdefault(namespace, [0, 0, 0])
        entry[0] += 1
        entry[1] += len(terms)
        entry[2] += len(set(terms))
    db.executemany(_COUNT_UNITS, [(ns, n, tokens) for ns, (n, tokens, _) in totals.items()])
    if staged is None:  # a migration's backfill: the tables of later schemas may not exist yet
        return
    db.executemany(_COUNT_STAGED, [(staged_now, ns) for ns, (_, _, staged_now) in totals.items()])
    for namespace in totals:
        if _staged(db, namespace) >= staged:
            merge_recent(db, namespace)


def merge_recent(db: sqlite3.Connection, namespace: str) -> None:
    """Move the namespace's staged postings to ``lexical_posting``, in key order."""
    db.execute(
        "INSERT INTO lexical_posting (namespace, term, seq, tf, length) "
        "SELECT namespace, term, seq, tf, length FROM lexical_recent WHERE namespace = ? "
        "ORDER BY term, seq",
        (namespace,),
    )
    db.execute("DELETE FROM lexical_recent WHERE namespace = ?", (namespace,))
    db.execute("UPDATE lexical_namespace SET recent = 0 WHERE namespace = ?", (namespace,))


def _staged(db: sqlite3.Connection, namespace: str) -> int:
    row = db.execute(
        "SELECT recent FROM lexical_namespace WHERE namespace = ?", (namespace,)
    ).fetchone()
    return 0 if row is None else int(row[0])


def unindex_terms(db: sqlite3.Connection, namespace: str, seq: int, terms: Sequence[str]) -> None:
    """Undo one unit of :func:`index_units`: its postings go, the counts go down (0s go)."""
    distinct = list(dict.fromkeys(terms))
    keys = [(namespace, term, seq) for term in distinct]
    db.executemany("DELETE FROM lexical_posting WHERE namespace = ? AND term = ? AND seq = ?", keys)
    staged = db.executemany(
        "DELETE FROM lexical_recent WHERE namespace = ? AND term = ? AND seq = ?", keys
    ).rowcount
    db.executemany(
        "UPDATE lexical_term SET df = df - 1 WHERE namespace = ? AND term = ?",
        [(namespace, term) for term in distinct],
    )
    db.executemany(
        "DELETE FROM lexical_term WHERE namespace = ? AND term = ? AND df <= 0",
        [(namespace, term) for term in distinct],
    )
    db.execute(
        "UPDATE lexical_namespace SET documents = documents - 1, tokens = tokens - ?, "
        "recent = max(0, recent - ?) WHERE namespace = ?",
        (len(terms), max(0, staged), namespace),
    )
    db.execute("DELETE FROM lexical_namespace WHERE namespace = ? AND documents <= 0", (namespace,))


def rebuild(db: sqlite3.Connection, documents: Iterable[tuple[str, int, Sequence[str]]]) -> None:
    """Index ``(namespace, seq, terms)`` rows into the empty tables (a migration's backfill)."""
    chunk: list[tuple[str, int, Sequence[str]]] = []
    for document in documents:
        chunk.append(document)
        if len(chunk) == _REBUILD_CHUNK:
            index_units(db, chunk, staged=None)
            chunk = []
    index_units(db, chunk, staged=None)


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
    allowed: AbstractSet[int] | None = None,
) -> list[tuple[str, float]]:
    """Bounded BM25 over the namespace's postings (see :mod:`ripplemem.stores.lexical`);
    ``allowed``: the ``seq``s of the only units that may be candidates (a search filter's).

    Every read runs in one read transaction (one snapshot of both posting tables) unless the
    caller already holds one.
    """
    own = not db.in_transaction
    if own:
        db.execute("BEGIN")
    try:
        return _search(db, namespace, query, k, budget, rerank_depth, allowed)
    finally:
        if own:
            db.execute("COMMIT")


def _search(
    db: sqlite3.Connection,
    namespace: str,
    query: Sequence[str],
    k: int,
    budget: int,
    rerank_depth: int,
    allowed: AbstractSet[int] | None = None,
) -> list[tuple[str, float]]:
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
    candidates = _candidates(db, namespace, plan, allowed)

    def lookup(term: str, seqs: list[int]) -> dict[int, int]:
        found: dict[int, int] = {}
        for start in range(0, len(seqs), _CHUNK):
            chunk = seqs[start : start + _CHUNK]
            marks = ", ".join("?" * len(chunk))
            for table in _TABLES:
                found.update(
                    db.execute(
                        f"SELECT seq, tf FROM {table} WHERE namespace = ? AND term = ? "
                        f"AND seq IN ({marks})",
                        (namespace, term, *chunk),
                    )
                )
        return found

    ranked = finish(plan, candidates, lookup, k)
    ids = _unit_ids(db, [seq for seq, _ in ranked])
    return [(ids[seq], score) for seq, score in ranked if seq in ids]


def _candidates(
    db: sqlite3.Connection, namespace: str, plan: LexicalPlan, allowed: AbstractSet[int] | None = None
) -> list[Candidate[int]]:
    """The plan's candidates, best partial score first (ties: earliest added), ``depth`` of them.

    Each table answers on its own (a unit's postings are all in one of them) and the two answers
    are merged: the same candidates, in the same order, as one table holding every posting.
    With ``allowed`` the units outside it are dropped before the cut: every candidate of the
    retrieving terms is read (they hold at most ``budget`` postings), or, for one term over
    budget, its ``budget`` latest postings of allowed units.
    """
    if allowed is not None:
        return _allowed_candidates(db, namespace, plan, allowed)
    constants = (K1_PLUS_ONE, BM25_K1, ONE_MINUS_B, BM25_B, plan.average_length)
    rows: list[tuple[int, int, float]] = []
    if plan.truncated:  # one term over budget: its `budget` latest postings, staged ones first
        (only,) = plan.retrieving
        key = (namespace, only.term)
        (staged,) = db.execute(
            "SELECT count(*) FROM (SELECT 1 FROM lexical_recent WHERE namespace = ? AND term = ? "
            "LIMIT ?)",
            (*key, plan.budget),
        ).fetchone()
        # every staged unit was added after every unit of lexical_posting
        for table, latest in (
            ("lexical_recent", staged),
            ("lexical_posting", plan.budget - staged),
        ):
            if latest <= 0:
                continue
            sql = f"""
                SELECT p.seq, p.length, {_WEIGHT.format(idf="?")} AS score FROM (
                    SELECT seq, tf, length FROM {table}
                    WHERE namespace = ? AND term = ? ORDER BY seq DESC LIMIT ?
                ) AS p ORDER BY score DESC, p.seq LIMIT ?"""
            params = (only.idf, *constants, *key, latest, plan.depth)
            rows += db.execute(sql, params).fetchall()
    else:
        for table in _TABLES:
            sql, params = _scored(plan, table, namespace, constants)
            sql += " ORDER BY score DESC, p.seq LIMIT ?"
            rows += db.execute(sql, (*params, plan.depth)).fetchall()
    rows.sort(key=lambda row: (-row[2], row[0]))
    return [Candidate(seq, seq, length, float(score)) for seq, length, score in rows[: plan.depth]]


def _unit_ids(db: sqlite3.Connection, seqs: list[int]) -> dict[int, str]:
    if not seqs:
        return {}
    marks = ", ".join("?" * len(seqs))
    return dict(db.execute(f"SELECT seq, id FROM unit WHERE seq IN ({marks})", seqs).fetchall())


def _allowed_candidates(
    db: sqlite3.Connection, namespace: str, plan: LexicalPlan, allowed: AbstractSet[int]
) -> list[Candidate[int]]:
    constants = (K1_PLUS_ONE, BM25_K1, ONE_MINUS_B, BM25_B, plan.average_length)
    rows: list[tuple[int, int, float]] = []
    if plan.truncated:  # the term's latest allowed postings: staged ones are the latest
        (only,) = plan.retrieving
        left = plan.budget
        for table in ("lexical_recent", "lexical_posting"):
            sql = f"""
                SELECT p.seq, p.length, {_WEIGHT.format(idf="?")} AS score FROM {table} AS p
                WHERE p.namespace = ? AND p.term = ? ORDER BY p.seq DESC"""
            found = db.execute(sql, (only.idf, *constants, namespace, only.term))
            taken = list(itertools.islice((r for r in found if r[0] in allowed), left))
            rows += taken
            left -= len(taken)
            if left <= 0:
                break
    else:
        for table in _TABLES:
            sql, params = _scored(plan, table, namespace, constants)
            rows += [row for row in db.execute(sql, params) if row[0] in allowed]
    rows.sort(key=lambda row: (-row[2], row[0]))
    return [Candidate(seq, seq, length, float(score)) for seq, length, score in rows[: plan.depth]]


def _scored(
    plan: LexicalPlan, table: str, namespace: str, constants: tuple
) -> tuple[str, tuple]:
    """The partial score of every unit of ``table`` holding a retrieving term (SQL, params)."""
    values = ", ".join("(?, ?)" for _ in plan.retrieving)
    pairs = tuple(value for q in plan.retrieving for value in (q.term, q.idf))
    sql = f"""
        WITH wanted (term, idf) AS (VALUES {values})
        SELECT p.seq, p.length, sum({_WEIGHT.format(idf="wanted.idf")}) AS score
        FROM wanted CROSS JOIN {table} AS p
            ON p.namespace = ? AND p.term = wanted.term
        GROUP BY p.seq"""
    return sql, (*pairs, *constants, namespace)
