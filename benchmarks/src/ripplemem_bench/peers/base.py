"""The seam for peer memory systems benchmarked beside our recipes.

A peer ingests the same :class:`~ripplemem.records.Conversation` into a namespace and answers a
search with :class:`~ripplemem.records.Evidence` whose units carry the source ``turn_ids``, so the
benchmark scores it with exactly the code that scores our recipes.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from ripplemem.records import Conversation, Evidence


@runtime_checkable
class PeerMemory(Protocol):
    """Another memory system, driven through its own public API."""

    name: str
    budget: int  # evidence items returned per search (the top-K cut-off)

    def ingest(self, conversation: Conversation, namespace: str) -> int:
        """Store every turn of ``conversation`` under ``namespace``; returns memories stored."""
        ...

    def search(self, query: str, namespace: str, question_time: datetime | None) -> Sequence[Evidence]:
        """The top ``budget`` memories for ``query``, best first."""
        ...

    def drop(self, namespace: str) -> None:
        """Forget everything stored under ``namespace``."""
        ...

    def describe(self) -> dict:
        """Version and configuration, recorded in the benchmark result."""
        ...

    def close(self) -> None: ...
