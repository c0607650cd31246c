from __future__ import annotations

import pytest

from ripplemem.providers.local_embedder import MiniLMFloatEmbedder


@pytest.fixture(scope="session")
def embedder():
    """The shipped embedder, loaded once per test session."""
    return MiniLMFloatEmbedder()
