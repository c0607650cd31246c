"""Background adds: ``POST /v1/memories?wait=false`` answers at once with a job, run here.

Jobs are kept in the store's job store where the backend has one (PostgreSQL): every server over
the store answers ``/v1/jobs/{id}`` for every job, and a job whose server stopped before
finishing it is run again by another. Elsewhere they live in this process (a restart forgets
them; their adds are in the store or, when the process died mid-add, rolled back).

Each server is an *owner* with a random id. It holds a lease on the jobs it runs (``lease_s``
seconds on the store's clock) and renews it every ``lease_s / 3`` seconds (:meth:`JobBoard.tend`);
on the same beat it claims the jobs whose lease has passed (their server stopped) and runs them
again from their stored arguments. An add is all or nothing and idempotent, so a job run twice
stores its units once. A job started ``max_attempts`` times by servers that all stopped fails
instead of stopping the next one. Finished jobs are forgotten after ``keep_s`` seconds.
:meth:`JobBoard.drain` waits for every queued and running job: the server calls it on shutdown
(SIGTERM), so acknowledged adds finish before the process exits.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

import anyio
from pydantic import BaseModel

from ripplemem.core.jobs import JobStore
from ripplemem.core.lanes import begin_write
from ripplemem.errors import RippleMemError, UsageError, said_on
from ripplemem.records.jobs import Job, JobStatus

__all__ = ["JobBoard", "Runner", "TooManyJobsError"]

log = logging.getLogger("ripplemem.server")

#: runs a job's verb: gets the job and ``started`` (awaited once it holds its namespace's turn)
Runner = Callable[[Job, Callable[[], Awaitable[None]]], Awaitable[BaseModel | str]]


class TooManyJobsError(UsageError):
    """Too many adds are waiting; retry later (HTTP 503)."""


def _now() -> datetime:
    return datetime.now().replace(microsecond=0)


class JobBoard:
    """The jobs of one server: submit, look up, keep the leases, drain."""

    def __init__(
        self,
        store: JobStore,
        run: Runner,
        *,
        shared: bool = False,
        max_pending: int = 1_000,
        lease_s: float = 30.0,
        keep_s: float = 24 * 3600.0,
        max_attempts: int = 3,
    ) -> None:
        self.store, self._run_verb, self.shared = store, run, shared
        self.max_pending, self.lease_s, self.keep_s = max_pending, lease_s, keep_s
        self.max_attempts = max_attempts
        self.owner = f"srv_{secrets.token_hex(8)}"
        self._tasks: set[asyncio.Task] = set()
        self._closed = False

    @property
    def pending(self) -> int:
        return len(self._tasks)

    async def submit(self, namespace: str, verb: str, arguments: str) -> Job:
        """Store the job and run it here; ``arguments`` is the verb's arguments as JSON."""
        if self._closed:
            raise TooManyJobsError("the server is shutting down; send the add to another instance")
        if len(self._tasks) >= self.max_pending:
            raise TooManyJobsError(
                f"{len(self._tasks)} adds are already waiting; retry later, or send wait=true"
            )
        job = Job(
            id=f"job_{secrets.token_hex(12)}", namespace=namespace, verb=verb, arguments=arguments,
            owner=self.owner, created_at=_now(),
        )
        begin_write()  # a stop lets this request finish: the job may be stored from here on
        await anyio.to_thread.run_sync(self.store.add_job, job, self.lease_s)
        self._start(job)
        return job

    async def get(self, job_id: str) -> Job | None:
        return await anyio.to_thread.run_sync(self.store.job, job_id)

    async def tend(self) -> None:
        """Renew this server's leases, take over the jobs of stopped servers and forget old
        finished jobs, every ``lease_s / 3`` seconds until cancelled."""
        while True:
            try:
                claimed = await anyio.to_thread.run_sync(self.beat)
            except Exception:  # the store is unreachable: try again on the next beat
                log.exception("keeping the background jobs' leases failed")
            else:
                for job in claimed:
                    log.warning("taking over background job %s (attempt %d): its server "
                                "stopped", job.id, job.attempts)
                    self._start(job)
            await asyncio.sleep(self.lease_s / 3)

    def beat(self) -> list[Job]:
        """One beat of :meth:`tend` (blocking: a worker thread runs it); the jobs it took over,
        to be started."""
        self.store.renew_jobs(self.owner, self.lease_s)
        claimed: list[Job] = []
        if self.shared and not self._closed:
            room = max(self.max_pending - len(self._tasks), 0)
            claimed = self.store.claim_jobs(self.owner, self.lease_s, room)
        self.store.forget_jobs(_now() - timedelta(seconds=self.keep_s))
        return claimed

    async def drain(self, timeout: float | None = None) -> bool:
        """Refuse new jobs and wait for the rest; False when ``timeout`` passed first."""
        self._closed = True
        if not self._tasks:
            return True
        log.info("waiting for %d background add(s) to finish", len(self._tasks))
        _, unfinished = await asyncio.wait(set(self._tasks), timeout=timeout)
        return not unfinished

    def _start(self, job: Job) -> None:
        task = asyncio.get_running_loop().create_task(self._run(job))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, job: Job) -> None:
        if job.attempts > self.max_attempts:
            await self._finish(
                job, "failed", error_type="JobAbandonedError",
                error_message=f"the servers that started this add ({job.attempts - 1} times) "
                "stopped before finishing it; an add is all or nothing and sending it again is "
                "safe (what is stored already is skipped)",
            )
            return

        async def started() -> None:
            await anyio.to_thread.run_sync(self.store.start_job, job.id, self.owner, _now())

        try:
            result = await self._run_verb(job, started)
        except RippleMemError as error:
            await self._finish(
                job, "failed", error_type=type(error).__name__, error_message=said_on(str(error), "rest")
            )
        except Exception:  # a job reports failure; the traceback goes to the log
            log.exception("background add %s failed", job.id)
            await self._finish(
                job, "failed", error_type="InternalError",
                error_message="the add failed on the server; its log has the details",
            )
        else:
            text = result if isinstance(result, str) else result.model_dump_json()
            await self._finish(job, "done", result=text)

    async def _finish(self, job: Job, status: JobStatus, **outcome: str) -> None:
        try:
            finished = await anyio.to_thread.run_sync(
                lambda: self.store.finish_job(job.id, self.owner, status, _now(), **outcome)
            )
        except Exception:  # the store is unreachable: the lease lapses, another server runs it
            log.exception("recording the end of background job %s failed", job.id)
            return
        if not finished:
            log.warning("background job %s was taken over by another server meanwhile", job.id)
