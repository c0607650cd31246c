"""Chat and embedding providers."""

from ripplemem.providers.base import ChatMessage, ChatModel, ChatResult, Embedder, InputType

__all__ = ["ChatMessage", "ChatModel", "ChatResult", "Embedder", "InputType"]
