"""The default embedder of the store tests; the PostgreSQL fixtures are in tests/conftest.py."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def embedder():
    """The default embedder (what ``Settings()`` makes), loaded once per test session."""
    from ripplemem.providers.factory import make_embedder
    from ripplemem.settings import Settings

    return make_embedder(Settings().embedder)
