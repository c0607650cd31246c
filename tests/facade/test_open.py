"""``Memory.open``: what a store location may be (a path or URL string; ``sqlite:///`` URLs read as
SQLAlchemy reads them), and the RIPPLEMEM_* variables it reads for the settings not given."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ripplemem import AsyncMemory, Memory, Settings
from ripplemem.errors import ConfigurationError
from ripplemem.settings import LLMSettings
from ripplemem.stores.registry import sqlite_path


def _python(code: str, cwd: Path, **env: str) -> str:
    """Run ``code`` in a fresh interpreter in ``cwd`` with ``env`` added; its stdout."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], check=False, cwd=cwd, capture_output=True, text=True,
        env={**os.environ, **env}, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize("store", [None, 5, 2.5, b"memory.db", ["memory.db"]])
def test_a_store_that_is_not_a_path_or_url_is_refused(store: object, tmp_path: Path) -> None:
    kind = type(store).__name__
    for opener in (Memory.open, AsyncMemory.open):
        with pytest.raises(ConfigurationError, match=f"store must be a path or URL string, got {kind}"):
            opener(store)  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError, match=f"store must be a path or URL string, got {kind}"):
        Settings(store=store)
    said = _python(
        """
        from ripplemem import Memory
        from ripplemem.errors import ConfigurationError
        try:
            Memory.open(None)
        except ConfigurationError as error:
            print("refused")
        """,
        tmp_path,
    )
    assert said == "refused" and list(tmp_path.iterdir()) == []  # no file named "None"


def test_sqlite_urls_read_as_sqlalchemy_reads_them(tmp_path: Path) -> None:
    assert sqlite_path("memory.db") == Path("memory.db")
    assert sqlite_path("sqlite:///memory.db") == Path("memory.db")  # in the working folder
    assert sqlite_path("sqlite:///data/alex.db") == Path("data/alex.db")
    assert sqlite_path(f"sqlite:///{tmp_path}/m.db") == tmp_path / "m.db"  # four slashes
    assert sqlite_path("SQLite:////srv/m.db") == Path("/srv/m.db")
    assert sqlite_path("memory://") is None and sqlite_path("postgresql://h/db") is None
    for location in ("sqlite://", "sqlite:///"):
        with pytest.raises(ConfigurationError, match="needs a path"):
            sqlite_path(location)
    with pytest.raises(ConfigurationError, match="names a host"):
        sqlite_path("sqlite://memory.db")
    path = _python(
        """
        from ripplemem import Memory
        from pathlib import Path
        with Memory.open("sqlite:///rel.db", env={}) as memory:
            print(Path(memory.store.path).resolve())
        """,
        tmp_path,
    )
    assert Path(path).resolve() == (tmp_path / "rel.db").resolve() and (tmp_path / "rel.db").exists()


def test_settings_not_given_come_from_the_environment(tmp_path: Path) -> None:
    day_first = {"RIPPLEMEM_DATE_ORDER": "day-first", "RIPPLEMEM_RECIPE": "bm25"}
    with Memory.open("memory://", env=day_first) as memory:
        assert memory.settings.date_order == "day-first" and memory.settings.recipe == "bm25"
    with Memory.open("memory://", env=day_first, date_order="month-first") as memory:
        assert memory.settings.date_order == "month-first"  # the call's own setting wins
    with Memory.open("memory://", env={}) as memory:
        assert memory.settings.date_order == "month-first" and not memory.can_answer
    endpoint = {"RIPPLEMEM_LLM_BASE_URL": "http://127.0.0.1:9/v1", "RIPPLEMEM_LLM_MODEL": "m"}
    with Memory.open("memory://", env=endpoint) as memory:
        assert memory.can_answer and memory.settings.llm is not None
    with pytest.raises(ConfigurationError, match="Unknown embedder 'nope'"):
        AsyncMemory.open("memory://", env={"RIPPLEMEM_EMBEDDER": "nope"})
    said = _python(
        """
        from ripplemem import Memory, Settings
        from ripplemem.testing import FakeEmbedder
        print(Memory.open("memory://", embedder="minilm-q7").settings.date_order)
        plain = Memory(embedder=FakeEmbedder())
        print(plain.settings.date_order, plain.settings.store, plain.store.url)
        print(Memory(Settings(store="memory://"), embedder=FakeEmbedder()).settings.date_order)
        """,
        tmp_path,
        RIPPLEMEM_DATE_ORDER="day-first",
        RIPPLEMEM_STORE=str(tmp_path / "env.db"),
    )
    assert said.splitlines() == [
        "day-first",
        f"day-first {tmp_path / 'env.db'} {tmp_path / 'env.db'}",
        "month-first",  # Settings given as an object are used as they are
    ]


def test_an_env_that_is_not_a_mapping_is_refused() -> None:
    for open_ in (Memory.open, AsyncMemory.open):
        with pytest.raises(ConfigurationError, match=r"env must be a mapping .*such as os\.environ or \{\}.*got int"):
            open_("memory://", env=5)  # type: ignore[arg-type]


def test_an_invalid_variable_is_named_unless_the_call_gives_that_setting() -> None:
    with pytest.raises(ConfigurationError, match=r"RIPPLEMEM_DATE_ORDER='sideways': .*month-first.*unset"):
        Memory.open("memory://", env={"RIPPLEMEM_DATE_ORDER": "sideways"})
    with pytest.raises(ConfigurationError, match=r"RIPPLEMEM_RECIPE='bogus': .*no recipe named"):
        Memory.open("memory://", env={"RIPPLEMEM_RECIPE": "bogus"})
    with Memory.open("memory://", env={"RIPPLEMEM_DATE_ORDER": "sideways"}, date_order="day-first") as memory:
        assert memory.settings.date_order == "day-first"  # the call's own setting: the env's is not read
    bad_llm = {"RIPPLEMEM_LLM_BASE_URL": "http://127.0.0.1:9/v1", "RIPPLEMEM_LLM_TIMEOUT_S": "abc"}
    with pytest.raises(ConfigurationError, match="RIPPLEMEM_LLM_TIMEOUT_S"):
        Memory.open("memory://", env=bad_llm)
    own = LLMSettings(base_url="http://127.0.0.1:9/v1", model="m")
    with Memory.open("memory://", env=bad_llm, llm=own) as memory:
        assert memory.settings.llm == own
    with Memory.open("memory://", env=bad_llm, llm=None) as memory:
        assert not memory.can_answer


@pytest.mark.parametrize("location", ["sqlite:///memory.db?mode=ro", "sqlite:memory.db", "SQLITE:memory.db"])
def test_a_sqlite_location_that_would_name_a_stray_file_is_refused(location: str) -> None:
    from ripplemem.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="sqlite:///memory.db"):
        sqlite_path(location)
    with pytest.raises(ConfigurationError):
        Memory.open(location)
    assert not list(Path.cwd().glob("*mode=ro*")) and not Path(location).exists()
