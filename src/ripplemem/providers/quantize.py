"""Derive a dynamically quantised (int8 compute) ONNX model from float or int8-stored weights.

The MiniLM package ships int8 *storage* only: each weight is cast back to float32 when the
session loads, so every matrix product runs in float32. Dynamic quantisation (onnxruntime's
``quantize_dynamic``: signed weights per output channel, unsigned 8-bit activations quantised
per batch) runs the same products as integer dot products, about 2x faster on CPU.

The weight width decides whether the result depends on the CPU. onnxruntime's u8 x s8 kernel
on CPUs without VNNI (AVX2, AVX-512 without VNNI) adds byte products in pairs into 16 bits,
which saturates for 8-bit weights (255 * 127 * 2 > 32,767) but never for 7-bit ones (weights
in [-64, 64]: 255 * 64 * 2 < 32,767). So ``weight_bits=7`` (``reduce_range``) gives the same
vectors on every x86-64 CPU, and ``weight_bits=8`` slightly different ones with and without VNNI.

The derivation is deterministic and offline: (1) onnxruntime folds the int8-to-float casts
into a float32 graph, (2) ``quantize_dynamic`` rewrites every MatMul. It takes a few seconds
and runs once: the result is cached under :func:`cache_dir` with a name that holds the weight
width, the source weights' sha256 and the onnxruntime version, plus a ``.sha256`` sidecar
checked on every load, so a truncated or edited file is derived again instead of being used.
This module works on paths only; the embedders in :mod:`ripplemem.providers.local_embedder`
call it.
"""

from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path
from typing import Literal

from ripplemem.errors import InvalidInputError, MissingExtraError, ProviderError
from ripplemem.providers.minilm_weights import file_sha256

#: The environment variable that moves the cache (default: $XDG_CACHE_HOME/ripplemem).
CACHE_ENV = "RIPPLEMEM_CACHE_DIR"

#: Signed weight widths: 8 uses the full int8 range, 7 keeps weights in [-64, 64].
WeightBits = Literal[7, 8]

logger = logging.getLogger(__name__)


def cache_dir() -> Path:
    """Where derived model files live: $RIPPLEMEM_CACHE_DIR, else $XDG_CACHE_HOME/ripplemem."""
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base).expanduser() / "ripplemem"


def quantized_path(
    source: Path, source_sha256: str, folder: Path | None = None, *, weight_bits: WeightBits
) -> Path:
    """The cached quantised model for ``source``, derived first when missing or damaged."""
    import onnxruntime

    _check_bits(weight_bits)
    folder = cache_dir() if folder is None else folder
    name = f"minilm-q{weight_bits}-{source_sha256[:16]}-ort{onnxruntime.__version__}.onnx"
    target = folder / name
    sidecar = target.with_name(name + ".sha256")
    if target.is_file() and sidecar.is_file():
        if file_sha256(target) == sidecar.read_text(encoding="utf-8").strip():
            return target
        logger.warning("cached quantised model %s is damaged; deriving it again", target)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        derive_dynamic_quantised(source, target, weight_bits=weight_bits)
    except OSError as error:
        raise ProviderError(
            f"cannot write the quantised MiniLM to {folder}: {error}. Point {CACHE_ENV} at a "
            "writable folder, or use the embedder 'minilm-int8' (no derived file needed)."
        ) from error
    sidecar.write_text(file_sha256(target) + "\n", encoding="utf-8")
    return target


def derive_dynamic_quantised(source: Path, target: Path, *, weight_bits: WeightBits) -> Path:
    """Write the dynamically quantised model of ``source`` to ``target`` (atomic replace)."""
    _check_bits(weight_bits)
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
        staged = Path(scratch) / f"q{weight_bits}.onnx"
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
                reduce_range=weight_bits == 7,
            )
        finally:
            quiet.setLevel(level)
        os.replace(staged, target)
    return target


def _check_bits(weight_bits: int) -> None:
    if weight_bits not in (7, 8):
        raise InvalidInputError(f"weight_bits must be 7 or 8, got {weight_bits!r}")
