"""Background adds: ``POST /v1/memories?wait=false`` answers at once with a job, run here.

Jobs live in this process (a restart forgets them; their adds are in the store or, when the
process died mid-add, rolled back). Finished jobs are kept for :attr:`JobBoard.keep` jobs, the
oldest forgotten first. :meth:`JobBoard.drain` waits for every queued and running job: the server
calls it on shutdown (SIGTERM), so acknowledged adds finish before the process exits.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel

from ripplemem.errors import RippleMemError, UsageError

__all__ = ["Job", "JobBoard", "JobStatus", "TooManyJobsError"]

log = logging.getLogger("ripplemem.server")

JobStatus = Literal["queued", "running", "done", "failed"]


class TooManyJobsError(UsageError):
    """Too many adds are waiting; retry later (HTTP 503)."""


@dataclass(slots=True)
class Job:
    id: str
    namespace: str
    created_at: datetime
    status: JobStatus = "queued"
    started_at: datetime | None = None
    finished_at: datetime | None = None
    result: Any = None  # the verb's wire model (an AddResultModel)
    error_type: str | None = None
    error_message: str | None = None


def _now() -> datetime:
    return datetime.now().replace(microsecond=0)


class JobBoard:
    """The jobs of one server: submit, look up, drain."""

    def __init__(self, *, keep: int = 10_000, max_pending: int = 1_000) -> None:
        self.keep, self.max_pending = keep, max_pending
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._tasks: set[asyncio.Task] = set()
        self._closed = False

    @property
    def pending(self) -> int:
        return len(self._tasks)

    def submit(
        self, namespace: str, work: Callable[[Callable[[], None]], Awaitable[BaseModel | str]]
    ) -> Job:
        """Queue ``work(started)``; it calls ``started()`` once it holds its namespace's turn."""
        if self._closed:
            raise TooManyJobsError("the server is shutting down; send the add to another instance")
        if len(self._tasks) >= self.max_pending:
            raise TooManyJobsError(
                f"{len(self._tasks)} adds are already waiting; retry later, or send wait=true"
            )
        job = Job(id=f"job_{secrets.token_hex(12)}", namespace=namespace, created_at=_now())
        self._jobs[job.id] = job
        self._forget_old()
        task = asyncio.get_running_loop().create_task(self._run(job, work))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return job

    def get(self, job_id: str) -> Job | None:
        return self._jobs.get(job_id)

    async def drain(self, timeout: float | None = None) -> bool:
        """Refuse new jobs and wait for the rest; False when ``timeout`` passed first."""
        self._closed = True
        if not self._tasks:
            return True
        log.info("waiting for %d background add(s) to finish", len(self._tasks))
        _, unfinished = await asyncio.wait(set(self._tasks), timeout=timeout)
        return not unfinished

    async def _run(
        self, job: Job, work: Callable[[Callable[[], None]], Awaitable[BaseModel | str]]
    ) -> None:
        def started() -> None:
            job.status, job.started_at = "running", _now()

        try:
            job.result = await work(started)
            job.status = "done"
        except RippleMemError as error:
            job.status, job.error_type, job.error_message = "failed", type(error).__name__, str(error)
        except Exception:  # a job reports failure; the traceback goes to the log
            log.exception("background add %s failed", job.id)
            job.status, job.error_type = "failed", "InternalError"
            job.error_message = "the add failed on the server; its log has the details"
        finally:
            job.finished_at = _now()

    def _forget_old(self) -> None:
        if len(self._jobs) <= self.keep:
            return
        for job_id in [j.id for j in self._jobs.values() if j.finished_at is not None]:
            if len(self._jobs) <= self.keep:
                break
            del self._jobs[job_id]
