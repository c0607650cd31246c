"""The default embedder gives the same vectors on every x86-64 CPU.

Two checks keep it so:

- golden vectors: fixed sentences and their ``minilm-q7`` vectors, stored in
  ``fixtures/minilm_q7_golden.json`` (written on a CPU with AVX-512 VNNI), must come out the
  same here, whatever this CPU is;
- emulated CPUs: the embedder runs in a child process under ``qemu-x86_64 -cpu Haswell``
  (AVX2 without VNNI or AVX-512, where onnxruntime's int8 kernel sums byte products in 16 bits)
  and ``-cpu Nehalem`` (SSE4.2 only), and must give the vectors it gives natively.

qemu-user is needed: ``make install`` and ``make test`` install it with apt-get when it is
absent. Without it (no apt-get) the emulated runs skip, saying why, except under ``CI`` where they
fail. ``RIPPLEMEM_SKIP_QEMU=1`` skips them explicitly. Regenerate the fixture (only when the vectors are meant to change,
e.g. a new onnxruntime) with ``python tests/providers/test_cpu_independence.py --write``.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ripplemem.providers.local_embedder import MiniLMQ7Embedder, MiniLMQ8Embedder

FIXTURE = Path(__file__).parent / "fixtures" / "minilm_q7_golden.json"
TOLERANCE = 1e-5
SKIP_ENV = "RIPPLEMEM_SKIP_QEMU"
GOLDEN_TEXTS = [
    "I went hiking with my sister last weekend.",
    "Caroline adopted a puppy in May and named it Max; he loves the beach near her place.",
    "What did you cook for dinner yesterday?",
    "ok",
]

#: Runs in the emulated CPU: embeds the texts given on stdin, prints vectors and CPU features.
CHILD = """
import json, sys
request = json.load(sys.stdin)
try:
    from numpy._core._multiarray_umath import __cpu_features__ as features
except ImportError:  # numpy 1.x
    from numpy.core._multiarray_umath import __cpu_features__ as features
from ripplemem.providers import local_embedder
vectors = {}
for class_name in request["embedders"]:
    embedder = getattr(local_embedder, class_name)(cache_dir=request["cache_dir"], threads=1)
    vectors[class_name] = embedder.embed(request["texts"]).tolist()
json.dump({"features": features, "vectors": vectors}, sys.stdout)
"""


def golden() -> dict[str, Any]:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A model cache shared with the children, so nothing is derived under emulation."""
    folder = tmp_path_factory.mktemp("model-cache")
    for cls in (MiniLMQ7Embedder, MiniLMQ8Embedder):
        cls(cache_dir=folder, threads=1).embed(["derive the model once, natively"])
    return folder


def test_default_vectors_match_the_golden_fixture() -> None:
    recorded = golden()
    assert recorded["embedder"] == MiniLMQ7Embedder.name
    # the model cache every other test uses: derived once per machine, not again here
    vectors = MiniLMQ7Embedder(threads=1).embed(recorded["texts"])
    expected = np.asarray(recorded["vectors"], dtype=np.float32)
    worst = float(np.abs(vectors - expected).max())
    assert worst <= TOLERANCE, (
        f"minilm-q7 vectors moved by {worst:.2e} from {FIXTURE.name} (written with onnxruntime "
        f"{recorded['onnxruntime']}). Stores built elsewhere would be searched with different "
        "vectors; find what changed (onnxruntime, the derivation, the weights) before "
        "regenerating the fixture."
    )


def qemu() -> str:
    """The qemu-x86_64 binary; fails (never skips silently) when it is missing."""
    if os.environ.get(SKIP_ENV) == "1":
        pytest.skip(f"{SKIP_ENV}=1: the emulated-CPU check was skipped on request")
    if platform.machine().lower() not in {"x86_64", "amd64"}:
        pytest.skip(f"the emulated-CPU check runs on x86-64 hosts, this is {platform.machine()}")
    binary = shutil.which("qemu-x86_64")
    if binary is None:
        message = (
            "qemu-x86_64 is not installed, so the embedder's CPU independence cannot be "
            "checked. make install / make test install it with apt-get where there is one; "
            f"elsewhere install qemu-user yourself, or set {SKIP_ENV}=1 to skip this check."
        )
        if os.environ.get("CI"):  # CI always runs it
            pytest.fail(message)
        pytest.skip(message)
    return binary


def run_emulated(cpu: str, texts: list[str], embedders: list[str], cache: Path) -> dict[str, Any]:
    request = {"texts": texts, "embedders": embedders, "cache_dir": str(cache)}
    # OpenBLAS (inside numpy's wheel) picks its kernels from the CPUID it reads; under some
    # qemu-user builds the emulated Nehalem's makes that choice run an AVX instruction while
    # numpy loads (SIGILL before any of our code; seen with qemu 7.2 deb12u18). Naming the core,
    # as a real CPU's detection would, keeps the check on what it is about: the embedder's
    # vectors on a CPU of that kind.
    env = {**os.environ, "OPENBLAS_CORETYPE": cpu}
    done = subprocess.run(
        [qemu(), "-cpu", cpu, sys.executable, "-c", CHILD],
        input=json.dumps(request),
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,  # a failure is reported below with the child's stderr
    )
    if done.returncode != 0:
        tail = "\n".join(done.stderr.splitlines()[-15:])
        pytest.fail(f"the embedder failed under qemu-x86_64 -cpu {cpu}:\n{tail}")
    return json.loads(done.stdout)


def has_vnni(features: dict[str, bool]) -> bool:
    return bool(features.get("AVX512_CLX") or features.get("AVX512VNNI"))


@pytest.mark.slow
def test_vectors_are_the_same_on_haswell(cache: Path) -> None:
    texts = golden()["texts"]
    emulated = run_emulated("Haswell", texts, ["MiniLMQ7Embedder", "MiniLMQ8Embedder"], cache)
    features = emulated["features"]
    assert features["AVX2"] and not features["AVX512F"] and not has_vnni(features), features

    native = MiniLMQ7Embedder(cache_dir=cache, threads=1).embed(texts)
    q7 = np.asarray(emulated["vectors"]["MiniLMQ7Embedder"], dtype=np.float32)
    assert float(np.abs(q7 - native).max()) <= TOLERANCE
    expected = np.asarray(golden()["vectors"], dtype=np.float32)
    assert float(np.abs(q7 - expected).max()) <= TOLERANCE

    try:
        from numpy._core._multiarray_umath import __cpu_features__ as here
    except ImportError:  # numpy 1.x
        from numpy.core._multiarray_umath import __cpu_features__ as here
    if has_vnni(here):  # the check can tell CPUs apart: 8-bit weights do differ
        q8_native = MiniLMQ8Embedder(cache_dir=cache, threads=1).embed(texts)
        q8 = np.asarray(emulated["vectors"]["MiniLMQ8Embedder"], dtype=np.float32)
        assert float(np.abs(q8 - q8_native).max()) > 1e-3


@pytest.mark.slow
def test_vectors_are_the_same_without_avx(cache: Path) -> None:
    texts = golden()["texts"]
    emulated = run_emulated("Nehalem", texts, ["MiniLMQ7Embedder"], cache)
    assert not emulated["features"]["AVX2"], emulated["features"]
    native = MiniLMQ7Embedder(cache_dir=cache, threads=1).embed(texts)
    q7 = np.asarray(emulated["vectors"]["MiniLMQ7Embedder"], dtype=np.float32)
    assert float(np.abs(q7 - native).max()) <= TOLERANCE


def write_fixture() -> None:
    import onnxruntime

    vectors = MiniLMQ7Embedder(threads=1).embed(GOLDEN_TEXTS)
    record = {
        "embedder": MiniLMQ7Embedder.name,
        "onnxruntime": onnxruntime.__version__,
        "texts": GOLDEN_TEXTS,
        "vectors": [[round(float(value), 7) for value in row] for row in vectors],
    }
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_text(json.dumps(record) + "\n", encoding="utf-8")
    print(f"wrote {FIXTURE}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/providers/test_cpu_independence.py --write")
    write_fixture()
