"""OpenAICompatibleEmbedder against the scripted server's /v1/embeddings."""

from __future__ import annotations

import numpy as np
import pytest

from ripplemem.errors import ConfigurationError, InvalidInputError, ProviderError
from ripplemem.providers.base import Embedder
from ripplemem.providers.openai_compat import OpenAICompatibleEmbedder
from ripplemem.testing import Reply, ScriptedOpenAIServer, scripted_embedding

TEXTS = ["alpha", "beta gamma", "delta", "epsilon", "zeta eta theta"]


def test_vectors_are_normalised_in_order_and_batched() -> None:
    with ScriptedOpenAIServer(dim=16, api_key="k") as server:
        embedder = OpenAICompatibleEmbedder(
            server.base_url, "emb-small", 16, api_key="k", batch_size=2
        )
        assert isinstance(embedder, Embedder)
        vectors = embedder.embed(TEXTS)
        recorded = server.recorded
    assert (embedder.name, embedder.dim) == ("emb-small", 16)
    assert vectors.shape == (5, 16) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)
    expected = np.vstack([scripted_embedding(text, 16) for text in TEXTS])
    np.testing.assert_allclose(vectors, expected, atol=1e-6)
    assert [r.body["input"] for r in recorded] == [TEXTS[0:2], TEXTS[2:4], TEXTS[4:5]]
    assert {r.path for r in recorded} == {"/v1/embeddings"}
    assert all(r.headers["authorization"] == "Bearer k" for r in recorded)
    assert all(r.body["model"] == "emb-small" for r in recorded)


def test_unnormalised_vectors_from_the_server_are_normalised() -> None:
    body = {"data": [{"index": 1, "embedding": [0.0, 3.0]}, {"index": 0, "embedding": [4.0, 0.0]}]}
    with ScriptedOpenAIServer(embedding_replies=[Reply.json(body)]) as server:
        vectors = OpenAICompatibleEmbedder(server.base_url, "m", 2).embed(["a", "b"])
    np.testing.assert_allclose(vectors, [[1.0, 0.0], [0.0, 1.0]])  # sorted by index


def test_empty_input_makes_no_request() -> None:
    with ScriptedOpenAIServer(dim=8) as server:
        vectors = OpenAICompatibleEmbedder(server.base_url, "m", 8).embed([])
        assert server.requests == []
    assert vectors.shape == (0, 8) and vectors.dtype == np.float32


def test_dimension_mismatch_names_the_dimension_to_configure() -> None:
    with ScriptedOpenAIServer(dim=32) as server:
        embedder = OpenAICompatibleEmbedder(server.base_url, "m", 384)
        with pytest.raises(ConfigurationError, match="returns 32-d vectors.*set dim=32"):
            embedder.embed(["x"])


def test_transient_failures_are_retried() -> None:
    failures = [Reply.status(503), Reply.status(429, retry_after=0)]
    with ScriptedOpenAIServer(dim=8, embedding_replies=failures) as server:
        embedder = OpenAICompatibleEmbedder(server.base_url, "m", 8, backoff_s=0.01)
        assert embedder.embed(["x"]).shape == (1, 8)
        assert len(server.requests) == 3


def test_a_body_that_is_not_json_is_a_provider_error() -> None:
    server = ScriptedOpenAIServer(embedding_replies=[Reply.malformed()])
    with server, pytest.raises(ProviderError, match="not JSON"):
        OpenAICompatibleEmbedder(server.base_url, "m", 8).embed(["x"])


def test_a_bare_string_is_refused() -> None:
    embedder = OpenAICompatibleEmbedder("http://127.0.0.1:9/v1", "m", 8)
    with pytest.raises(InvalidInputError):
        embedder.embed("one text")
