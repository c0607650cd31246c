"""A real uvicorn server on 127.0.0.1 and a random port, in a thread, over a SQLite store;
the fixtures ``make_server`` and ``live`` (re-exported by conftest.py)."""

from __future__ import annotations

import functools
import ssl
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import httpx
import numpy as np
import pytest
import uvicorn

from ripplemem.errors import ProviderUnavailableError
from ripplemem.memory import Memory
from ripplemem.server.app import ServerOptions, create_app
from ripplemem.settings import Settings
from ripplemem.testing import FakeEmbedder

SESSION = [
    {"role": "user", "content": "I adopted a dog named Rex in Lisbon last week."},
    {"role": "assistant", "content": "Congratulations on Rex!"},
    {"role": "user", "content": "My sister Ana visits us every summer in Porto."},
]


class GatedEmbedder(FakeEmbedder):
    """FakeEmbedder that holds any text containing ``HOLD`` until :attr:`release` is set, so a
    test can keep an add inside its model work for as long as it needs."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()
        self.holding = threading.Event()

    def embed(self, texts: Sequence[str], *, input_type="document") -> np.ndarray:
        if any("HOLD" in text for text in texts):
            self.holding.set()
            if not self.release.wait(timeout=30):
                raise TimeoutError("the test never released the held add")
        return super().embed(texts, input_type=input_type)


class DownEmbedder(FakeEmbedder):
    """FakeEmbedder whose endpoint is down for any text containing ``DOWN``: an add that passes
    every input check and fails in its work (a background add's job fails)."""

    def embed(self, texts: Sequence[str], *, input_type="document") -> np.ndarray:
        if any("DOWN" in text for text in texts):
            raise ProviderUnavailableError("the embedding endpoint did not answer (a test's)")
        return super().embed(texts, input_type=input_type)


@dataclass
class LiveServer:
    url: str
    memory: Memory
    keys: dict[str, str]  # name -> secret
    server: uvicorn.Server
    thread: threading.Thread

    def client(self, key: str | None = None, **kwargs) -> httpx.Client:
        headers = {"Authorization": f"Bearer {self.keys[key]}"} if key else {}
        kwargs.setdefault("verify", tls_context())
        return httpx.Client(base_url=self.url, headers=headers, timeout=30, **kwargs)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


@functools.cache
def tls_context() -> ssl.SSLContext:
    """One TLS context for the test clients: each new httpx.Client would read the CA bundle again
    (~40 ms, though these servers speak plain HTTP)."""
    return ssl.create_default_context()


def start_server(
    memory: Memory, *, auth: bool = True, options: ServerOptions | None = None
) -> tuple[uvicorn.Server, threading.Thread, str]:
    app = create_app(memory, auth=auth, options=options)
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    return server, thread, f"http://127.0.0.1:{port}"


def open_memory(path: Path, embedder: FakeEmbedder | None = None) -> Memory:
    return Memory(Settings(store=str(path)), embedder=embedder or FakeEmbedder())


MakeServer = Callable[..., LiveServer]


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator[MakeServer]:
    """Start servers with keys: alex (alex), bo (bo), both (alex, bo), reader (alex, read-only),
    admin (every namespace)."""
    started: list[LiveServer] = []

    def make(*, embedder=None, auth: bool = True, options: ServerOptions | None = None) -> LiveServer:
        memory = open_memory(tmp_path / f"store{len(started)}.db", embedder)
        keys = {
            "alex": memory.keys.create(["alex"])[1],
            "bo": memory.keys.create(["bo"])[1],
            "both": memory.keys.create(["alex", "bo"])[1],
            "reader": memory.keys.create(["alex"], read_only=True)[1],
            "admin": memory.keys.create(admin=True)[1],
        }
        server, thread, url = start_server(memory, auth=auth, options=options)
        live = LiveServer(url, memory, keys, server, thread)
        started.append(live)
        return live

    yield make
    for live in started:
        live.stop()


@pytest.fixture
def live(make_server: MakeServer) -> LiveServer:
    return make_server()
