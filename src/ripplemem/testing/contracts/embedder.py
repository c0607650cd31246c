"""What every :class:`~ripplemem.providers.base.Embedder` must do.

Subclass :class:`EmbedderContract` and give it an ``embedder`` fixture::

    class TestMyEmbedder(EmbedderContract):
        @pytest.fixture(scope="class")
        def embedder(self):
            return MyEmbedder()
"""

from __future__ import annotations

import numpy as np
import pytest

from ripplemem.providers.base import Embedder

TEXTS = (
    "Maya is allergic to seafood and carries an epinephrine pen.",
    "Maya cannot eat seafood because of her allergy.",
    "The train to Lyon leaves at noon from platform four.",
)


def _cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))


class EmbedderContract:
    """Shape, type, normalisation, determinism and a minimal sense of meaning."""

    @pytest.fixture
    def embedder(self) -> Embedder:  # pragma: no cover - the subclass provides it
        raise NotImplementedError("subclass EmbedderContract and provide an `embedder` fixture")

    def test_it_is_an_embedder_with_a_name_and_a_dimension(self, embedder):
        assert isinstance(embedder, Embedder)
        assert isinstance(embedder.name, str) and embedder.name
        assert isinstance(embedder.dim, int) and embedder.dim > 0
        threshold = embedder.semantic_edge_threshold
        assert threshold is None or 0.0 < threshold <= 1.0

    @pytest.mark.parametrize("input_type", ["document", "query"])
    def test_vectors_are_unit_length_float32_rows(self, embedder, input_type):
        vectors = embedder.embed(list(TEXTS), input_type=input_type)
        assert vectors.shape == (len(TEXTS), embedder.dim)
        assert vectors.dtype == np.float32
        assert np.all(np.isfinite(vectors))
        np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)

    def test_no_texts_give_an_empty_matrix(self, embedder):
        assert embedder.embed([]).shape == (0, embedder.dim)

    def test_the_same_text_gets_the_same_vector(self, embedder):
        first = embedder.embed([TEXTS[0]])[0]
        again = embedder.embed([TEXTS[0]])[0]
        np.testing.assert_allclose(first, again, atol=1e-6)

    def test_a_text_in_a_batch_is_embedded_as_alone(self, embedder):
        alone = embedder.embed([TEXTS[2]])[0]
        batched = embedder.embed(list(TEXTS))[2]
        assert _cosine(alone, batched) > 0.98

    def test_related_texts_are_closer_than_unrelated_ones(self, embedder):
        a, b, c = embedder.embed(list(TEXTS))
        assert _cosine(a, b) > _cosine(a, c)

    def test_odd_but_valid_text_is_embedded(self, embedder):
        odd = ["", " ", "émigré naïve café — 東京 🚆", "x" * 5000]
        vectors = embedder.embed(odd)
        assert vectors.shape == (len(odd), embedder.dim) and np.all(np.isfinite(vectors))
