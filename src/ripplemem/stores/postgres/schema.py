"""The PostgreSQL schema as numbered migrations, recorded in ``schema_version``.

Every table's key starts with ``namespace`` (text in the "C" collation: byte order, as SQLite
sorts), so each table can be distributed or hash-partitioned by namespace (docs/postgres.md);
``api_key``, ``job``, ``meta`` and ``schema_version`` are the only tables without one (small,
global).
The tables live in one PostgreSQL schema (``ripplemem`` unless the URL names another with
``?schema=``). ``seq`` (one sequence for the whole store, never reused) is a unit's row number: postings, cues,
time spans and vectors refer to it. A migration runs in one transaction under the store's
migration lock (a transaction-level advisory lock), so two processes opening a store at once
apply each step once.

The vector column is created without a dimension (``vector``); the first write that fixes the
store's dimension (:func:`fix_dimension`) gives it one (``vector(dim)``), in that write's
transaction. HNSW indexes are partial, one per large namespace, built when it grows past the
store's ``ann_threshold`` (:mod:`ripplemem.stores.postgres.dense`); ``namespace_state.hnsw`` names
a namespace's index once it is built.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import psycopg
from psycopg import sql

from ripplemem.errors import StoreError
from ripplemem.stores.cuekeys import stored_span_rows
from ripplemem.stores.text import (
    bigram_terms,
    legacy_terms,
    reindexed_by_scripts,
    reindexed_by_unigrams,
    terms,
)

__all__ = [
    "FORMAT",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "fix_dimension",
    "has_store_tables",
    "lock_key",
    "migrate",
]

FORMAT = "ripplemem"
#: the first half of every advisory lock key the store takes (the other half names the object)
LOCK_CLASS = 0x52504D  # "RPM"


def _named_times(connection: psycopg.Connection) -> None:
    """7: a unit that names times too far apart for one span (``extra["time_spans"]``) is in the
    time index once for each (:func:`~ripplemem.stores.cuekeys.span_rows`); units stored before
    were in it for their narrowest only."""
    rows = connection.execute(
        "SELECT namespace, seq, id, t_start, t_end, extra FROM unit WHERE strpos(extra, '\"time_spans\"') > 0"
    ).fetchall()
    found = [
        (ns, bucket, start, seq, unit_id, end)
        for ns, seq, unit_id, t_start, t_end, extra in rows
        for bucket, start, end in stored_span_rows(t_start, t_end, extra)
    ]
    if found:
        connection.execute(
            "INSERT INTO time_span (namespace, bucket, t_start, seq, unit_id, t_end) SELECT * FROM "
            "unnest(%s::text[], %s::int4[], %s::float8[], %s::int8[], %s::text[], %s::float8[]) "
            "ON CONFLICT DO NOTHING",
            [list(column) for column in zip(*found, strict=True)],
        )


def _retokenise(connection: psycopg.Connection) -> None:
    """3: the tokeniser cuts CJK into bigrams and keeps combining marks in words
    (:mod:`ripplemem.stores.text`): the units whose terms change are indexed again (with the
    terms of schemas 3 to 7, :func:`~ripplemem.stores.text.bigram_terms`: 8 goes on from them)."""
    _reindex(connection, reindexed_by_scripts, legacy_terms, bigram_terms)


def _unigrams(connection: psycopg.Connection) -> None:
    """8: Han characters and Hangul syllables are terms of their own too
    (:mod:`ripplemem.stores.text`): the units that hold one are indexed again."""
    _reindex(connection, reindexed_by_unigrams, bigram_terms, terms)


def _reindex(
    connection: psycopg.Connection,
    affected: Callable[[str], bool],
    old_terms: Callable[[str], list[str]],
    new_terms: Callable[[str], list[str]],
) -> None:
    """Index again the units whose document terms ``new_terms`` gives otherwise than
    ``old_terms`` (only units whose text is ``affected`` can differ), and count their lengths."""
    from ripplemem.stores.postgres import lexical

    rows = connection.execute(  # only text with a character outside ASCII can change
        "SELECT namespace, seq, restatement, keywords FROM unit "
        "WHERE octet_length(restatement) <> char_length(restatement) "
        "OR octet_length(array_to_string(keywords, ' ')) <> char_length(array_to_string(keywords, ' '))"
    ).fetchall()
    for namespace, seq, restatement, keywords in rows:
        text = " ".join((restatement, *keywords))
        if not affected(text):
            continue
        old, new = old_terms(text), new_terms(text)
        if old == new:
            continue
        lexical.unindex_terms(connection, namespace, seq, old)
        lexical.index_units(connection, [(namespace, seq, new)])
        connection.execute(
            "UPDATE namespace_state SET tokens = tokens + %s, version = version + 1 "
            "WHERE namespace = %s",
            (len(new) - len(old), namespace),
        )


MIGRATIONS: tuple[str | Callable[[psycopg.Connection], None], ...] = (
    # 1: units, vectors, cue / time / lexical indexes, edges, namespace counters, the clue graph,
    # API keys
    """
    CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL);
    INSERT INTO meta (key, value) VALUES ('format', 'ripplemem');
    CREATE SEQUENCE unit_seq;
    CREATE TABLE unit (
        namespace text COLLATE "C" NOT NULL,
        seq bigint NOT NULL,
        id text COLLATE "C" NOT NULL,
        restatement text NOT NULL,
        participants text[] NOT NULL,
        locations text[] NOT NULL,
        t_start text,
        t_end text,
        episode_id text NOT NULL,
        turn_ids text[] NOT NULL,
        session_time text,
        created_at text NOT NULL,
        time_phrases text[] NOT NULL,
        keywords text[] NOT NULL,
        extra text NOT NULL,
        PRIMARY KEY (namespace, seq),
        UNIQUE (namespace, id)
    );
    CREATE TABLE unit_vector (
        namespace text COLLATE "C" NOT NULL,
        seq bigint NOT NULL,
        id text COLLATE "C" NOT NULL,
        embedding vector NOT NULL,
        PRIMARY KEY (namespace, seq)
    );
    CREATE TABLE namespace_state (
        namespace text COLLATE "C" PRIMARY KEY,
        units bigint NOT NULL DEFAULT 0,
        tokens bigint NOT NULL DEFAULT 0,
        version bigint NOT NULL DEFAULT 0,
        removals bigint NOT NULL DEFAULT 0,
        vector_sum bytea,
        hnsw text
    );
    CREATE TABLE cue (
        namespace text COLLATE "C" NOT NULL,
        kind text COLLATE "C" NOT NULL CHECK (kind IN ('P', 'L')),
        value text COLLATE "C" NOT NULL,
        seq bigint NOT NULL,
        unit_id text COLLATE "C" NOT NULL,
        t_key double precision,
        PRIMARY KEY (namespace, kind, value, seq)
    );
    CREATE INDEX cue_by_time ON cue (namespace, kind, value, t_key, seq) INCLUDE (unit_id);
    CREATE TABLE time_span (
        namespace text COLLATE "C" NOT NULL,
        bucket integer NOT NULL,
        t_start double precision NOT NULL,
        seq bigint NOT NULL,
        unit_id text COLLATE "C" NOT NULL,
        t_end double precision NOT NULL,
        PRIMARY KEY (namespace, bucket, t_start, seq)
    );
    CREATE TABLE lexical_posting (
        namespace text COLLATE "C" NOT NULL,
        term text COLLATE "C" NOT NULL,
        seq bigint NOT NULL,
        tf integer NOT NULL,
        length integer NOT NULL,
        PRIMARY KEY (namespace, term, seq)
    );
    CREATE TABLE lexical_term (
        namespace text COLLATE "C" NOT NULL,
        term text COLLATE "C" NOT NULL,
        df integer NOT NULL,
        PRIMARY KEY (namespace, term)
    );
    CREATE TABLE edge (
        namespace text COLLATE "C" NOT NULL,
        src text COLLATE "C" NOT NULL,
        kind text NOT NULL CHECK (kind IN ('semantic', 'structural')),
        dst text COLLATE "C" NOT NULL,
        weight double precision NOT NULL,
        PRIMARY KEY (namespace, src, kind, dst)
    );
    CREATE SEQUENCE clue_seq;
    CREATE TABLE clue (
        namespace text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        seq bigint NOT NULL DEFAULT nextval('clue_seq'),
        text text NOT NULL,
        source text NOT NULL CHECK (source IN ('llm', 'keyphrases')),
        sessions integer NOT NULL,
        vector vector NOT NULL,
        PRIMARY KEY (namespace, id)
    );
    CREATE TABLE clue_session (
        namespace text COLLATE "C" NOT NULL,
        episode_id text COLLATE "C" NOT NULL,
        clue_id text COLLATE "C" NOT NULL,
        PRIMARY KEY (namespace, episode_id)
    );
    CREATE INDEX clue_session_by_clue ON clue_session (namespace, clue_id);
    CREATE TABLE clue_member (
        namespace text COLLATE "C" NOT NULL,
        unit_id text COLLATE "C" NOT NULL,
        clue_id text COLLATE "C" NOT NULL,
        weight double precision NOT NULL,
        PRIMARY KEY (namespace, unit_id)
    );
    CREATE INDEX clue_member_by_clue ON clue_member (namespace, clue_id, unit_id);
    CREATE TABLE utterance_link (
        namespace text COLLATE "C" NOT NULL,
        src text COLLATE "C" NOT NULL,
        dst text COLLATE "C" NOT NULL,
        weight double precision NOT NULL,
        PRIMARY KEY (namespace, src, dst)
    );
    CREATE TABLE api_key (
        id text COLLATE "C" PRIMARY KEY,
        secret_hash text COLLATE "C" NOT NULL UNIQUE,
        namespaces text[] NOT NULL,
        read_only boolean NOT NULL,
        admin boolean NOT NULL,
        label text NOT NULL,
        created_at text NOT NULL,
        revoked_at text
    );
    """,
    # 2: the ``supersedes`` edge kind (a unit that replaces an earlier unit's value)
    """
    ALTER TABLE edge DROP CONSTRAINT edge_kind_check;
    ALTER TABLE edge ADD CONSTRAINT edge_kind_check
        CHECK (kind IN ('semantic', 'structural', 'supersedes'));
    """,
    # 3: CJK bigrams and combining marks in the lexical terms: affected units indexed again
    _retokenise,
    # 4: speakers and metadata on units, the search-filter index (stores/filter_keys.py), the
    # person behind a namespace (namespace_person);
    # the said-time index is filled from the session times already stored
    """
    ALTER TABLE unit ADD COLUMN speakers text[] NOT NULL DEFAULT '{}';
    ALTER TABLE unit ADD COLUMN metadata text NOT NULL DEFAULT '{}';
    CREATE TABLE unit_facet (
        namespace text COLLATE "C" NOT NULL,
        facet text COLLATE "C" NOT NULL,
        value text COLLATE "C" NOT NULL,
        seq bigint NOT NULL,
        unit_id text COLLATE "C" NOT NULL,
        PRIMARY KEY (namespace, facet, value, seq)
    );
    CREATE TABLE unit_said (
        namespace text COLLATE "C" NOT NULL,
        said double precision NOT NULL,
        seq bigint NOT NULL,
        unit_id text COLLATE "C" NOT NULL,
        PRIMARY KEY (namespace, said, seq)
    );
    CREATE TABLE namespace_person (
        namespace text COLLATE "C" PRIMARY KEY,
        name text NOT NULL
    );
    INSERT INTO unit_said (namespace, said, seq, unit_id)
        SELECT namespace, extract(epoch FROM session_time::timestamp)::float8, seq, id
        FROM unit WHERE session_time IS NOT NULL;
    """,
    # 5: the service's background jobs (stores/jobs_base.py), so every server over the store
    # answers for every job; ``lease_until`` is on the database's clock
    """
    CREATE TABLE job (
        id text COLLATE "C" PRIMARY KEY,
        namespace text COLLATE "C" NOT NULL,
        verb text NOT NULL,
        arguments text NOT NULL,
        owner text NOT NULL,
        status text NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
        attempts integer NOT NULL,
        lease_until timestamptz NOT NULL,
        created_at text NOT NULL,
        started_at text,
        finished_at text,
        result text,
        error_type text,
        error_message text
    );
    CREATE INDEX job_unfinished ON job (lease_until) WHERE status IN ('queued', 'running');
    CREATE INDEX job_namespace ON job (namespace);
    CREATE INDEX job_finished ON job (finished_at) WHERE finished_at IS NOT NULL;
    """,
    # 6: each unit's parse, kept for the statement reader (ripplemem.statements.kept); units
    # stored before have none (their clauses are parsed when read)
    """
    CREATE TABLE unit_parse (
        namespace text COLLATE "C" NOT NULL,
        seq bigint NOT NULL,
        parse bytea NOT NULL,
        PRIMARY KEY (namespace, seq)
    );
    """,
    # 7: a unit of several times (extra["time_spans"]) in the time index for each of them
    _named_times,
    # 8: Han characters and Hangul syllables as terms of their own: affected units indexed again
    _unigrams,
)

SCHEMA_VERSION = len(MIGRATIONS)


def lock_key(schema: str, name: str) -> sql.Composed:
    """The advisory lock key of ``name`` (a namespace, or a store-wide ``:``-prefixed name) in
    the store of ``schema``, as SQL: stores in other schemas of the database never wait on it."""
    return sql.SQL("{}, hashtext({})").format(sql.Literal(LOCK_CLASS), sql.Literal(f"{schema}/{name}"))


def search_path(schema: str, extension_schema: str) -> sql.Composed:
    """``SET search_path`` to the store's schema, then the one holding pgvector's types."""
    names = [schema] if extension_schema == schema else [schema, extension_schema]
    return sql.SQL("SET search_path TO {}").format(
        sql.SQL(", ").join(sql.Identifier(name) for name in names)
    )


def migrate(connection: psycopg.Connection, schema: str, url: str) -> str:
    """Bring the store's schema up to :data:`SCHEMA_VERSION` (creating the schema, the pgvector
    extension and the tables when missing); refuse a newer or a foreign schema.

    Returns the schema pgvector's types live in (the connection's ``search_path`` needs it)."""
    with connection.transaction():
        connection.execute(
            sql.SQL("SELECT pg_advisory_xact_lock({})").format(lock_key(schema, ":migrate"))
        )
        connection.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))
        extension_schema = _ensure_vector_extension(connection, url)
        connection.execute(search_path(schema, extension_schema))
        version = _recorded_version(connection, url)
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"the store at {url} has schema version {version} but this ripplemem knows up "
                f"to {SCHEMA_VERSION}; upgrade ripplemem to open it"
            )
        if version == 0:
            connection.execute(
                "CREATE TABLE schema_version (version integer PRIMARY KEY, applied_at text NOT NULL)"
            )
        for number in range(version + 1, SCHEMA_VERSION + 1):
            step = MIGRATIONS[number - 1]
            if callable(step):
                step(connection)
            else:
                connection.execute(step)
            connection.execute(
                "INSERT INTO schema_version (version, applied_at) VALUES (%s, %s)",
                (number, datetime.now(UTC).isoformat(timespec="seconds")),
            )
    return extension_schema


def has_store_tables(connection: psycopg.Connection, schema: str) -> bool:
    """Whether ``schema`` holds a ripplemem store's version table (read only: a schema that is
    not there holds none). Read from the catalog, which shows every table whatever this user may
    read (``information_schema`` shows only those)."""
    found = connection.execute(
        "SELECT 1 FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_namespace AS n "
        "ON n.oid = c.relnamespace WHERE n.nspname = %s AND c.relname = 'schema_version'",
        (schema,),
    ).fetchone()
    return found is not None


def fix_dimension(connection: psycopg.Connection, schema: str, dim: int) -> int:
    """The store's vector dimension: ``dim`` if none was fixed yet, in which case the vector
    column gets it, inside the caller's transaction (the first write of vectors or of an embedder
    record)."""
    connection.execute(
        sql.SQL("SELECT pg_advisory_xact_lock({})").format(lock_key(schema, ":dimension"))
    )
    row = connection.execute("SELECT value FROM meta WHERE key = 'vector_dim'").fetchone()
    if row is not None:
        return int(row[0])
    connection.execute(
        sql.SQL("ALTER TABLE unit_vector ALTER COLUMN embedding TYPE vector({})").format(
            sql.Literal(int(dim))
        )
    )
    connection.execute("INSERT INTO meta (key, value) VALUES ('vector_dim', %s)", (str(dim),))
    return dim


def _ensure_vector_extension(connection: psycopg.Connection, url: str) -> str:
    """Create pgvector in the database when missing; returns the schema holding its types."""
    query = (
        "SELECT n.nspname, e.extversion FROM pg_extension AS e "
        "JOIN pg_namespace AS n ON n.oid = e.extnamespace WHERE e.extname = 'vector'"
    )
    found = connection.execute(query).fetchone()
    if found is not None:
        return str(found[0])
    try:
        with connection.transaction():
            connection.execute("CREATE EXTENSION IF NOT EXISTS vector")
    except psycopg.errors.InsufficientPrivilege as error:
        raise StoreError(
            f"the database at {url} lacks the pgvector extension and this user may not create "
            "it; ask its owner to run CREATE EXTENSION vector in that database"
        ) from error
    except psycopg.errors.FeatureNotSupported as error:
        raise StoreError(
            f"the server at {url} has no pgvector extension installed ({error}); install "
            "pgvector 0.8 or newer on the server"
        ) from error
    except psycopg.errors.UndefinedFile as error:
        raise StoreError(
            f"the server at {url} has no pgvector extension installed ({error}); install "
            "pgvector 0.8 or newer on the server"
        ) from error
    found = connection.execute(query).fetchone()
    assert found is not None
    return str(found[0])


def _recorded_version(connection: psycopg.Connection, url: str) -> int:
    tables = {
        row[0]
        for row in connection.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
    }
    if not tables:
        return 0
    not_ours = StoreError(
        f"the schema of {url} holds tables that are not a ripplemem store; give the store a "
        "schema of its own (...?schema=another_name)"
    )
    if "schema_version" not in tables or "meta" not in tables:
        raise not_ours
    row = connection.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
    if row is None or row[0] != FORMAT:
        raise not_ours
    found = connection.execute("SELECT max(version) FROM schema_version").fetchone()
    return int(found[0] or 0) if found else 0
