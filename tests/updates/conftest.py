"""The shipped embedder once per session (the real PostgreSQL is tests/conftest.py's)."""

from __future__ import annotations

from collections.abc import Iterator

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


@pytest.fixture
def memory(embedder) -> Iterator[Memory]:
    """An empty in-memory store with the shipped embedder, one per test."""
    with Memory(Settings(store="memory://"), embedder=embedder) as opened:
        yield opened


__all__ = ["embedder", "memory", "round_memory"]
