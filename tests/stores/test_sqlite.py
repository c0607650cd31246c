"""What only the SQLite store promises: a durable file, WAL, migrations, the HNSW cache."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import numpy as np
import pytest

from ripplemem.errors import InvalidInputError, StoreError
from ripplemem.records import Cues, Edge
from ripplemem.stores.base import add_edges, search_dense
from ripplemem.stores.cuekeys import epoch_seconds
from ripplemem.stores.memory import InMemoryStore
from ripplemem.stores.sqlite import SQLiteStore, rows, schema
from ripplemem.stores.sqlite.schema import SCHEMA_VERSION
from ripplemem.stores.text import document_terms

from . import DIM, T0, day_span, make_unit, unit_vectors
from .filter_upgrade import check_upgraded, old_units

_EDGE_TABLE = next(  # schema 1's edge table, as migration 1 created it
    statement
    for statement in schema._statements(schema.MIGRATIONS[0])  # type: ignore[arg-type]
    if statement.startswith("CREATE TABLE edge ")
)


def downgrade(raw: sqlite3.Connection, version: int) -> None:
    """Turn a file back to before migration ``version`` (5 to 11), keeping its data (a unit's
    speakers and metadata, which schema 9 added, and its parse, which schema 10 added, are lost;
    schema 8 only re-indexed the lexical terms, and schema 11 the named times, which the upgrade
    does again)."""
    for ns, seq, t_start, t_end in raw.execute(  # migration 11: a unit in the time index once
        "SELECT namespace, seq, t_start, t_end FROM unit WHERE t_start IS NOT NULL"
    ).fetchall():
        start = epoch_seconds(datetime.fromisoformat(t_start))
        raw.execute("DELETE FROM time_span WHERE namespace = ? AND seq = ? AND t_start <> ?", (ns, seq, start))
    if version >= NAMED_TIMES_MIGRATION:
        raw.execute("DELETE FROM schema_version WHERE version >= ?", (version,))
        return
    raw.execute("DROP TABLE IF EXISTS unit_parse")  # migration 10: a unit is parsed when read
    if version >= PARSE_MIGRATION:
        raw.execute("DELETE FROM schema_version WHERE version >= ?", (version,))
        return
    edges = []
    if version <= 6:  # read by the current schema's store, before anything is taken back
        with SQLiteStore(raw.execute("PRAGMA database_list").fetchone()[2]) as store:
            edges = [
                e
                for ns in store.namespaces()
                for u in store.list_units(ns)
                for e in store.edges_of(ns, u.id)
            ]
    raw.executescript(  # migration 9: the filter index and the columns it reads
        "DROP TABLE IF EXISTS unit_facet; DROP TABLE IF EXISTS unit_said; "
        "DROP TABLE IF EXISTS namespace_person; "
        "ALTER TABLE unit DROP COLUMN speakers; ALTER TABLE unit DROP COLUMN metadata;"
    )
    if version >= 8:
        raw.execute("DELETE FROM schema_version WHERE version >= ?", (version,))
        return
    raw.execute("DROP TABLE IF EXISTS api_key")  # migration 7: keys hold no unit data
    if version <= 6:  # edges back to rows (schema 1's table), from the namespaces' graphs
        raw.execute(_EDGE_TABLE)
        raw.executemany(
            "INSERT OR REPLACE INTO edge VALUES (?, ?, ?, ?, ?)",
            [(e.namespace, e.src, e.kind, e.dst, e.weight) for e in edges],
        )
        raw.executescript(
            "DROP TABLE edge_state; DROP TABLE edge_snapshot; DROP TABLE edge_journal"
        )
    if version <= 5:  # staged postings back into the posting table
        raw.executescript(
            "INSERT INTO lexical_posting SELECT * FROM lexical_recent; DROP TABLE lexical_recent; "
            "ALTER TABLE lexical_namespace DROP COLUMN recent;"
        )
    raw.execute("DELETE FROM schema_version WHERE version >= ?", (version,))


def test_everything_survives_close_and_reopen(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    units = [
        make_unit(
            f"u{i}",
            restatement=f"Caroline painted picture number {i} by the lake.",
            participants=("Caroline",),
            locations=("Lake Tahoe",),
            time_span=day_span(i),
        )
        for i in range(6)
    ]
    with SQLiteStore(path) as store:
        store.check_embedder("minilm-int8", DIM)
        store.add_units(units)
        add_edges(store, [Edge("ns", "u0", "u1", "semantic", 0.9)])
        add_edges(store, [Edge("ns", "u0", "u2", "structural", 0.7)])
        before = (
            search_dense(store, "ns", units[3].vector, 3),
            store.search_lexical("ns", "painted picture lake", 6),
            store.centroid("ns"),
        )
    with SQLiteStore(path) as store:
        assert store.embedder_info() == ("minilm-int8", DIM)
        assert store.namespaces() == ["ns"] and store.count("ns") == 6
        got = store.get_units("ns", [u.id for u in units])
        assert [g.to_json() for g in got] == [u.to_json() for u in units]
        assert store.edges_of("ns", "u0") == [
            Edge("ns", "u0", "u1", "semantic", 0.9),
            Edge("ns", "u0", "u2", "structural", 0.7),
        ]
        assert store.neighbours("ns", ["u1"], "semantic") == {"u1": [("u0", 0.9)]}
        assert search_dense(store, "ns", units[3].vector, 3) == before[0]
        assert store.search_lexical("ns", "painted picture lake", 6) == before[1]
        np.testing.assert_allclose(store.centroid("ns"), before[2], atol=1e-6)
        cues = Cues(participants=("caroline",), locations=("lake tahoe",))
        assert sorted(store.cue_candidates("ns", cues, near=T0, per_value=2)) == ["u0", "u1"]
        assert store.cue_values("ns", "L") == ["lake tahoe"]


def test_the_file_uses_wal_and_records_its_schema_version(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    SQLiteStore(path).close()
    SQLiteStore(path).close()  # reopening applies nothing twice
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    versions = raw.execute("SELECT version FROM schema_version").fetchall()
    assert versions == [(v,) for v in range(1, SCHEMA_VERSION + 1)]
    raw.close()
    store = SQLiteStore(path)
    assert store.journal_mode == "wal"
    store.close()


def _rollback_file_held(path: Path) -> tuple[sqlite3.Connection, sqlite3.Connection]:
    """A file still in rollback mode, with a second connection in a write transaction on it (as
    another process's migration of a new file is), and a first connection that waits 5 s."""
    first = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    first.execute("CREATE TABLE t (x)")
    first.execute("PRAGMA busy_timeout=5000")
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    return first, holder


def test_the_switch_to_wal_waits_for_another_processes_write_on_a_new_file(tmp_path: Path) -> None:
    from ripplemem.stores.sqlite.store import enter_wal

    first, holder = _rollback_file_held(tmp_path / "plain.db")
    with pytest.raises(sqlite3.OperationalError, match="locked"):  # SQLite does not wait here
        first.execute("PRAGMA journal_mode=WAL")
    holder.execute("ROLLBACK")
    first.close(), holder.close()

    first, holder = _rollback_file_held(tmp_path / "store.db")
    release = threading.Timer(0.3, holder.execute, ("COMMIT",))
    release.start()
    try:
        assert enter_wal(first, wait_s=10.0) == "wal"  # tried again until the writer is done
    finally:
        release.join()
    assert holder.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    first.close(), holder.close()


def test_the_switch_to_wal_gives_up_after_its_wait(tmp_path: Path) -> None:
    from ripplemem.stores.sqlite.store import enter_wal

    first, holder = _rollback_file_held(tmp_path / "held.db")
    started = time.monotonic()
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        enter_wal(first, wait_s=0.3)
    assert 0.2 < time.monotonic() - started < 3.0
    holder.execute("ROLLBACK")
    assert first.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # nothing switched
    first.close(), holder.close()


def test_refuses_a_sqlite_file_that_is_not_a_ripplemem_store(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    raw.commit()
    raw.close()
    with pytest.raises(StoreError, match="not a ripplemem store"):
        SQLiteStore(path)
    assert sqlite3.connect(path).execute("SELECT name FROM sqlite_master").fetchall() == [
        ("invoices",)
    ]


def test_refuses_a_file_that_is_not_sqlite(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"these are my notes, not a database" * 200)
    with pytest.raises(StoreError, match="not a SQLite database"):
        SQLiteStore(path)


def test_refuses_a_newer_schema(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    SQLiteStore(path).close()
    raw = sqlite3.connect(path)
    raw.execute("INSERT INTO schema_version VALUES (?, 'later')", (SCHEMA_VERSION + 1,))
    raw.commit()
    raw.close()
    with pytest.raises(StoreError, match="upgrade ripplemem"):
        SQLiteStore(path)


def test_a_second_connection_sees_writes_made_through_the_first(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    vectors = unit_vectors(4, seed=21)
    with SQLiteStore(path) as reader, SQLiteStore(path) as writer:
        writer.add_units([make_unit(f"u{i}", vector=v) for i, v in enumerate(vectors[:3])])
        assert search_dense(reader, "ns", vectors[2], 1)[0][0] == "u2"  # loads the index
        writer.add_units([make_unit("u3", vector=vectors[3])])
        writer.delete_unit("ns", "u2")
        assert search_dense(reader, "ns", vectors[3], 1)[0][0] == "u3"
        assert "u2" not in [i for i, _ in search_dense(reader, "ns", vectors[2], 4)]


def test_lexical_scores_match_the_in_memory_bm25(tmp_path: Path) -> None:
    texts = [
        "Caroline recommended a book about adoption.",
        "Melanie read the book twice and recommended it to her kids.",
        "Caroline went to a pride parade with friends in June.",
        "Melanie's kids love pottery and painting; pottery relaxes them.",
    ]
    units = [make_unit(f"t{i}", restatement=t) for i, t in enumerate(texts)]
    memory = InMemoryStore()
    memory.add_units(units)
    with SQLiteStore(tmp_path / "memory.db") as store:
        store.add_units(units)
        for query in ("recommended book", "pottery kids", "Caroline pride"):
            fts, reference = (
                store.search_lexical("ns", query, 4),
                memory.search_lexical("ns", query, 4),
            )
            same_ranking(fts, reference)


def same_ranking(got: list[tuple[str, float]], expected: list[tuple[str, float]]) -> None:
    """The same ids in the same order, and the same scores up to summation order."""
    assert [i for i, _ in got] == [i for i, _ in expected] and got
    np.testing.assert_allclose([s for _, s in got], [s for _, s in expected], rtol=1e-12)


def write_schema2_unit(raw: sqlite3.Connection, unit) -> None:
    """What schema-2 code wrote for a unit (vectors aside): its row and its FTS5 entry."""
    names = [c.strip() for c in rows.UNIT_COLUMNS.split(",")][:14]  # schema 2 had 14 columns
    marks = ", ".join("?" * len(names))
    seq = raw.execute(
        f"INSERT INTO unit ({', '.join(names)}) VALUES ({marks})", rows.unit_values(unit)[:14]
    ).lastrowid
    token = "ns" + hashlib.sha256(unit.namespace.encode()).hexdigest()[:40]
    body = " ".join(document_terms(unit.restatement, unit.keywords))
    raw.execute("INSERT INTO lexical (rowid, ns, body) VALUES (?, ?, ?)", (seq, token, body))


def test_a_store_indexed_by_fts5_is_migrated_to_postings(tmp_path: Path) -> None:
    """Schema 3 rebuilds the lexical index of a schema-2 file (FTS5) from its FTS rows."""
    path = tmp_path / "memory.db"
    raw = sqlite3.connect(path, isolation_level=None)
    for number in (1, 2):
        schema._apply(raw, number)
    fillers = ["Melanie painted a sunset.", "Caroline went hiking.", "They met for lunch."]
    texts = {
        "ns": ["Caroline recommended a book about adoption.", "Melanie read the book twice."],
        "other": ["Adoption papers, adoption agencies.", "A book.", "A book on adoption."],
    }
    texts = {ns: group + fillers for ns, group in texts.items()}
    units = [
        make_unit(f"{ns}{i}", namespace=ns, restatement=text)
        for ns, group in texts.items()
        for i, text in enumerate(group)
    ]
    for unit in units:
        write_schema2_unit(raw, unit)
    raw.close()
    reference = InMemoryStore()
    reference.add_units(units)
    with SQLiteStore(path) as store:
        for namespace, query in (("ns", "book adoption"), ("other", "adoption book")):
            same_ranking(
                store.search_lexical(namespace, query, 5),
                reference.search_lexical(namespace, query, 5),
            )
        assert store.count("ns") == 5 and store.count("other") == 6
        store.delete_unit("ns", "ns0")  # the migrated counts are kept up to date
        reference.delete_unit("ns", "ns0")
        same_ranking(
            store.search_lexical("ns", "book", 5), reference.search_lexical("ns", "book", 5)
        )
        assert store.count("ns") == 4
    tables = sqlite3.connect(path).execute("SELECT name FROM sqlite_master").fetchall()
    assert ("lexical",) not in tables and ("lexical_posting",) in tables


def test_a_schema3_file_gets_a_covering_cue_time_index(tmp_path: Path) -> None:
    """Schema 4 adds unit_id to the cue time index: the same answers, no table row per hit."""
    path = tmp_path / "memory.db"
    raw = sqlite3.connect(path, isolation_level=None)
    for number in (1, 2, 3):
        schema._apply(raw, number)
    raw.close()
    units = [
        make_unit(f"u{i}", participants=("Caroline",), time_span=day_span(i) if i % 3 else None)
        for i in range(12)
    ]
    with SQLiteStore(path) as store:  # opened at schema 4 already: fill it, then turn it back
        store.add_units(units)
    raw = sqlite3.connect(path, isolation_level=None)
    downgrade(raw, 5)
    raw.executescript(  # back to schema 3: the old index
        "DROP INDEX cue_by_time; "
        "CREATE INDEX cue_by_time ON cue (namespace, kind, value, t_key, seq); "
        "DELETE FROM schema_version WHERE version >= 4;"
    )
    raw.close()
    cues = Cues(participants=("Caroline",))
    with SQLiteStore(path) as store:
        plan = store._db.execute(
            "EXPLAIN QUERY PLAN SELECT t_key, seq, unit_id FROM cue WHERE namespace = 'ns' "
            "AND kind = 'P' AND value = 'caroline' AND t_key <= 0 ORDER BY t_key DESC LIMIT 3"
        ).fetchall()
        assert "COVERING INDEX cue_by_time" in plan[0][-1]
        found = store.cue_candidates("ns", cues, near=T0, per_value=5)
    reference = InMemoryStore()
    reference.add_units(units)
    assert found == reference.cue_candidates("ns", cues, near=T0, per_value=5)


# --- the HNSW path -------------------------------------------------------------------------


def exact_top(matrix: np.ndarray, query: np.ndarray, k: int) -> list[int]:
    return list(np.argsort(-(matrix @ query))[:k])


def recall_at_10(
    store: SQLiteStore, matrix: np.ndarray, alive: list[int], queries: np.ndarray
) -> float:
    hits = 0
    for query in queries:
        expected = {f"u{alive[i]}" for i in exact_top(matrix[alive], query, 10)}
        hits += len(expected & {i for i, _ in search_dense(store, "ns", query, 10)})
    return hits / (10 * len(queries))


def test_hnsw_above_the_threshold_agrees_with_exact_search(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    matrix = unit_vectors(1000, seed=5)
    queries = unit_vectors(30, seed=6)
    store = SQLiteStore(path, ann_threshold=300)
    store.add_units([make_unit(f"u{i}", vector=matrix[i]) for i in range(200)])
    assert store.index_stats("ns")["search"] == "exact"
    for start in range(200, 1000, 50):  # crossing the threshold while loaded, then incremental
        store.add_units([make_unit(f"u{i}", vector=matrix[i]) for i in range(start, start + 50)])
    stats = store.index_stats("ns")
    assert stats["search"] == "hnsw" and stats["vectors"] == 1000
    alive = list(range(1000))
    assert recall_at_10(store, matrix, alive, queries) >= 0.9

    deleted = list(range(0, 1000, 20))  # 5 %: stays as tombstones
    for i in deleted:
        assert store.delete_unit("ns", f"u{i}")
    assert store.index_stats("ns")["tombstones"] == len(deleted)
    alive = [i for i in alive if i not in set(deleted)]
    for i in deleted[:10]:
        assert f"u{i}" not in {u for u, _ in search_dense(store, "ns", matrix[i], 10)}
    assert recall_at_10(store, matrix, alive, queries) >= 0.9
    before = [search_dense(store, "ns", q, 10) for q in queries[:5]]
    store.close()

    reopened = SQLiteStore(path, ann_threshold=300)
    assert [search_dense(reopened, "ns", q, 10) for q in queries[:5]] == before
    assert reopened.index_stats("ns")["ann_origin"] == "cache"
    reopened.close()


def test_a_stale_hnsw_cache_is_brought_up_to_date(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    matrix = unit_vectors(460, seed=8)
    with SQLiteStore(path, ann_threshold=300) as store:
        store.add_units([make_unit(f"u{i}", vector=matrix[i]) for i in range(400)])
        assert store.index_stats("ns")["ann_origin"] == "built"
    with SQLiteStore(path, ann_threshold=300) as store:  # writes without loading the index
        store.add_units([make_unit(f"u{i}", vector=matrix[i]) for i in range(400, 460)])
        for i in range(10):
            store.delete_unit("ns", f"u{i}")
    with SQLiteStore(path, ann_threshold=300) as store:
        stats = store.index_stats("ns")
        assert stats["ann_origin"] == "cache" and stats["vectors"] == 450
        assert search_dense(store, "ns", matrix[455], 1)[0][0] == "u455"
        assert "u3" not in {u for u, _ in search_dense(store, "ns", matrix[3], 10)}
    raw = sqlite3.connect(path)
    (count,) = raw.execute("SELECT vector_count FROM ann_cache WHERE namespace = 'ns'").fetchone()
    assert count == 450  # the refreshed cache was written back on close


def test_many_deletes_rebuild_the_graph_and_small_namespaces_drop_it(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    matrix = unit_vectors(400, seed=9)
    with SQLiteStore(path, ann_threshold=300) as store:
        store.add_units([make_unit(f"u{i}", vector=matrix[i]) for i in range(400)])
        assert store.index_stats("ns")["search"] == "hnsw"
        for i in range(60):  # the 41st tombstone is > 10 % of 400 rows: compact and rebuild
            store.delete_unit("ns", f"u{i}")
        stats = store.index_stats("ns")
        assert stats["tombstones"] == 19 and stats["search"] == "hnsw" and stats["vectors"] == 340
        for i in range(60, 120):  # below the threshold again: exact search, cache dropped
            store.delete_unit("ns", f"u{i}")
        assert store.index_stats("ns")["search"] == "exact"
        assert search_dense(store, "ns", matrix[200], 1)[0][0] == "u200"
    raw = sqlite3.connect(path)
    assert raw.execute("SELECT count(*) FROM ann_cache").fetchone() == (0,)


def test_delete_unit_leaves_no_row_behind_in_any_table(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    keep = make_unit("keep", participants=("Ann",), locations=("Oslo",), time_span=day_span(1))
    gone = make_unit("gone", participants=("Ann",), locations=("Rome",), time_span=day_span(2))
    with SQLiteStore(path) as store:
        store.add_units([keep, gone])
        add_edges(store, [Edge("ns", "keep", "gone", "semantic", 0.9)])
        raw = sqlite3.connect(path)
        (seq,) = raw.execute("SELECT seq FROM unit WHERE id = 'gone'").fetchone()
        assert store.delete_unit("ns", "gone")
        counts = {
            "unit": "SELECT count(*) FROM unit WHERE seq = ?",
            "vector": "SELECT count(*) FROM vector WHERE seq = ?",
            "lexical_posting": "SELECT count(*) FROM lexical_posting WHERE seq = ?",
            "lexical_recent": "SELECT count(*) FROM lexical_recent WHERE seq = ?",
            "cue": "SELECT count(*) FROM cue WHERE seq = ?",
            "time_span": "SELECT count(*) FROM time_span WHERE seq = ?",
        }
        for table, sql in counts.items():
            assert raw.execute(sql, (seq,)).fetchone() == (0,), table
        with SQLiteStore(path) as other:  # its edges are gone from the file, not only here
            assert other.edges_of("ns", "gone") == other.edges_of("ns", "keep") == []
        staged = "SELECT count(DISTINCT seq) FROM lexical_recent"  # new postings are staged
        assert raw.execute(staged).fetchone() == (1,)
        assert raw.execute("SELECT recent FROM lexical_namespace").fetchone()[0] > 0
        # the counts follow: only the kept unit's terms, each in one unit
        assert raw.execute("SELECT max(df) FROM lexical_term").fetchone() == (1,)
        assert raw.execute("SELECT documents FROM lexical_namespace").fetchall() == [(1,)]
        raw.close()


def test_two_processes_opening_an_old_file_migrate_it_once(tmp_path: Path) -> None:
    """Both openers read schema 2, queue on the write lock; the second finds the work done."""
    import threading

    path = tmp_path / "memory.db"
    raw = sqlite3.connect(path, isolation_level=None)
    for number in (1, 2):
        schema._apply(raw, number)
    unit = make_unit("u0", restatement="Caroline went hiking in the Rockies.")
    write_schema2_unit(raw, unit)
    raw.execute("BEGIN IMMEDIATE")  # a third writer holds the lock while both open the file
    opened: list[SQLiteStore] = []
    failures: list[BaseException] = []

    def open_store() -> None:
        try:
            opened.append(SQLiteStore(path))
        except BaseException as error:  # noqa: BLE001 - reported below
            failures.append(error)

    threads = [threading.Thread(target=open_store) for _ in range(2)]
    for thread in threads:
        thread.start()
    threading.Event().wait(0.5)  # both are now waiting on the write lock
    raw.execute("ROLLBACK")
    for thread in threads:
        thread.join(timeout=60)
    assert not failures and len(opened) == 2
    check = sqlite3.connect(path)
    versions = [row[0] for row in check.execute("SELECT version FROM schema_version")]
    assert versions == sorted(set(versions)) and versions[-1] == SCHEMA_VERSION  # each once
    postings = check.execute("SELECT count(*) FROM lexical_posting").fetchone()[0]
    assert postings == len(set(document_terms(unit.restatement, unit.keywords)))  # not doubled
    assert [i for i, _ in opened[0].search_lexical(unit.namespace, "hiking", 5)] == ["u0"]
    for store in opened:
        store.close()
    check.close()
    raw.close()


def test_migration_scripts_split_into_whole_statements() -> None:
    script = "CREATE TABLE a (x TEXT DEFAULT ';');\n-- a comment\nCREATE INDEX a_x ON a (x);\n"
    assert schema._statements(script) == [
        "CREATE TABLE a (x TEXT DEFAULT ';');",
        "-- a comment\nCREATE INDEX a_x ON a (x);",
    ]
    with pytest.raises(StoreError, match="incomplete"):
        schema._statements("CREATE TABLE b (x")


def test_the_page_cache_and_checkpoints_are_sized(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "a.db") as store:
        assert store._db.execute("PRAGMA cache_size").fetchone()[0] == -64 * 1024
        assert store._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 10_000
    with SQLiteStore(tmp_path / "b.db", cache_mb=8) as store:
        assert store._db.execute("PRAGMA cache_size").fetchone()[0] == -8 * 1024
    for bad in (0, -5, 2.5, True):
        with pytest.raises(InvalidInputError, match="cache_mb"):
            SQLiteStore(tmp_path / "c.db", cache_mb=bad)  # type: ignore[arg-type]


# --- staged postings (schema 5) ------------------------------------------------------------

WORDS = "lake river boat zither violin hiking painting sunset garden novel".split()  # noqa: SIM905


def lexical_text(i: int) -> str:
    """Units that share words unevenly, so BM25 ranks them with many ties and near-ties."""
    return " ".join(WORDS[j % len(WORDS)] for j in range(i % 7, i % 7 + 1 + i % 4)) + f" n{i}"


@pytest.mark.parametrize("budget", [20_000, 9, 3])
def test_staged_postings_rank_exactly_like_one_table(tmp_path: Path, budget: int) -> None:
    """Across merges and deletes (staged and merged units), every answer equals the in-memory
    store's, within and beyond the posting budget (the over-budget term reads its latest
    postings, staged ones first)."""
    reference = InMemoryStore(lexical_budget=budget)
    queries = ("lake", "lake zither", "violin boat sunset", "garden novel lake river", "n3 lake")
    with SQLiteStore(tmp_path / "m.db", lexical_budget=budget, lexical_staged=12) as store:
        merges = 0
        for start in range(0, 40, 3):
            batch = [
                make_unit(f"u{i}", restatement=lexical_text(i)) for i in range(start, start + 3)
            ]
            staged_before = store._db.execute("SELECT count(*) FROM lexical_recent").fetchone()[0]
            store.add_units(batch)
            reference.add_units(batch)
            staged = store._db.execute("SELECT count(*) FROM lexical_recent").fetchone()[0]
            merges += staged < staged_before
            for query in queries:
                assert store.search_lexical("ns", query, 8) == reference.search_lexical(
                    "ns", query, 8
                ), (start, query)
        assert merges >= 3  # the test crossed several merges
        for gone in ("u2", "u38", "u39"):  # merged long ago, and still staged
            assert store.delete_unit("ns", gone) and reference.delete_unit("ns", gone)
        (recent,) = store._db.execute("SELECT recent FROM lexical_namespace").fetchone()
        (rows,) = store._db.execute("SELECT count(*) FROM lexical_recent").fetchone()
        assert recent == rows  # the staged count follows deletes
        for query in queries:
            assert store.search_lexical("ns", query, 8) == reference.search_lexical("ns", query, 8)
        assert store.count("ns") == reference.count("ns") == 39


def test_lexical_staged_must_be_a_positive_whole_number(tmp_path: Path) -> None:
    for bad in (0, 2.5, True):
        with pytest.raises(InvalidInputError, match="lexical_staged"):
            SQLiteStore(tmp_path / "s.db", lexical_staged=bad)  # type: ignore[arg-type]


def test_a_schema4_file_gets_a_staging_table_and_keeps_its_postings(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    raw = sqlite3.connect(path, isolation_level=None)
    for number in (1, 2, 3, 4):
        schema._apply(raw, number)
    raw.close()
    units = [make_unit(f"u{i}", restatement=lexical_text(i)) for i in range(9)]
    with SQLiteStore(path) as store:  # at schema 5: fill it, then turn the file back to 4
        store.add_units(units)
    raw = sqlite3.connect(path, isolation_level=None)
    downgrade(raw, 5)
    raw.close()
    reference = InMemoryStore()
    reference.add_units(units)
    with SQLiteStore(path) as store:
        assert store.search_lexical("ns", "lake zither", 5) == reference.search_lexical(
            "ns", "lake zither", 5
        )
        more = [make_unit(f"v{i}", restatement=lexical_text(i)) for i in range(9, 12)]
        store.add_units(more)  # staged beside the migrated postings
        reference.add_units(more)
        assert store.search_lexical("ns", "lake zither", 8) == reference.search_lexical(
            "ns", "lake zither", 8
        )


# --- edges: a journal, a snapshot, a graph in memory (schema 6) ----------------------------


def edge_rows(raw: sqlite3.Connection, namespace: str = "ns") -> tuple[int, int, int, int]:
    """(snapshot parts, journal rows, snapshot_n, journal_n) of a namespace."""
    parts = raw.execute("SELECT count(*) FROM edge_snapshot WHERE namespace = ?", (namespace,))
    journal = raw.execute("SELECT count(*) FROM edge_journal WHERE namespace = ?", (namespace,))
    state = raw.execute(
        "SELECT snapshot_n, journal_n FROM edge_state WHERE namespace = ?", (namespace,)
    ).fetchone() or (0, 0)
    return parts.fetchone()[0], journal.fetchone()[0], *state


def test_two_connections_see_each_others_edge_changes(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    with SQLiteStore(path) as one, SQLiteStore(path) as two:
        one.add_units([make_unit(u) for u in "abcd"])
        add_edges(one, [Edge("ns", "a", "b", "semantic", 0.9)])
        assert two.neighbours("ns", ["a"], "semantic") == {"a": [("b", 0.9)]}  # loads
        two.change_edges(
            remove=[Edge("ns", "a", "b", "semantic", 0.9)],
            add=[Edge("ns", "a", "c", "structural", 0.7)],
        )
        assert one.edges_of("ns", "a") == [Edge("ns", "a", "c", "structural", 0.7)]  # replays
        add_edges(one, [Edge("ns", "c", "d", "semantic", 0.8)])
        assert two.neighbours("ns", ["c"], "semantic") == {"c": [("d", 0.8)]}
        assert two.delete_unit("ns", "c")  # the deleting connection journals the removals
        assert one.neighbours("ns", ["a", "d"], "structural") == {"a": [], "d": []}
        assert one.neighbours("ns", ["d"], "semantic") == {"d": []}
        raw = sqlite3.connect(path)
        assert edge_rows(raw) == (0, 4, 0, 4)  # four writes, four journal rows, no snapshot
        raw.close()


def test_cue_values_follow_every_write_to_the_file(tmp_path: Path) -> None:
    """The distinct people / places are kept per connection between writes: a write through the
    connection, a failed write and another connection's commit are all seen."""
    path = tmp_path / "memory.db"
    with SQLiteStore(path) as one, SQLiteStore(path) as two:
        one.add_units([make_unit("a", participants=["Caroline"], locations=["Boston"])])
        assert one.cue_values("ns", "P") == two.cue_values("ns", "P") == ["caroline"]
        two.add_units([make_unit("b", participants=["Melanie"])])  # another connection commits
        assert one.cue_values("ns", "P") == ["caroline", "melanie"]
        one.add_units([make_unit("c", participants=["Zed"])])
        assert one.cue_values("ns", "P") == ["caroline", "melanie", "zed"]
        assert two.cue_values("ns", "P") == ["caroline", "melanie", "zed"]
        assert two.delete_unit("ns", "a")
        assert one.cue_values("ns", "P") == ["melanie", "zed"]
        assert one.cue_values("ns", "L") == []
        values = one.cue_values("ns", "P")
        values.append("changed by the caller")
        assert one.cue_values("ns", "P") == ["melanie", "zed"]  # the cache hands out copies
        with pytest.raises(InvalidInputError):  # "b" again: the write is rolled back
            one.add_units([make_unit("d", participants=["Priya"]), make_unit("b")])
        assert one.cue_values("ns", "P") == ["melanie", "zed"]


def test_the_journal_is_folded_into_a_snapshot_and_others_reload(tmp_path: Path) -> None:
    """Past COMPACT_MIN changes (and a quarter of the graph) the snapshot is rewritten and the
    journal emptied; a connection whose graph predates that reloads, and a reopened file reads
    the same edges."""
    from ripplemem.stores.sqlite.graph import COMPACT_MIN

    path = tmp_path / "memory.db"
    hubs, leaves = 30, 700
    units = [make_unit(f"h{i}") for i in range(hubs)] + [make_unit(f"l{j}") for j in range(leaves)]
    edges = [
        Edge("ns", f"h{i}", f"l{j}", "semantic" if (i + j) % 2 else "structural", 0.5 + j / 2000)
        for i in range(hubs)
        for j in range(leaves)
    ]
    assert len(edges) > COMPACT_MIN
    with SQLiteStore(path) as one, SQLiteStore(path) as two:
        one.add_units(units)
        add_edges(one, edges[:100])
        assert len(two.neighbours("ns", ["h0"], "semantic")["h0"]) == 50  # two loads now
        for start in range(100, len(edges), 1_000):
            add_edges(one, edges[start : start + 1_000])
        one.change_edges(remove=[Edge("ns", "h0", "l1", "semantic", 0.0)])
        raw = sqlite3.connect(path)
        parts, journal, snapshot_n, journal_n = edge_rows(raw)
        assert parts == 1 and snapshot_n > 0 and journal == journal_n - snapshot_n <= 2
        expected = one.neighbours("ns", ["h0", "h1", "l1", "l699"], "semantic")
        assert ("l1", 0.5 + 1 / 2000) not in expected["h0"] and len(expected["h1"]) == 350
        assert two.neighbours("ns", ["h0", "h1", "l1", "l699"], "semantic") == expected
        raw.close()
    with SQLiteStore(path) as again:
        assert again.neighbours("ns", ["h0", "h1", "l1", "l699"], "semantic") == expected
        assert len(again.edges_of("ns", "l5")) == hubs


def test_a_namespace_deleted_and_refilled_elsewhere_is_not_read_from_the_old_graph(
    tmp_path: Path,
) -> None:
    path = tmp_path / "memory.db"
    with SQLiteStore(path) as one, SQLiteStore(path) as two:
        one.add_units([make_unit(u) for u in "abc"])
        add_edges(one, [Edge("ns", "a", "b", "semantic", 0.9)])
        assert two.neighbours("ns", ["a"], "semantic") == {"a": [("b", 0.9)]}
        one.delete_namespace("ns")
        one.add_units([make_unit(u) for u in "abc"])
        add_edges(one, [Edge("ns", "a", "c", "semantic", 0.6)])
        add_edges(one, [Edge("ns", "b", "c", "semantic", 0.7)])
        assert two.neighbours("ns", ["a", "b"], "semantic") == {
            "a": [("c", 0.6)],
            "b": [("c", 0.7)],
        }


def test_an_edge_table_is_migrated_into_snapshots(tmp_path: Path) -> None:
    """Schema 6 turns the edge rows of each namespace into its snapshot and drops the table."""
    path = tmp_path / "memory.db"
    edges = [
        Edge("ns", "a", "b", "semantic", 0.9),
        Edge("ns", "a", "c", "structural", 0.75),
        Edge("ns", "b", "c", "semantic", 0.8),
        Edge("other", "x", "y", "semantic", 0.95),
    ]
    with SQLiteStore(path) as store:
        store.add_units(
            [make_unit(u) for u in "abc"] + [make_unit(u, namespace="other") for u in "xy"]
        )
        add_edges(store, edges)
        before = {ns: [store.edges_of(ns, u) for u in "abcxy"] for ns in ("ns", "other")}
    raw = sqlite3.connect(path, isolation_level=None)
    downgrade(raw, 6)
    assert raw.execute("SELECT count(*) FROM edge").fetchone() == (8,)  # both directions
    raw.close()
    with SQLiteStore(path) as store:
        assert {ns: [store.edges_of(ns, u) for u in "abcxy"] for ns in ("ns", "other")} == before
        add_edges(store, [Edge("ns", "c", "a", "semantic", 0.7)])  # the journal goes on from it
        assert store.neighbours("ns", ["a"], "semantic") == {"a": [("b", 0.9), ("c", 0.7)]}
    raw = sqlite3.connect(path)
    tables = {row[0] for row in raw.execute("SELECT name FROM sqlite_master")}
    assert "edge" not in tables and edge_rows(raw, "other")[:2] == (1, 0)
    raw.close()


def test_a_supersedes_edge_stored_without_its_direction_is_read_by_time(tmp_path: Path) -> None:
    """A snapshot whose supersedes rows are both positive (written before the direction was
    kept): the unit said later supersedes, read the same from either end; an edge written now
    keeps its direction."""
    import io

    from ripplemem.stores.graph import GraphIndex

    path = tmp_path / "memory.db"
    with SQLiteStore(path) as store:
        store.add_units([
            make_unit("early", session_time=datetime(2024, 1, 1)),
            make_unit("late", session_time=datetime(2024, 6, 1)),
            make_unit("other", session_time=datetime(2023, 1, 1)),
        ])
        add_edges(store, [Edge("ns", "early", "late", "structural", 1.0)])
    # the same rows as one undirected supersedes edge, as a snapshot of before
    built = GraphIndex.from_edges([("structural", "early", "late", 1.0)]).snapshot()
    with np.load(io.BytesIO(built)) as data:
        arrays = {name: data[name] for name in data.files}
    for part in ("indptr", "neighbour", "weight"):
        arrays[f"supersedes_{part}"], arrays[f"structural_{part}"] = (
            arrays[f"structural_{part}"], arrays[f"supersedes_{part}"]
        )
    blob = io.BytesIO()
    np.savez(blob, **arrays)
    raw = sqlite3.connect(path, isolation_level=None)
    raw.execute("DELETE FROM edge_journal")
    raw.execute("DELETE FROM edge_snapshot")
    raw.execute("INSERT INTO edge_snapshot (namespace, part, blob) VALUES ('ns', 0, ?)", (blob.getvalue(),))
    raw.execute("UPDATE edge_state SET snapshot_n = journal_n, pending = 0, token = token + 1")
    raw.close()
    with SQLiteStore(path) as store:
        for end in ("early", "late"):
            assert store.edges_of("ns", end) == [Edge("ns", "late", "early", "supersedes", 1.0)]
        assert store.neighbours("ns", ["early"], "supersedes") == {"early": [("late", 1.0)]}
        add_edges(store, [Edge("ns", "other", "late", "supersedes", 1.0)])  # said before, yet newer
        assert store.edges_of("ns", "other") == [Edge("ns", "other", "late", "supersedes", 1.0)]


def test_vectors_load_from_one_snapshot_while_another_process_writes(tmp_path: Path) -> None:
    """A reader (a server's search worker) loads the vectors while another connection adds some
    between its statements: it sees one consistent snapshot, never a count the rows outgrow."""
    path = tmp_path / "shared.db"
    units = [make_unit(f"u{i}", restatement=f"Unit {i} of the shared store.") for i in range(8)]
    with SQLiteStore(path) as writer, SQLiteStore(path) as reader:
        writer.check_embedder("minilm-int8", DIM)
        writer.add_units(units[:6])
        late = iter([units[6:]])

        def write_meanwhile(statement: str) -> None:  # runs as each statement starts
            if statement.startswith("SELECT seq, id, blob FROM vector"):
                batch = next(late, None)
                if batch is not None:
                    writer.add_units(batch)  # commits from another connection, mid-load

        reader._db.set_trace_callback(write_meanwhile)
        try:
            found = search_dense(reader, "ns", units[0].vector, 10)
        finally:
            reader._db.set_trace_callback(None)
        assert next(late, None) is None, "the write never ran during the load"
        assert {unit_id for unit_id, _ in found} <= {u.id for u in units}
        assert len(found) in (6, 8)
        assert len(search_dense(reader, "ns", units[0].vector, 10)) == 8  # the next search reloads


def test_a_loaded_index_catches_up_with_another_connections_adds(tmp_path: Path) -> None:
    """Rows another connection added are appended to the loaded index (no reload of the
    namespace); a delete elsewhere makes the next search reload, so the deleted row never shows."""
    path = tmp_path / "shared.db"
    units = [make_unit(f"u{i}", restatement=f"Unit {i} of the shared store.") for i in range(9)]
    with SQLiteStore(path) as writer, SQLiteStore(path) as reader:
        writer.check_embedder("minilm-int8", DIM)
        writer.add_units(units[:5])
        assert len(search_dense(reader, "ns", units[0].vector, 20)) == 5
        loaded = reader._indexes["ns"][1]
        writer.add_units(units[5:7])
        found = {unit_id for unit_id, _ in search_dense(reader, "ns", units[6].vector, 20)}
        assert found == {u.id for u in units[:7]}
        assert reader._indexes["ns"][1] is loaded, "the index was reloaded, not caught up"
        assert writer.delete_unit("ns", "u2")
        writer.add_units(units[7:])
        found = {unit_id for unit_id, _ in search_dense(reader, "ns", units[0].vector, 20)}
        assert found == {u.id for u in units} - {"u2"}
        assert reader._indexes["ns"][1] is not loaded, "a delete elsewhere must reload"
        assert search_dense(reader, "ns", units[8].vector, 1)[0][0] == "u8"


def test_units_read_by_row_number_carry_the_stored_vectors(tmp_path: Path) -> None:
    """While the namespace's index keeps exact float32 rows, a unit's vector comes from there:
    the same floats as its ``vector`` row, through another connection's adds and a delete too,
    each unit's its own (writing to one changes no other, nor the index)."""
    path = tmp_path / "exact.db"
    units = [make_unit(f"u{i}", vector=v) for i, v in enumerate(unit_vectors(8, seed=5))]
    with SQLiteStore(path, unit_cache=0) as writer, SQLiteStore(path, unit_cache=0) as reader:
        writer.add_units(units[:5])
        assert search_dense(reader, "ns", units[0].vector, 1)[0][0] == "u0"  # loads the index
        writer.add_units(units[5:])
        assert writer.delete_unit("ns", "u3")
        search_dense(reader, "ns", units[0].vector, 1)  # the index is current again
        assert reader._indexes["ns"][1].exact_vectors(["u1"]) is not None  # exact rows kept
        ids = [u.id for u in units]
        read = reader.get_units("ns", ids)
        stored = {
            unit_id: np.frombuffer(blob, dtype=np.float32)
            for unit_id, blob in reader._db.execute(
                "SELECT u.id, v.blob FROM unit AS u JOIN vector AS v ON v.seq = u.seq"
            )
        }
        assert [u.id for u in read] == [i for i in ids if i != "u3"]
        for unit in read:
            assert unit.vector is not None and unit.vector.dtype == np.float32
            assert unit.vector.tobytes() == stored[unit.id].tobytes()
        read[0].vector[:] = 0.0
        again = reader.get_units("ns", ["u0", "u1"])
        assert again[0].vector.tobytes() == stored["u0"].tobytes()
        assert read[1].vector.tobytes() == stored["u1"].tobytes()
        assert search_dense(reader, "ns", units[0].vector, 1)[0][0] == "u0"


def _versions(path: Path) -> list[int]:
    """The migrations a store file records as applied, in order."""
    check = sqlite3.connect(path)
    try:
        return [row[0] for row in check.execute("SELECT version FROM schema_version")]
    finally:
        check.close()


#: the migration that added speakers, metadata, the filter index and the namespace's person
FILTER_MIGRATION = 9
#: the migration that added the units' kept parses
PARSE_MIGRATION = 10
#: the migration that put a unit of several times in the time index for each
NAMED_TIMES_MIGRATION = 11


def test_a_file_from_before_the_named_times_index_is_upgraded(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    wedding, house = day_span(0), day_span(1800, days=30)
    both = replace(
        make_unit("both", time_span=wedding),
        extra={"time_spans": [[s.start.isoformat(), s.end.isoformat()] for s in (wedding, house)]},
    )
    in_april = Cues(time_span=day_span(1810))
    with SQLiteStore(path) as store:
        store.add_units([both])
        assert store.cue_candidates("ns", in_april, near=None, per_value=5) == ["both"]
    raw = sqlite3.connect(path, isolation_level=None)
    downgrade(raw, NAMED_TIMES_MIGRATION)
    assert raw.execute("SELECT count(*) FROM time_span").fetchone() == (1,)  # the wedding only
    raw.close()
    with SQLiteStore(path) as store:
        assert store.cue_candidates("ns", in_april, near=None, per_value=5) == ["both"]
        assert store.delete_unit("ns", "both")
    check = sqlite3.connect(path)
    assert check.execute("SELECT count(*) FROM time_span").fetchone() == (0,)  # forgotten by all
    check.close()
    assert _versions(path) == list(range(1, SCHEMA_VERSION + 1))


def test_a_file_from_before_the_kept_parses_is_upgraded(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    with SQLiteStore(path) as store:
        store.add_units([make_unit("old")])
    raw = sqlite3.connect(path, isolation_level=None)
    downgrade(raw, PARSE_MIGRATION)
    assert "unit_parse" not in {row[0] for row in raw.execute("SELECT name FROM sqlite_master")}
    raw.close()
    with SQLiteStore(path) as store:
        assert store.get_parses("ns", ["old"]) == {}  # parsed when read
        store.add_units([make_unit("new")])
        store.add_parses("ns", {"new": b"parse", "old": b"later"})
        assert store.get_parses("ns", ["old", "new"]) == {"old": b"later", "new": b"parse"}
    assert _versions(path) == list(range(1, SCHEMA_VERSION + 1))


def test_a_file_from_before_the_filter_index_is_upgraded(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    with SQLiteStore(path) as store:
        store.add_units(old_units())
    raw = sqlite3.connect(path, isolation_level=None)
    downgrade(raw, FILTER_MIGRATION)
    assert {row[0] for row in raw.execute("SELECT version FROM schema_version")} == set(
        range(1, FILTER_MIGRATION)
    )
    raw.close()
    with SQLiteStore(path) as store:
        check_upgraded(store)
    check = sqlite3.connect(path)
    versions = [row[0] for row in check.execute("SELECT version FROM schema_version")]
    assert versions == list(range(1, SCHEMA_VERSION + 1))
    assert check.execute("SELECT count(*) FROM unit_said").fetchone() == (2,)  # may and new
    check.close()
    with SQLiteStore(path) as store:
        assert store.person("ns") == "Ann"


@pytest.mark.parametrize(
    "values",
    [
        (), ("",), ("Rui",), ("D1:3", "D1:4"), ("spanish", "vintage", "camera"), ("São Paulo", "東京"),
        ('say "hi"',), ("a\\b",), ('a", "b',), ("a, b", "c"), ("line\nbreak",), ("[",), ('"',), ("]",),
    ],
)
def test_a_list_column_reads_back_as_it_was_written(values: tuple[str, ...]) -> None:
    text = rows._json_list(values)
    assert rows._strings(text) == values
    compact = json.dumps(list(values), separators=(",", ":"))  # another writer's spacing
    assert rows._strings(compact) == values


@pytest.mark.parametrize(
    "extra",
    [
        {}, {"turn_index": 3}, {"a": 1.5, "b": "x", "c": True, "d": None},
        {"time_spans": [["x", "y"]]}, {"n": {"m": 1}},
    ],
)
def test_a_units_extra_reads_back_as_it_was_written_and_as_its_own(tmp_path: Path, extra: dict) -> None:
    """Units that share an ``extra`` text read back equal dicts, none of them another's: a change
    to one unit's ``extra`` leaves the next read of the same text as written."""
    with SQLiteStore(tmp_path / "m.db", unit_cache=0) as store:
        store.add_units([replace(make_unit(f"u{i}"), extra=extra) for i in range(2)])
        first, second = store.get_units("ns", ["u0", "u1"])
        assert first.extra == second.extra == extra
        assert first.extra is not second.extra
        first.extra["added"] = 1
        (again,) = store.get_units("ns", ["u0"])
        assert again.extra == extra == second.extra
