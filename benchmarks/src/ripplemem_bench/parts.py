"""What the harness needs of a :class:`~ripplemem.Memory` beyond its verbs, in one place.

A result names the stages it measured (embedder, extractor, planner, LLM), a peer gets the
memory's own embedder so both embed alike, and a timed writer loads its models before the clock
starts. These are the names and meanings of the library's declared extension points
(``ripplemem.extensions``: ``embedder_of``, ``stages_of``, ``warm_up``); until the library has
them, this module is the one place in the harness that reads the memory's components.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ripplemem import Memory
    from ripplemem.providers import Embedder

__all__ = ["Stages", "embedder_of", "stages_of", "warm_up"]


@dataclass(frozen=True, slots=True)
class Stages:
    """The embedder's name; the extractor's ``name`` and class name; the planner's class name
    (as results record them); the LLM's name, None without one."""

    embedder: str
    extractor: str
    extractor_class: str
    planner_class: str
    chat: str | None


def embedder_of(memory: Memory) -> Embedder:
    """The embedder ``memory`` embeds units and queries with."""
    return memory.parts.embedder


def stages_of(memory: Memory) -> Stages:
    parts = memory.parts
    return Stages(
        embedder=parts.embedder.name,
        extractor=getattr(parts.extractor, "name", type(parts.extractor).__name__),
        extractor_class=type(parts.extractor).__name__,
        planner_class=type(parts.planner).__name__,
        chat=parts.chat.name if parts.chat is not None else None,
    )


def warm_up(memory: Memory) -> None:
    """Load the embedder and the entity recogniser now (they load on first use otherwise)."""
    parts = memory.parts
    parts.embedder.embed(["warm up"])
    parts.recognizer.find(["warm up"], learn=False)
