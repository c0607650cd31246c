"""``ripplemem keys`` and ``ripplemem serve``'s checks, through typer's CliRunner."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from ripplemem.cli.main import app
from ripplemem.core.keys import find_key
from ripplemem.stores.registry import open_store


def test_keys_create_list_revoke(tmp_path: Path) -> None:
    store = str(tmp_path / "k.db")
    runner = CliRunner()
    created = runner.invoke(app, ["keys", "create", "--store", store, "-n", "alex", "-n", "bo",
                                  "--read-only", "--label", "agent"])
    assert created.exit_code == 0, created.output
    secret = created.stdout.strip().splitlines()[0]
    assert secret.startswith("rmk_") and "not stored" in created.stderr
    with open_store(store) as opened:
        key = find_key(opened.keys, secret)
        assert key is not None and key.namespaces == ("alex", "bo") and key.read_only
        assert secret not in {k.secret_hash for k in opened.keys.list_keys()}  # only the hash
    listed = runner.invoke(app, ["keys", "list", "--store", store])
    assert key.id in listed.stdout and "alex, bo" in listed.stdout and secret not in listed.stdout
    assert runner.invoke(app, ["keys", "revoke", key.id, "--store", store]).exit_code == 0
    with open_store(store) as opened:
        assert find_key(opened.keys, secret) is None
    again = runner.invoke(app, ["keys", "revoke", key.id, "--store", store])
    assert again.exit_code == 2 and "already revoked" in again.stderr
    unknown = runner.invoke(app, ["keys", "revoke", "key_nope", "--store", store])
    assert unknown.exit_code == 2 and "no key 'key_nope'" in unknown.stderr
    bare = runner.invoke(app, ["keys", "create", "--store", store])
    assert bare.exit_code == 2 and "--namespace" in bare.stderr


def test_no_auth_is_refused_off_loopback(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["serve", "--store", str(tmp_path / "s.db"), "--host", "0.0.0.0", "--no-auth"]
    )
    assert result.exit_code == 2
    assert "--no-auth is accepted only on a loopback address" in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_search_processes_auto_follows_the_cores_and_the_store(tmp_path: Path) -> None:
    """``auto`` gives one worker more than the cores on a multi-core machine for a store that
    processes can share, and none for an in-memory store; a bad value is a clear error."""
    import os

    import pytest

    from ripplemem.cli.serve import search_workers
    from ripplemem.errors import ConfigurationError
    from ripplemem.memory import Memory
    from ripplemem.settings import Settings
    from ripplemem.testing import FakeEmbedder

    cores = len(os.sched_getaffinity(0))
    with Memory(Settings(store=str(tmp_path / "s.db")), embedder=FakeEmbedder()) as shared:
        assert search_workers("auto", shared) == (min(cores + 1, 16) if cores > 1 else 0)
        assert search_workers(" 3 ", shared) == 3
        assert search_workers("0", shared) == 0
        for bad in ("17", "-1", "many"):
            with pytest.raises(ConfigurationError, match="from 0 to 16 or auto"):
                search_workers(bad, shared)
    with Memory(Settings(store="memory://"), embedder=FakeEmbedder()) as private:
        assert search_workers("auto", private) == 0
    result = CliRunner().invoke(
        app, ["serve", "--store", str(tmp_path / "t.db"), "--search-processes", "lots"]
    )
    assert result.exit_code == 2 and "--search-processes must be" in result.stderr
