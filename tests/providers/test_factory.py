"""Setting strings to provider objects."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ripplemem import Memory, Settings
from ripplemem.errors import ConfigurationError, EmbedderMismatchError
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
from ripplemem.stores.registry import open_store
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


def test_every_minilm_name_a_store_may_hold_stays_registered() -> None:
    assert {"minilm-q7", "minilm-q8", "minilm-int8"} <= set(known_embedders())
    assert Settings().embedder == "minilm-q7"


def test_a_store_built_with_minilm_q8_names_the_setting_that_reopens_it(tmp_path: Path) -> None:
    path = tmp_path / "q8.db"
    store = open_store(path)
    store.check_embedder("minilm-q8", 384)  # as the previous default recorded it
    store.close()
    with pytest.raises(EmbedderMismatchError) as caught:
        Memory(Settings.from_env({}, store=str(path)))
    message = str(caught.value)
    assert "'minilm-q8'" in message and "'minilm-q7'" in message
    assert "RIPPLEMEM_EMBEDDER=minilm-q8" in message
    with Memory(Settings.from_env({"RIPPLEMEM_EMBEDDER": "minilm-q8"}, store=str(path))) as memory:
        assert memory.settings.embedder == "minilm-q8"
