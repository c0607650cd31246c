"""The job board over a job store: a job of a stopped server is taken over and run again, and
one whose servers kept stopping fails instead of stopping the next (in-process, the in-memory job
store; the same board over PostgreSQL with real processes is tests/server/test_replicas.py)."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import datetime

from ripplemem.records.jobs import Job
from ripplemem.records.wire import CountModel
from ripplemem.server.jobs import JobBoard
from ripplemem.stores.jobs_base import InMemoryJobStore


def orphan(job_id: str, attempts: int) -> Job:
    return Job(id=job_id, namespace="alex", verb="add", arguments='{"text": "hi"}',
               owner="srv_stopped", created_at=datetime(2026, 5, 1), attempts=attempts)


def test_jobs_of_a_stopped_server_are_run_again_or_abandoned_after_three_attempts() -> None:
    store = InMemoryJobStore()
    store.add_job(orphan("job_again", attempts=1), 0.05)
    store.add_job(orphan("job_cursed", attempts=3), 0.05)
    ran: list[str] = []

    async def run(job, started):
        await started()
        ran.append(job.id)
        return CountModel(count=len(json.loads(job.arguments)["text"]))

    async def main() -> None:
        board = JobBoard(store, run, shared=True, lease_s=0.3)
        await asyncio.sleep(0.1)  # the stopped server's leases pass
        tending = asyncio.create_task(board.tend())
        await asyncio.sleep(0.2)
        assert await board.drain(timeout=5)
        tending.cancel()

    asyncio.run(main())
    again, cursed = store.job("job_again"), store.job("job_cursed")
    assert ran == ["job_again"]
    assert again is not None and again.status == "done" and again.attempts == 2
    assert json.loads(again.result or "") == {"count": 2}
    assert cursed is not None and cursed.status == "failed" and cursed.attempts == 4
    assert cursed.error_type == "JobAbandonedError" and "sending it again is safe" in (cursed.error_message or "")


def test_a_server_over_its_own_memory_takes_over_nothing() -> None:
    store = InMemoryJobStore()
    store.add_job(orphan("job_other", attempts=1), 0.05)
    board = JobBoard(store, lambda job, started: None, shared=False, lease_s=0.3)  # type: ignore[arg-type,return-value]
    time.sleep(0.1)
    assert board.beat() == []
    found = store.job("job_other")
    assert found is not None and found.owner == "srv_stopped"


def test_a_server_over_its_own_memory_keeps_a_bounded_number_of_finished_jobs() -> None:
    store = InMemoryJobStore(keep=3)
    for number in range(5):
        store.add_job(orphan(f"job_{number}", attempts=1), 30.0)
    store.add_job(Job(id="job_open", namespace="alex", verb="add", arguments="{}",
                      owner="srv_stopped", created_at=datetime(2026, 5, 1)), 30.0)
    for number in range(5):
        assert store.finish_job(f"job_{number}", "srv_stopped", "done", datetime(2026, 5, 2), result="{}")
    assert [store.job(f"job_{n}") is not None for n in range(5)] == [False, False, True, True, True]
    assert store.job("job_open") is not None  # unfinished jobs are never forgotten


def test_a_job_of_a_verb_this_server_does_not_know_fails_saying_so() -> None:
    from types import SimpleNamespace

    from ripplemem.server.routes import job_runner

    store = InMemoryJobStore()

    async def main() -> str:
        board = JobBoard(store, job_runner(SimpleNamespace()), lease_s=30.0)
        queued = await board.submit("alex", "frobnicate", "{}")
        assert await board.drain(timeout=5)
        return queued.id

    job = store.job(asyncio.run(main()))
    assert job is not None and job.status == "failed" and job.error_type == "InvalidInputError"
    assert "cannot run a background 'frobnicate'" in (job.error_message or "")
