"""The shipped embedder once per session (the real PostgreSQL is tests/conftest.py's)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ripplemem import Memory, Settings
from ripplemem.providers.local_embedder import MiniLMFloatEmbedder


@pytest.fixture(scope="session")
def embedder():
    """The shipped embedder, loaded once per test session."""
    return MiniLMFloatEmbedder()


@pytest.fixture(scope="module")
def round_memory(request: pytest.FixtureRequest, embedder) -> Iterator[Memory]:
    """The memory of a round module's ``CASES`` (tests/updates/round4.py), built once per module."""
    from .round4 import build

    with build(request.module.CASES, embedder) as opened:
        yield opened


@pytest.fixture(scope="module")
def exchange_memory(request: pytest.FixtureRequest, embedder) -> Iterator[Memory]:
    """The memory of a module's ``CASES`` of exchanges (tests/updates/exchanges.py), built once
    per module."""
    from .exchanges import build

    with build(request.module.CASES, embedder) as opened:
        yield opened


#: the stores a test over ``memory_on_every_backend`` runs on
BACKENDS = ["memory", "sqlite", "postgres"]


@pytest.fixture(params=BACKENDS)
def memory_on_every_backend(request: pytest.FixtureRequest, tmp_path: Path, embedder) -> Iterator[Memory]:
    """A memory of each backend in turn (in memory, a SQLite file, the real PostgreSQL's schema
    of this test), with the shipped embedder."""
    if request.param == "memory":
        url = "memory://"
    elif request.param == "sqlite":
        url = str(tmp_path / "m.db")
    else:
        url = request.getfixturevalue("postgres_store_url")()
    with Memory(Settings(store=url), embedder=embedder) as opened:
        yield opened


@pytest.fixture
def memory(embedder) -> Iterator[Memory]:
    """An empty in-memory store with the shipped embedder, one per test."""
    with Memory(Settings(store="memory://"), embedder=embedder) as opened:
        yield opened


__all__ = ["BACKENDS", "embedder", "memory", "memory_on_every_backend", "round_memory"]
