"""A warm and honest start: the server is live at once and ready once its models are loaded
(/healthz vs /readyz), says so on the console, and no search stage is charged with loading."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence

import httpx
import numpy as np
import pytest

from ripplemem import Memory, Settings
from ripplemem.server.app import ServerOptions
from ripplemem.testing import FakeEmbedder

from .live import MakeServer


class SlowToLoad(FakeEmbedder):
    """The first embed waits for ``loaded`` (a model loading), the rest are immediate."""

    def __init__(self, *, seconds: float | None = None) -> None:
        super().__init__()
        self.loaded = threading.Event()
        self.seconds = seconds
        self.calls = 0

    def embed(self, texts: Sequence[str], *, input_type="document") -> np.ndarray:
        self.calls += 1
        if self.calls == 1:
            if self.seconds is not None:
                time.sleep(self.seconds)
            elif not self.loaded.wait(timeout=30):
                raise TimeoutError("the test never let the model load")
        return super().embed(texts, input_type=input_type)


def test_live_at_once_ready_once_the_models_are_loaded(make_server: MakeServer) -> None:
    said: list[str] = []
    embedder = SlowToLoad()
    live = make_server(embedder=embedder, options=ServerOptions(announce=said.append))
    with httpx.Client(base_url=live.url, timeout=10) as client:
        health = client.get("/healthz")
        assert health.status_code == 200 and health.json()["ready"] is False
        waiting = client.get("/readyz")
        assert waiting.status_code == 503 and waiting.json()["error"]["type"] == "NotReadyError"
        assert said and said[0].startswith("loading the models")
        embedder.loaded.set()
        deadline = time.monotonic() + 30
        while client.get("/readyz").status_code != 200:
            assert time.monotonic() < deadline, "never ready"
            time.sleep(0.05)
        assert client.get("/healthz").json()["ready"] is True
    assert said[-1].startswith("ready in ")


def test_the_first_search_charges_no_stage_with_loading(tmp_path) -> None:
    embedder = SlowToLoad(seconds=1.5)
    with Memory(Settings(store=str(tmp_path / "m.db")), embedder=embedder) as memory:
        memory._core._warmed = True  # the add's own loading is not what this test is about
        memory.add([{"role": "user", "content": "I adopted a cat named Pixel."}], user_id="a")
        embedder.calls = 0  # the next embed is slow again, as a model loading would be
        memory._core._warmed = False
        first = memory.search("What is my cat called?", user_id="a")
        second = memory.search("What is my cat called?", user_id="a")
    assert max(first.trace.timings_ms.values()) < 1_000, first.trace.timings_ms
    assert any(note.startswith("the models were loaded first (1.") for note in first.trace.notes)
    assert not any("loaded first" in note for note in second.trace.notes)


def test_the_command_line_says_what_it_loads_when_it_takes_a_while(tmp_path, capsys) -> None:
    from ripplemem.cli.common import warm

    with Memory(Settings(store=str(tmp_path / "m.db")), embedder=SlowToLoad(seconds=0.6)) as slow:
        warm(slow, after_s=0.2)
    said = " ".join(capsys.readouterr().err.split())
    assert said.startswith("loading the models: the fake-bow embedder") and said.count("loading") == 1
    with Memory(Settings(store=str(tmp_path / "n.db")), embedder=FakeEmbedder()) as quick:
        warm(quick, after_s=5.0)
    assert capsys.readouterr().err == ""


@pytest.mark.slow
def test_serve_with_the_shipped_models_is_ready_once_its_workers_are_warm(tmp_path) -> None:
    """`ripplemem serve` as a user starts it (the shipped embedder and entity recogniser, one
    search worker process): the console says what it loads and when it is ready; /readyz is 200
    from then on, and the first search, answered by the worker, loads nothing."""
    process = subprocess.Popen(
        [sys.executable, "-m", "ripplemem.cli.main", "serve", "--store", str(tmp_path / "m.db"),
         "--port", "0", "--no-auth", "--search-processes", "1", "--log-level", "warning"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "RIPPLEMEM_LLM_BASE_URL": "", "COLUMNS": "250"},
    )
    try:
        said = _lines_until(process, "ready in ")
        url = re.search(r" on (http://127\.0\.0\.1:\d+)", said[0]).group(1)
        order = [next(i for i, line in enumerate(said) if line.startswith(start)) for start in (
            "ripplemem serving", "starting 1 search workers", "loading the models", "ready in ",
        )]
        assert order == sorted(order), said
        with httpx.Client(base_url=url, timeout=120) as client:
            ready = client.get("/readyz")
            assert ready.status_code == 200 and ready.json()["ready"] is True
            assert ready.json()["search_processes"] == 1
            added = client.post("/v1/memories", json={
                "namespace": "maya", "session_time": "2024-05-20T10:00",
                "messages": [{"role": "user", "content": "I adopted a grey cat named Pixel in Porto."}],
            })
            assert added.status_code == 200, added.text
            found = client.post("/v1/search", json={"namespace": "maya", "query": "Where is my cat from?"})
            assert found.status_code == 200, found.text
        trace = found.json()["trace"]
        assert "Pixel" in found.json()["evidence"][0]["unit"]["restatement"]
        assert not any("loaded first" in note for note in trace["notes"]), trace["notes"]
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()


def _lines_until(process: subprocess.Popen, start: str, timeout: float = 300) -> list[str]:
    """The console's lines up to the first that starts with ``start`` (then the pipe is kept
    drained)."""
    assert process.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line.strip())
        if lines[-1].startswith(start):
            threading.Thread(target=process.stdout.read, daemon=True).start()
            return lines
    raise AssertionError(f"the server never said {start!r}:\n" + "\n".join(lines))
