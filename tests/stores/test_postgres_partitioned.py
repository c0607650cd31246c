"""The PostgreSQL store on tables hash-partitioned by namespace (docs/postgres.md, "Beyond one
machine"): the whole store contract, and the per-namespace HNSW index on a partition.

:func:`partition_by_namespace` is the conversion an operator makes on a fresh store: every
namespace-first table becomes ``PARTITION BY HASH (namespace)`` with the same columns, keys,
constraints and indexes, split into ``PARTITIONS`` partitions.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import psycopg
import pytest
from psycopg import sql

from ripplemem.stores.postgres.location import parse_location
from ripplemem.stores.registry import open_store
from ripplemem.testing.builders import make_unit, unit_vectors
from ripplemem.testing.contracts.store import StoreContract, StoreFactory

#: every table whose key starts with the namespace (meta, schema_version, api_key stay global)
NAMESPACE_TABLES = (
    "unit",
    "unit_vector",
    "unit_parse",
    "namespace_state",
    "cue",
    "time_span",
    "lexical_posting",
    "lexical_term",
    "edge",
    "clue",
    "clue_session",
    "clue_member",
    "utterance_link",
)
PARTITIONS = 4


def partition_by_namespace(server_url: str, store_url: str, partitions: int = PARTITIONS) -> None:
    """Convert the namespace-first tables of the (fresh) store at ``store_url`` to
    ``PARTITION BY HASH (namespace)``, rows included, in one transaction."""
    open_store(store_url).close()  # the migrations create the tables
    schema = parse_location(store_url).schema
    with psycopg.connect(server_url) as db, db.transaction():
        db.execute(sql.SQL("SET search_path TO {}, public").format(sql.Identifier(schema)))
        for table in NAMESPACE_TABLES:
            name, plain = sql.Identifier(table), sql.Identifier(f"{table}_plain")
            db.execute(sql.SQL("ALTER TABLE {} RENAME TO {}").format(name, plain))
            db.execute(
                sql.SQL("CREATE TABLE {} (LIKE {} INCLUDING ALL) PARTITION BY HASH (namespace)")
                .format(name, plain)
            )
            for remainder in range(partitions):
                db.execute(
                    sql.SQL(
                        "CREATE TABLE {} PARTITION OF {} FOR VALUES WITH (MODULUS {}, REMAINDER {})"
                    ).format(
                        sql.Identifier(f"{table}_p{remainder}"),
                        name,
                        sql.Literal(partitions),
                        sql.Literal(remainder),
                    )
                )
            db.execute(sql.SQL("INSERT INTO {} SELECT * FROM {}").format(name, plain))
            db.execute(sql.SQL("DROP TABLE {}").format(plain))


def _partitioned_tables(server_url: str, schema: str) -> set[str]:
    with psycopg.connect(server_url) as db:
        rows = db.execute(
            "SELECT c.relname FROM pg_partitioned_table AS p JOIN pg_class AS c ON c.oid = p.partrelid "
            "WHERE c.relnamespace = %s::regnamespace",
            (schema,),
        ).fetchall()
    return {row[0] for row in rows}


# the whole contract again on a partitioned layout: every test converts a fresh store's tables
# (about 25 s of DDL in all), so it runs in make test; make test-fast keeps the conversion and
# the partition's HNSW index below, and the contract on the plain PostgreSQL store
@pytest.mark.slow
class TestHashPartitionedPostgresStore(StoreContract):
    @pytest.fixture
    def make_store(
        self, postgres_store_url: Callable[[str], str], postgres_url: str
    ) -> StoreFactory:
        converted: set[str] = set()

        def make(name: str = "main", **options: object):
            url = postgres_store_url(name)
            if name not in converted:
                partition_by_namespace(postgres_url, url)
                converted.add(name)
            return open_store(url, **options)

        return make


def test_the_conversion_partitions_every_namespace_table(
    postgres_store_url: Callable[[str], str], postgres_url: str
) -> None:
    url = postgres_store_url("main")
    partition_by_namespace(postgres_url, url)
    assert _partitioned_tables(postgres_url, parse_location(url).schema) == set(NAMESPACE_TABLES)


def test_a_large_namespace_gets_an_hnsw_index_on_its_partition(
    postgres_store_url: Callable[[str], str], postgres_url: str
) -> None:
    url = postgres_store_url("main")
    partition_by_namespace(postgres_url, url)
    schema = parse_location(url).schema
    vectors = unit_vectors(200, seed=11)
    with open_store(url, ann_threshold=100) as store:
        store.add_units([make_unit(f"b{i}", namespace="big", vector=v) for i, v in enumerate(vectors[:150])])
        store.add_units([make_unit(f"s{i}", namespace="small", vector=v) for i, v in enumerate(vectors[150:])])
        with psycopg.connect(postgres_url) as db:
            indexed = db.execute(
                "SELECT tablename, indexdef FROM pg_indexes WHERE schemaname = %s AND indexdef LIKE %s",
                (schema, "%hnsw%"),
            ).fetchall()
            (holder,) = db.execute(
                sql.SQL(
                    "SELECT DISTINCT c.relname FROM {}.unit_vector AS u "
                    "JOIN pg_class AS c ON c.oid = u.tableoid WHERE u.namespace = 'big'"
                ).format(sql.Identifier(schema))
            ).fetchone()
        assert len(indexed) == 1 and indexed[0][0] == holder and "'big'" in indexed[0][1]
        assert holder.startswith("unit_vector_p")
        queries = unit_vectors(20, seed=12)
        found = store.search_dense_many("big", queries, 10)
        exact = np.argsort(-(vectors[:150] @ queries.T), axis=0)[:10].T
        recall = np.mean(
            [len({f"b{i}" for i in row} & {h for h, _ in hits}) / 10 for row, hits in zip(exact, found)]
        )
        assert recall >= 0.95 and all(len(hits) == 10 for hits in found)
        with psycopg.connect(postgres_url) as db:  # the search reads that index, not a seq scan
            db.execute(sql.SQL("SET search_path TO {}, public").format(sql.Identifier(schema)))
            plan = db.execute(
                "EXPLAIN SELECT id FROM unit_vector WHERE namespace = 'big' "
                "ORDER BY embedding <#> %s::vector LIMIT 10",
                (str([float(x) for x in queries[0]]),),
            ).fetchall()
        assert "unit_vector_hnsw_" in "\n".join(row[0] for row in plan)
