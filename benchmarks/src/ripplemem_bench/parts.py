"""What the harness needs to know about a :class:`~ripplemem.Memory` beyond its public API.

A result names the models it measured (embedder, extractor, planner, LLM), a peer gets the
memory's own embedder so both embed alike, and a timed writer loads its models before the clock
starts. The facade offers none of these yet, so this module is the one place that reads the
memory's components; everything else in the harness goes through the public API.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ripplemem import Memory
    from ripplemem.providers import Embedder

__all__ = ["MemoryFacts", "facts_of", "load_models"]


@dataclass(frozen=True, slots=True)
class MemoryFacts:
    embedder: Embedder
    extractor: str  # class name, as results record it: DeterministicExtractor, LLMExtractor
    planner: str
    llm: str | None  # the chat model's name, None without one

    @property
    def embedder_name(self) -> str:
        return self.embedder.name


def facts_of(memory: Memory) -> MemoryFacts:
    parts = memory.parts
    return MemoryFacts(
        embedder=parts.embedder,
        extractor=type(parts.extractor).__name__,
        planner=type(parts.planner).__name__,
        llm=parts.chat.name if parts.chat is not None else None,
    )


def load_models(memory: Memory) -> None:
    """Load the embedder and the entity recogniser now (they load on first use otherwise)."""
    parts = memory.parts
    parts.embedder.embed(["warm up"])
    parts.recognizer.find(["warm up"], learn=False)
