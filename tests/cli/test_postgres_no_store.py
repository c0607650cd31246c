"""A command that only reads, given a PostgreSQL URL whose schema holds no store, creates nothing
(no schema, no table) and says ``no store at <the URL, its password masked>``, as for SQLite."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
from typer.testing import CliRunner

from ripplemem import Memory
from ripplemem.cli.main import app


def _with_password(url: str) -> str:
    parts = urlsplit(url)  # the test server trusts local connections: the password is not checked
    return urlunsplit(parts._replace(netloc=f"{parts.username or 'postgres'}:s3cret@{parts.netloc.split('@')[-1]}"))


def _flat(text: str) -> str:
    """``text`` without white space: the terminal wraps a long URL anywhere."""
    return "".join(text.split())


def _schema_exists(server: str, schema: str) -> bool:
    with psycopg.connect(server, autocommit=True) as db:
        found = db.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (schema,)).fetchone()
    return found is not None


def test_reading_commands_create_no_schema_and_say_no_store(
    runner: CliRunner, postgres_store_url: Callable[[str], str], postgres_url: str, tmp_path: Path
) -> None:
    typo = _with_password(postgres_store_url("typo"))
    schema = dict(part.split("=", 1) for part in urlsplit(typo).query.split("&"))["schema"]
    shown = typo.replace(":s3cret@", ":***@")
    for command in (["list", "-n", "ana"], ["search", "cat", "-n", "ana"], ["show", "u_0", "-n", "ana"],
                    ["trace", "cat", "-n", "ana"], ["export", str(tmp_path / "out.jsonl")]):
        result = runner.invoke(app, [*command, "--store", typo])
        assert result.exit_code == 2 and _flat(f"no store at {shown}") in _flat(result.stderr), (command, result.output)
        assert "s3cret" not in result.output, command
    for command, what in ((["keys", "list"], "this command only reads"),
                          (["keys", "revoke", "key_0000"], "this command only reads"),
                          (["migrate", typo, str(tmp_path / "copy.db")], "a migration only reads its source")):
        where = [] if command[0] == "migrate" else ["--store", typo]
        result = runner.invoke(app, [*command, *where])
        said = _flat(result.stderr)
        assert result.exit_code == 2 and _flat(f"no store at {shown}: {what}") in said, (command, result.output)
        assert "s3cret" not in result.output
    assert not (tmp_path / "copy.db").exists()
    assert not _schema_exists(postgres_url, schema)


def test_a_store_that_is_there_is_read(runner: CliRunner, postgres_store_url: Callable[[str], str]) -> None:
    url = postgres_store_url("there")
    with Memory.open(url) as memory:  # opening to write makes the store, empty
        pass
    listed = runner.invoke(app, ["list", "-n", "ana", "--store", url])
    assert listed.exit_code == 0 and "no store at" not in listed.stderr, listed.output
    with Memory.open(url) as memory:
        memory.add("I adopted a cat named Pixel.", namespace="ana", session_time="2024-03-02")
    listed = runner.invoke(app, ["list", "-n", "ana", "--store", url])
    assert listed.exit_code == 0 and "Pixel" in listed.stdout, listed.output
    keys = runner.invoke(app, ["keys", "list", "--store", url])
    assert keys.exit_code == 0, keys.output
