"""The shipped embedder once per session, and the real PostgreSQL of the store tests."""

from __future__ import annotations

import pytest

from ripplemem.providers.local_embedder import MiniLMFloatEmbedder
from stores.conftest import postgres_store_url, postgres_url


@pytest.fixture(scope="session")
def embedder():
    """The shipped embedder, loaded once per test session."""
    return MiniLMFloatEmbedder()


__all__ = ["embedder", "postgres_store_url", "postgres_url"]
