"""The job seam: the service's background jobs (``?wait=false``), kept where every server over
the store can see them.

Implementations: :class:`InMemoryJobStore` (one server process: what the server uses over a
backend without a job table) and :class:`ripplemem.stores.postgres.jobs.PostgresJobStore` (the
``job`` table of a PostgreSQL store, shared by every server over it).

Contract notes:

* A job belongs to its ``owner`` (the server instance running it) while that owner's lease
  lasts: ``add_job`` and ``renew_jobs`` set the lease to ``lease_s`` seconds from now on the
  store's clock. ``start_job`` and ``finish_job`` change a job only for its owner and only
  while it is unfinished (they return False otherwise), so a server that lost a job to another
  cannot overwrite it.
* ``claim_jobs`` hands the unfinished jobs whose lease has passed to a new owner (at most
  ``limit``, oldest first): status back to ``queued``, ``attempts`` one more, a fresh lease.
  Two servers claiming at once never get the same job.
* ``finish_job`` clears the job's ``arguments`` (the input text is not kept after the job).
* ``forget_jobs`` deletes the jobs finished before a time; unfinished jobs are never forgotten.
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from datetime import datetime
from typing import Protocol, runtime_checkable

from ripplemem.errors import InvalidInputError
from ripplemem.records.jobs import Job, JobStatus

__all__ = ["InMemoryJobStore", "JobStore", "check_job", "check_outcome"]


@runtime_checkable
class JobStore(Protocol):
    def add_job(self, job: Job, lease_s: float) -> None: ...
    def job(self, job_id: str) -> Job | None: ...
    def start_job(self, job_id: str, owner: str, at: datetime) -> bool: ...
    def finish_job(
        self, job_id: str, owner: str, status: JobStatus, at: datetime, *,
        result: str | None = None, error_type: str | None = None, error_message: str | None = None,
    ) -> bool: ...
    def renew_jobs(self, owner: str, lease_s: float) -> int: ...
    def claim_jobs(self, owner: str, lease_s: float, limit: int) -> list[Job]: ...
    def forget_jobs(self, finished_before: datetime) -> int: ...


def check_job(job: Job) -> Job:
    """Refuse a job that could never be found or run (checked before any write)."""
    if not isinstance(job, Job):
        raise InvalidInputError(f"add_job takes a Job, got {type(job).__name__}")
    if not job.id or not job.namespace or not job.verb or not job.owner:
        raise InvalidInputError("a job needs an id, a namespace, a verb and an owner")
    if job.finished:
        raise InvalidInputError(f"job {job.id!r} is already {job.status}: add it before it runs")
    return job


def check_outcome(status: JobStatus) -> None:
    """Refuse a finishing status other than done or failed."""
    if status not in ("done", "failed"):
        raise InvalidInputError(f"a job finishes done or failed, not {status!r}")


class InMemoryJobStore:
    """The reference :class:`JobStore`, in a dict (the jobs of one process); it keeps at most
    ``keep`` finished jobs, forgetting the oldest first."""

    def __init__(self, *, keep: int = 10_000) -> None:
        self.keep = keep
        self._lock = threading.Lock()
        self._jobs: dict[str, Job] = {}
        self._leases: dict[str, float] = {}  # job id -> time.monotonic() its lease ends

    def add_job(self, job: Job, lease_s: float) -> None:
        check_job(job)
        with self._lock:
            if job.id in self._jobs:
                raise InvalidInputError(f"a job with id {job.id!r} exists")
            self._jobs[job.id] = job
            self._leases[job.id] = time.monotonic() + lease_s

    def job(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def start_job(self, job_id: str, owner: str, at: datetime) -> bool:
        return self._change(job_id, owner, status="running", started_at=at)

    def finish_job(
        self, job_id: str, owner: str, status: JobStatus, at: datetime, *,
        result: str | None = None, error_type: str | None = None, error_message: str | None = None,
    ) -> bool:
        check_outcome(status)
        finished = self._change(
            job_id, owner, status=status, finished_at=at, arguments="", result=result,
            error_type=error_type, error_message=error_message,
        )
        with self._lock:
            done = [j.id for j in self._jobs.values() if j.finished]  # oldest added first
            for old in done[: max(len(done) - self.keep, 0)]:
                del self._jobs[old], self._leases[old]
        return finished

    def renew_jobs(self, owner: str, lease_s: float) -> int:
        until = time.monotonic() + lease_s
        with self._lock:
            mine = [j.id for j in self._jobs.values() if j.owner == owner and not j.finished]
            for job_id in mine:
                self._leases[job_id] = until
            return len(mine)

    def claim_jobs(self, owner: str, lease_s: float, limit: int) -> list[Job]:
        now = time.monotonic()
        with self._lock:
            lost = sorted(
                (j for j in self._jobs.values() if not j.finished and self._leases[j.id] < now),
                key=lambda j: (j.created_at, j.id),
            )[: max(limit, 0)]
            claimed = []
            for job in lost:
                job = replace(job, owner=owner, status="queued", started_at=None,
                              attempts=job.attempts + 1)
                self._jobs[job.id], self._leases[job.id] = job, now + lease_s
                claimed.append(job)
            return claimed

    def forget_jobs(self, finished_before: datetime) -> int:
        with self._lock:
            old = [
                j.id for j in self._jobs.values()
                if j.finished_at is not None and j.finished_at < finished_before
            ]
            for job_id in old:
                del self._jobs[job_id], self._leases[job_id]
            return len(old)

    def _change(self, job_id: str, owner: str, **changes) -> bool:
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None or job.owner != owner or job.finished:
                return False
            self._jobs[job_id] = replace(job, **changes)
            return True
