"""A stop without drain time (``ripplemem serve --drain-timeout 0``, SIGTERM) while writes run:
a write that reached the store is answered as it would have been, one that had not is answered
503 and stored nothing.

The race is made certain with no hook in the server: the test holds the SQLite file's writer
lock (``BEGIN IMMEDIATE`` on a connection of its own), so the server's writes wait inside their
write blocks, unable to commit, until the test lets go, and it lets go only once uvicorn has
cancelled the requests."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from ripplemem.core.keys import open_keys
from ripplemem.stores.registry import open_store

WARM = [{"role": "user", "content": "I adopted a dog named Rex in Lisbon last week."}]
ADD = [{"role": "user", "content": "My sister Ana moved to Porto in May."}]
QUEUED = [{"role": "user", "content": "I started learning the violin in June."}]
MCP_ADD = [{"role": "user", "content": "Cy bought a red kayak for the summer."}]
MCP_HEADERS = {"accept": "application/json, text/event-stream"}


class Served:
    """A ``ripplemem serve`` process; its output lines are kept, and waited for by pattern."""

    def __init__(self, arguments: list[str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "ripplemem.cli.main", "serve", *arguments],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "RIPPLEMEM_LLM_BASE_URL": ""},
        )
        self.lines: list[str] = []
        self._seen = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self._seen:
                self.lines.append(line)
                self._seen.notify_all()

    def wait_for(self, pattern: str, timeout: float) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        with self._seen:
            while True:
                for line in self.lines:
                    if found := re.search(pattern, line):
                        return found
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    raise AssertionError(f"no line matching {pattern!r}:\n" + "".join(self.lines))
                self._seen.wait(min(left, 0.5))


def _in_thread(call: Callable[[], httpx.Response]) -> tuple[threading.Thread, dict]:
    answered: dict = {}

    def run() -> None:
        try:
            response = call()
            answered["status"], answered["body"] = response.status_code, response.json()
        except httpx.HTTPError as error:
            answered["error"] = repr(error)

    thread = threading.Thread(target=run)
    thread.start()
    return thread, answered


def _tool_call(name: str, arguments: dict) -> dict:
    return {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}}


def _sessions(store_path: Path, namespace: str) -> dict[str, list[str]]:
    store = open_store(str(store_path))
    try:
        units = store.list_units(namespace)
    finally:
        store.close()
    found: dict[str, list[str]] = {}
    for unit in units:
        found.setdefault(unit.episode_id, []).append(unit.id)
    return found


@pytest.mark.slow
def test_a_stop_answers_the_writes_that_reached_the_store_and_cuts_the_others(tmp_path: Path) -> None:
    """Held in their write blocks when uvicorn cancels them: a REST add, a REST delete and an
    MCP add are committed after the cancel and answered 200 with what they stored (not 503).
    A REST add and an MCP add waiting for their namespace's turn behind the held one are
    answered 503 and store nothing."""
    store_path = tmp_path / "stop.db"
    with open_keys(str(store_path)) as keys:
        _, secret = keys.create(["alex", "bo", "cy"])
    served = Served(["--store", str(store_path), "--port", "0", "--drain-timeout", "0",
                     "--search-processes", "0", "--log-level", "info"])
    lock: sqlite3.Connection | None = None
    try:
        url = served.wait_for(r" on (http://127\.0\.0\.1:\d+)", 60).group(1)
        auth = {"Authorization": f"Bearer {secret}"}
        with httpx.Client(base_url=url, headers=auth, timeout=120) as client:
            deadline = time.monotonic() + 120
            while client.get("/readyz").status_code != 200:
                assert time.monotonic() < deadline, "the server never became ready"
                time.sleep(0.2)
            started = time.monotonic()
            warm = client.post("/v1/memories", json={"messages": WARM, "namespace": "alex",
                                                     "session_id": "warm"})
            one_add_s = time.monotonic() - started
            seeded = client.post("/v1/memories", json={"messages": WARM, "namespace": "bo",
                                                       "session_id": "seed"})
            assert warm.status_code == seeded.status_code == 200
            doomed = seeded.json()["units"][0]["id"]

            lock = sqlite3.connect(store_path, timeout=1, isolation_level=None)
            lock.execute("BEGIN IMMEDIATE")  # the server's write blocks now wait for it
            add, added = _in_thread(lambda: client.post(
                "/v1/memories", json={"messages": ADD, "namespace": "alex", "session_id": "held"}))
            delete, deleted = _in_thread(lambda: client.delete(
                f"/v1/memories/{doomed}", params={"namespace": "bo"}))
            mcp, tooled = _in_thread(lambda: client.post(
                "/mcp?namespace=cy", headers=MCP_HEADERS,
                json=_tool_call("add_memory", {"messages": MCP_ADD, "session_id": "tool"})))
            time.sleep(2 + 3 * one_add_s)  # their model work is done: they wait in write blocks
            queued, cut = _in_thread(lambda: client.post(
                "/v1/memories", json={"messages": QUEUED, "namespace": "alex", "session_id": "queued"}))
            queued_tool, tool_cut = _in_thread(lambda: client.post(
                "/mcp?namespace=alex", headers=MCP_HEADERS,
                json=_tool_call("add_memory", {"messages": QUEUED, "session_id": "queued-tool"})))
            time.sleep(1)  # both wait for alex's turn, behind the held add
            assert not added and not deleted and not tooled and not cut and not tool_cut

            served.process.send_signal(signal.SIGTERM)
            served.wait_for(r"Cancel 5 running task", 60)  # uvicorn cancelled the five requests
            queued.join(timeout=60)
            queued_tool.join(timeout=60)
            lock.execute("ROLLBACK")  # let go: the held writes commit now, after their requests' cancel
            lock.close()
            lock = None
            for thread in (add, delete, mcp):
                thread.join(timeout=120)
        assert served.process.wait(timeout=120) in (0, -signal.SIGTERM, 1)
    finally:
        if lock is not None:
            lock.close()
        if served.process.poll() is None:
            served.process.kill()

    alex, bo, cy = (_sessions(store_path, ns) for ns in ("alex", "bo", "cy"))
    # the held writes were committed after their requests' cancel ...
    assert alex.get("held") and cy.get("tool") and doomed not in bo.get("seed", [])
    # ... and answered as a finished request is, not 503 "the server stopped"
    assert added.get("status") == 200, f"stored {len(alex['held'])} memories, answered {added}"
    assert sorted(u["id"] for u in added["body"]["units"]) == sorted(alex["held"])
    assert deleted == {"status": 200, "body": {"count": 1}}, f"deleted, answered {deleted}"
    assert tooled.get("status") == 200, f"stored {len(cy['tool'])} memories, answered {tooled}"
    result = tooled["body"]["result"]
    assert not result.get("isError"), f"stored {len(cy['tool'])} memories, answered {result}"
    assert sorted(u["id"] for u in result["structuredContent"]["units"]) == sorted(cy["tool"])
    # cut before their writes began: 503, and nothing of them stored, then or later (the MCP
    # tool runs in a task of the SDK's, which goes on after its request is cut)
    for answer in (cut, tool_cut):
        assert answer.get("status") == 503, answer
        assert answer["body"]["error"]["type"] == "ShuttingDownError"
        assert "stored nothing" in answer["body"]["error"]["message"]
    assert "queued" not in alex and "queued-tool" not in alex
