"""MiniLMFloatEmbedder (registered as minilm-int8) with the real ONNX weights and tokenizer."""

from __future__ import annotations

import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from ripplemem.errors import InvalidInputError, ProviderError
from ripplemem.providers import local_embedder
from ripplemem.providers.base import Embedder
from ripplemem.providers.local_embedder import MiniLMFloatEmbedder, MiniLMQ7Embedder
from ripplemem.providers.minilm_weights import (
    WEIGHTS_SHA256,
    default_weights_path,
    file_sha256,
    verify_weights,
)

TEXTS = [
    "I went hiking with my sister last weekend.",
    "ok",
    "Caroline adopted a puppy in May and named it Max; he loves the beach near her place in Oregon.",
    "What did you cook for dinner yesterday?",
    "My grandmother taught me to knit when I was seven years old, and I still have the first scarf.",
    "Thanks!",
    "We are moving to Berlin in the autumn because of my new job at the university.",
    "",
    "Did you finish the book about the history of jazz?",
    "Melanie ran a charity race for mental health awareness on Saturday morning.",
]


@pytest.fixture(scope="module")
def embedder() -> MiniLMFloatEmbedder:
    # batch_size=4 so the ten texts above span three length-sorted batches
    return MiniLMFloatEmbedder(batch_size=4, threads=1)


def test_is_an_embedder_with_name_and_dim(embedder: MiniLMFloatEmbedder) -> None:
    assert isinstance(embedder, Embedder)
    assert (embedder.name, embedder.dim) == ("minilm-int8", 384)


def test_shape_dtype_and_unit_norm(embedder: MiniLMFloatEmbedder) -> None:
    vectors = embedder.embed(TEXTS)
    assert vectors.shape == (len(TEXTS), 384)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert len({row.tobytes() for row in vectors}) == len(TEXTS)  # no two texts collapse


def test_empty_input_gives_an_empty_matrix(embedder: MiniLMFloatEmbedder) -> None:
    vectors = embedder.embed([])
    assert vectors.shape == (0, 384)
    assert vectors.dtype == np.float32


def test_batched_result_equals_one_by_one(embedder: MiniLMFloatEmbedder) -> None:
    batched = embedder.embed(TEXTS)
    single = np.vstack([embedder.embed([text]) for text in TEXTS])
    np.testing.assert_allclose(batched, single, atol=1e-5)


def test_paraphrase_scores_higher_than_unrelated(embedder: MiniLMFloatEmbedder) -> None:
    a, paraphrase, unrelated = embedder.embed(
        [
            "How old is your daughter now?",
            "What is the age of your daughter?",
            "The train to Munich leaves at noon.",
        ]
    )
    assert float(a @ paraphrase) > 0.7
    assert float(a @ paraphrase) > float(a @ unrelated) + 0.3


def test_query_and_document_inputs_share_one_encoder(embedder: MiniLMFloatEmbedder) -> None:
    text = ["Where did Maya go on holiday?"]
    np.testing.assert_array_equal(
        embedder.embed(text, input_type="query"), embedder.embed(text, input_type="document")
    )


def test_long_text_is_truncated_not_rejected(embedder: MiniLMFloatEmbedder) -> None:
    long_text = " ".join(["memory"] * 2000)  # far beyond the model's 512 positions
    vectors = embedder.embed([long_text, "short"])
    assert vectors.shape == (2, 384)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    truncated = embedder.embed([" ".join(["memory"] * 300)])
    np.testing.assert_allclose(vectors[0], truncated[0], atol=1e-5)  # both cut at 256 tokens


def test_a_bare_string_is_refused(embedder: MiniLMFloatEmbedder) -> None:
    with pytest.raises(InvalidInputError, match="wrap one text in a list"):
        embedder.embed("not a list")


def test_installed_weights_match_the_pinned_checksum() -> None:
    path = verify_weights()
    assert path == default_weights_path()
    assert file_sha256(path) == WEIGHTS_SHA256
    assert MiniLMFloatEmbedder().verify_weights() == path


def test_tampered_weights_fail_verification_with_a_clear_message(tmp_path: Path) -> None:
    copy = tmp_path / "model.onnx"
    shutil.copyfile(default_weights_path(), copy)
    with copy.open("r+b") as handle:  # flip one byte
        handle.seek(1000)
        byte = handle.read(1)
        handle.seek(1000)
        handle.write(bytes([byte[0] ^ 0xFF]))
    with pytest.raises(ProviderError, match="expected 8199be6f.*reinstall"):
        verify_weights(copy)
    embedder = MiniLMFloatEmbedder(weights_path=copy)
    with pytest.raises(ProviderError, match="sha256"):
        embedder.embed(["refused before the session is built"])


def test_concurrent_first_calls_agree() -> None:
    local_embedder._RUNTIMES.clear()  # none built yet in the process: built under contention
    embedder = MiniLMFloatEmbedder(threads=1)
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = [pool.submit(embedder.embed, TEXTS[:4]) for _ in range(4)]
        results = [future.result(timeout=60) for future in futures]  # re-raises worker errors
    for result in results[1:]:
        np.testing.assert_allclose(result, results[0], atol=1e-6)


def test_embedders_alike_share_one_runtime_and_others_build_their_own(tmp_path: Path) -> None:
    """The next store a process opens loads no model again; other weights or options do."""
    first, second = MiniLMFloatEmbedder(threads=1), MiniLMFloatEmbedder(threads=1)
    np.testing.assert_array_equal(first.embed(TEXTS[:2]), second.embed(TEXTS[:2]))
    assert first._runtime is second._runtime
    copy = tmp_path / "model.onnx"
    shutil.copyfile(default_weights_path(), copy)
    other_file = MiniLMFloatEmbedder(threads=1, weights_path=copy)
    other_cache = MiniLMQ7Embedder(threads=1, cache_dir=tmp_path / "cache")
    other_file.embed(["x"])
    other_cache.embed(["x"])
    assert first._runtime is not other_file._runtime and first._runtime is not other_cache._runtime
    assert list((tmp_path / "cache").glob("minilm-q7-*.onnx"))  # derived into its own folder
