"""The int8-compute MiniLMs (minilm-q7, minilm-q8) derived from the shipped weights and cached."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import numpy_helper

from ripplemem.errors import InvalidInputError, ProviderError
from ripplemem.providers.base import Embedder
from ripplemem.providers.factory import make_embedder
from ripplemem.providers.local_embedder import (
    MiniLMFloatEmbedder,
    MiniLMQ7Embedder,
    MiniLMQ8Embedder,
)
from ripplemem.providers.minilm_weights import WEIGHTS_SHA256, default_weights_path, file_sha256
from ripplemem.providers.quantize import CACHE_ENV, cache_dir, quantized_path
from ripplemem.settings import Settings

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
QUANTISED = {"minilm-q7": (MiniLMQ7Embedder, 7), "minilm-q8": (MiniLMQ8Embedder, 8)}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("model-cache")


@pytest.fixture(scope="module")
def reference() -> np.ndarray:
    return MiniLMFloatEmbedder(threads=1).embed(TEXTS)


@pytest.fixture(scope="module", params=sorted(QUANTISED))
def quantised(request: pytest.FixtureRequest, folder: Path) -> MiniLMQ7Embedder | MiniLMQ8Embedder:
    cls, _ = QUANTISED[request.param]
    return cls(cache_dir=folder, threads=1)


def test_the_default_embedder_is_minilm_q7() -> None:
    assert Settings().embedder == "minilm-q7"
    assert isinstance(make_embedder("minilm-q7"), MiniLMQ7Embedder)


def test_each_variant_is_an_embedder_under_its_own_name(
    quantised: MiniLMQ7Embedder | MiniLMQ8Embedder,
) -> None:
    cls, bits = QUANTISED[quantised.name]
    assert isinstance(quantised, Embedder) and type(quantised) is cls
    assert quantised.dim == 384 and quantised.weight_bits == bits
    assert type(make_embedder(quantised.name)) is cls
    assert repr(quantised).startswith(f"{cls.__name__}(threads=1")


@pytest.mark.slow
def test_vectors_stay_close_to_the_float32_path(
    quantised: MiniLMQ7Embedder | MiniLMQ8Embedder, reference: np.ndarray
) -> None:
    vectors = quantised.embed(TEXTS)
    assert vectors.shape == (len(TEXTS), 384) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    cosines = np.sum(vectors * reference, axis=1)
    assert cosines.min() > 0.95 and cosines.mean() > 0.98, cosines
    assert not np.allclose(vectors, reference, atol=1e-4)  # really a different computation


def test_retrieval_order_matches_the_float32_path(
    quantised: MiniLMQ7Embedder | MiniLMQ8Embedder,
) -> None:
    reference = MiniLMFloatEmbedder(threads=1)
    best = np.argmax(quantised.embed(QUERIES) @ quantised.embed(TEXTS).T, axis=1)
    best_reference = np.argmax(reference.embed(QUERIES) @ reference.embed(TEXTS).T, axis=1)
    assert best.tolist() == best_reference.tolist() == [1, 4, 6]


def test_one_onnxruntime_thread_unless_told() -> None:
    assert MiniLMQ7Embedder().threads == 1
    assert MiniLMFloatEmbedder(threads=2).threads == 2


@pytest.mark.parametrize("cls", [MiniLMFloatEmbedder, MiniLMQ7Embedder, MiniLMQ8Embedder])
def test_the_vectors_do_not_depend_on_the_threads(
    cls: type[MiniLMFloatEmbedder], folder: Path
) -> None:
    made = {
        threads: (cls(threads=threads) if cls is MiniLMFloatEmbedder else cls(cache_dir=folder, threads=threads))
        for threads in (1, 2)
    }
    for texts in ([*TEXTS, *QUERIES], *([text] for text in QUERIES)):
        assert np.array_equal(made[1].embed(texts), made[2].embed(texts))


def test_the_two_widths_are_different_models(folder: Path) -> None:
    q7 = MiniLMQ7Embedder(cache_dir=folder, threads=1).embed(TEXTS)
    q8 = MiniLMQ8Embedder(cache_dir=folder, threads=1).embed(TEXTS)
    assert not np.allclose(q7, q8, atol=1e-4)
    cosines = np.sum(q7 * q8, axis=1)
    assert cosines.min() > 0.9 and cosines.mean() > 0.98, cosines  # "ok" is the farthest


def _quantised_weights(model: Path) -> list[np.ndarray]:
    graph = onnx.load(str(model)).graph
    return [
        numpy_helper.to_array(tensor)
        for tensor in graph.initializer
        if tensor.data_type == onnx.TensorProto.INT8 and tensor.name.endswith("_quantized")
    ]


@pytest.mark.parametrize(("bits", "low", "high"), [(7, -64, 64), (8, -128, 127)])
def test_weights_use_the_stated_width(folder: Path, bits: int, low: int, high: int) -> None:
    model = quantized_path(default_weights_path(), WEIGHTS_SHA256, folder, weight_bits=bits)
    weights = _quantised_weights(model)
    assert len(weights) >= 36  # six layers x (q, k, v, output, two feed-forward) MatMuls
    assert min(int(w.min()) for w in weights) >= low
    assert max(int(w.max()) for w in weights) <= high
    assert max(int(np.abs(w).max()) for w in weights) >= high  # the range is really used


def test_the_derived_file_is_cached_and_reused(folder: Path) -> None:
    MiniLMQ7Embedder(cache_dir=folder, threads=1).embed(["warm"])
    (model,) = folder.glob("minilm-q7-*.onnx")
    assert model.name.startswith(f"minilm-q7-{WEIGHTS_SHA256[:16]}-ort")
    sidecar = model.with_name(model.name + ".sha256")
    assert sidecar.read_text().strip() == file_sha256(model)
    stamp = model.stat().st_mtime_ns
    again = quantized_path(default_weights_path(), WEIGHTS_SHA256, folder, weight_bits=7)
    assert again == model and model.stat().st_mtime_ns == stamp  # not derived a second time


@pytest.mark.slow
def test_derivation_is_deterministic(folder: Path, tmp_path: Path) -> None:
    first = quantized_path(default_weights_path(), WEIGHTS_SHA256, folder, weight_bits=7)
    second = quantized_path(default_weights_path(), WEIGHTS_SHA256, tmp_path, weight_bits=7)
    assert first != second and file_sha256(first) == file_sha256(second)


@pytest.mark.slow
def test_a_damaged_cache_file_is_derived_again(tmp_path: Path) -> None:
    model = quantized_path(default_weights_path(), WEIGHTS_SHA256, tmp_path, weight_bits=7)
    good = file_sha256(model)
    with model.open("r+b") as handle:
        handle.truncate(1000)
    repaired = quantized_path(default_weights_path(), WEIGHTS_SHA256, tmp_path, weight_bits=7)
    assert repaired == model and file_sha256(repaired) == good
    vectors = MiniLMQ7Embedder(cache_dir=tmp_path, threads=1).embed(["still works"])
    assert vectors.shape == (1, 384)


def test_an_unwritable_cache_names_the_setting(tmp_path: Path) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder should be")
    embedder = MiniLMQ7Embedder(cache_dir=blocked / "cache", threads=1)
    with pytest.raises(ProviderError, match=f"{CACHE_ENV}.*minilm-int8"):
        embedder.embed(["x"])


def test_an_unsupported_width_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="weight_bits must be 7 or 8"):
        quantized_path(default_weights_path(), WEIGHTS_SHA256, tmp_path, weight_bits=6)  # type: ignore[arg-type]


def test_cache_dir_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "mine"))
    assert cache_dir() == tmp_path / "mine"
    monkeypatch.delenv(CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "ripplemem"
