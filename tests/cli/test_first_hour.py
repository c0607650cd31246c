"""What a newcomer meets first on the command line: ``--version``, read commands on a store that
does not exist (a clear error, no file made), and ingest progress with its total from the start."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import ripplemem
from ripplemem import Memory, Settings
from ripplemem.cli.main import app
from ripplemem.testing import FakeEmbedder


def test_version_is_the_packages(runner: CliRunner) -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"ripplemem {ripplemem.__version__}"


@pytest.mark.parametrize(
    "command",
    [
        ["search", "Where is Pixel?"],
        ["search", "Where is Pixel?", "--json"],
        ["trace", "Where is Pixel?"],
        ["list"],
        ["list", "--json"],
        ["show", "u1"],
        ["delete", "u1"],
        ["export", "out.jsonl"],
        ["person"],
        ["answer", "Where is Pixel?"],
    ],
)
def test_read_commands_on_a_missing_store_fail_alike_and_create_none(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    """A mistyped --store is an error a script can see: exit 2 and one message, the same for
    every command that reads; nothing printed on stdout (no empty table, no "exported 0")."""
    monkeypatch.chdir(tmp_path)  # export would write out.jsonl here
    store = tmp_path / "nested" / "memory.db"
    for given in (str(store), f"sqlite:///{store}"):  # sqlite:////tmp/...: an absolute path
        result = runner.invoke(app, [*command, "--store", given])
        assert result.exit_code == 2, result.output
        said = " ".join(result.stderr.split())
        assert said == (
            f"error: no store at {store}: this command only reads and creates none; check the "
            f"path, or add memories first with: ripplemem ingest FILE --store {store}"
        ), said
        assert result.stdout == ""
    assert not store.exists() and not store.parent.exists()
    assert not (tmp_path / "out.jsonl").exists()


def test_the_default_store_is_not_created_by_a_search(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["search", "anything"])
    assert result.exit_code == 2 and "no store at .ripplemem/memory.db" in result.stderr
    assert not (tmp_path / ".ripplemem").exists()


def test_ingest_progress_knows_its_total_before_the_first_batch(tmp_path: Path) -> None:
    calls: list[tuple[int, int]] = []
    messages = [{"speaker": "Maya" if i % 2 else "Leo", "text": f"Message {i} about Porto."}
                for i in range(130)]
    with Memory(Settings(store=str(tmp_path / "m.db")), embedder=FakeEmbedder()) as memory:
        memory.add(messages, user_id="maya", progress=lambda done, total: calls.append((done, total)))
    total = calls[0][1]
    assert calls[0] == (0, total) and total > 1
    assert calls[-1] == (total, total) and all(t == total for _, t in calls)


def test_metadata_filters_and_the_person_on_the_command_line(
    runner: CliRunner, chat_file: Path, tmp_path: Path
) -> None:
    store = str(tmp_path / "m.db")
    named = runner.invoke(app, ["person", "Maya", "--store", store, "-n", "maya"])
    assert named.exit_code == 0 and named.output.strip() == "Maya"
    added = runner.invoke(app, ["ingest", str(chat_file), "--store", store, "-n", "maya",
                                "--metadata", '{"source": "chat"}'])
    assert added.exit_code == 0, added.output
    found = runner.invoke(app, ["search", "Pixel", "--store", store, "-n", "maya", "--json",
                                "--filters", '{"source": "chat", "speaker": "Leo"}'])
    assert found.exit_code == 0, found.output
    evidence = json.loads(found.stdout)["evidence"]
    assert evidence and all(e["unit"]["metadata"] == {"source": "chat"} for e in evidence)
    assert all(e["unit"]["speakers"] == ["Leo"] for e in evidence)
    none = runner.invoke(app, ["search", "Pixel", "--store", store, "-n", "maya", "--json",
                               "--filters", '{"source": "mail"}'])
    assert json.loads(none.stdout)["evidence"] == []
    bad = runner.invoke(app, ["search", "Pixel", "--store", store, "-n", "maya", "--filters", "[1"])
    assert bad.exit_code == 2 and "--filters is not JSON" in " ".join(bad.output.split())
    shown = runner.invoke(app, ["person", "--store", store, "-n", "maya"])
    assert shown.output.strip() == "Maya"
