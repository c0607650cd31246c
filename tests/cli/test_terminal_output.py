"""What the command line prints from a store is safe for a terminal (stored control characters,
bidi overrides and rich markup are shown, never acted on; ``--json`` stays exact); key ids are
never cut; commands that only read create no store; and caller mistakes end with exit 2."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ripplemem import Memory, Settings
from ripplemem.cli.main import app
from ripplemem.providers.factory import EMBEDDERS, register_embedder
from ripplemem.testing import FakeEmbedder

from .conftest import CLEAN_ENV

HOSTILE = "I live in \x1b]0;PWNED\x07 Paris \x1b[31m with my cat \u202eredro\u202c and [bold red]Rex[/] \x9b1m."
ACTIVE = ("\x1b", "\x07", "\u202e", "\u202c", "\x9b")


@pytest.fixture
def runner():
    """The command line builds its embedder by name: name the fake one the store was built with."""
    register_embedder("fake-bow", FakeEmbedder, replace=True)
    yield CliRunner(env={**CLEAN_ENV, "RIPPLEMEM_EMBEDDER": "fake-bow", "COLUMNS": "80"})
    EMBEDDERS.pop("fake-bow", None)


@pytest.fixture
def store(tmp_path: Path) -> str:
    path = str(tmp_path / "m.db")
    with Memory(Settings(store=path), embedder=FakeEmbedder()) as memory:
        memory.add([{"speaker": "Ann", "text": HOSTILE}], user_id="esc", session_time="2024-05-01")
        memory.add([{"speaker": "Ann", "text": "My cat Rex sleeps in Paris."}], user_id="esc")
    return path


def _run(runner: CliRunner, *args: str, code: int = 0):
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return result


def _flat(text: str) -> str:
    """``text`` without white space: rich wraps long lines wherever the width ends."""
    return "".join(text.split())


def _safe(text: str) -> None:
    for char in ACTIVE:
        assert char not in text, f"{char!r} reached the terminal"


def test_stored_control_characters_and_markup_are_shown_not_acted_on(runner: CliRunner, store: str) -> None:
    listed = runner.invoke(app, ["list", "--store", store, "-n", "esc"], env={"COLUMNS": "200"}).output
    _safe(listed)
    assert "␛]0;PWNED␇ Paris ␛[31m" in listed and "\\u202eredro\\u202c" in listed
    assert "[bold red]Rex[/] \\x9b1m." in listed  # markup shown as written
    exact = json.loads(_run(runner, "list", "--store", store, "-n", "esc", "--json").stdout)
    assert any("\x1b]0;PWNED\x07" in unit["restatement"] for unit in exact["memories"])
    unit_id = next(u["id"] for u in exact["memories"] if "\x1b" in u["restatement"])
    for command in (
        ["search", "Where does Ann live with her cat?"],
        ["trace", "Where does Ann live with her cat?"],
        ["show", unit_id],
    ):
        shown = _run(runner, *command, "--store", store, "-n", "esc").output
        _safe(shown)
        assert "␛" in shown, command
    found = json.loads(_run(runner, "search", "Paris cat", "--store", store, "-n", "esc", "--json").stdout)
    assert any("\x1b" in item["unit"]["restatement"] for item in found["evidence"])


def test_key_ids_are_never_cut_and_admin_keys_are_told_apart(runner: CliRunner, tmp_path: Path) -> None:
    store = str(tmp_path / "k.db")
    ids = []
    for options in (
        ["-n", "a", "--label", "x" * 500],
        ["-n", "*"],
        ["--admin"],
        ["-n", "line\nbreak", "--label", "\x1b[2J wiped"],
    ):
        created = _run(runner, "keys", "create", "--store", store, *options)
        ids.append(created.stderr.split(":")[0].strip())
    for columns in ("80", "50"):
        listed = runner.invoke(app, ["keys", "list", "--store", store], env={"COLUMNS": columns})
        assert listed.exit_code == 0, listed.output
        _safe(listed.stdout)
        for key_id in ids:
            assert key_id in listed.stdout, (columns, key_id)
    listed = _run(runner, "keys", "list", "--store", store).stdout
    rows = {line.split("│")[1].strip(): line for line in listed.splitlines() if "key_" in line}
    assert "every" in rows[ids[2]] and "*" not in rows[ids[2]]
    assert "*" in rows[ids[1]] and "admin" not in rows[ids[1]]
    assert "line␊break" in rows[ids[3]]
    both = _run(runner, "keys", "create", "--store", store, "--admin", "-n", "x", code=2)
    assert "--admin" in both.stderr and "--namespace" in both.stderr


def test_commands_that_only_read_create_no_store(runner: CliRunner, store: str, tmp_path: Path) -> None:
    typo, target = tmp_path / "typo.db", tmp_path / "fresh.db"
    moved = _run(runner, "migrate", str(typo), str(target), code=2)
    assert _flat(f"no store at {typo}: a migration only reads its source and creates none") in _flat(moved.stderr)
    for command in (["keys", "list"], ["keys", "revoke", "key_0000"]):
        refused = _run(runner, *command, "--store", str(typo), code=2)
        assert _flat(f"no store at {typo}: this command only reads and creates none") in _flat(refused.stderr)
    assert not typo.exists() and not target.exists()
    copied = _run(runner, "migrate", store, str(target))
    assert "counts equal: True" in copied.stdout


def test_caller_mistakes_exit_2_with_the_argument_named(runner: CliRunner, store: str) -> None:
    huge = "99999999999999999999999999"
    for command, said in (
        (["list", "--limit", huge], "limit must be a whole number from 1 to"),
        (["list", "--offset", huge], "offset must be a whole number from 0 to"),
        (["search", "cat", "--limit", huge], "limit must be a whole number from 1 to"),
        (["list", "-n", "   "], "namespace is empty"),
        (["search", "cat", "--user-id", ""], "user_id is empty"),
        (["list", "-n", "esc", "--agent-id", " "], "agent_id is empty"),
    ):
        refused = _run(runner, *command, "--store", store, code=2)
        assert _flat(said) in _flat(refused.stderr), command


def test_help_shows_the_defaults_it_names(runner: CliRunner) -> None:
    for command, default in (
        (["search"], "[default: default]"),
        (["export"], "[default: all]"),
        (["ingest"], "[default: detected]"),
        (["answer"], "[default: ripple]"),
        (["serve"], "[default: $RIPPLEMEM_STORE or .ripplemem/memory.db]"),
    ):
        shown = _run(runner, *command, "--help").stdout
        flat = " ".join(part.strip(" │") for part in shown.splitlines())
        assert default in " ".join(flat.split()), command
        assert not re.search(r"[a-z] \.(?!\w)", flat), command  # no default left out


def test_a_chat_file_with_a_byte_order_mark_is_read_and_utf16_is_named(
    runner: CliRunner, tmp_path: Path
) -> None:
    text = '{"speaker": "Ann", "text": "I keep my kayak at the harbour in Bergen."}\n'
    bom, utf16 = tmp_path / "bom.jsonl", tmp_path / "utf16.jsonl"
    bom.write_bytes(b"\xef\xbb\xbf" + text.encode())
    utf16.write_text(text, encoding="utf-16")
    store = str(tmp_path / "m.db")
    for given in ([], ["--format", "jsonl"]):
        _run(runner, "ingest", str(bom), *given, "--store", store, "-n", "bom")
        refused = _run(runner, "ingest", str(utf16), *given, "--store", store, code=2)
        assert _flat("is UTF-16 text, not UTF-8: save it as UTF-8") in _flat(refused.stderr)
    listed = json.loads(_run(runner, "list", "--store", store, "-n", "bom", "--json").stdout)
    assert [u["restatement"] for u in listed["memories"]] == ["Ann keeps Ann's kayak at the harbour in Bergen."]


@pytest.mark.parametrize("name", ["", "   "])
def test_mcp_refuses_a_blank_namespace_and_creates_no_store(tmp_path: Path, name: str) -> None:
    store = tmp_path / "never.db"
    result = CliRunner(env=CLEAN_ENV).invoke(app, ["mcp", "--namespace", name, "--store", str(store)])
    assert result.exit_code == 2
    assert "namespace is empty" in result.output
    assert not store.exists()
