"""What the PostgreSQL store does beyond the contract: its URL, schema, HNSW indexes, caches of
other connections' writes, faults, and the Memory facade on it (against SQLite)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
import psycopg
import pytest

from ripplemem import Memory, Settings
from ripplemem.errors import ConfigurationError, EmbedderMismatchError, StoreError
from ripplemem.records import Cues, Edge
from ripplemem.stores.base import add_edges, search_dense
from ripplemem.stores.postgres import PostgresStore
from ripplemem.stores.postgres.location import parse_location
from ripplemem.stores.postgres.schema import SCHEMA_VERSION
from ripplemem.stores.registry import open_store
from ripplemem.testing.builders import DIM, day_span, make_unit, unit_vectors

from .filter_upgrade import check_upgraded, old_units

StoreUrl = Callable[[str], str]


def test_a_url_keeps_libpq_options_and_takes_ours_out() -> None:
    where = parse_location("postgres://ann:secret@db.example:6543/mem?sslmode=require&schema=team_a")
    assert where.schema == "team_a"
    assert "schema=" not in where.conninfo and "sslmode=require" in where.conninfo
    assert "application_name=ripplemem" in where.conninfo
    assert "secret" not in where.url and "ann:***@db.example:6543" in where.url
    assert parse_location("postgresql://localhost/mem").schema == "ripplemem"
    with pytest.raises(ConfigurationError, match="schema"):
        parse_location("postgresql://localhost/mem?schema=drop table")


def test_an_unreachable_server_is_named_without_its_password() -> None:
    url = "postgresql://ann:s3cret@127.0.0.1:1/mem?connect_timeout=2"
    with pytest.raises(StoreError) as caught:
        open_store(url)
    message = str(caught.value)
    assert "127.0.0.1:1" in message and "s3cret" not in message and "***" in message
    assert "check that the server is running" in message


def test_postgres_scheme_alias_opens_the_same_store(postgres_store_url: StoreUrl) -> None:
    url = postgres_store_url("main")
    with open_store(url) as first:
        first.add_units([make_unit("a")])
    with open_store(url.replace("postgresql://", "postgres://", 1)) as again:
        assert isinstance(again, PostgresStore) and again.count("ns") == 1
        assert "***" in again.url or "@" not in again.url


def test_the_schema_is_versioned_and_a_foreign_one_refused(
    postgres_store_url: StoreUrl, postgres_url: str
) -> None:
    url = postgres_store_url("main")
    open_store(url).close()
    schema = parse_location(url).schema
    with psycopg.connect(postgres_url, autocommit=True) as db:
        (version,) = db.execute(f'SELECT max(version) FROM "{schema}".schema_version').fetchone()
        assert version == SCHEMA_VERSION
        db.execute(f'INSERT INTO "{schema}".schema_version VALUES (99, \'later\')')
    with pytest.raises(StoreError, match="schema version 99.*upgrade ripplemem"):
        open_store(url)
    foreign = postgres_store_url("foreign")
    with psycopg.connect(postgres_url, autocommit=True) as db:
        name = parse_location(foreign).schema
        db.execute(f'CREATE SCHEMA "{name}"; CREATE TABLE "{name}".orders (id int)')
    with pytest.raises(StoreError, match="not a ripplemem store"):
        open_store(foreign)


def test_a_store_built_with_another_embedder_is_refused_after_reopening(
    postgres_store_url: StoreUrl,
) -> None:
    url = postgres_store_url("main")
    with open_store(url) as store:
        store.check_embedder("minilm-int8", DIM)
        store.add_units([make_unit("a")])
    with open_store(url) as store:
        store.check_embedder("minilm-int8", DIM)
        with pytest.raises(EmbedderMismatchError, match="minilm-int8"):
            store.check_embedder("another-model", DIM)
        with pytest.raises(EmbedderMismatchError):
            store.check_embedder("minilm-int8", 768)


def test_a_memory_with_another_embedder_is_refused_as_on_sqlite(
    postgres_store_url: StoreUrl, embedder: Any
) -> None:
    from ripplemem.providers.openai_compat import OpenAICompatibleEmbedder
    from ripplemem.testing import ScriptedOpenAIServer

    url = postgres_store_url("main")
    settings = Settings(store=url, extractor="deterministic", planner="deterministic")
    with Memory(settings, embedder=embedder) as memory:
        memory.add(CHAT[:3], namespace="maya", session_time="2024-05-20T10:00")
        kept = len(memory.list(namespace="maya"))
    with ScriptedOpenAIServer() as server:
        other = OpenAICompatibleEmbedder(server.base_url, "other-model", embedder.dim)
        with pytest.raises(EmbedderMismatchError, match=embedder.name) as caught:
            Memory(settings, embedder=other)
        assert "other-model" in str(caught.value)
    with Memory(settings, embedder=embedder) as memory:  # nothing was lost
        assert kept > 0 and len(memory.list(namespace="maya")) == kept


def test_a_large_namespace_gets_its_own_hnsw_index(
    postgres_store_url: StoreUrl, postgres_url: str
) -> None:
    vectors = unit_vectors(260, seed=5)
    with open_store(postgres_store_url("main"), ann_threshold=100) as store:
        store.add_units([make_unit(f"b{i}", namespace="big", vector=v) for i, v in enumerate(vectors[:150])])
        store.add_units([make_unit(f"s{i}", namespace="small", vector=v) for i, v in enumerate(vectors[150:210])])
        schema = store.schema  # type: ignore[attr-defined]
        with psycopg.connect(postgres_url, autocommit=True) as db:
            indexes = db.execute(
                "SELECT indexdef FROM pg_indexes WHERE schemaname = %s AND indexdef LIKE %s",
                (schema, "%hnsw%"),
            ).fetchall()
        assert len(indexes) == 1 and "'big'" in indexes[0][0]  # the small one stays exact
        queries = unit_vectors(20, seed=6)
        found = store.search_dense_many("big", queries, 10)
        exact = np.argsort(-(vectors[:150] @ queries.T), axis=0)[:10].T
        recall = np.mean(
            [len({f"b{i}" for i in row} & {h for h, _ in hits}) / 10 for row, hits in zip(exact, found)]
        )
        assert recall >= 0.95 and all(len(hits) == 10 for hits in found)
        for hits in found:
            assert all(0.0 <= s <= 1.0 or s < 0 for _, s in hits)
            assert [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)
        # a write block sees its own units through the index, and they are gone if it fails
        new = unit_vectors(1, seed=77)[0]
        with pytest.raises(RuntimeError), store.write(["big"]):
            store.add_units([make_unit("fresh", namespace="big", vector=new)])
            assert search_dense(store, "big", new, 1)[0][0] == "fresh"
            raise RuntimeError("rolled back")
        assert search_dense(store, "big", new, 1)[0][0] != "fresh"
        store.delete_unit("big", "b0")
        assert "b0" not in [h for h, _ in search_dense(store, "big", vectors[0], 5)]


def test_each_store_sees_what_another_added_and_deleted(postgres_store_url: StoreUrl) -> None:
    """The exact-search cache follows other connections: additions, deletions, a new namespace."""
    url = postgres_store_url("main")
    vectors = unit_vectors(30, seed=8)
    with open_store(url) as reader, open_store(url) as writer:
        writer.add_units([make_unit(f"u{i}", vector=vectors[i]) for i in range(10)])
        assert search_dense(reader, "ns", vectors[3], 1)[0][0] == "u3"  # the cache is loaded
        writer.add_units([make_unit(f"u{i}", vector=vectors[i]) for i in range(10, 20)])
        assert search_dense(reader, "ns", vectors[15], 1)[0][0] == "u15"  # rows added after
        writer.delete_unit("ns", "u15")
        assert search_dense(reader, "ns", vectors[15], 1)[0][0] != "u15"
        writer.delete_namespace("ns")
        assert search_dense(reader, "ns", vectors[3], 1) == []
        writer.add_units([make_unit("again", vector=vectors[3])])
        assert search_dense(reader, "ns", vectors[3], 3) == [("again", pytest.approx(1.0, abs=1e-5))]


def _terminate_open_writer(postgres_url: str) -> int:
    """End the backend of the one ripplemem connection that is inside a transaction."""
    with psycopg.connect(postgres_url, autocommit=True) as db:
        rows = db.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE application_name = 'ripplemem' AND state LIKE 'idle in transaction%'"
        ).fetchall()
    return len(rows)


def test_a_connection_lost_inside_a_write_loses_the_whole_write(
    postgres_store_url: StoreUrl, postgres_url: str
) -> None:
    with open_store(postgres_store_url("main")) as store:
        store.add_units([make_unit("kept")])
        with pytest.raises(StoreError, match="connection") as caught, store.write(["ns"]):
            store.add_units([make_unit("first-half", participants=("Ann",))])
            add_edges(store, [Edge("ns", "first-half", "kept", "semantic", 0.9)])
            assert _terminate_open_writer(postgres_url) == 1
            store.add_units([make_unit("second-half")])
        assert "***" in str(caught.value) or "@" not in store.url
        assert [u.id for u in store.list_units("ns")] == ["kept"]
        assert store.neighbours("ns", ["kept"], "semantic") == {"kept": []}
        assert store.cue_values("ns", "P") == []
        store.add_units([make_unit("first-half")])  # the next write works
        assert store.count("ns") == 2


class _SeveredOnce:
    """A store that ends its own connection to the server the second time units are added."""

    def __init__(self, inner: Any, postgres_url: str) -> None:
        self._inner, self._url, self.adds = inner, postgres_url, 0

    def add_units(self, units: Any) -> None:
        self.adds += 1
        if self.adds == 2:
            _terminate_open_writer(self._url)
        self._inner.add_units(units)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


CHAT = [
    {"speaker": "Maya", "text": "I went to Lisbon with Priya two weekends ago, we loved the trams."},
    {"speaker": "Sam", "text": "Nice! Did you try the pastel de nata?"},
    {"speaker": "Maya", "text": "Yes, every day. I am allergic to shellfish, so I skipped seafood."},
    {"speaker": "Sam", "text": "You should take Maya to Harbor Grill for her birthday dinner."},
    {"speaker": "Alex", "text": "Good idea, I will book a table for next Friday at Harbor Grill."},
    {"speaker": "Maya", "text": "My sister Lena is moving to Berlin in June for a design job."},
]


def _memory_state(memory: Memory, namespace: str) -> tuple[list, dict, list]:
    store = memory.store
    units = sorted((u.id, u.restatement) for u in store.list_units(namespace))
    ids = [unit_id for unit_id, _ in units]
    edges = {
        kind: {k: [(i, round(w, 5)) for i, w in v] for k, v in store.neighbours(namespace, ids, kind).items()}
        for kind in ("semantic", "structural")
    }
    found = memory.search("Where did Maya travel with Priya?", namespace=namespace)
    return units, edges, [e.unit.id for e in found.evidence]


def test_memory_on_postgres_matches_memory_on_sqlite(
    postgres_store_url: StoreUrl, tmp_path: Any, embedder: Any
) -> None:
    settings = {"extractor": "deterministic", "planner": "deterministic"}
    with Memory(Settings(store=postgres_store_url("main"), **settings), embedder=embedder) as pg:
        pg.add(CHAT[:3], namespace="maya", session_time="2024-05-20T10:00")
        pg.add(CHAT[3:], namespace="maya", session_time="2024-05-22T18:00")
        on_postgres = _memory_state(pg, "maya")
    with Memory(Settings(store=str(tmp_path / "m.db"), **settings), embedder=embedder) as lite:
        lite.add(CHAT[:3], namespace="maya", session_time="2024-05-20T10:00")
        lite.add(CHAT[3:], namespace="maya", session_time="2024-05-22T18:00")
        on_sqlite = _memory_state(lite, "maya")
    assert on_postgres == on_sqlite and on_postgres[2]


def test_an_add_cut_off_by_a_lost_connection_leaves_nothing_and_the_next_works(
    postgres_store_url: StoreUrl, postgres_url: str, embedder: Any
) -> None:
    url = postgres_store_url("main")
    settings = Settings(store=url, extractor="deterministic", planner="deterministic")
    long_chat = CHAT * 12  # several insert batches in one add
    with open_store(url) as inner:
        severed = _SeveredOnce(inner, postgres_url)
        with Memory(settings, store=severed, embedder=embedder) as memory:  # type: ignore[arg-type]
            memory.add(CHAT[:2], namespace="other", session_time="2024-05-01T10:00")
            with pytest.raises(StoreError, match="connection"):
                memory.add(long_chat, namespace="maya", session_time="2024-05-20T10:00")
            assert severed.adds >= 2
            assert inner.count("maya") == 0 and inner.clues.clue_count("maya") == 0
            assert inner.count("other") > 0
            again = memory.add(long_chat, namespace="maya", session_time="2024-05-20T10:00")
            assert again.units and inner.count("maya") == len(again.units)


def test_the_command_line_takes_a_postgres_url(postgres_store_url: StoreUrl, tmp_path: Any) -> None:
    import json

    from typer.testing import CliRunner

    from ripplemem.cli.main import app

    chat = tmp_path / "chat.jsonl"
    lines = [{"session_id": "s1", "time": "2024-05-20T10:00", **message} for message in CHAT]
    chat.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    url = postgres_store_url("cli")
    env = {"RIPPLEMEM_STORE": None, "RIPPLEMEM_LLM_BASE_URL": None, "RIPPLEMEM_LLM_MODEL": None}
    runner = CliRunner()
    added = runner.invoke(app, ["ingest", str(chat), "--store", url, "-n", "maya"], env=env)
    assert added.exit_code == 0, added.output
    found = runner.invoke(
        app, ["search", "Where did Maya travel with Priya?", "--store", url, "-n", "maya"], env=env
    )
    assert found.exit_code == 0 and "Lisbon" in found.output
    with open_store(url) as store:
        assert store.count("maya") > 0


def test_a_benchmark_workspace_opens_a_store_url(postgres_store_url: StoreUrl) -> None:
    """``ripplemem bench locomo --store postgresql://...`` keeps its memory there."""
    from ripplemem.training.workspace import Workspace

    settings = Settings(extractor="deterministic", planner="deterministic")
    with Workspace("locomo", settings=settings, store=postgres_store_url("bench")) as space:
        assert space.memory is not None and isinstance(space.memory.store, PostgresStore)


#: the migration that added speakers, metadata, the filter index and the namespace's person
FILTER_MIGRATION = 4


def test_a_store_from_before_the_kept_parses_is_upgraded(
    postgres_store_url: StoreUrl, postgres_url: str
) -> None:
    url = postgres_store_url("old")
    with open_store(url) as store:
        store.add_units([make_unit("old")])
    schema = parse_location(url).schema
    with psycopg.connect(postgres_url, autocommit=True) as db:  # back to the schema before it
        db.execute(f'SET search_path TO "{schema}"')
        db.execute("DROP TABLE unit_parse")
        db.execute("DELETE FROM schema_version WHERE version >= %s", (PARSE_MIGRATION,))
    with open_store(url) as store:
        assert store.get_parses("ns", ["old"]) == {}  # parsed when read
        store.add_parses("ns", {"old": b"later"})
        assert store.get_parses("ns", ["old"]) == {"old": b"later"}
    with psycopg.connect(postgres_url, autocommit=True) as db:
        versions = [row[0] for row in db.execute(f'SELECT version FROM "{schema}".schema_version')]
        assert versions == list(range(1, SCHEMA_VERSION + 1))


#: the migration that added the units' kept parses
PARSE_MIGRATION = 6
#: the migration that put a unit of several times in the time index for each
NAMED_TIMES_MIGRATION = 7


def test_a_store_from_before_the_named_times_index_is_upgraded(
    postgres_store_url: StoreUrl, postgres_url: str
) -> None:
    url = postgres_store_url("old")
    wedding, house = day_span(0), day_span(1800, days=30)
    both = replace(
        make_unit("both", time_span=wedding),
        extra={"time_spans": [[s.start.isoformat(), s.end.isoformat()] for s in (wedding, house)]},
    )
    in_april = Cues(time_span=day_span(1810))
    with open_store(url) as store:
        store.add_units([both])
    schema = parse_location(url).schema
    with psycopg.connect(postgres_url, autocommit=True) as db:  # back to the schema before it
        db.execute(f'SET search_path TO "{schema}"')
        (start,) = db.execute("SELECT min(t_start) FROM time_span").fetchone()  # the wedding's
        db.execute("DELETE FROM time_span WHERE t_start <> %s", (start,))
        db.execute("DELETE FROM schema_version WHERE version >= %s", (NAMED_TIMES_MIGRATION,))
    with open_store(url) as store:
        assert store.cue_candidates("ns", in_april, near=None, per_value=5) == ["both"]
        assert store.delete_unit("ns", "both")
    with psycopg.connect(postgres_url, autocommit=True) as db:
        assert db.execute(f'SELECT count(*) FROM "{schema}".time_span').fetchone() == (0,)
        versions = [row[0] for row in db.execute(f'SELECT version FROM "{schema}".schema_version')]
        assert versions == list(range(1, SCHEMA_VERSION + 1))


def test_a_store_from_before_the_filter_index_is_upgraded(
    postgres_store_url: StoreUrl, postgres_url: str
) -> None:
    url = postgres_store_url("old")
    with open_store(url) as store:
        store.add_units(old_units())
    schema = parse_location(url).schema
    with psycopg.connect(postgres_url, autocommit=True) as db:  # back to the schema before it
        db.execute(f'SET search_path TO "{schema}"')
        db.execute("DROP TABLE unit_facet, unit_said, namespace_person")
        db.execute("DROP TABLE job, unit_parse")  # and what later migrations made (5: background
        # jobs, 6: kept parses)
        db.execute("ALTER TABLE unit DROP COLUMN speakers, DROP COLUMN metadata")
        db.execute("DELETE FROM schema_version WHERE version >= %s", (FILTER_MIGRATION,))
    with open_store(url) as store:
        check_upgraded(store)
    with psycopg.connect(postgres_url, autocommit=True) as db:
        versions = [row[0] for row in db.execute(f'SELECT version FROM "{schema}".schema_version')]
        assert versions == list(range(1, SCHEMA_VERSION + 1))
        said = db.execute(f'SELECT count(*) FROM "{schema}".unit_said').fetchone()[0]
        assert said == 2  # may and new: the deleted unit's row went with it
    with open_store(url) as store:
        assert store.person("ns") == "Ann"


def test_a_supersedes_edge_stored_without_its_direction_is_read_by_time(
    postgres_store_url: StoreUrl, postgres_url: str
) -> None:
    """Both rows of the edge positive (written before its direction was kept): the unit said
    later supersedes, read the same from either end; an edge written now keeps its direction."""
    from datetime import datetime

    url = postgres_store_url("undirected")
    with open_store(url) as store:
        store.add_units([
            make_unit("early", session_time=datetime(2024, 1, 1)),
            make_unit("late", session_time=datetime(2024, 6, 1)),
            make_unit("other", session_time=datetime(2023, 1, 1)),
        ])
    schema = parse_location(url).schema
    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute(f'SET search_path TO "{schema}"')
        db.execute(
            "INSERT INTO edge (namespace, src, kind, dst, weight) VALUES "
            "('ns', 'early', 'supersedes', 'late', 1.0), ('ns', 'late', 'supersedes', 'early', 1.0)"
        )
    with open_store(url) as store:
        for end in ("early", "late"):
            assert store.edges_of("ns", end) == [Edge("ns", "late", "early", "supersedes", 1.0)]
        assert store.neighbours("ns", ["early"], "supersedes") == {"early": [("late", 1.0)]}
        add_edges(store, [Edge("ns", "other", "late", "supersedes", 1.0)])  # said before, yet newer
        assert Edge("ns", "other", "late", "supersedes", 1.0) in store.edges_of("ns", "late")
        assert store.edges_of("ns", "other") == [Edge("ns", "other", "late", "supersedes", 1.0)]
