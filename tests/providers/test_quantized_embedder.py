"""MiniLMQ8Embedder: the int8-compute MiniLM derived from the shipped weights and cached."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ripplemem.errors import ProviderError
from ripplemem.providers.base import Embedder
from ripplemem.providers.factory import make_embedder
from ripplemem.providers.local_embedder import (
    WEIGHTS_SHA256,
    MiniLMInt8Embedder,
    MiniLMQ8Embedder,
    default_weights_path,
    file_sha256,
)
from ripplemem.providers.quantize import CACHE_ENV, cache_dir, quantized_path

TEXTS = [
    "I went hiking with my sister last weekend.",
    "Caroline adopted a puppy in May and named it Max; he loves the beach near her place.",
    "What did you cook for dinner yesterday?",
    "My grandmother taught me to knit when I was seven years old.",
    "We are moving to Berlin in the autumn because of my new job at the university.",
    "Did you finish the book about the history of jazz?",
    "Melanie ran a charity race for mental health awareness on Saturday morning.",
    "ok",
]
QUERIES = ["who got a new dog?", "moving to a new city for work", "a running event for charity"]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("model-cache")


@pytest.fixture(scope="module")
def q8(folder: Path) -> MiniLMQ8Embedder:
    return MiniLMQ8Embedder(cache_dir=folder, threads=1)


def test_is_an_embedder_under_its_own_name(q8: MiniLMQ8Embedder) -> None:
    assert isinstance(q8, Embedder)
    assert (q8.name, q8.dim) == ("minilm-q8", 384)
    assert isinstance(make_embedder("minilm-q8"), MiniLMQ8Embedder)


def test_vectors_stay_close_to_the_float32_path(q8: MiniLMQ8Embedder) -> None:
    quantised = q8.embed(TEXTS)
    reference = MiniLMInt8Embedder(threads=1).embed(TEXTS)
    assert quantised.shape == (len(TEXTS), 384) and quantised.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(quantised, axis=1), 1.0, atol=1e-5)
    cosines = np.sum(quantised * reference, axis=1)
    assert cosines.min() > 0.95 and cosines.mean() > 0.98, cosines
    assert not np.allclose(quantised, reference, atol=1e-4)  # really a different computation


def test_retrieval_order_matches_the_float32_path(q8: MiniLMQ8Embedder) -> None:
    reference = MiniLMInt8Embedder(threads=1)
    best_q8 = np.argmax(q8.embed(QUERIES) @ q8.embed(TEXTS).T, axis=1)
    best_reference = np.argmax(reference.embed(QUERIES) @ reference.embed(TEXTS).T, axis=1)
    assert best_q8.tolist() == best_reference.tolist() == [1, 4, 6]


def test_the_derived_file_is_cached_and_reused(q8: MiniLMQ8Embedder, folder: Path) -> None:
    q8.embed(["warm"])
    (model,) = folder.glob("minilm-q8-*.onnx")
    assert model.name.startswith(f"minilm-q8-{WEIGHTS_SHA256[:16]}-ort")
    sidecar = model.with_name(model.name + ".sha256")
    assert sidecar.read_text().strip() == file_sha256(model)
    stamp = model.stat().st_mtime_ns
    again = quantized_path(default_weights_path(), WEIGHTS_SHA256, folder)
    assert again == model and model.stat().st_mtime_ns == stamp  # not derived a second time


def test_derivation_is_deterministic(folder: Path, tmp_path: Path) -> None:
    first = quantized_path(default_weights_path(), WEIGHTS_SHA256, folder)
    second = quantized_path(default_weights_path(), WEIGHTS_SHA256, tmp_path)
    assert first != second and file_sha256(first) == file_sha256(second)


def test_a_damaged_cache_file_is_derived_again(tmp_path: Path) -> None:
    model = quantized_path(default_weights_path(), WEIGHTS_SHA256, tmp_path)
    good = file_sha256(model)
    with model.open("r+b") as handle:
        handle.truncate(1000)
    repaired = quantized_path(default_weights_path(), WEIGHTS_SHA256, tmp_path)
    assert repaired == model and file_sha256(repaired) == good
    vectors = MiniLMQ8Embedder(cache_dir=tmp_path, threads=1).embed(["still works"])
    assert vectors.shape == (1, 384)


def test_an_unwritable_cache_names_the_setting(tmp_path: Path) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder should be")
    embedder = MiniLMQ8Embedder(cache_dir=blocked / "cache", threads=1)
    with pytest.raises(ProviderError, match=f"{CACHE_ENV}.*minilm-int8"):
        embedder.embed(["x"])


def test_cache_dir_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "mine"))
    assert cache_dir() == tmp_path / "mine"
    monkeypatch.delenv(CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "ripplemem"
