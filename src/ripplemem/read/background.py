"""Stage support: a call run on a thread of its own while the recall goes on.

The query's embedding (onnxruntime, or a remote model: neither holds the GIL) needs nothing the
views that read only the query's words need, so a recall starts it first and reads the cues, the
lexical view and the cue index meanwhile; it waits for the vector where a stage first needs it.
The call runs in a copy of the caller's context (its time budget included), and what it raises
is raised where its result is read.
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import TypeVar

__all__ = ["in_background"]

T = TypeVar("T")


def in_background(call: Callable[[], T], *, name: str) -> Future[T]:
    """``call()`` running on a new daemon thread named ``name``; its result (or what it raised)
    comes from ``.result()``."""
    future: Future[T] = Future()
    context = contextvars.copy_context()

    def run() -> None:
        try:
            future.set_result(context.run(call))
        except BaseException as error:  # noqa: BLE001 - raised again by .result(), in the caller's thread
            future.set_exception(error)

    threading.Thread(target=run, name=name, daemon=True).start()
    return future
