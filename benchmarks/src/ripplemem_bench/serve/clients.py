"""The clients: threads, each with its own HTTP connection, looping over searches and adds.

Each operation is a search of a synthetic question about a stored memory (``limit`` units, the
server's recipe) or, with probability ``add_share``, an add of a new two-message session to the
same namespace (alternately ``wait=true``, answered 200, and ``wait=false``, answered 202 with a
job). Any other answer, or a failed request, is an error.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field

import httpx

from ripplemem_bench.serve.store import synthetic_memories

__all__ = ["Tally", "client_loop", "unfinished_jobs"]


@dataclass
class Tally:
    search_ms: list[float] = field(default_factory=list)
    add_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    acknowledged: dict[str, str] = field(default_factory=dict)  # session id -> "sync" or job id
    lock: threading.Lock = field(default_factory=threading.Lock)


def client_loop(
    url: str, key: str, index: int, stop_at: float, *, add_share: float, limit: int, stored: int,
    tally: Tally,
) -> None:
    """Client ``index`` until ``stop_at`` (``time.monotonic()``), seeded by its index."""
    rng = random.Random(1000 + index)
    memories = synthetic_memories()
    adds = 0
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=60) as http:
        while time.monotonic() < stop_at:
            try:
                if rng.random() < add_share:
                    adds += 1
                    _add(http, memories, f"load-{index}-{adds}", stored + index * 100_000 + adds,
                         wait=adds % 2 == 1, tally=tally)
                else:
                    _search(http, memories, rng, stored, limit, tally)
            except httpx.HTTPError as error:
                with tally.lock:
                    tally.errors.append(f"{type(error).__name__}: {error}")


def _add(http: httpx.Client, memories, session: str, number: int, *, wait: bool, tally: Tally) -> None:
    item = memories.memory(number)
    person = item.unit.participants[0]
    body = {
        "session_id": session,
        "session_time": "2024-03-01T10:00",
        "messages": [
            {"speaker": person, "text": item.unit.restatement.replace(person, "I", 1)},
            {"speaker": "Friend", "text": f"Tell me more about that, {person}."},
        ],
    }
    started = time.perf_counter()
    response = http.post("/v1/memories", params={"wait": str(wait).lower()}, json=body)
    elapsed = (time.perf_counter() - started) * 1000
    with tally.lock:
        if response.status_code == (200 if wait else 202):
            tally.add_ms.append(elapsed)
            tally.acknowledged[session] = "sync" if wait else response.json()["id"]
        else:
            tally.errors.append(f"add {response.status_code}: {response.text[:200]}")


def _search(http: httpx.Client, memories, rng: random.Random, stored: int, limit: int,
            tally: Tally) -> None:
    query = memories.question(rng, memories.memory(rng.randrange(stored)))
    started = time.perf_counter()
    response = http.post("/v1/search", json={"query": query, "limit": limit})
    elapsed = (time.perf_counter() - started) * 1000
    with tally.lock:
        if response.status_code == 200:
            tally.search_ms.append(elapsed)
        else:
            tally.errors.append(f"search {response.status_code}: {response.text[:200]}")


def unfinished_jobs(url: str, key: str, tally: Tally, timeout: float = 300) -> list[str]:
    """Wait for the acknowledged background adds; the ids of those not done (failed or late)."""
    pending = {job for job in tally.acknowledged.values() if job != "sync"}
    failed: list[str] = []
    deadline = time.monotonic() + timeout
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=30) as http:
        while pending and time.monotonic() < deadline:
            for job_id in list(pending):
                status = http.get(f"/v1/jobs/{job_id}").json()["status"]
                if status in ("done", "failed"):
                    pending.discard(job_id)
                    if status == "failed":
                        failed.append(job_id)
            time.sleep(0.2)
    return failed + sorted(pending)
