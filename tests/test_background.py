"""The query's embedding runs on a thread of its own while the views that read only the query's
words run: it runs in the caller's context, what it raises reaches the caller, and a search
gives the same evidence as the embedder's vector gives."""

from __future__ import annotations

import contextvars
import os
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from ripplemem import Memory, Settings
from ripplemem.background import in_background
from ripplemem.errors import ProviderUnavailableError
from ripplemem.providers.base import InputType
from ripplemem.testing import FakeEmbedder

_LABEL: contextvars.ContextVar[str] = contextvars.ContextVar("label", default="unset")


def test_the_call_runs_on_its_own_thread_in_the_callers_context() -> None:
    _LABEL.set("the caller's")
    found = in_background(lambda: (_LABEL.get(), threading.current_thread().name), name="worker").result()
    assert found == ("the caller's", "worker")


def test_what_the_call_raises_is_raised_where_its_result_is_read() -> None:
    def fails() -> None:
        raise ValueError("no vector")

    future = in_background(fails, name="worker")
    with pytest.raises(ValueError, match="no vector"):
        future.result()


def test_a_finished_calls_thread_runs_the_next_call_of_its_name() -> None:
    first = in_background(threading.current_thread, name="reused").result()
    assert in_background(threading.current_thread, name="reused").result() is first


def test_calls_at_once_run_at_once() -> None:
    """Each waits for the other: on one shared thread they would never end."""
    ready = [threading.Event(), threading.Event()]

    def meet(mine: int) -> bool:
        ready[mine].set()
        return ready[1 - mine].wait(timeout=10)

    futures = [in_background(lambda n=n: meet(n), name="meeting") for n in (0, 1)]
    assert [f.result(timeout=20) for f in futures] == [True, True]


def test_a_forked_child_runs_calls_on_threads_of_its_own() -> None:
    in_background(lambda: None, name="forked").result()  # the parent keeps an idle thread
    child = os.fork()
    if child == 0:  # pragma: no cover - the child's result is its exit code
        try:
            os._exit(0 if in_background(lambda: 42, name="forked").result(timeout=10) == 42 else 1)
        except BaseException:  # noqa: BLE001 - any failure is the exit code, never a second test run
            os._exit(2)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0


class _Recording(FakeEmbedder):
    """A FakeEmbedder that notes the thread each query is embedded on; ``down`` makes it fail."""

    def __init__(self) -> None:
        super().__init__()
        self.query_threads: dict[str, str] = {}  # text -> thread
        self.down = False

    def embed(self, texts: Sequence[str], *, input_type: InputType = "document") -> np.ndarray:
        if input_type == "query":
            self.query_threads.update(dict.fromkeys(texts, threading.current_thread().name))
            if self.down:
                raise ProviderUnavailableError("the embedding service is down; try again later")
        return super().embed(texts, input_type=input_type)


@pytest.mark.parametrize("recipe", ["ripple", "hybrid", "dense"])
def test_a_search_embeds_its_query_beside_the_views_and_reports_its_failure(recipe: str) -> None:
    embedder = _Recording()
    with Memory(Settings(store="memory://"), embedder=embedder) as memory:
        memory.add(
            [{"speaker": "Ana", "text": "I moved to Porto in May."}, {"speaker": "Ben", "text": "How is the flat?"}],
            user_id="ana", session_time="2024-05-20",
        )
        found = memory.search("Where does Ana live?", user_id="ana", recipe=recipe)
        assert "Porto" in found.evidence[0].unit.restatement
        assert embedder.query_threads["Where does Ana live?"] == "ripplemem-query-embedding"
        embedder.down = True
        with pytest.raises(ProviderUnavailableError, match="try again later"):
            memory.search("Where does Ana live?", user_id="ana", recipe=recipe)
        embedder.down = False
        assert memory.search("Where does Ana live?", user_id="ana", recipe=recipe).evidence == found.evidence


# a script that ends while a background call runs: the interpreter's exit waits for the call (a
# daemon thread inside onnxruntime while the interpreter tore down aborted the process, exit 134:
# a German search, whose second embedding nothing read, then the script's end), with the shipped
# embedder in a process of its own
WAITED = """
import pathlib, sys
from ripplemem.background import in_background
from ripplemem.providers.local_embedder import MiniLMFloatEmbedder
embedder = MiniLMFloatEmbedder()
def call():
    embedder.embed(["Ich wohne seit fünf Jahren in Hamburg."] * 200)
    pathlib.Path(sys.argv[1]).write_text("done")
in_background(call, name="ripplemem-test-exit")
"""
SEARCHED = """
from ripplemem import Memory
m = Memory.open("memory://")
m.add([{"speaker": "Lena", "text": "Ich wohne in Hamburg."}], user_id="l", session_time="2024-01-01")
m.search("Wo wohnt Lena?", user_id="l")
print("ok")
"""


def test_the_exit_waits_for_a_background_call(tmp_path: Path) -> None:
    marker = tmp_path / "done"
    done = subprocess.run([sys.executable, "-c", WAITED, str(marker)], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert marker.read_text() == "done"


def test_a_script_may_end_right_after_a_search_in_another_language() -> None:
    done = subprocess.run([sys.executable, "-c", SEARCHED], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok"
