"""A file given to the wrong command, or a folder given as the store: the message names the
command that reads the file (or says the path is a folder and what to give), and nothing changes."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ripplemem.cli.main import app


def _run(runner: CliRunner, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, "".join(result.output.split())  # the terminal wraps long paths anywhere


def _has(out: str, *parts: str) -> bool:
    """Whether ``out`` (without its white space) says each of ``parts``."""
    return all("".join(part.split()) in out for part in parts)


def _stored(runner: CliRunner, store: str) -> list:
    listed = runner.invoke(app, ["list", "--store", store, "-n", "maya", "--json"])
    assert listed.exit_code == 0, listed.output
    return [(m["id"], m["restatement"]) for m in json.loads(listed.stdout)["memories"]]


def test_a_conversation_given_to_import_names_ingest(runner: CliRunner, chat_file: Path, tmp_path: Path) -> None:
    store = str(tmp_path / "m.db")
    assert _run(runner, "ingest", str(chat_file), "--store", store, "-n", "maya")[0] == 0
    before = _stored(runner, store)
    code, out = _run(runner, "import", str(chat_file), "--store", store)
    assert code == 2
    assert _has(out, f"{chat_file} is a conversation", f"add it with ripplemem ingest {chat_file}", "nothing was imported")
    assert _stored(runner, store) == before
    # a store that is not there yet is not made for it either
    fresh = tmp_path / "fresh.db"
    code, out = _run(runner, "import", str(chat_file), "--store", str(fresh))
    assert code == 2 and _has(out, f"ripplemem ingest {chat_file}") and not fresh.exists()


def test_an_export_given_to_ingest_names_import(runner: CliRunner, chat_file: Path, tmp_path: Path) -> None:
    store = str(tmp_path / "m.db")
    assert _run(runner, "ingest", str(chat_file), "--store", store, "-n", "maya")[0] == 0
    dump = tmp_path / "dump.jsonl"
    assert _run(runner, "export", str(dump), "--store", store, "-n", "maya")[0] == 0
    before = _stored(runner, store)
    code, out = _run(runner, "ingest", str(dump), "--store", store, "-n", "maya")
    assert code == 2
    assert _has(out, f"{dump} is a ripplemem export", f"read it back with ripplemem import {dump}", "nothing was ingested")
    assert _stored(runner, store) == before


def test_a_folder_given_as_the_store_is_told_to_name_a_file(runner: CliRunner, tmp_path: Path) -> None:
    folder = tmp_path / "stores"
    folder.mkdir()
    for command in (["search", "x"], ["list"]):
        code, out = _run(runner, *command, "--store", str(folder), "-n", "maya")
        assert code == 3
        assert _has(out, f"{folder} is a folder, not a store file", f"give a file in it as the store, e.g. {folder / 'memory.db'}")
        assert not _has(out, "check that its folder exists")
    assert list(folder.iterdir()) == []
