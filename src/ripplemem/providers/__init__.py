"""Chat and embedding providers: the Protocols, the settings-to-provider factory
(:func:`make_chat`, :func:`make_embedder`) and bounded structured output
(:func:`complete_structured`, with :class:`MaxItems` / :class:`MaxLength` schema bounds)."""

from ripplemem.providers.base import ChatMessage, ChatModel, ChatResult, Embedder, InputType
from ripplemem.providers.factory import make_chat, make_embedder
from ripplemem.providers.structured import MaxItems, MaxLength, complete_structured

__all__ = [
    "ChatMessage",
    "ChatModel",
    "ChatResult",
    "Embedder",
    "InputType",
    "MaxItems",
    "MaxLength",
    "complete_structured",
    "make_chat",
    "make_embedder",
]
