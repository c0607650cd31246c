"""Turn setting strings into provider objects — only at the edge (CLI, server, ``Memory``).

Embedders live in a small registry of zero-argument constructors; each imports its module
lazily, so nothing heavy loads until an embedder is actually built.
"""

from __future__ import annotations

from collections.abc import Callable

from ripplemem.errors import ConfigurationError
from ripplemem.providers.base import ChatModel, Embedder
from ripplemem.settings import LLMSettings

EmbedderConstructor = Callable[[], Embedder]


def _minilm_q7() -> Embedder:
    from ripplemem.providers.local_embedder import MiniLMQ7Embedder

    return MiniLMQ7Embedder()


def _minilm_q8() -> Embedder:
    from ripplemem.providers.local_embedder import MiniLMQ8Embedder

    return MiniLMQ8Embedder()


def _minilm_float() -> Embedder:
    from ripplemem.providers.local_embedder import MiniLMFloatEmbedder

    return MiniLMFloatEmbedder()


#: Every name a store may have recorded stays here: ``minilm-q7`` (the default), ``minilm-q8``
#: (CPU-dependent vectors) and ``minilm-int8`` (float32 compute; the name is the weights
#: package's, kept for the stores built with it).
EMBEDDERS: dict[str, EmbedderConstructor] = {
    "minilm-q7": _minilm_q7,
    "minilm-q8": _minilm_q8,
    "minilm-int8": _minilm_float,
}


def register_embedder(
    name: str, constructor: EmbedderConstructor, *, replace: bool = False
) -> None:
    """Make ``make_embedder(name)`` build ``constructor()`` (plugins, test embedders)."""
    if name in EMBEDDERS and not replace:
        raise ConfigurationError(
            f"An embedder named {name!r} is already registered; pass replace=True to override it"
        )
    EMBEDDERS[name] = constructor


def known_embedders() -> list[str]:
    return sorted(EMBEDDERS)


def make_embedder(name: str) -> Embedder:
    """Build the embedder registered under ``name`` (e.g. ``Settings.embedder``)."""
    try:
        constructor = EMBEDDERS[name]
    except KeyError:
        raise ConfigurationError(
            f"Unknown embedder {name!r}. Known embedders: {', '.join(known_embedders())}. "
            "Fix Settings.embedder (RIPPLEMEM_EMBEDDER) or register one with register_embedder()."
        ) from None
    return constructor()


def make_chat(settings: LLMSettings) -> ChatModel:
    """An OpenAI-compatible chat client for ``settings``."""
    from ripplemem.providers.openai_compat import OpenAICompatibleChat

    return OpenAICompatibleChat(settings)
