"""A call run on a thread of its own while the caller goes on (a recall, an add).

The query's embedding (onnxruntime, or a remote model: neither holds the GIL) needs nothing the
views that read only the query's words need, so a recall starts it first and reads the cues, the
lexical view and the cue index meanwhile; it waits for the vector where a stage first needs it. An add parses a batch's units beside
their embedding the same way.
The call runs in a copy of the caller's context (its time budget included), and what it raises
is raised where its result is read.

The threads are kept: starting one waits until it runs, which on a busy machine costs a recall
up to a millisecond, so a finished call's thread waits for the next call of the same name
(daemon threads, at most :data:`MAX_IDLE` idle per name; as many run at once as calls do). A
forked child starts with none (its parent's threads do not exist there).
"""

from __future__ import annotations

import atexit
import contextvars
import os
import queue
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import Future, wait
from typing import Any, TypeVar

__all__ = ["MAX_IDLE", "in_background"]

T = TypeVar("T")

#: idle threads kept per name (more concurrent calls start more; the extra ones then end)
MAX_IDLE = 4

_Job = tuple[Future[Any], contextvars.Context, Callable[[], Any]]


class _Worker:
    """One daemon thread running the jobs put into its queue; idle, it waits in ``idle``."""

    def __init__(self, name: str, idle: list[_Worker], lock: threading.Lock) -> None:
        self.jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._idle, self._lock = idle, lock
        threading.Thread(target=self._run, name=name, daemon=True).start()

    def _run(self) -> None:
        while True:
            future, context, call = self.jobs.get()
            try:
                future.set_result(context.run(call))
            except BaseException as error:  # noqa: BLE001 - raised again by .result(), in the caller's thread
                future.set_exception(error)
            del future, context, call  # nothing of the job outlives it
            with self._lock:
                if len(self._idle) >= MAX_IDLE:
                    return
                self._idle.append(self)


_IDLE: dict[str, list[_Worker]] = {}
_LOCK = threading.Lock()


#: the calls not finished yet: the interpreter's exit waits for them (:func:`_finish_at_exit`)
_PENDING: weakref.WeakSet[Future[Any]] = weakref.WeakSet()
#: how long the exit waits for unfinished calls, in seconds
EXIT_WAIT = 10.0


def _forget_threads() -> None:  # in a forked child: the parent's threads are not there
    global _LOCK
    _LOCK = threading.Lock()
    _IDLE.clear()
    _PENDING.clear()


def _finish_at_exit() -> None:
    """Wait (at most :data:`EXIT_WAIT` seconds) for the calls still running: a daemon thread
    inside a native call (onnxruntime's) while the interpreter tears down aborted the process
    ("terminate called without an active exception", exit 134) when a script ended right
    after a search whose background embedding nothing read."""
    wait(list(_PENDING), timeout=EXIT_WAIT)


atexit.register(_finish_at_exit)


os.register_at_fork(after_in_child=_forget_threads)


def in_background(call: Callable[[], T], *, name: str) -> Future[T]:
    """``call()`` running on a daemon thread named ``name`` (an idle one of that name, or a new
    one); its result (or what it raised) comes from ``.result()``."""
    future: Future[T] = Future()
    with _LOCK:
        idle = _IDLE.setdefault(name, [])
        worker = idle.pop() if idle else None
        lock = _LOCK
    if worker is None:
        worker = _Worker(name, idle, lock)
    _PENDING.add(future)
    worker.jobs.put((future, contextvars.copy_context(), call))
    return future
