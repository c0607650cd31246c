"""ripplemem: long-term memory for LLM agents that recalls the whole evidence set.

    >>> from ripplemem import Memory
    >>> memory = Memory.open("memory.db")
    >>> memory.add([{"role": "user", "content": "Maya is allergic to seafood."}], user_id="me")
    >>> memory.search("Can I take Maya to a seafood place?", user_id="me").evidence
"""

from ripplemem.errors import RippleMemError
from ripplemem.memory import Answer, AsyncMemory, Memory
from ripplemem.read.recipes import RECIPES, RecallRecipe, get_recipe
from ripplemem.records import (
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
)
from ripplemem.settings import LLMSettings, Settings, WriteSettings

__all__ = [
    "RECIPES",
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
    "WriteSettings",
    "get_recipe",
]
__version__ = "0.1.0"
