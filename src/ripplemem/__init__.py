"""ripplemem: long-term memory for LLM agents that recalls the whole evidence set.

    >>> from ripplemem import Memory
    >>> memory = Memory.open("memory.db")          # or "postgresql://...", "memory://"
    >>> memory.add([{"role": "user", "content": "Maya is allergic to seafood."}], user_id="me")
    >>> memory.search("Can I take Maya to a seafood place?", user_id="me").evidence
"""

from typing import TYPE_CHECKING

from ripplemem.errors import RippleMemError
from ripplemem.recipes import RECIPES, RecallRecipe, get_recipe
from ripplemem.records import (
    AddResult,
    Answer,
    Conversation,
    Cues,
    Edge,
    Evidence,
    MemoryUnit,
    Recall,
    RecallTrace,
    Session,
    TimeSpan,
    Turn,
    Version,
)
from ripplemem.settings import LLMSettings, Settings, WriteSettings

__all__ = [
    "RECIPES",
    "AddResult",
    "Answer",
    "AsyncMemory",
    "Conversation",
    "Cues",
    "Edge",
    "Evidence",
    "LLMSettings",
    "Memory",
    "MemoryUnit",
    "Recall",
    "RecallRecipe",
    "RecallTrace",
    "RippleMemError",
    "Session",
    "Settings",
    "TimeSpan",
    "Turn",
    "Version",
    "WriteSettings",
    "get_recipe",
]
__version__ = "0.1.0"

if TYPE_CHECKING:
    from ripplemem.memory import AsyncMemory, Memory

_LAZY = {"AsyncMemory", "Memory"}


def __getattr__(name: str) -> object:
    """The facade (and the pipelines behind it) load on first use, so the CLI starts fast."""
    if name in _LAZY:
        from ripplemem import memory

        return getattr(memory, name)
    raise AttributeError(f"module 'ripplemem' has no attribute {name!r}")
