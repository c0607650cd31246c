"""Shared parts of the reliability tests: the shipped embedder, loaded once, and a conversation."""

from __future__ import annotations

import pytest

from ripplemem.providers.local_embedder import MiniLMFloatEmbedder

from .scenario import TRIP

__all__ = ["DINNER", "TRIP"]

DINNER = [
    {"speaker": "Sam", "text": "You should take Maya to Harbor Grill for her birthday dinner."},
    {"speaker": "Alex", "text": "Good idea, I will book a table for next Friday."},
]


@pytest.fixture(scope="session")
def embedder():
    """The shipped embedder, loaded once per test session."""
    return MiniLMFloatEmbedder()

