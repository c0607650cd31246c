"""Searches in worker processes (``--search-processes``) answer like the server's own threads and
see the server's writes."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from ripplemem.memory import Memory
from ripplemem.server.app import ServerOptions
from ripplemem.settings import Settings

from .live import SESSION, LiveServer, start_server


@pytest.mark.slow
def test_worker_processes_search_what_the_server_wrote(tmp_path: Path) -> None:
    memory = Memory(Settings(store=str(tmp_path / "pool.db")))  # the shipped embedder: workers load it too
    _, secret = memory.keys.create(["alex"])
    server, thread, url = start_server(memory, options=ServerOptions(search_processes=1))
    live = LiveServer(url, memory, {"alex": secret}, server, thread)
    try:
        with live.client("alex") as client:
            assert client.get("/healthz").json()["search_processes"] == 1
            empty = client.post("/v1/search", json={"query": "dog"}).json()
            assert empty["evidence"] == [] and empty["trace"]["notes"]
            client.post("/v1/memories", json={"messages": SESSION}).raise_for_status()
            pooled = client.post("/v1/search", json={"query": "What is the dog called?"}).json()
            bad = client.post("/v1/search", json={"query": "dog", "recipe": "nope"})
        # more searches at once than workers: the rest run in the server's threads, same answers
        with ThreadPoolExecutor(4) as pool:
            together = list(pool.map(
                lambda _: _search(live, "What is the dog called?"), range(8)
            ))
        local = memory.search("What is the dog called?", namespace="alex")
    finally:
        live.stop()
    assert [e["unit"]["id"] for e in pooled["evidence"]] == [e.unit.id for e in local.evidence]
    assert "Rex" in pooled["evidence"][0]["unit"]["restatement"]
    assert all(ids == [e.unit.id for e in local.evidence] for ids in together)
    assert bad.status_code == 422 and bad.json()["error"]["type"] == "UnknownRecipeError"


def _search(live: LiveServer, query: str) -> list[str]:
    with live.client("alex") as client:
        response = client.post("/v1/search", json={"query": query})
        response.raise_for_status()
        return [e["unit"]["id"] for e in response.json()["evidence"]]
