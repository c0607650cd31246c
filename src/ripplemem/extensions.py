"""What code beyond the verbs may reach of a memory: a small, declared set of extension points.

The benchmark harness (``ripplemem-bench``), the AssoMem training commands and the service's
search workers need a few things the verbs do not give: the embedder a memory uses (to embed a
question for a peer system, or to compute a ranker's raw signals), the names of the stages it was
built with (recorded beside every result), and a way to load the models before a timed run. They
get them here, never from the memory's internals:

* :func:`embedder_of` — the :class:`~ripplemem.providers.base.Embedder` in use;
* :func:`stages_of` — the embedder, extractor and planner as named in results;
* :func:`warm_up` — load the embedder and the entity recogniser now;
* :func:`reader_of` — a second memory over the same SQLite file for the service's reads, so they
  never wait behind the first one's write block.

Anything else a caller needs is a verb of :class:`~ripplemem.Memory` or a Protocol of the seams
(stores, providers); adding a point here is a deliberate change, pinned by ``tests/facade``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ripplemem.memory import AsyncMemory, Memory
    from ripplemem.providers.base import Embedder

__all__ = ["Stages", "embedder_of", "reader_of", "stages_of", "warm_up"]


@dataclass(frozen=True, slots=True)
class Stages:
    """The stages a memory was built with: the embedder's name, and the extractor's and the
    planner's names (``extractor``: its ``name``; ``*_class``: the class, as results record it);
    ``chat``: the LLM's name, None without one."""

    embedder: str
    extractor: str
    extractor_class: str
    planner_class: str
    chat: str | None


def embedder_of(memory: Memory | AsyncMemory) -> Embedder:
    """The embedder ``memory`` embeds units and queries with."""
    return memory._core.parts.embedder


def stages_of(memory: Memory | AsyncMemory) -> Stages:
    parts = memory._core.parts
    return Stages(
        embedder=parts.embedder.name,
        extractor=parts.extractor.name,
        extractor_class=type(parts.extractor).__name__,
        planner_class=type(parts.planner).__name__,
        chat=parts.chat.name if parts.chat is not None else None,
    )


def warm_up(memory: Memory | AsyncMemory) -> None:
    """Load the models (embedder, entity recogniser) now, so the next call does not."""
    memory._core.warm_up()


def reader_of(memory: Memory) -> Memory | None:
    """A second Memory over ``memory``'s SQLite file, for reads that must never wait behind its
    write block: its own connection, caches and entity recogniser, the same embedder and LLM.
    None where reads need none (PostgreSQL reads on pooled connections of their own) or cannot
    have one (a ``memory://`` store lives in one Memory). The caller closes it."""
    from ripplemem.memory import Memory

    if memory.backend != "sqlite":
        return None
    parts = memory._core.parts
    settings = memory.settings.model_copy(update={"store": memory.store.url})
    return Memory(settings, embedder=parts.embedder, chat=parts.chat)
