"""No request holds the service: an add too large for the per-request CPU budget gets 413 before
any work, one that runs past it 503 (and stores nothing), a time-dense text is bounded, and a
search never waits behind another namespace's write block."""

from __future__ import annotations

import threading
import time
import uuid
from pathlib import Path

from ripplemem.memory import Memory
from ripplemem.server.app import ServerOptions
from ripplemem.settings import Settings
from ripplemem.stores.sqlite.store import SQLiteStore
from ripplemem.testing import FakeEmbedder

from .live import SESSION, LiveServer, MakeServer, start_server

DIALOGUE = (
    "I went hiking with Priya near Lisbon last weekend and we had pastel de nata after. "
    "My sister Ana is visiting in June, she wants to see the old town and the river. "
)


def _count(client, namespace: str) -> int:
    return client.get("/v1/memories", params={"namespace": namespace}).json()["total"]


def test_an_add_too_large_for_the_budget_is_refused_before_any_work(make_server: MakeServer) -> None:
    live = make_server(options=ServerOptions(request_budget_s=1.0))  # 10,000 characters at most
    with live.client("alex") as client:
        big = [{"role": "user", "content": DIALOGUE * 40}]  # ~6,500 characters a message
        response = client.post("/v1/memories", json={"messages": big * 2})
        assert response.status_code == 413, response.text
        error = response.json()["error"]
        assert error["type"] == "BodyTooLargeError"
        assert "at most 10,000" in error["message"] and "several adds" in error["message"]
        queued = client.post("/v1/memories?wait=false", json={"messages": big * 2})
        assert queued.status_code == 413  # refused at once, not as a failed job
        assert _count(client, "alex") == 0


def test_an_add_past_its_cpu_budget_gets_503_and_stores_nothing(make_server: MakeServer) -> None:
    live = make_server(options=ServerOptions(request_budget_s=0.002))
    with live.client("alex") as client:
        # 20 characters no other test wrote (what was read before is cached in the process),
        # as many as this budget admits: segmenting, parsing, embedding and storing them take
        # more than 2 ms of CPU
        messages = [{"role": "user", "content": f"Met {uuid.uuid4().hex[:6]} in Lisbon"}]
        response = client.post("/v1/memories", json={"messages": messages})
        assert response.status_code == 503, response.text
        error = response.json()["error"]
        assert error["type"] == "OverBudgetError"
        assert "0.002 s of CPU" in error["message"] and "nothing of it is stored" in error["message"]
        assert client.post("/v1/search", json={"query": "dog"}).status_code in (200, 503)
        assert _count(client, "alex") == 0
    stored = live.memory.add(messages, namespace="alex")  # the same add without the budget
    assert stored.units


def test_a_time_dense_add_is_bounded_and_blocks_no_search(make_server: MakeServer) -> None:
    live = make_server(options=ServerOptions(request_budget_s=10.0))
    with live.client("both") as client:
        client.post("/v1/memories", json={"messages": SESSION, "namespace": "bo"})
        heavy: dict = {}

        def add_heavy() -> None:
            started = time.monotonic()
            text = "tomorrow at noon " * 1_100  # ~18,700 characters: minutes of Duckling unbounded
            with live.client("alex") as other:
                response = other.post("/v1/memories", json={"messages": [{"role": "user", "content": text}]})
            heavy.update(status=response.status_code, seconds=time.monotonic() - started)

        thread = threading.Thread(target=add_heavy)
        thread.start()
        slowest = 0.0
        while thread.is_alive():
            started = time.monotonic()
            found = client.post("/v1/search", json={"query": "Where did I adopt Rex?", "namespace": "bo"})
            slowest = max(slowest, time.monotonic() - started)
            assert found.status_code == 200 and found.json()["evidence"]
            time.sleep(0.1)
        thread.join()
    assert heavy["status"] in (200, 503)
    assert heavy["seconds"] < 60, heavy  # bounded (10 s of CPU, plus the parser's own budget)
    assert slowest < 10, slowest


class HeldStore(SQLiteStore):
    """A SQLite store that holds any write of a unit whose text says ``HOLD`` (inside the add's
    write block, with the store's lock held) until :attr:`release` is set."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.holding, self.release = threading.Event(), threading.Event()

    def add_units(self, units):
        if any("HOLD" in u.restatement for u in units):
            self.holding.set()
            if not self.release.wait(timeout=60):
                raise TimeoutError("the test never released the held write")
        return super().add_units(units)


def test_a_search_never_waits_behind_another_namespaces_write_block(tmp_path: Path) -> None:
    store = HeldStore(tmp_path / "held.db")
    memory = Memory(Settings(store=str(tmp_path / "held.db")), store=store, embedder=FakeEmbedder())
    key = memory.keys.create(["alex", "bo"])[1]
    server, thread, url = start_server(memory, options=ServerOptions())
    live = LiveServer(url, memory, {"both": key}, server, thread)
    try:
        with live.client("both") as client:
            client.post("/v1/memories", json={"messages": SESSION, "namespace": "bo"})
            held = client.post(
                "/v1/memories?wait=false",
                json={"messages": [{"role": "user", "content": "HOLD: I started the violin."}], "namespace": "alex"},
            )
            assert held.status_code == 202
            assert store.holding.wait(20), "the add never reached its write block"
            started = time.monotonic()
            found = client.post("/v1/search", json={"query": "dog", "namespace": "bo"})
            assert found.status_code == 200 and found.json()["evidence"]
            assert client.get("/v1/memories", params={"namespace": "bo"}).status_code == 200
            assert time.monotonic() - started < 5  # without the reader: until the release (60 s)
            store.release.set()
    finally:
        store.release.set()
        live.stop()
        memory.close()
