"""The shipped embedder once per session (the real PostgreSQL is tests/conftest.py's)."""

from __future__ import annotations

import pytest

from ripplemem.providers.local_embedder import MiniLMFloatEmbedder


@pytest.fixture(scope="session")
def embedder():
    """The shipped embedder, loaded once per test session."""
    return MiniLMFloatEmbedder()


__all__ = ["embedder"]
