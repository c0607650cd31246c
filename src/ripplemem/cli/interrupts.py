"""Ctrl-C that no library can swallow.

Python turns SIGINT into a ``KeyboardInterrupt`` raised wherever the main thread happens to be.
During the first seconds of a command that is often inside a third-party import or model load,
and a library's broad ``except`` there can eat it: the command would then carry on and write.
The console script installs :func:`watch`, which still raises at once but also remembers the
signal; the commands call :func:`stop_if_interrupted` at the points where work is about to be
written (after the models load, between the steps of an ingest), so a swallowed Ctrl-C still
stops the command before it writes anything.
"""

from __future__ import annotations

import signal
import threading

_seen = threading.Event()


def _on_sigint(signum: int, frame: object) -> None:
    _seen.set()
    raise KeyboardInterrupt


def watch() -> None:
    """Install the remembering SIGINT handler (main thread only; a no-op elsewhere)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, _on_sigint)


def interrupted() -> bool:
    """Whether SIGINT arrived since :func:`watch` was installed."""
    return _seen.is_set()


def stop_if_interrupted() -> None:
    """Raise ``KeyboardInterrupt`` if SIGINT arrived, even if something swallowed it."""
    if _seen.is_set():
        raise KeyboardInterrupt
