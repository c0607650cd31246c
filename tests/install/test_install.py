"""ripplemem installed into someone else's project: the wheel this checkout builds, with each
extra (``[server]``, ``[postgres]``, and the harness's ``[peers]``), in fresh virtual environments
outside the checkout, used from there.

The packages the wheel needs are downloaded once into ``build/wheelhouse/<key>`` (the key changes
with ``constraints.txt`` and the two ``pyproject.toml``); every install then runs with
``--no-index`` from that folder and the freshly built wheels, so a second run needs no network.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

import ripplemem

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
CONSTRAINTS = REPO / "constraints.txt"
WHEELHOUSES = REPO / "build" / "wheelhouse"
VERSION = ripplemem.__version__

#: what a user's first lines do, run by the installed package (argv[1]: the store)
FIRST_LINES = """
import importlib.metadata, importlib.util, json, sys
import ripplemem
from ripplemem import Memory

memory = Memory.open(sys.argv[1])
memory.add(
    [{"role": "user", "content": "I adopted a grey cat named Pixel in Porto last spring."},
     {"role": "assistant", "content": "Lovely! How is Pixel settling in?"}],
    user_id="maya", session_time="2024-05-20T10:00",
)
recall = memory.search("Where did I adopt my cat?", user_id="maya")
memory.close()
print(json.dumps({
    "file": ripplemem.__file__,
    "version": importlib.metadata.version("ripplemem"),
    "found": [item.unit.restatement for item in recall.evidence],
    "harness": importlib.util.find_spec("ripplemem_bench") is not None,
}))
"""


#: the [peers] extra of the harness: mem0 as a peer, with the shipped fake embedder
PEER = """
import json
from ripplemem.conversation_input import to_conversation
from ripplemem.testing import FakeEmbedder
from ripplemem_bench.peers.mem0 import Mem0Peer

peer = Mem0Peer(FakeEmbedder(), budget=2)
stored = peer.ingest(to_conversation(
    [{"speaker": "Ana", "text": "I adopted a grey cat named Pixel in Porto."},
     {"speaker": "Ben", "text": "I start a new job at the bakery on Monday."}],
    session_time="2024-05-20T10:00"), "maya")
found = peer.search("Where did Ana adopt a grey cat named Pixel?", "maya", None)
peer.close()
print(json.dumps({"stored": stored, "first": found[0].unit.restatement}))
"""


def run(command: list, *, cwd: Path | None = None, env: dict | None = None,
        timeout: float = 900) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [str(part) for part in command], cwd=cwd, env=env, capture_output=True, text=True,
        timeout=timeout, check=False,
    )
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-25:])
        pytest.fail(f"{' '.join(map(str, command))} -> exit {done.returncode}:\n{tail}")
    return done


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """ripplemem's and ripplemem-bench's wheels, built from this checkout as `make dist` does."""
    out = tmp_path_factory.mktemp("dist")
    for project in (REPO, REPO / "benchmarks"):
        run([sys.executable, "-m", "build", "--no-isolation", "--wheel", "--outdir", out, project])
    names = sorted(path.name for path in out.glob("*.whl"))
    assert names == [
        f"ripplemem-{VERSION}-py3-none-any.whl", f"ripplemem_bench-{VERSION}-py3-none-any.whl"
    ]
    return out


@pytest.fixture(scope="module")
def wheelhouse(dist: Path) -> Path:
    """Every package the wheels and their extras need, downloaded once (pip's configured index)."""
    digest = hashlib.sha256()
    for path in (CONSTRAINTS, REPO / "pyproject.toml", REPO / "benchmarks" / "pyproject.toml"):
        digest.update(path.read_bytes())
    house = WHEELHOUSES / digest.hexdigest()[:12]
    if not (house / "complete").exists():
        shutil.rmtree(WHEELHOUSES, ignore_errors=True)  # older keys: superseded
        run([
            sys.executable, "-m", "pip", "download", "-q", "--dest", house, "-c", CONSTRAINTS,
            "--find-links", dist, f"ripplemem[server,postgres]=={VERSION}",
            f"ripplemem-bench[peers]=={VERSION}",
        ])
        for ours in house.glob("ripplemem*"):  # always installed from the fresh build instead
            ours.unlink()
        (house / "complete").write_text("downloaded by tests/install/test_install.py\n")
    return house


def fresh_venv(where: Path, dist: Path, house: Path, *requirements: str) -> Path:
    """A new virtual environment with ``requirements`` installed offline; returns its bin/."""
    run([sys.executable, "-m", "venv", "--without-pip", where])
    install(where / "bin", dist, house, *requirements)
    return where / "bin"


def install(bin_dir: Path, dist: Path, house: Path, *requirements: str) -> None:
    run([
        sys.executable, "-m", "pip", "--python", bin_dir / "python", "install", "-q",
        "--no-compile", "--no-index", "--find-links", house, "--find-links", dist,
        "-c", CONSTRAINTS, *requirements,
    ])


def user_env(bin_dir: Path) -> dict[str, str]:
    """The environment of a user's shell with the venv activated (nothing of this checkout)."""
    env = {k: v for k, v in os.environ.items()
           if k not in {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV"} and not k.startswith("RIPPLEMEM_")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(bin_dir.parent)
    if cache := os.environ.get("RIPPLEMEM_CACHE_DIR"):  # the derived model, not derived again
        env["RIPPLEMEM_CACHE_DIR"] = cache
    return env


def first_lines(bin_dir: Path, project: Path, store: str) -> dict:
    done = run([bin_dir / "python", "-c", FIRST_LINES, store], cwd=project, env=user_env(bin_dir))
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_wheel_with_the_server_extra(tmp_path: Path, dist: Path, wheelhouse: Path) -> None:
    bin_dir = fresh_venv(tmp_path / "venv", dist, wheelhouse, f"ripplemem[server]=={VERSION}")
    project = tmp_path / "my-project"
    project.mkdir()
    env = user_env(bin_dir)

    found = first_lines(bin_dir, project, "memory.db")
    assert Path(found["file"]).is_relative_to(tmp_path / "venv"), found["file"]
    assert found["version"] == VERSION and not found["harness"]
    assert any("Porto" in text for text in found["found"]), found["found"]
    assert (project / "memory.db").exists()

    version = run([bin_dir / "ripplemem", "--version"], cwd=project, env=env)
    assert version.stdout.strip() == f"ripplemem {VERSION}"

    served = subprocess.Popen(
        [bin_dir / "ripplemem", "serve", "--store", "memory.db", "--port", "0", "--no-auth",
         "--search-processes", "0", "--log-level", "warning"],
        cwd=project, env={**env, "COLUMNS": "200"}, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True,
    )
    try:
        url = _announced_url(served)
        health = _wait_healthy(url, served)
        assert health["version"] == VERSION
        with httpx.Client(base_url=url, timeout=30) as client:
            assert client.get("/docs").status_code == 200
            assert client.get("/docs/assets/swagger-ui-bundle.js").status_code == 200
            found_rest = client.post("/v1/search", json={"query": "Where did I adopt my cat?",
                                                         "namespace": "maya"})
            assert found_rest.status_code == 200, found_rest.text
    finally:
        served.send_signal(signal.SIGTERM)
        served.wait(timeout=60)

    demo = run([bin_dir / "ripplemem", "demo"], cwd=project, env=env)
    assert "Harbor Grill" in demo.stdout and (project / ".ripplemem" / "demo.db").exists()

    # the benchmark harness is its own wheel, installed beside the library, with its [peers]
    # extra: mem0 stores and finds a turn there, offline
    install(bin_dir, dist, wheelhouse, f"ripplemem-bench[peers]=={VERSION}")
    bench = run([bin_dir / "ripplemem", "bench", "--help"], cwd=project, env=env)
    assert "locomo" in bench.stdout and "longmemeval" in bench.stdout
    peer = run([bin_dir / "python", "-c", PEER], cwd=project, env=env)
    assert json.loads(peer.stdout.strip().splitlines()[-1]) == {
        "stored": 2, "first": "Ana: I adopted a grey cat named Pixel in Porto.",
    }


def test_the_wheel_with_the_postgres_extra(
    tmp_path: Path, dist: Path, wheelhouse: Path, postgres_store_url
) -> None:
    bin_dir = fresh_venv(tmp_path / "venv", dist, wheelhouse, f"ripplemem[postgres]=={VERSION}")
    project = tmp_path / "my-project"
    project.mkdir()

    found = first_lines(bin_dir, project, postgres_store_url("installed"))
    assert Path(found["file"]).is_relative_to(tmp_path / "venv"), found["file"]
    assert any("Porto" in text for text in found["found"]), found["found"]
    assert not list(project.iterdir())  # nothing written beside the user's code

    # the service is the other extra: the command says which one to install
    refused = subprocess.run(
        [bin_dir / "ripplemem", "serve", "--store", "x.db"], cwd=project,
        env=user_env(bin_dir), capture_output=True, text=True, timeout=120, check=False,
    )
    assert refused.returncode == 4, refused.stderr  # MissingExtraError: exit 4 (cli/common.py)
    assert "pip install 'ripplemem[server]'" in " ".join(refused.stderr.split())
    assert "Traceback" not in refused.stderr


def _announced_url(process: subprocess.Popen) -> str:
    assert process.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line)
        if found := re.search(r" on (http://127\.0\.0\.1:\d+)", line):
            return found.group(1)
    pytest.fail("ripplemem serve announced no address:\n" + "".join(lines))


def _wait_healthy(url: str, process: subprocess.Popen) -> dict:
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and process.poll() is None:
        try:
            answer = httpx.get(f"{url}/healthz", timeout=5)
            if answer.status_code == 200:
                return answer.json()
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    pytest.fail(f"ripplemem serve never answered /healthz (exit {process.poll()})")
