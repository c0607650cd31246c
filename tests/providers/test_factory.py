"""Setting strings to provider objects."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ripplemem.errors import ConfigurationError
from ripplemem.providers.base import ChatMessage, ChatModel, Embedder
from ripplemem.providers.factory import (
    EMBEDDERS,
    known_embedders,
    make_chat,
    make_embedder,
    register_embedder,
)
from ripplemem.providers.local_embedder import MiniLMFloatEmbedder
from ripplemem.providers.openai_compat import OpenAICompatibleEmbedder
from ripplemem.testing import Reply, ScriptedOpenAIServer


def test_minilm_is_registered() -> None:
    embedder = make_embedder("minilm-int8")
    assert isinstance(embedder, MiniLMFloatEmbedder)
    assert isinstance(embedder, Embedder)
    assert "minilm-int8" in known_embedders()


def test_unknown_embedder_lists_the_known_names() -> None:
    with pytest.raises(ConfigurationError, match="Unknown embedder 'bert-9000'.*minilm-int8"):
        make_embedder("bert-9000")


@pytest.fixture
def server() -> Iterator[ScriptedOpenAIServer]:
    with ScriptedOpenAIServer(dim=8) as running:
        yield running


def test_registered_embedders_are_built_by_name(server: ScriptedOpenAIServer) -> None:
    name = "scripted-8d"
    register_embedder(name, lambda: OpenAICompatibleEmbedder(server.base_url, name, 8))
    try:
        embedder = make_embedder(name)
        assert embedder.embed(["x"]).shape == (1, 8)
        with pytest.raises(ConfigurationError, match="already registered"):
            register_embedder(name, lambda: embedder)
    finally:
        EMBEDDERS.pop(name, None)
    assert name not in known_embedders()


def test_make_chat_talks_to_the_configured_endpoint(server: ScriptedOpenAIServer) -> None:
    server.enqueue(Reply.text("pong"))
    chat = make_chat(server.llm_settings(model="gpt-test"))
    assert isinstance(chat, ChatModel)
    assert chat.name == "gpt-test"
    assert chat.complete([ChatMessage(role="user", content="ping")]).text == "pong"
    assert server.requests[0]["model"] == "gpt-test"
