"""The SQLite schema as numbered migrations, recorded in ``schema_version``.

Every key and index is namespace-first, so tables can later be split by namespace.
``unit.seq`` (AUTOINCREMENT, never reused) is the row id the lexical postings, the cue and time
indexes and the ANN cache refer to. A migration is a SQL script, or a function for one that must
move data; either runs in one transaction with its ``schema_version`` row.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime

from ripplemem.errors import StoreError
from ripplemem.stores.cuekeys import epoch_seconds, stored_span_rows
from ripplemem.stores.sqlite import lexical
from ripplemem.stores.sqlite.failures import not_a_store
from ripplemem.stores.sqlite.graph import migrate_edge_table
from ripplemem.stores.sqlite.keys import TABLE as API_KEY_TABLE
from ripplemem.stores.text import (
    bigram_terms,
    legacy_terms,
    reindexed_by_scripts,
    reindexed_by_unigrams,
    terms,
)

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "migrate"]

FORMAT = "ripplemem"


def _lexical_postings(connection: sqlite3.Connection) -> None:
    """3: the FTS5 table gives way to namespace-first postings and per-namespace statistics.

    Its bodies are the units' document terms already, so they are indexed as they are.
    """
    for statement in _LEXICAL_TABLES:
        connection.execute(statement)
    rows = connection.execute(
        "SELECT u.namespace, u.seq, l.body FROM unit AS u JOIN lexical AS l ON l.rowid = u.seq"
    )
    lexical.rebuild(connection, ((ns, seq, body.split()) for ns, seq, body in rows))
    connection.execute("DROP TABLE lexical")


_LEXICAL_TABLES = (
    """CREATE TABLE lexical_posting (
        namespace TEXT NOT NULL,
        term TEXT NOT NULL,
        seq INTEGER NOT NULL,
        tf INTEGER NOT NULL,
        length INTEGER NOT NULL,
        PRIMARY KEY (namespace, term, seq)
    ) WITHOUT ROWID""",
    """CREATE TABLE lexical_term (
        namespace TEXT NOT NULL,
        term TEXT NOT NULL,
        df INTEGER NOT NULL,
        PRIMARY KEY (namespace, term)
    ) WITHOUT ROWID""",
    """CREATE TABLE lexical_namespace (
        namespace TEXT PRIMARY KEY,
        documents INTEGER NOT NULL,
        tokens INTEGER NOT NULL
    )""",
)


def _retokenise(connection: sqlite3.Connection) -> None:
    """8: the tokeniser cuts CJK into bigrams and keeps combining marks in words
    (:mod:`ripplemem.stores.text`): the units whose terms change are indexed again (with the
    terms of schemas 8 to 11, :func:`~ripplemem.stores.text.bigram_terms`: 12 goes on from them)."""
    _reindex(connection, reindexed_by_scripts, legacy_terms, bigram_terms)


def _unigrams(connection: sqlite3.Connection) -> None:
    """12: Han characters and Hangul syllables are terms of their own too
    (:mod:`ripplemem.stores.text`): the units that hold one are indexed again."""
    _reindex(connection, reindexed_by_unigrams, bigram_terms, terms)


def _reindex(
    connection: sqlite3.Connection,
    affected: Callable[[str], bool],
    old_terms: Callable[[str], list[str]],
    new_terms: Callable[[str], list[str]],
) -> None:
    """Index again the units whose document terms ``new_terms`` gives otherwise than
    ``old_terms`` (only units whose text is ``affected`` can differ)."""
    rows = connection.execute("SELECT namespace, seq, restatement, keywords FROM unit").fetchall()
    for namespace, seq, restatement, keywords in rows:
        text = " ".join((restatement, *json.loads(keywords)))
        if not affected(text):
            continue
        old, new = old_terms(text), new_terms(text)
        if old != new:
            lexical.unindex_terms(connection, namespace, seq, old)
            lexical.index_units(connection, [(namespace, seq, new)])


def _staged_postings(connection: sqlite3.Connection) -> None:
    """5: ``lexical_recent``, with the columns and key of ``lexical_posting``."""
    posting = _LEXICAL_TABLES[0]
    connection.execute(posting.replace("lexical_posting", "lexical_recent", 1))
    connection.execute("ALTER TABLE lexical_namespace ADD COLUMN recent INTEGER NOT NULL DEFAULT 0")


def _filter_index(connection: sqlite3.Connection) -> None:
    """8: units keep their speakers and metadata, indexed for search filters
    (:mod:`ripplemem.stores.filter_keys`); the said-time index is filled from the session times
    already stored (earlier units have no speakers or metadata: a speaker filter skips them)."""
    for statement in _statements(_FILTER_TABLES):
        connection.execute(statement)
    rows = connection.execute(
        "SELECT namespace, seq, id, session_time FROM unit WHERE session_time IS NOT NULL"
    ).fetchall()
    connection.executemany(
        "INSERT INTO unit_said (namespace, said, seq, unit_id) VALUES (?, ?, ?, ?)",
        [
            (ns, epoch_seconds(datetime.fromisoformat(said)), seq, unit_id)
            for ns, seq, unit_id, said in rows
        ],
    )


def _named_times(connection: sqlite3.Connection) -> None:
    """11: a unit that names times too far apart for one span (``extra["time_spans"]``) is in the
    time index once for each (:func:`~ripplemem.stores.cuekeys.span_rows`); units stored before
    were in it for their narrowest only."""
    rows = connection.execute(
        "SELECT namespace, seq, id, t_start, t_end, extra FROM unit WHERE extra LIKE '%\"time_spans\"%'"
    ).fetchall()
    connection.executemany(
        "INSERT OR IGNORE INTO time_span (namespace, bucket, t_start, seq, unit_id, t_end) VALUES (?, ?, ?, ?, ?, ?)",
        [
            (ns, bucket, start, seq, unit_id, end)
            for ns, seq, unit_id, t_start, t_end, extra in rows
            for bucket, start, end in stored_span_rows(t_start, t_end, extra)
        ],
    )


_FILTER_TABLES = """
    ALTER TABLE unit ADD COLUMN speakers TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE unit ADD COLUMN metadata TEXT NOT NULL DEFAULT '{}';
    CREATE TABLE unit_facet (
        namespace TEXT NOT NULL,
        facet TEXT NOT NULL,
        value TEXT NOT NULL,
        seq INTEGER NOT NULL,
        unit_id TEXT NOT NULL,
        PRIMARY KEY (namespace, facet, value, seq)
    ) WITHOUT ROWID;
    CREATE TABLE unit_said (
        namespace TEXT NOT NULL,
        said REAL NOT NULL,
        seq INTEGER NOT NULL,
        unit_id TEXT NOT NULL,
        PRIMARY KEY (namespace, said, seq)
    ) WITHOUT ROWID;
    CREATE TABLE namespace_person (namespace TEXT PRIMARY KEY, name TEXT NOT NULL);
"""


MIGRATIONS: tuple[str | Callable[[sqlite3.Connection], None], ...] = (
    # 1: units, vectors, cue / time / lexical indexes, edges, change versions, the ANN cache
    """
    CREATE TABLE schema_version (
        version INTEGER PRIMARY KEY,
        applied_at TEXT NOT NULL
    );
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    INSERT INTO meta (key, value) VALUES ('format', 'ripplemem');
    CREATE TABLE unit (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        namespace TEXT NOT NULL,
        id TEXT NOT NULL,
        restatement TEXT NOT NULL,
        participants TEXT NOT NULL,
        locations TEXT NOT NULL,
        t_start TEXT,
        t_end TEXT,
        episode_id TEXT NOT NULL,
        turn_ids TEXT NOT NULL,
        session_time TEXT,
        created_at TEXT NOT NULL,
        time_phrases TEXT NOT NULL,
        keywords TEXT NOT NULL,
        extra TEXT NOT NULL,
        UNIQUE (namespace, id)
    );
    CREATE INDEX unit_by_namespace ON unit (namespace, seq);
    CREATE TABLE vector (  -- a rowid table: 1.5 KB rows overflow WITHOUT ROWID pages
        seq INTEGER PRIMARY KEY,
        namespace TEXT NOT NULL,
        id TEXT NOT NULL,
        blob BLOB NOT NULL
    );
    CREATE INDEX vector_by_namespace ON vector (namespace, seq);
    CREATE TABLE cue (
        namespace TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('P', 'L')),
        value TEXT NOT NULL,
        seq INTEGER NOT NULL,
        unit_id TEXT NOT NULL,
        t_key REAL,
        PRIMARY KEY (namespace, kind, value, seq)
    ) WITHOUT ROWID;
    CREATE INDEX cue_by_time ON cue (namespace, kind, value, t_key, seq);
    CREATE TABLE time_span (
        namespace TEXT NOT NULL,
        bucket INTEGER NOT NULL,
        t_start REAL NOT NULL,
        seq INTEGER NOT NULL,
        unit_id TEXT NOT NULL,
        t_end REAL NOT NULL,
        PRIMARY KEY (namespace, bucket, t_start, seq)
    ) WITHOUT ROWID;
    CREATE TABLE edge (
        namespace TEXT NOT NULL,
        src TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('semantic', 'structural')),
        dst TEXT NOT NULL,
        weight REAL NOT NULL,
        PRIMARY KEY (namespace, src, kind, dst)
    ) WITHOUT ROWID;
    CREATE VIRTUAL TABLE lexical USING fts5 (ns, body, tokenize = 'ascii');
    CREATE TABLE namespace_state (namespace TEXT PRIMARY KEY, version INTEGER NOT NULL);
    CREATE TABLE ann_cache (
        namespace TEXT PRIMARY KEY,
        vector_count INTEGER NOT NULL,
        row_seqs BLOB NOT NULL,
        index_blob BLOB NOT NULL,
        updated_at TEXT NOT NULL
    );
    """,
    # 2: the AssoMem clue graph: clues (topic nodes), session -> clue, unit -> clue memberships,
    # utterance-utterance links; a per-namespace version tells a loaded clue index it is stale
    """
    CREATE TABLE clue (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        namespace TEXT NOT NULL,
        id TEXT NOT NULL,
        text TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('llm', 'keyphrases')),
        sessions INTEGER NOT NULL,
        vector BLOB NOT NULL,
        UNIQUE (namespace, id)
    );
    CREATE TABLE clue_session (
        namespace TEXT NOT NULL,
        episode_id TEXT NOT NULL,
        clue_id TEXT NOT NULL,
        PRIMARY KEY (namespace, episode_id)
    ) WITHOUT ROWID;
    CREATE INDEX clue_session_by_clue ON clue_session (namespace, clue_id);
    CREATE TABLE clue_member (
        namespace TEXT NOT NULL,
        unit_id TEXT NOT NULL,
        clue_id TEXT NOT NULL,
        weight REAL NOT NULL,
        PRIMARY KEY (namespace, unit_id)
    ) WITHOUT ROWID;
    CREATE INDEX clue_member_by_clue ON clue_member (namespace, clue_id, unit_id);
    CREATE TABLE utterance_link (
        namespace TEXT NOT NULL,
        src TEXT NOT NULL,
        dst TEXT NOT NULL,
        weight REAL NOT NULL,
        PRIMARY KEY (namespace, src, dst)
    ) WITHOUT ROWID;
    CREATE TABLE clue_state (namespace TEXT PRIMARY KEY, version INTEGER NOT NULL);
    """,
    _lexical_postings,
    # 4: the cue time index covers ``unit_id`` too, so a nearest-in-time cue scan reads no table
    # row per hit (at 100k units, half of the linker's cue lookup time went to those reads)
    """
    DROP INDEX cue_by_time;
    CREATE INDEX cue_by_time ON cue (namespace, kind, value, t_key, seq, unit_id);
    """,
    # 5: new postings are staged in a small table and moved to lexical_posting in bulk (see
    # stores/sqlite/lexical.py); ``recent`` counts a namespace's staged postings
    _staged_postings,
    # 6: edges as a journal of changes plus a snapshot per namespace, served from memory
    # (stores/sqlite/graph.py); the rows of the edge table move into the snapshots
    migrate_edge_table,
    # 7: the service's API keys (stores/sqlite/keys.py), hashed, bound to namespaces
    API_KEY_TABLE + ";",
    # 8: CJK bigrams and combining marks in the lexical terms: affected units indexed again
    _retokenise,
    # 9: speakers and metadata on units, the search-filter index (unit_facet, unit_said), and
    # the person behind a namespace (namespace_person)
    _filter_index,
    # 10: each unit's parse, kept for the statement reader (ripplemem.statements.kept); a
    # rowid table by the unit's seq, as ``vector`` (rows of about 0.5-1 KB); units stored
    # before have none (their clauses are parsed when read)
    """
    CREATE TABLE unit_parse (
        seq INTEGER PRIMARY KEY,
        namespace TEXT NOT NULL,
        blob BLOB NOT NULL
    );
    """,
    # 11: a unit of several times (extra["time_spans"]) in the time index for each of them
    _named_times,
    # 12: Han characters and Hangul syllables as terms of their own: affected units indexed again
    _unigrams,
)

SCHEMA_VERSION = len(MIGRATIONS)


def migrate(connection: sqlite3.Connection, path: str) -> int:
    """Bring a fresh or older ripplemem file up to :data:`SCHEMA_VERSION`; refuse anything else."""
    try:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    except sqlite3.DatabaseError as error:
        raise not_a_store(path, error) from error
    version = 0
    if tables:
        version = _recorded_version(connection, tables, path)
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"{path} has schema version {version} but this ripplemem knows up to "
            f"{SCHEMA_VERSION}; upgrade ripplemem to open it"
        )
    if version == 0:  # a fresh file: every step in one transaction (one commit, not one each)
        _apply(connection, 1, SCHEMA_VERSION)
    else:
        for number in range(version + 1, SCHEMA_VERSION + 1):
            _apply(connection, number)
    return SCHEMA_VERSION


def _recorded_version(connection: sqlite3.Connection, tables: set[str], path: str) -> int:
    not_ours = StoreError(
        f"{path} is a SQLite database but not a ripplemem store; "
        "pass another path (ripplemem creates the file) or delete this one"
    )
    if not {"schema_version", "meta"} <= tables:
        raise not_ours
    row = connection.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
    if row is None or row[0] != FORMAT:
        raise not_ours
    return int(connection.execute("SELECT max(version) FROM schema_version").fetchone()[0] or 0)


def _apply(connection: sqlite3.Connection, first: int, last: int | None = None) -> None:
    """Run migrations ``first`` to ``last`` (default: just ``first``) in one write transaction,
    skipping those another process already did.

    Two processes may open an old file at once: both read the old version, then queue on
    ``BEGIN IMMEDIATE`` (the caller's busy timeout); the second re-reads the version under the
    write lock and finds the steps done.
    """
    applied_at = datetime.now(UTC).isoformat(timespec="seconds")
    number = first
    try:
        connection.execute("BEGIN IMMEDIATE")
        applied = _applied(connection)
        for number in range(max(first, applied + 1), (last or first) + 1):
            step = MIGRATIONS[number - 1]
            if callable(step):
                step(connection)
            else:  # statement by statement: executescript would commit the transaction first
                for statement in _statements(step):
                    connection.execute(statement)
            connection.execute(
                f"INSERT INTO schema_version (version, applied_at) VALUES ({number}, '{applied_at}')"
            )
        connection.execute("COMMIT")
    except sqlite3.Error as error:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise StoreError(
            f"could not apply schema migration {number}: {error}; the store is unchanged"
        ) from error


def _applied(connection: sqlite3.Connection) -> int:
    """The highest recorded migration (0 in a fresh file)."""
    exists = connection.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    ).fetchone()
    if exists is None:
        return 0
    return int(connection.execute("SELECT max(version) FROM schema_version").fetchone()[0] or 0)


def _statements(script: str) -> list[str]:
    """Split a SQL script into complete statements (``sqlite3.complete_statement`` decides)."""
    out: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            if pending.strip().strip(";").strip():
                out.append(pending.strip())
            pending = ""
    if pending.strip():
        raise StoreError(f"incomplete statement in a migration script: {pending.strip()[:80]}")
    return out
